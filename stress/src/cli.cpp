#include "stress/cli.hpp"

#include <algorithm>

#include "lookback/protocol/catalogue.hpp"

namespace lookback::stress {

std::string usage() {
  return "usage: lookback-stress --report DIR [options]\n"
         "  --report DIR       write DIR/report.md, DIR/report.json and plots (required)\n"
         "  --budget SECONDS   total time budget (default 300)\n"
         "  --seed N           random seed (default 1)\n"
         "  --watchdog ROUNDS  wait-loop bound of the stress kernels (default 200000)\n"
         "  --only NAME        run only this catalogue entry (repeatable)\n"
         "  --knob NAME        run only this knob (repeatable); knobs: " +
         knob_names(default_knobs()) +
         "\n"
         "  --trials N         independent trials per killed mutant, at most (default 40)\n"
         "  --no-model         do not run the model checker for the mutant verdicts\n"
         "  --no-plots         do not run gnuplot (the plot data and script are still written)\n"
         "Budget split: 50% correct variants, 35% mutants, 10% litmus probes, the rest "
         "throughput.\n";
}

namespace {

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

}  // namespace

Args parse_args(const std::vector<std::string>& argv) {
  Args a;
  a.command = "lookback-stress";
  for (std::size_t i = 1; i < argv.size(); ++i)
    a.command += " " + argv[i];
  const auto knobs = default_knobs();
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& f = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argv.size()) throw UsageError(f + " needs a value");
      return argv[++i];
    };
    if (f == "--report") {
      a.report = value();
    } else if (f == "--budget") {
      a.budget = parse_number(f, value(), 1, 86400);
    } else if (f == "--seed") {
      a.seed = static_cast<std::uint32_t>(parse_number(f, value(), 0, 4294967295.0));
    } else if (f == "--watchdog") {
      a.watchdog = static_cast<std::uint32_t>(parse_number(f, value(), 1000, 1e9));
    } else if (f == "--only") {
      const std::string name = value();
      if (!protocol::find_variant(name))
        throw UsageError("no catalogue entry named '" + name + "'");
      a.only.push_back(name);
    } else if (f == "--knob") {
      const std::string name = value();
      if (!find_knob(knobs, name))
        throw UsageError("no knob named '" + name + "' (knobs: " + knob_names(knobs) + ")");
      if (std::find(a.knobs.begin(), a.knobs.end(), name) == a.knobs.end()) a.knobs.push_back(name);
    } else if (f == "--trials") {
      a.max_trials = static_cast<int>(parse_number(f, value(), 1, 100000));
    } else if (f == "--no-model") {
      a.model = false;
    } else if (f == "--no-plots") {
      a.plots = false;
    } else if (f == "--help" || f == "-h") {
      a.help = true;
    } else {
      throw UsageError("unknown option '" + f + "'");
    }
  }
  if (a.report.empty() && !a.help) throw UsageError("--report DIR is required");
  return a;
}

std::vector<Knob> selected_knobs(const std::vector<std::string>& names) {
  std::vector<Knob> out;
  for (auto& k : default_knobs())
    if (names.empty() || std::find(names.begin(), names.end(), k.name) != names.end())
      out.push_back(std::move(k));
  return out;
}

}  // namespace lookback::stress
