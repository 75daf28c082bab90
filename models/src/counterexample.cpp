#include "lookback/model/counterexample.hpp"

#include <cstddef>
#include <span>
#include <sstream>
#include <utility>

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

// The run [first, last] of positions in ids that holds ids[i] and its
// groupmates (Event::group; just i for an event in no group).
std::pair<std::size_t, std::size_t> lanes_around(const ExecutionGraph& g, std::span<const int> ids,
                                                 std::size_t i) {
  const Event& e = g.event(ids[i]);
  std::size_t a = i, b = i;
  while (a > 0 && g.event(ids[a - 1]).same_group(e))
    --a;
  while (b + 1 < ids.size() && e.same_group(g.event(ids[b + 1])))
    ++b;
  return {a, b};
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
    for (std::size_t i = 0; i < ids.size(); ++i) {
      os << "    #" << g.event(ids[i]).index << "  " << describe(sys, g, ids[i]);
      const auto [a, b] = lanes_around(g, ids, i);
      if (a != b)
        os << "  [lanes #" << g.event(ids[a]).index << "-#" << g.event(ids[b]).index
           << ": concurrent]";
      os << "\n";
    }
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
    // Program order: each event (each lane of a group) from the event
    // before it, or from every lane of the group before it.
    for (std::size_t i = 1; i < ids.size(); ++i) {
      const std::size_t first = lanes_around(g, ids, i).first;
      if (first == 0) continue;
      for (std::size_t p = lanes_around(g, ids, first - 1).first; p < first; ++p)
        os << "    e" << ids[p] << " -> e" << ids[i] << ";\n";
    }
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
