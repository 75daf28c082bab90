#include "execution_step.hpp"

#include <sstream>

namespace lookback::model::detail {

std::optional<PropertyViolation> advance(const System& sys, const ExecutionGraph& g, int t,
                                         ThreadState& s) {
  Ctx ctx(g, t);
  try {
    sys.programs[t](ctx);
    if (ctx.suspended()) {
      s.next = std::move(ctx.next());
    } else {
      s.finished = true;
      s.next.reset();
    }
  } catch (Ctx::Suspend&) {
    s.next = std::move(ctx.next());
  } catch (PropertyViolation& v) {
    s.failed = true;
    s.next.reset();
    return v;
  }
  return std::nullopt;
}

std::vector<Candidate> candidates(const System& sys, const ExecutionGraph& g, int t, const Op& op,
                                  MemoryModel m) {
  std::vector<Candidate> out;
  const bool sc = m == MemoryModel::Sc;
  auto make = [&](EventKind kind, int rf, const Value& wval, int co_pos) {
    Event e;
    e.kind = kind;
    e.order = op.order;
    e.fence = op.fence;
    e.scope = op.scope;
    e.loc = op.loc;
    e.thread = static_cast<std::uint8_t>(t);
    e.step = op.step;
    e.tile = op.tile;
    e.await = static_cast<bool>(op.exits);
    e.group = op.group;
    if (kind == EventKind::Read || kind == EventKind::Rmw) {
      e.rf = rf;
      e.rval = g.value_of(rf, op.loc);
    }
    if (kind == EventKind::Write || kind == EventKind::Rmw) e.wval = wval;
    out.push_back(Candidate{e, co_pos});
  };
  if (op.kind == EventKind::Fence) {
    make(EventKind::Fence, kInit, {}, -1);
    return out;
  }
  const auto& order = g.co(op.loc);
  const int len = static_cast<int>(order.size());
  if (op.kind == EventKind::Write) {
    for (int pos = sc ? len : 0; pos <= len; ++pos)
      make(EventKind::Write, kInit, op.wval, pos);
    return out;
  }
  // Reads and RMWs: choose the write read from. Under SC only the latest,
  // except for a lane of a window read (Event::group) that does not spin:
  // lanes read concurrently, so such a read may take an older write, as
  // long as the graph stays sequentially consistent with the lanes
  // unordered (the caller's check: acyclic po | com and launch boundaries).
  // That is a condition on the graph, not on the order its events were
  // added in, which the explorer's visited set does not record. Not under
  // an occupancy bound: there a block starts after another finished, an
  // order no relation of the graph holds, so an older write might be one
  // overwritten before the block started. Spinning lanes keep lane order
  // under SC: a thread stuck at one lane's spin would otherwise hold
  // executions that differ only in which later lanes had read. Both are
  // PTX executions, explored there; SC is the SPIN cross-check's model.
  std::vector<int> sources{kInit};
  sources.insert(sources.end(), order.begin(), order.end());
  const bool any_moment = op.group != 0 && !op.exits && sys.resident <= 0;
  if (sc && !any_moment) sources.erase(sources.begin(), sources.end() - 1);
  for (int src : sources) {
    const Value& seen = g.value_of(src, op.loc);
    const int after = src == kInit ? 0 : g.co_position(src) + 1;
    if (op.rmw == Op::Rmw::FetchAdd) {
      Value w = seen;
      w.num += op.add;
      make(EventKind::Rmw, src, w, after);
    } else if (op.rmw == Op::Rmw::Cas) {
      if (seen == op.expected)
        make(EventKind::Rmw, src, op.wval, after);
      else
        make(EventKind::Read, src, {}, -1);
    } else if (!op.exits || op.exits(seen)) {
      make(EventKind::Read, src, {}, -1);
    }
  }
  return out;
}

std::string race_message(const System& sys, const ExecutionGraph& g, std::pair<int, int> race) {
  const Event& a = g.event(race.first);
  const Event& b = g.event(race.second);
  std::ostringstream os;
  os << "data race on " << sys.loc_names[b.loc] << ": " << g.thread(a.thread).name << " #"
     << a.index << " and " << g.thread(b.thread).name << " #" << b.index
     << " are unordered and not both strong";
  return os.str();
}

std::optional<std::string> monotone_violation(const System& sys, const ExecutionGraph& g) {
  const int id = g.size() - 1;
  const Event& e = g.event(id);
  if (!e.is_write() || !sys.descriptor[e.loc]) return std::nullopt;
  const auto& order = g.co(e.loc);
  const int pos = g.co_position(id);
  auto down = [&](int a, int b) { return status_goes_down(g, a, b); };
  const int before = pos > 0 ? order[pos - 1] : -1;
  const int after = pos + 1 < static_cast<int>(order.size()) ? order[pos + 1] : -1;
  if (!((before >= 0 && down(before, id)) || (after >= 0 && down(id, after)))) return std::nullopt;
  const int hi = (before >= 0 && down(before, id)) ? before : id;
  const int lo = hi == id ? after : id;
  std::ostringstream os;
  os << sys.loc_names[e.loc] << " moved down from " << protocol::to_string(g.event(hi).wval.status)
     << " to " << protocol::to_string(g.event(lo).wval.status);
  return os.str();
}

}  // namespace lookback::model::detail
