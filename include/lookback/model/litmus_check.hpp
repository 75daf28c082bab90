// Checking a litmus test under a memory model: every candidate execution
// (litmus_candidates.hpp) is kept when Derived::check(thin_air = true)
// accepts it; each kept execution's final state is an allowed outcome.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "lookback/model/graph.hpp"
#include "lookback/model/litmus_test.hpp"

namespace lookback::model {

// One consistent execution, with every read's and write's value filled in.
struct LitmusExecution {
  ExecutionGraph graph;
  Outcome outcome;
};

struct LitmusResult {
  MemoryModel model = MemoryModel::Ptx;
  std::uint64_t candidates = 0;  // candidate executions given to the axioms
  std::uint64_t consistent = 0;  // of which the model allows
  std::set<Outcome> outcomes;    // final states of the consistent ones
  bool target_allowed = false;   // some consistent execution ends in the condition's target
  std::optional<LitmusExecution> witness;  // one such execution
  double seconds = 0;
};

// Called about once a second while a check runs: what is being counted
// ("candidates", or "choices of x" while location x's choices are enumerated
// before its filter), how many so far, how many in all.
using LitmusProgress =
    std::function<void(const std::string& what, std::uint64_t done, std::uint64_t total)>;

// `prune = false` gives every candidate to Derived (see for_each_candidate).
LitmusResult check_litmus(const LitmusTest& test, MemoryModel model, bool prune = true,
                          const LitmusProgress& on_progress = {});

// Computes every read's and write's value of a candidate from its
// reads-from choices, and returns the final state. Values flow along rf and
// register operands, which an execution consistent under any of the models
// keeps acyclic (no-thin-air); a cycle throws std::logic_error.
Outcome evaluate(const LitmusTest& test, ExecutionGraph& g);

}  // namespace lookback::model
