// Running SPIN on an exported model and reading its verdict: the "second
// opinion" half of the SPIN cross-check (spin_crosscheck_test.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "lookback/model/promela_export.hpp"

namespace lookback::model::spin {

struct SpinVerdict {
  std::set<protocol::Property> asserted;  // the model's "lookback: violated" lines
  std::set<protocol::Property> violated;  // asserted, and termination on a deadlock
  std::uint64_t assertion_errors = 0;     // pan's own count (-E run)
  std::uint64_t invalid_end_states = 0;   // pan's own count (-A run): deadlocks
  std::uint64_t states = 0;               // states stored by the safety run
  std::uint64_t transitions = 0;
  std::uint64_t outcomes = 0;  // end states of the history run = executions
  std::uint64_t stuck = 0;     // ... of which some block never finished
  bool complete = true;        // false: pan ran out of depth or memory
  std::string problem;         // why not complete, or a tool failure
};

// Why SPIN cannot run here (spin or gcc missing), or nothing.
std::optional<std::string> unavailable();

// Exports `spec` into `dir` (created), runs spin -a, gcc and pan (exhaustive,
// no partial-order reduction, dead-variable elimination off) and collects
// the verdict.
SpinVerdict run(const PromelaSpec& spec, const std::filesystem::path& dir);

// Termination under fair scheduling checked the LTL way: the model's
// `terminates` formula (<> halt || all finished) under weak fairness
// (pan -a -f). True when SPIN finds a counterexample; nothing (and
// `problem` set) when it could not decide.
std::optional<bool> fair_liveness_violated(const PromelaSpec& spec,
                                           const std::filesystem::path& dir, std::string& problem);

std::string to_string(const SpinVerdict& v);

}  // namespace lookback::model::spin
