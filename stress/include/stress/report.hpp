// The per-GPU stress report: everything one `lookback-stress` run measured,
// as Markdown (for people) and JSON (for tools), with the GPU, driver and
// every parameter, so a run can be compared with another GPU's.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "stress/harness.hpp"
#include "stress/knobs.hpp"

namespace lookback::stress {

struct MutantResult {
  std::string name;
  std::string expected_property;  // from the catalogue
  std::string model_verdict;      // "killed: <properties>" / "not killed" / "not run"
  bool model_killed = false;
  bool gpu_killed = false;
  std::string first_knob;           // the first knob (in order) that killed it
  double time_to_first_kill = -1;   // seconds of stress, over the knobs tried in order
  std::string first_failure;        // what the first failing launch showed
  std::uint64_t rate_launches = 0;  // launches of the rate measurement (first knob)
  std::uint64_t rate_failures = 0;  // ... of which failed
  double rate_seconds = 0;
  double kills_per_second() const {
    return rate_seconds > 0 ? static_cast<double>(rate_failures) / rate_seconds : 0;
  }
  // Probability that 60 s of stress with the first knob kill it, from the
  // measured rate (kills as a Poisson process).
  double kill_within_60s() const;
  std::vector<CellResult> tries;  // every knob tried, in order
};

struct LitmusRow {
  std::string shape;
  std::string weak_outcome;
  bool allowed_by_ptx = false;
  std::uint64_t instances = 0;
  std::uint64_t weak = 0;
  double seconds = 0;
};

struct ThroughputRow {
  std::string variant;
  std::int64_t n = 0;
  double gbps = 0;
};

struct Report {
  std::string command;
  std::string date;
  std::string gpu;
  std::string driver;
  std::string cuda_runtime;
  int sm_count = 0;
  std::uint32_t seed = 0;
  double budget_seconds = 0;
  double elapsed_seconds = 0;
  std::uint32_t watchdog_rounds = 0;
  std::vector<Knob> knobs;
  std::vector<CellResult> correct;  // production variants x knobs
  std::vector<MutantResult> mutants;
  std::vector<LitmusRow> litmus;
  std::string litmus_error;  // why the litmus probes did not run, if they did not
  std::vector<ThroughputRow> throughput;

  std::uint64_t correct_launches() const;
  std::uint64_t correct_failures() const;
};

void write_markdown(std::ostream& os, const Report& r);
void write_json(std::ostream& os, const Report& r);

}  // namespace lookback::stress
