// lookback-stress: what this GPU lets through. Runs the correct variants
// under every knob (must be 0 failures), the mutant kill matrix, the litmus
// probes and a throughput check, and writes DIR/report.md and
// DIR/report.json. Exit codes: 0 every correct variant clean, 1 a correct
// variant failed (or the run itself failed: a CUDA error), 2 usage error or
// no usable GPU.
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
#include "stress/entries.hpp"
#include "stress/harness.hpp"
#include "stress/litmus_probe.hpp"
#include "stress/report.hpp"

namespace {

using namespace lookback;
using namespace lookback::stress;

constexpr const char* kUsage =
    "usage: lookback-stress --report DIR [options]\n"
    "  --report DIR       write DIR/report.md and DIR/report.json (required)\n"
    "  --budget SECONDS   total time budget (default 300)\n"
    "  --seed N           random seed (default 1)\n"
    "  --watchdog ROUNDS  wait-loop bound of the stress kernels (default 200000)\n"
    "  --only NAME        run only this catalogue entry (repeatable)\n"
    "  --no-model         do not run the model checker for the mutant verdicts\n"
    "Budget split: 55% correct variants, 30% mutants, 10% litmus probes, the rest "
    "throughput.\n";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Args {
  std::string report;
  double budget = 300;
  std::uint32_t seed = 1;
  std::uint32_t watchdog = 200000;
  std::vector<std::string> only;
  bool model = true;
  std::string command;
};

double parse_number(const std::string& flag, const std::string& v, double lo, double hi) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (...) {
    used = 0;
  }
  if (used != v.size() || !(x >= lo && x <= hi))
    throw UsageError(flag + " wants a number in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + v + "'");
  return x;
}

Args parse(int argc, char** argv) {
  Args a;
  a.command = "lookback-stress";
  for (int i = 1; i < argc; ++i)
    a.command += std::string(" ") + argv[i];
  for (int i = 1; i < argc; ++i) {
    const std::string f = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(f + " needs a value");
      return argv[++i];
    };
    if (f == "--report")
      a.report = value();
    else if (f == "--budget")
      a.budget = parse_number(f, value(), 1, 86400);
    else if (f == "--seed")
      a.seed = static_cast<std::uint32_t>(parse_number(f, value(), 0, 4294967295.0));
    else if (f == "--watchdog")
      a.watchdog = static_cast<std::uint32_t>(parse_number(f, value(), 1000, 1e9));
    else if (f == "--only") {
      const std::string name = value();
      if (!protocol::find_variant(name))
        throw UsageError("no catalogue entry named '" + name + "'");
      a.only.push_back(name);
    } else if (f == "--no-model")
      a.model = false;
    else if (f == "--help" || f == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else
      throw UsageError("unknown option '" + f + "'");
  }
  if (a.report.empty()) throw UsageError("--report DIR is required");
  return a;
}

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

// The model's verdict on each mutant, computed on the CPU while the GPU works.
std::map<std::string, std::pair<bool, std::string>> model_verdicts(
    const std::vector<std::string>& names) {
  std::map<std::string, std::pair<bool, std::string>> out;
  for (const auto& name : names) {
    const auto v = protocol::find_variant(name);
    const model::CheckRun run = model::check_variant(*v, model::Settings{});
    std::string text;
    for (auto p : run.violated())
      text += (text.empty() ? "" : ", ") + std::string(protocol::to_string(p));
    out[name] = {run.as_expected(), text.empty() ? "not killed" : "killed: " + text};
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
  r.knobs = default_knobs();

  std::vector<EntryRunner> production, mutants;
  for (const auto& e : all_entries()) {
    if (!selected(args, e.name)) continue;
    (protocol::kCatalogue[e.index].kind == protocol::Kind::Production ? production : mutants)
        .push_back(e);
  }
  std::vector<std::string> mutant_names;
  for (const auto& m : mutants)
    mutant_names.push_back(m.name);
  std::future<std::map<std::string, std::pair<bool, std::string>>> verdicts;
  if (args.model) verdicts = std::async(std::launch::async, model_verdicts, mutant_names);

  std::cout << "lookback-stress on " << r.gpu << " (" << r.sm_count << " SMs), budget "
            << args.budget << " s, seed " << args.seed << "\n";

  // 1. Correct variants under every knob.
  const double correct_budget = args.budget * (mutants.empty() ? 0.85 : 0.55);
  const std::size_t cells = production.size() * r.knobs.size();
  for (const auto& e : production) {
    for (const auto& k : r.knobs) {
      CellResult c =
          harness.run(e, k, correct_budget / static_cast<double>(cells), UINT64_MAX, false);
      std::printf("  correct  %-18s %-16s %9llu launches  %s\n", e.name, k.name.c_str(),
                  static_cast<unsigned long long>(c.launches),
                  c.failures() ? ("FAILED: " + c.first_failure).c_str() : "ok");
      std::fflush(stdout);
      r.correct.push_back(std::move(c));
    }
  }

  // 2. Mutant kill matrix.
  const double per_mutant =
      mutants.empty() ? 0 : args.budget * 0.30 / static_cast<double>(mutants.size());
  for (const auto& e : mutants) {
    MutantResult m;
    m.name = e.name;
    m.expected_property = protocol::to_string(protocol::kCatalogue[e.index].expected);
    const double slice = per_mutant * 0.6 / static_cast<double>(r.knobs.size());
    double spent = 0;
    for (const auto& k : r.knobs) {
      CellResult c = harness.run(e, k, slice, UINT64_MAX, true);
      const bool killed = c.failures() > 0;
      if (killed) {
        m.gpu_killed = true;
        m.first_knob = k.name;
        m.time_to_first_kill = spent + c.first_failure_seconds;
        m.first_failure = c.first_failure;
      }
      spent += c.seconds;
      m.tries.push_back(std::move(c));
      if (killed) break;
    }
    if (m.gpu_killed) {
      // The rate: the first killing knob for the rest of this mutant's time.
      const Knob& k = *std::find_if(r.knobs.begin(), r.knobs.end(),
                                    [&](const Knob& x) { return x.name == m.first_knob; });
      const CellResult c = harness.run(e, k, std::max(1.0, per_mutant - spent), UINT64_MAX, false);
      m.rate_launches = c.launches;
      m.rate_failures = c.failures();
      m.rate_seconds = c.seconds;
    }
    std::printf(
        "  mutant   %-30s %s%s\n", e.name, m.gpu_killed ? "killed by " : "not killed",
        m.gpu_killed
            ? (m.first_knob + " after " + std::to_string(m.time_to_first_kill) + " s").c_str()
            : "");
    std::fflush(stdout);
    r.mutants.push_back(std::move(m));
  }

  // 3. Litmus probes.
  try {
    const auto shapes = all_litmus_shapes();
    for (auto shape : shapes) {
      LitmusProbeConfig lc;
      lc.seed = args.seed;
      lc.budget_seconds = args.budget * 0.10 / static_cast<double>(shapes.size());
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
      const auto it = v.find(m.name);
      m.model_killed = it->second.first;
      m.model_verdict = it->second.second;
    }
  } else {
    for (auto& m : r.mutants)
      m.model_verdict = "not run";
  }
  r.elapsed_seconds = elapsed();

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
    return run(parse(argc, argv));
  } catch (const UsageError& e) {
    std::cerr << "lookback-stress: " << e.what() << "\n" << kUsage;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
