#include "eager_stores.hpp"

namespace lookback::model::detail {

bool is_plain_store(const Op& op) {
  return op.kind == EventKind::Write && op.rmw == Op::Rmw::None;
}

bool out_of_status_order(const System& sys, const ExecutionGraph& g) {
  const int id = g.size() - 1;
  const Event& e = g.event(id);
  if (!e.is_write() || !sys.descriptor[e.loc]) return false;
  const int phase = g.thread(e.thread).phase;
  bool before = true;  // walking the coherence order: still before e
  for (int w : g.co(e.loc)) {
    if (w == id) {
      before = false;
      continue;
    }
    const Event& x = g.event(w);
    if (g.thread(x.thread).phase != phase || x.wval.epoch != e.wval.epoch) continue;
    if (before ? x.wval.status > e.wval.status : x.wval.status < e.wval.status) return true;
  }
  return false;
}

}  // namespace lookback::model::detail
