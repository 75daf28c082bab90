// Device side of the tile timeline (trace.hpp). Instrumented kernels only;
// each stamp is one plain store by the one thread that passes the point.
#pragma once

#include <cstdint>

#include "lookback/device/global_timer.cuh"
#include "lookback/device/sm_id.cuh"
#include "lookback/device/trace.hpp"

namespace lookback::device {

// Marks that `tile` passed `point`. The launch clamps the trace's capacity to
// the launch's tiles, so a persistent block's last draw (past the last tile)
// writes nothing.
__device__ inline void trace_stamp(const TileTrace& trace, std::uint32_t tile, TracePoint point) {
  if (trace.tiles == nullptr || tile >= trace.capacity) return;
  TileStamps& s = trace.tiles[tile];
  s.ns[static_cast<int>(point)] = global_timer_ns();
  if (point == TracePoint::Drawn) {
    s.sm = sm_id();
    s.block = blockIdx.x;
  }
}

}  // namespace lookback::device
