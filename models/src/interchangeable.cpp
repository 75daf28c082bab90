#include "interchangeable.hpp"

namespace lookback::model::detail {

namespace {
bool releasing_fence(const Event& e) {
  return e.is_fence() && (e.fence == Fence::AcqRel || e.fence == Fence::Sc);
}
}  // namespace

bool keeps_interchangeable(const System& sys, const ExecutionGraph& g, int t, const Op& op) {
  if (op.kind == EventKind::Fence || sys.interchangeable.empty() || !sys.interchangeable[op.loc])
    return true;
  if (sys.descriptor[op.loc] || op.rmw != Op::Rmw::None || op.exits || op.scope == Scope::Cta)
    return false;
  if (op.kind == EventKind::Read) return op.order != Order::Weak;
  if (op.kind != EventKind::Write || op.order != Order::Relaxed) return false;
  for (int id : g.thread_events(t)) {
    const Event& y = g.event(id);
    if (releasing_fence(y) || (y.is_release() && y.loc == op.loc)) return false;
  }
  if (op.wval == g.initial(op.loc)) return false;
  const int phase = g.thread(t).phase;
  for (int w : g.co(op.loc)) {
    const bool same_launch = g.thread(g.event(w).thread).phase == phase;
    if (same_launch != (g.event(w).wval == op.wval)) return false;
  }
  return true;
}

bool kept_interchangeable(const ExecutionGraph& g, const Candidate& c) {
  const Event& e = c.event;
  const auto& co = g.co(e.loc);
  if (e.kind == EventKind::Write) return c.co_pos == static_cast<int>(co.size());
  if (e.rf == kInit) return true;
  const int pos = g.co_position(e.rf);
  return pos + 1 == static_cast<int>(co.size()) || g.event(co[pos + 1]).wval != e.rval;
}

}  // namespace lookback::model::detail
