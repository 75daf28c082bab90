// lookback-stress: what this GPU lets through. Runs the correct variants
// under every knob (must be 0 failures), the mutant kill matrix with the
// reproducibility of each kill, the litmus probes and a throughput check, and
// writes DIR/report.md, DIR/report.json and the plots. Exit codes: 0 every correct variant clean, 1
// a correct variant failed (or the run itself failed: a CUDA error), 2 usage error or no usable
// GPU.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "lookback/model/verdict.hpp"
#include "lookback/protocol/catalogue.hpp"
#include "stress/cli.hpp"
#include "stress/entries.hpp"
#include "stress/harness.hpp"
#include "stress/litmus_probe.hpp"
#include "stress/report.hpp"

namespace {

using namespace lookback;
using namespace lookback::stress;

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return buf;
}

std::string driver_version() {
  std::string out;
  if (FILE* p =
          popen("nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null", "r")) {
    char buf[128];
    while (fgets(buf, sizeof buf, p))
      out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
    out.pop_back();
  if (auto nl = out.find('\n'); nl != std::string::npos) out.resize(nl);
  int v = 0;
  cudaDriverGetVersion(&v);
  const std::string api = "CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  return out.empty() ? api : out + " (" + api + ")";
}

std::string runtime_version() {
  int v = 0;
  cudaRuntimeGetVersion(&v);
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// The model's verdicts on each mutant, computed on the CPU while the GPU
// works: under the PTX model (the verdict) and under sequential consistency
// (interleavings only: what classifies the flaw).
struct ModelVerdict {
  bool killed = false;  // its expected property violated (PTX)
  std::string text;     // "killed: <properties>" / "not killed"
  std::string sc_text;
  std::vector<std::string> sc_violated;
};

std::string verdict_text(const std::vector<protocol::Property>& violated) {
  std::string text;
  for (auto p : violated)
    text += (text.empty() ? "" : ", ") + std::string(protocol::to_string(p));
  return text.empty() ? "not killed" : "killed: " + text;
}

std::map<std::string, ModelVerdict> model_verdicts(const std::vector<std::string>& names) {
  std::map<std::string, ModelVerdict> out;
  for (const auto& name : names) {
    const auto v = protocol::find_variant(name);
    ModelVerdict mv;
    const model::CheckRun ptx = model::check_variant(*v, model::Settings{});
    mv.killed = ptx.as_expected();
    mv.text = verdict_text(ptx.violated());
    model::Settings sc;
    sc.model = model::MemoryModel::Sc;
    const model::CheckRun interleavings = model::check_variant(*v, sc);
    mv.sc_text = verdict_text(interleavings.violated());
    for (auto p : interleavings.violated())
      mv.sc_violated.push_back(protocol::to_string(p));
    out[name] = std::move(mv);
  }
  return out;
}

bool selected(const Args& a, const std::string& name) {
  if (a.only.empty()) return true;
  for (const auto& o : a.only)
    if (o == name) return true;
  return false;
}

int run(const Args& args) {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::string why;
  if (!gpu_available(&why)) {
    std::cerr << "lookback-stress: " << why << "\n";
    return 2;
  }
  std::filesystem::create_directories(args.report);

  HarnessConfig hc;
  hc.seed = args.seed;
  hc.watchdog_rounds = args.watchdog;
  Harness harness(hc);
  const BudgetSplit split;

  Report r;
  r.command = args.command;
  r.date = now_utc();
  r.gpu = harness.device_name();
  r.sm_count = harness.sm_count();
  r.driver = driver_version();
  r.cuda_runtime = runtime_version();
  r.seed = args.seed;
  r.budget_seconds = args.budget;
  r.watchdog_rounds = args.watchdog;
  r.knobs = selected_knobs(args.knobs);

  std::vector<EntryRunner> production, mutants;
  for (const auto& e : all_entries()) {
    if (!selected(args, e.name)) continue;
    (protocol::kCatalogue[e.index].kind == protocol::Kind::Production ? production : mutants)
        .push_back(e);
  }
  std::vector<std::string> mutant_names;
  for (const auto& m : mutants)
    mutant_names.push_back(m.name);
  std::future<std::map<std::string, ModelVerdict>> verdicts;
  if (args.model) verdicts = std::async(std::launch::async, model_verdicts, mutant_names);

  std::cout << "lookback-stress on " << r.gpu << " (" << r.sm_count << " SMs), budget "
            << args.budget << " s, seed " << args.seed << ", knobs: " << knob_names(r.knobs)
            << "\n";

  auto applicable = [&](const EntryRunner& e) {
    std::vector<const Knob*> out;
    for (const auto& k : r.knobs)
      if (k.applies_to(e.fallback)) out.push_back(&k);
    return out;
  };

  // 1. Correct variants under every knob that applies.
  const double correct_budget =
      args.budget * (mutants.empty() ? split.correct + split.mutants : split.correct);
  std::size_t cells = 0;
  for (const auto& e : production)
    cells += applicable(e).size();
  for (const auto& e : production) {
    for (const Knob* k : applicable(e)) {
      CellResult c =
          harness.run(e, *k, correct_budget / static_cast<double>(cells), UINT64_MAX, false);
      std::printf("  correct  %-18s %-18s %9llu launches  %s\n", e.name, k->name.c_str(),
                  static_cast<unsigned long long>(c.launches),
                  c.failures() ? ("FAILED: " + c.first_failure).c_str() : "ok");
      std::fflush(stdout);
      r.correct.push_back(std::move(c));
    }
  }

  // 2. Mutant kill matrix: a pass over the knobs (half of a mutant's share),
  // then, if killed, independent trials under the fastest knob; if not, a
  // second pass that stops at the first failure.
  const double mutant_budget = production.empty() ? args.budget * (split.correct + split.mutants)
                                                  : args.budget * split.mutants;
  const double mutants_start = elapsed();
  for (std::size_t mi = 0; mi < mutants.size(); ++mi) {
    const EntryRunner& e = mutants[mi];
    const double share = std::max(1.0, (mutant_budget - (elapsed() - mutants_start)) /
                                           static_cast<double>(mutants.size() - mi));
    const double m_start = elapsed();
    auto left = [&] { return share - (elapsed() - m_start); };
    MutantResult m;
    m.name = e.name;
    m.expected_property = protocol::to_string(protocol::kCatalogue[e.index].expected);
    const auto knobs = applicable(e);
    double spent = 0;  // stress seconds over the cells so far
    auto record = [&](const CellResult& c) {
      if (c.failures() > 0 && !m.gpu_killed) {
        m.gpu_killed = true;
        m.first_knob = c.knob;
        m.time_to_first_kill = spent + c.first_failure_seconds;
        m.first_failure = c.first_failure;
      }
      spent += c.seconds;
    };
    const double slice = share * 0.5 / static_cast<double>(knobs.size());
    for (const Knob* k : knobs) {
      CellResult c = harness.run(e, *k, slice, UINT64_MAX, false);
      record(c);
      m.tries.push_back(std::move(c));
    }
    if (!m.gpu_killed) {
      const double slice2 = std::max(0.05, left() / static_cast<double>(knobs.size()));
      for (const Knob* k : knobs) {
        CellResult c = harness.run(e, *k, slice2, UINT64_MAX, true);
        record(c);
        m.extra_tries.push_back(std::move(c));
        if (m.gpu_killed) break;
      }
    }
    if (m.gpu_killed) {
      m.trial_knob = m.best_knob().empty() ? m.first_knob : m.best_knob();
      const Knob& k = *find_knob(r.knobs, m.trial_knob);
      const double trial_time = std::max(1.0, left());
      m.trial_cap_seconds = std::clamp(trial_time / 5, 0.25, 10.0);
      const double trials_start = elapsed();
      while (static_cast<int>(m.trials.size()) < args.max_trials) {
        const double remaining = trial_time - (elapsed() - trials_start);
        if (remaining < 0.05) break;
        const CellResult c =
            harness.run(e, k, std::min(m.trial_cap_seconds, remaining), UINT64_MAX, true);
        const bool killed = c.failures() > 0;
        m.trials.push_back({killed, killed ? c.first_failure_seconds : c.seconds, c.launches});
      }
    }
    const KillEstimate est = m.estimate();
    if (m.gpu_killed)
      std::printf(
          "  mutant   %-30s killed by %s after %.4f s; trials under %s: %d/%d killed, "
          "%.3g kills/s, P(kill in 60 s) = %.3f [%.3f, %.3f]\n",
          e.name, m.first_knob.c_str(), m.time_to_first_kill, m.trial_knob.c_str(), est.killed,
          est.trials, est.rate, est.p, est.p_low, est.p_high);
    else
      std::printf("  mutant   %-30s not killed (%llu launches, %.1f s)\n", e.name,
                  static_cast<unsigned long long>(m.launches()), m.seconds());
    std::fflush(stdout);
    r.mutants.push_back(std::move(m));
  }

  // 3. Litmus probes.
  try {
    const auto shapes = all_litmus_shapes();
    for (auto shape : shapes) {
      LitmusProbeConfig lc;
      lc.seed = args.seed;
      lc.budget_seconds = args.budget * split.litmus / static_cast<double>(shapes.size());
      lc.instances = 100'000'000;  // as many as the budget allows
      const LitmusProbeResult l = run_litmus_probe(shape, lc);
      r.litmus.push_back(
          {l.name, l.weak_outcome, l.weak_allowed_by_ptx, l.instances, l.weak, l.seconds});
      std::printf("  litmus   %-20s %12llu instances  %llu weak\n", l.name.c_str(),
                  static_cast<unsigned long long>(l.instances),
                  static_cast<unsigned long long>(l.weak));
    }
  } catch (const std::exception& ex) {
    r.litmus_error = ex.what();
    std::cerr << ex.what() << "\n";
  }

  // 4. Throughput of each production variant.
  for (const auto& e : production) {
    const std::int64_t n = std::int64_t{1} << 23;
    r.throughput.push_back({e.name, n, harness.throughput(e, n, 20)});
  }

  if (args.model) {
    const auto v = verdicts.get();
    for (auto& m : r.mutants) {
      const ModelVerdict& mv = v.at(m.name);
      m.model_killed = mv.killed;
      m.model_verdict = mv.text;
      m.model_sc_verdict = mv.sc_text;
      m.flaw = classify_flaw(mv.killed, mv.sc_violated);
    }
  } else {
    for (auto& m : r.mutants)
      m.model_verdict = "not run";
  }
  r.elapsed_seconds = elapsed();

  r.plots = write_plots(args.report, r, args.plots);
  if (!r.plots.note.empty()) std::cout << r.plots.note << "\n";
  {
    std::ofstream md(std::filesystem::path(args.report) / "report.md");
    write_markdown(md, r);
    std::ofstream js(std::filesystem::path(args.report) / "report.json");
    write_json(js, r);
    if (!md || !js)
      throw std::runtime_error("lookback-stress: cannot write the report in " + args.report);
  }
  std::cout << "correct variants: " << r.correct_launches() << " launches, " << r.correct_failures()
            << " failures; report in " << args.report << "/report.md\n";
  return r.correct_failures() == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse_args(std::vector<std::string>(argv, argv + argc));
    if (args.help) {
      std::cout << usage();
      return 0;
    }
    return run(args);
  } catch (const UsageError& e) {
    std::cerr << "lookback-stress: " << e.what() << "\n" << usage();
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
