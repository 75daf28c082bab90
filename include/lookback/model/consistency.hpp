// Memory-model consistency of an execution graph.
//
// PTX follows the axioms of the executable PTX model (Lustig et al., ASPLOS
// 2019): coherence, fence-SC order, atomicity, no-thin-air, SC per location
// and causality, with morally-strong relations and scopes. RC11 (Lahav et
// al., PLDI 2017) and SC (interleavings) are there for comparison.
//
// Simplification, stated once: coherence order is total per location. PTX
// leaves weak writes of different threads unordered; they only differ where
// weak writes race, which `no-data-race` reports anyway.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "lookback/model/graph.hpp"
#include "lookback/model/relation.hpp"

namespace lookback::model {

enum class MemoryModel : std::uint8_t { Ptx, Rc11, Sc };
const char* to_string(MemoryModel m);

struct Verdict {
  bool consistent = true;
  const char* axiom = nullptr;  // the first violated axiom
};

// The relations of one graph under one model, computed once.
class Derived {
 public:
  Derived(const ExecutionGraph& g, MemoryModel m);

  // Checks the model's axioms. `thin_air` adds acyclic(rf | dep) (PTX) or
  // acyclic(po | rf) (RC11, SC); graphs built in program/reads-from order
  // satisfy it by construction.
  Verdict check(bool thin_air) const;

  // The order under which conflicting accesses must be ordered to not race:
  // PTX causality order, or RC11 happens-before.
  bool ordered(int a, int b) const { return order_.has(a, b) || order_.has(b, a); }
  // Morally strong (PTX); under RC11/SC: both atomic.
  bool strong(int a, int b) const;

  // A data race involving event `e` (or any pair when e < 0).
  std::optional<std::pair<int, int>> race(int e = -1) const;

 private:
  const ExecutionGraph& g_;
  MemoryModel m_;
  int n_;
  Relation po_, po_loc_, rf_, co_, fr_, order_;
  Relation ptx_cause_base_;  // PTX only: cause_base (order_ is cause)
};

}  // namespace lookback::model
