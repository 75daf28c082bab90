#include "lookback/model/counterexample.hpp"

#include <sstream>

namespace lookback::model {

namespace {
std::string mode(const Event& e) {
  if (e.is_fence()) return protocol::to_string(e.fence);
  std::string s = protocol::to_string(e.order);
  if (e.scope == Scope::Cta && e.order != Order::Weak) s += ".cta";
  if (e.scope == Scope::Sys && e.order != Order::Weak) s += ".sys";
  return s;
}
std::string who(const ExecutionGraph& g, int id) {
  if (id == kInit) return "init";
  const Event& e = g.event(id);
  return g.thread(e.thread).name + " #" + std::to_string(e.index);
}
}  // namespace

std::string describe(const System& sys, const ExecutionGraph& g, int id) {
  const Event& e = g.event(id);
  const bool desc = sys.descriptor[e.is_mem() ? e.loc : 0] && e.is_mem();
  std::ostringstream os;
  switch (e.kind) {
    case EventKind::Fence:
      os << mode(e);
      break;
    case EventKind::Read:
      os << "R." << mode(e) << " " << sys.loc_names[e.loc] << " -> " << to_string(e.rval, desc)
         << "  (from " << who(g, e.rf) << ")";
      break;
    case EventKind::Write:
      os << "W." << mode(e) << " " << sys.loc_names[e.loc] << " = " << to_string(e.wval, desc);
      break;
    case EventKind::Rmw:
      os << "RMW." << mode(e) << " " << sys.loc_names[e.loc] << " " << to_string(e.rval, desc)
         << " -> " << to_string(e.wval, desc) << "  (from " << who(g, e.rf) << ")";
      break;
  }
  if (e.step != Step::Litmus) os << "    ; " << to_string(e.step);
  return os.str();
}

void print_counterexample(std::ostream& os, const System& sys, const Violation& v) {
  const ExecutionGraph& g = v.graph;
  os << "counterexample (" << g.size() << " events):\n";
  for (int t = 0; t < g.threads(); ++t) {
    const auto& ids = g.thread_events(t);
    if (ids.empty()) {
      os << "  " << g.thread(t).name << ": (not started)\n";
      continue;
    }
    os << "  " << g.thread(t).name << ":\n";
    for (int id : ids)
      os << "    #" << g.event(id).index << "  " << describe(sys, g, id) << "\n";
  }
  os << "  schedule:";
  for (int t : v.schedule)
    os << " " << t;
  os << "\n";
  os << "violated: " << protocol::to_string(v.property) << ": " << v.message << "\n";
}

void write_dot(std::ostream& os, const System& sys, const ExecutionGraph& g,
               const std::string& title) {
  os << "digraph execution {\n  label=\"" << title
     << "\";\n  node [shape=box fontname=monospace];\n";
  for (int t = 0; t < g.threads(); ++t) {
    os << "  subgraph cluster_" << t << " {\n    label=\"" << g.thread(t).name << "\";\n";
    for (int id : g.thread_events(t)) {
      std::string text = describe(sys, g, id);
      for (auto& ch : text)
        if (ch == '"') ch = '\'';
      os << "    e" << id << " [label=\"#" << g.event(id).index << " " << text << "\"];\n";
    }
    const auto& ids = g.thread_events(t);
    for (std::size_t i = 1; i < ids.size(); ++i)
      os << "    e" << ids[i - 1] << " -> e" << ids[i] << ";\n";
    os << "  }\n";
  }
  for (int id = 0; id < g.size(); ++id) {
    const Event& e = g.event(id);
    if (e.is_read() && e.rf != kInit)
      os << "  e" << e.rf << " -> e" << id << " [style=dashed color=red label=rf];\n";
  }
  for (Loc l = 0; l < g.locations(); ++l) {
    const auto& order = g.co(l);
    for (std::size_t i = 1; i < order.size(); ++i)
      os << "  e" << order[i - 1] << " -> e" << order[i]
         << " [style=dotted color=blue label=co];\n";
  }
  os << "}\n";
}

}  // namespace lookback::model
