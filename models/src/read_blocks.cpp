#include "read_blocks.hpp"

namespace lookback::model::detail {

bool blocks_apply(const ExecutionGraph& g, const std::vector<ThreadState>& ts,
                  const std::vector<bool>& runnable) {
  for (int t = 0; t < g.threads(); ++t)
    if (runnable[t] && !started(g, t) && ts[t].next && ts[t].next->kind == EventKind::Write)
      return false;
  return true;
}

}  // namespace lookback::model::detail
