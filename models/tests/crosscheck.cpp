#include "crosscheck.hpp"

#include <sstream>

#include "lookback/model/explorer.hpp"

namespace lookback::model::spin {

using namespace protocol;

namespace {

std::string names(const std::set<Property>& ps) {
  if (ps.empty()) return "pass";
  std::string s = "violated ";
  for (auto it = ps.begin(); it != ps.end(); ++it)
    s += (it == ps.begin() ? "" : ", ") + std::string(protocol::to_string(*it));
  return s;
}

}  // namespace

Settings settings_for(const PromelaSpec& spec) {
  Settings s;
  s.tiles = spec.instance.tiles;
  s.window = spec.instance.window;
  s.launches = spec.instance.launches;
  s.layout = spec.instance.layout;
  if (spec.instance.resident > 0) s.resident = spec.instance.resident;
  // check_variant takes --wrap-launch only where there is a choice: two
  // launches under the epoch reset (elsewhere it is 0, the only run).
  if (spec.instance.launches == 2 && spec.protocol.reset == protocol::Reset::Epoch)
    s.wrap_launch = spec.instance.wrap_launch;
  s.model = MemoryModel::Sc;
  s.progress = spec.progress;
  s.tile_id = spec.protocol.tile_id;
  if (protocol::has_second_pass(spec.protocol)) s.held_windows = spec.protocol.held_windows;
  return s;
}

CheckerVerdict check(const NamedVariant& v, const PromelaSpec& spec) {
  CheckerVerdict out;
  const Settings settings = settings_for(spec);
  const CheckRun r = check_variant(v, settings);
  for (Property p : r.violated())
    out.violated.insert(p);
  out.complete = r.complete() && r.runs.size() == 1;

  const System sys = build_protocol_system(overridden_protocol(v, settings), spec.instance);
  ExploreOptions opt;
  opt.model = MemoryModel::Sc;
  opt.progress = spec.progress;
  opt.symmetry = false;
  opt.check_wait_free = v.claims == Progress::Unfair;  // as check_variant decides it
  const ExploreResult e = explore(sys, opt);
  for (const auto& [prop, violation] : e.violations)
    out.violated_unreduced.insert(prop);
  out.executions = e.executions;
  out.stuck = e.stuck;
  out.graphs = e.graphs;
  out.complete = out.complete && e.complete;
  return out;
}

std::set<Property> spin_decidable(const std::set<Property>& all) {
  std::set<Property> out = all;
  out.erase(Property::NoDataRace);
  return out;
}

std::vector<std::string> disagreements(const SpinVerdict& spin, const CheckerVerdict& checker) {
  std::vector<std::string> out;
  if (!spin.complete) out.push_back("SPIN did not finish: " + spin.problem);
  if (!checker.complete) out.push_back("the explorer did not finish");
  if (!spin.problem.empty() && spin.complete) out.push_back("SPIN run problem: " + spin.problem);
  if (spin_decidable(checker.violated) != spin.violated)
    out.push_back("violated properties differ: explorer " +
                  names(spin_decidable(checker.violated)) + ", SPIN " + names(spin.violated));
  if (checker.violated != checker.violated_unreduced)
    out.push_back("the explorer's verdict changes without symmetry reduction: " +
                  names(checker.violated) + " vs " + names(checker.violated_unreduced));
  // SPIN's own error count must match what the model's markers say.
  if (spin.asserted.empty() != (spin.assertion_errors == 0))
    out.push_back("pan's assertion count (" + std::to_string(spin.assertion_errors) +
                  ") disagrees with the model's violation markers");
  if (!checker.violated.count(Property::NoDataRace)) {
    if (spin.outcomes != checker.executions || spin.stuck != checker.stuck)
      out.push_back("execution counts differ: explorer " + std::to_string(checker.executions) +
                    " (" + std::to_string(checker.stuck) + " stuck), SPIN " +
                    std::to_string(spin.outcomes) + " (" + std::to_string(spin.stuck) + " stuck)");
  }
  return out;
}

std::string to_string(const CheckerVerdict& v) {
  std::ostringstream os;
  os << "explorer (sc): " << names(v.violated) << "; " << v.executions << " executions (" << v.stuck
     << " stuck), " << v.graphs << " graphs without symmetry reduction";
  if (!v.complete) os << "; INCOMPLETE";
  return os.str();
}

}  // namespace lookback::model::spin
