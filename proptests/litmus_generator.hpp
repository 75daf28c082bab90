// A RapidCheck generator of small random litmus programs: 2 or 3 threads of
// at most 4 accesses each over 2 locations, with random orders, scopes,
// CTAs, fences, RMWs and dependencies.
//
// RapidCheck shrinks the plain `ProgramSpec` description, so a failing case
// shrinks toward fewer threads and accesses, weaker orders, .gpu scope, no
// fences and no dependencies; `build` turns the description into a valid
// LitmusTest, which prints (showValue) as a litmus file.
#pragma once

#include <rapidcheck.h>

#include <ostream>
#include <vector>

#include "lookback/model/litmus_print.hpp"
#include "lookback/model/litmus_test.hpp"

namespace lookback::model {

// One access, and the fence (if any) placed just before it. Every field
// shrinks toward 0, its simplest value.
struct AccessSpec {
  int kind = 0;          // 0 load, 1 store, 2 RMW
  int order = 0;         // index into the kind's orders, weakest first
  int scope = 0;         // 0 .gpu, 1 .cta, 2 .sys
  int loc = 0;           // 0 x, 1 y
  int rmw = 0;           // 0 add, 1 exch, 2 cas
  int cas_expected = 0;  // CAS compares with this value
  int fence = 0;         // before the access: 0 none, 1 fence.acq_rel, 2 fence.sc
  int fence_scope = 0;   // as `scope`
  int dep = 0;           // 0 none; k: depends on the thread's (k-1 mod reads)-th read
  bool data = false;     // a store writes the register it depends on
};

struct ThreadSpec {
  int cta = 0;
  std::vector<AccessSpec> accesses;
};

struct ProgramSpec {
  std::vector<ThreadSpec> threads;
};

// The litmus test a description stands for: fresh registers r0, r1, ... per
// thread, distinct stored values per location, condition `exists (true)`.
LitmusTest build(const ProgramSpec& spec);

rc::Gen<LitmusTest> gen_litmus_test();

// RapidCheck prints generated tests as litmus files.
void showValue(const LitmusTest& t, std::ostream& os);

}  // namespace lookback::model
