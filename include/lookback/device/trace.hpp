// Tile timeline of instrumented kernels: when each tile passed each step of
// its life, on the GPU's global timer. What it is for: seeing where a scan's
// time goes at one size on one GPU (a filling first wave, blocks idle in
// their look-backs, a draining tail), which a median time or the look-back
// counters (LookbackStats) cannot show. Plain data, shared by host and
// device; production kernels compile every stamp away. The host-side
// summary is lookback/trace_summary.hpp.
#pragma once

#include <cstdint>

namespace lookback::device {

// The steps a tile's stamps mark, in the order a tile passes them.
enum class TracePoint : std::uint8_t {
  Drawn,      // its block learned the tile id (the draw's RMW returned)
  Aggregate,  // AGGREGATE published (tile 0: its PREFIX): the tile's loads are
              // in (after a paced first wave's wait: first_wave.cuh)
  Prefix,     // look-back done, PREFIX published (tile 0: right after Aggregate)
  Stored,     // every warp of its block issued its output stores (a barrier
              // that only traced launches take; the stores may still be in flight)
};
inline constexpr int kTracePoints = 4;

struct TileStamps {
  std::uint64_t ns[kTracePoints];  // %globaltimer at each TracePoint, 0: never reached
  std::uint32_t sm;                // the multiprocessor the tile ran on (%smid)
  std::uint32_t block;             // blockIdx.x of the block that drew it
};

// Where an instrumented launch writes its stamps: one TileStamps per tile.
// The caller zeroes it and provides at least as many entries as the scan has
// tiles (Options::trace; a smaller buffer is an error, not a cut trace).
struct TileTrace {
  TileStamps* tiles = nullptr;
  std::uint32_t capacity = 0;
};

}  // namespace lookback::device
