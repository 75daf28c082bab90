#include "lookback/model/litmus_report.hpp"

#include <iomanip>
#include <sstream>

#include "lookback/model/litmus_print.hpp"

namespace lookback::model {

namespace {

std::string who(const LitmusTest& test, const ExecutionGraph& g, int id) {
  if (id == kInit) return "init";
  const Event& e = g.event(id);
  return test.threads[e.thread].name + " #" + std::to_string(e.index);
}

// What the event did: "reads 1 from P0 #1", "writes 2", or both for an RMW.
std::string effect(const LitmusTest& test, const ExecutionGraph& g, int id) {
  const Event& e = g.event(id);
  std::string s;
  if (e.is_read()) s = "reads " + std::to_string(e.rval.num) + " from " + who(test, g, e.rf);
  if (e.is_write())
    s += (s.empty() ? "" : ", ") + std::string("writes ") + std::to_string(e.wval.num);
  return s;
}

}  // namespace

void print_execution(std::ostream& os, const LitmusTest& test, const LitmusExecution& x) {
  const ExecutionGraph& g = x.graph;
  for (int t = 0; t < g.threads(); ++t) {
    os << "    " << g.thread(t).name << " (cta " << g.thread(t).cta << "):\n";
    for (int id : g.thread_events(t)) {
      const Event& e = g.event(id);
      const std::string text = instruction_text(test, t, e.index);
      os << "      #" << e.index << "  " << std::left << std::setw(34) << text << std::right;
      const std::string what = effect(test, g, id);
      os << (what.empty() ? "" : "  ") << what << "\n";
    }
  }
  os << "    coherence:";
  for (Loc l = 0; l < g.locations(); ++l) {
    os << (l ? ";" : "") << " " << test.loc_names[l] << ": init";
    for (int w : g.co(l))
      os << " < " << who(test, g, w);
  }
  os << "\n";
  if (g.sc_order().size() > 1) {
    os << "    fence.sc order:";
    for (std::size_t k = 0; k < g.sc_order().size(); ++k)
      os << (k ? " < " : " ") << who(test, g, g.sc_order()[k]);
    os << "\n";
  }
  os << "    final: " << outcome_text(test, x.outcome) << "\n";
}

void print_result(std::ostream& os, const LitmusTest& test, const LitmusResult& r,
                  std::optional<bool> expected) {
  os << "litmus " << test.name << " under " << to_string(r.model) << "\n";
  os << "  condition: " << condition_text(test) << "\n";
  os << "  " << r.candidates << " candidate executions, " << r.consistent << " consistent, "
     << r.outcomes.size() << " final state" << (r.outcomes.size() == 1 ? "" : "s") << " ("
     << std::fixed << std::setprecision(3) << r.seconds << " s):\n";
  for (const Outcome& o : r.outcomes)
    os << "    " << (is_target(test.condition, o) ? "* " : "  ") << outcome_text(test, o) << "\n";
  const Quantifier q = test.condition.quantifier;
  os << "  " << (q == Quantifier::Forall ? "a state violating the condition" : "the outcome")
     << " (marked *): " << verdict_word(r.target_allowed) << "; `" << to_string(q) << "` "
     << (condition_holds(q, r.target_allowed) ? "holds" : "does not hold") << "\n";
  if (r.witness) {
    os << "  witness (" << to_string(r.model) << "-consistent, ends in the outcome):\n";
    print_execution(os, test, *r.witness);
  }
  if (expected) {
    const bool ok = *expected == r.target_allowed;
    os << "  expected " << verdict_word(*expected) << ": " << (ok ? "as expected" : "MISMATCH")
       << "\n";
  } else {
    os << "  (no `expect " << to_string(r.model) << "` line)\n";
  }
}

std::string result_json(const LitmusTest& test, const LitmusResult& r,
                        std::optional<bool> expected) {
  std::ostringstream os;
  os << "{\"test\":" << json_string(test.name) << ",\"model\":\"" << to_string(r.model)
     << "\",\"condition\":" << json_string(condition_text(test)) << ",\"verdict\":\""
     << verdict_word(r.target_allowed) << "\",\"condition_holds\":"
     << (condition_holds(test.condition.quantifier, r.target_allowed) ? "true" : "false")
     << ",\"expected\":" << (expected ? json_string(verdict_word(*expected)) : "null")
     << ",\"as_expected\":" << (!expected || *expected == r.target_allowed ? "true" : "false")
     << ",\"candidates\":" << r.candidates << ",\"consistent\":" << r.consistent
     << ",\"seconds\":" << r.seconds << ",\"outcomes\":[";
  bool first = true;
  for (const Outcome& o : r.outcomes) {
    os << (first ? "" : ",") << json_string(outcome_text(test, o));
    first = false;
  }
  os << "],\"witness\":";
  if (r.witness) {
    std::ostringstream w;
    print_execution(w, test, *r.witness);
    os << json_string(w.str());
  } else {
    os << "null";
  }
  os << "}";
  return os.str();
}

}  // namespace lookback::model
