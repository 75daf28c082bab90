// Every candidate execution of a litmus program.
//
// A litmus program is straight-line, so its events are fixed: one per
// instruction. A candidate execution picks, for every read, the write it
// reads from (the initial value or any write to the same location but
// itself), a total coherence order of each location's writes, and (PTX
// only) an order of the fence.sc events. Reads-from edges may point forward
// in program order, so load buffering is covered, which the explorer's
// porf-order graph building is not.
//
// Exact prunings keep the count small, all of them axioms (or direct
// consequences of axioms) that hold location by location:
//   - per location, only coherence orders that keep each thread's writes in
//     program order are built (coherence against po-loc is a cycle under
//     every model);
//   - per location, the choices must pass the model's coherence condition
//     on that location alone: PTX sc-per-location and atomicity; SC
//     acyclic(po-loc | com); RC11 irreflexive(po-loc ; eco?) and, for RMWs,
//     irreflexive(eco);
//   - fence.sc orders against program order are skipped: po ; sc back to the
//     same fence is a causality cycle (PTX cause_base includes po;sc;po), and
//     RC11 and SC do not use the order at all, so they get just one.
// Everything else is left to Derived::check.
#pragma once

#include <cstdint>
#include <functional>

#include "lookback/model/graph.hpp"
#include "lookback/model/litmus_test.hpp"

namespace lookback::model {

// Refuse tests whose candidate count is beyond reach: candidates are checked
// at roughly 60,000 a second (a 13-event test on one core), so the largest
// test allowed takes about a minute, not hours.
inline constexpr std::uint64_t kMaxLitmusCandidates = 4'000'000;
// Each location's reads-from and coherence choices are enumerated before its
// filter drops most of them (four threads of an RMW and a load on one
// location: 9.4M choices, 576 candidates); their sum over the locations is
// bounded too (they are filtered at 0.3 to 10 million a second: 25M take
// from seconds to about a minute).
inline constexpr std::uint64_t kMaxLocationChoices = 25'000'000;

// The events of thread `t`, in program order, rf and values unset.
std::vector<Event> litmus_events(const LitmusTest& test, int t);

// What for_each_candidate tells besides the candidates (each optional).
struct CandidateHooks {
  // Once, before the first visit: the number of candidates.
  std::function<void(std::uint64_t total)> on_total;
  // Every 65,536 choices of one location enumerated before its filter (up to
  // kMaxLocationChoices over all locations): the location, how many so far,
  // how many in all.
  std::function<void(Loc, std::uint64_t done, std::uint64_t total)> on_choices;
};

// Calls `visit` once per candidate (rf set, values not computed). Throws
// std::runtime_error when there would be more than kMaxLitmusCandidates, or
// more than kMaxLocationChoices to filter over all locations. `prune = false` skips the
// per-location filter (tests use it to check Derived alone).
void for_each_candidate(const LitmusTest& test, MemoryModel model,
                        const std::function<void(const ExecutionGraph&)>& visit, bool prune = true,
                        const CandidateHooks& hooks = {});

}  // namespace lookback::model
