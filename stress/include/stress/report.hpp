// The per-GPU stress report: everything one `lookback-stress` run measured,
// as Markdown (for people) and JSON (for tools), with the GPU, driver and
// every parameter, so a run can be compared with another GPU's.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "stress/estimate.hpp"
#include "stress/harness.hpp"
#include "stress/knobs.hpp"

namespace lookback::stress {

// What the model says about a mutant's flaw, from its verdicts under the
// PTX memory model and under sequential consistency (interleavings only).
enum class FlawClass : std::uint8_t {
  Unknown,       // the model was not run
  Interleaving,  // some interleaving (SC) violates a property other than no-data-race
  WeakMemory,    // only a weak-memory execution does (SC: at most no-data-race)
  NotKilled,     // the model does not kill it at all
};
const char* to_string(FlawClass c);
FlawClass classify_flaw(bool ptx_killed, const std::vector<std::string>& sc_violated);

struct MutantResult {
  std::string name;
  std::string expected_property;  // from the catalogue
  std::string model_verdict;      // "killed: <properties>" / "not killed" / "not run"
  bool model_killed = false;
  std::string model_sc_verdict;  // the same, under sequential consistency (interleavings only)
  FlawClass flaw = FlawClass::Unknown;
  bool gpu_killed = false;
  std::string first_knob;          // the first knob (in order) that killed it
  double time_to_first_kill = -1;  // seconds of stress, over the knobs tried in order
  std::string first_failure;       // what the first failing launch showed
  // The pass: every knob that applies, in order, each for a fixed slice and
  // not stopped at a failure (failures per second per knob).
  std::vector<CellResult> tries;
  // If the pass did not kill: further cells, in knob order, each stopped at
  // its first failure.
  std::vector<CellResult> extra_tries;
  // Reproducibility: independent trials (fresh temp storage and seeds, each
  // stopped at its first failure or after trial_cap_seconds) under the knob
  // that killed fastest in the pass.
  std::string trial_knob;
  double trial_cap_seconds = 0;
  std::vector<KillTrial> trials;

  KillEstimate estimate() const { return estimate_kills(trials, 60); }
  // P(kill within 60 s) under trial_knob (0 if not killed).
  double kill_within_60s() const { return estimate().p; }
  // Failure events per second of `knob` in the pass (-1: not run).
  double kills_per_second(const std::string& knob) const;
  // Launches and seconds over the pass and the further cells.
  std::uint64_t launches() const;
  double seconds() const;
  // The knob with the most failures per second in the pass ("" if none failed).
  std::string best_knob() const;
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

// What write_plots produced.
struct PlotOutcome {
  std::vector<std::string> pngs;  // file names, relative to dir
  bool rendered = false;
  std::string note;
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
  PlotOutcome plots;  // see write_plots

  std::uint64_t correct_launches() const;
  std::uint64_t correct_failures() const;
};

void write_markdown(std::ostream& os, const Report& r);
void write_json(std::ostream& os, const Report& r);

// PNG plots (gnuplot): the data files and plots.gp are always written into
// `dir`; the PNGs only where gnuplot runs (`render`: try it). The outcome
// goes into Report::plots before the Markdown is written.
PlotOutcome write_plots(const std::string& dir, const Report& r, bool render);

}  // namespace lookback::stress
