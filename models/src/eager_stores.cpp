#include "eager_stores.hpp"

namespace lookback::model::detail {

bool is_plain_store(const Op& op) {
  return op.kind == EventKind::Write && op.rmw == Op::Rmw::None;
}

bool out_of_status_order(const System& sys, const ExecutionGraph& g) {
  const int id = g.size() - 1;
  const Event& e = g.event(id);
  if (!e.is_write() || !sys.descriptor[e.loc]) return false;
  bool before = true;  // walking the coherence order: still before e
  for (int w : g.co(e.loc)) {
    if (w == id) {
      before = false;
      continue;
    }
    if (before ? status_goes_down(g, w, id) : status_goes_down(g, id, w)) return true;
  }
  return false;
}

}  // namespace lookback::model::detail
