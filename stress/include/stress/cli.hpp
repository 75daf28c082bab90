// The command line of lookback-stress, parsed without touching the GPU (so
// the CPU tests can check it).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "stress/knobs.hpp"

namespace lookback::stress {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Args {
  std::string report;
  double budget = 300;
  std::uint32_t seed = 1;
  std::uint32_t watchdog = 200000;
  std::vector<std::string> only;   // catalogue entries (empty: all)
  std::vector<std::string> knobs;  // knob names (empty: all), in default_knobs() order
  int max_trials = 40;             // independent trials per killed mutant
  bool model = true;
  bool plots = true;
  bool help = false;
  std::string command;  // the command line as given, for the report
};

// Usage text (names every knob).
std::string usage();

// argv[0] is the program name. Throws UsageError with a one-line reason.
Args parse_args(const std::vector<std::string>& argv);

// default_knobs(), restricted to `names` (empty: all), in default order.
std::vector<Knob> selected_knobs(const std::vector<std::string>& names);

// Shares of the budget: correct variants, mutants, litmus probes; the rest
// is the throughput check.
struct BudgetSplit {
  double correct = 0.50, mutants = 0.35, litmus = 0.10;
};

}  // namespace lookback::stress
