#include "spin_runner.hpp"

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace lookback::model::spin {

namespace {

using protocol::Property;

int shell(const std::string& command) {
  return std::system(command.c_str());
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::uint64_t number_before(const std::string& text, const std::string& label) {
  const std::regex re("([0-9]+) " + label);
  std::smatch m;
  return std::regex_search(text, m, re) ? std::stoull(m[1]) : 0;
}

std::uint64_t errors(const std::string& pan) {
  const std::regex re("errors: ([0-9]+)");
  std::smatch m;
  return std::regex_search(pan, m, re) ? std::stoull(m[1]) : 0;
}

std::uint64_t count_lines(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::uint64_t n = 0;
  for (std::string line; std::getline(in, line);)
    n += line.rfind(prefix, 0) == 0;
  return n;
}

// pan must have searched the whole state space, exhaustively.
std::string incomplete(const std::string& pan) {
  if (pan.find("Full statespace search") == std::string::npos)
    return "not a full state-space search";
  if (pan.find("max search depth too small") != std::string::npos) return "search depth too small";
  if (pan.find("out of memory") != std::string::npos) return "pan ran out of memory";
  return {};
}

std::optional<Property> property_named(const std::string& name) {
  for (Property p : {Property::CorrectPrefix, Property::NoTornDescriptor, Property::NoDataRace,
                     Property::MonotoneStatus, Property::Termination, Property::FallbackWaitFree,
                     Property::LeftFold})
    if (name == protocol::to_string(p)) return p;
  return std::nullopt;
}

// Builds pan from the model in `dir` with extra spin -D flags; false on a
// tool failure (the log says why). `safety` leaves out cycle detection.
bool build(const std::filesystem::path& dir, const std::string& defines, const std::string& exe,
           std::string& problem, bool safety = true) {
  const std::string d = "cd '" + dir.string() + "' && ";
  if (shell(d + "spin -o2 " + defines + " -a model.pml > " + exe + ".spin.log 2>&1") != 0) {
    problem = "spin -a failed: " + slurp(dir / (exe + ".spin.log"));
    return false;
  }
  // -DSAFETY: no cycle detection needed (every property is a safety
  // property of this model); -DNOREDUCE: no partial-order reduction, so
  // every interleaving is explored, as the explorer's graphs require.
  const std::string mode = safety ? "-DSAFETY -DPRINTF" : "";
  if (shell(d + "gcc -O0 -w -DNOREDUCE " + mode + " -o " + exe + " pan.c > " + exe +
            ".gcc.log 2>&1") != 0) {
    problem = "gcc pan.c failed: " + slurp(dir / (exe + ".gcc.log"));
    return false;
  }
  return true;
}

std::string pan(const std::filesystem::path& dir, const std::string& exe, const std::string& flags,
                const std::string& out) {
  shell("cd '" + dir.string() + "' && ./" + exe + " " + flags + " -c0 -n -m50000 -w21 > " + out +
        " 2>&1");
  return slurp(dir / out);
}

}  // namespace

std::optional<std::string> unavailable() {
  if (shell("command -v spin > /dev/null 2>&1") != 0) return "spin is not installed";
  if (shell("command -v gcc > /dev/null 2>&1") != 0) return "gcc is not installed";
  return std::nullopt;
}

SpinVerdict run(const PromelaSpec& spec, const std::filesystem::path& dir) {
  SpinVerdict v;
  std::filesystem::create_directories(dir);
  {
    std::ofstream model(dir / "model.pml");
    write_promela(model, spec);
  }
  if (!build(dir, "", "pan", v.problem)) {
    v.complete = false;
    return v;
  }
  // Safety and the progress monitor; invalid end states (halted branches
  // are valid ends, deadlocks are not) in a second run of the same pan.
  const std::string safety = pan(dir, "pan", "-E", "safety.out");
  const std::string ends = pan(dir, "pan", "-A", "ends.out");
  v.assertion_errors = errors(safety);
  v.invalid_end_states = errors(ends);
  v.states = number_before(safety, "states, stored");
  v.transitions = number_before(safety, "transitions");
  const std::regex marker("lookback: violated ([a-z-]+)");
  for (auto it = std::sregex_iterator(safety.begin(), safety.end(), marker);
       it != std::sregex_iterator(); ++it) {
    if (const auto p = property_named((*it)[1]))
      v.asserted.insert(*p);
    else
      v.problem = "unknown marker: " + (*it).str();
  }
  v.violated = v.asserted;
  if (v.invalid_end_states > 0) v.violated.insert(Property::Termination);
  if (safety.find("lookback: exporter error") != std::string::npos) v.problem = "exporter error";
  for (const std::string* run : {&safety, &ends})
    if (const std::string why = incomplete(*run); !why.empty()) {
      v.complete = false;
      v.problem = why;
    }

  // Execution count: the same model with the graph-history ghosts.
  std::string problem;
  if (!build(dir, "-DGRAPH_HISTORY", "panh", problem)) {
    v.complete = false;
    v.problem = problem;
    return v;
  }
  const std::string history = pan(dir, "panh", "-E", "history.out");
  v.outcomes = count_lines(history, "lookback: outcome");
  v.stuck = count_lines(history, "lookback: outcome stuck");
  if (const std::string why = incomplete(history); !why.empty()) {
    v.complete = false;
    v.problem = "history run: " + why;
  }
  return v;
}

std::optional<bool> fair_liveness_violated(const PromelaSpec& spec,
                                           const std::filesystem::path& dir, std::string& problem) {
  std::filesystem::create_directories(dir);
  {
    std::ofstream model(dir / "model.pml");
    write_promela(model, spec);
  }
  if (!build(dir, "-DLIVENESS", "panl", problem, false)) return std::nullopt;
  const std::string out = pan(dir, "panl", "-a -f", "liveness.out");
  if (problem = incomplete(out); !problem.empty()) return std::nullopt;
  if (out.find("acceptance   cycles \t+ (fairness enabled)") == std::string::npos) {
    problem = "pan did not search for fair acceptance cycles";
    return std::nullopt;
  }
  return errors(out) > 0;
}

std::string to_string(const SpinVerdict& v) {
  std::ostringstream os;
  os << "SPIN: ";
  if (v.violated.empty()) os << "pass";
  for (auto it = v.violated.begin(); it != v.violated.end(); ++it)
    os << (it == v.violated.begin() ? "violated " : ", ") << protocol::to_string(*it);
  os << "; " << v.outcomes << " executions (" << v.stuck << " stuck); " << v.states << " states, "
     << v.transitions << " transitions; pan errors " << v.assertion_errors << " assertion, "
     << v.invalid_end_states << " invalid end state";
  if (!v.complete) os << "; INCOMPLETE: " << v.problem;
  return os.str();
}

}  // namespace lookback::model::spin
