// L2 prefetch of a later tile's input (tuning, not protocol:
// TilePolicy::kL2PrefetchBytes, policy.hpp has the measurements).
//
// The thread that draws a tile asks L2 for the input of the tile about
// kL2PrefetchBytes of input further on, which a block will draw a little
// later (tickets follow launch order). So DRAM keeps reading while blocks
// wait in their look-backs, and a block's own loads find their lines in L2.
// Too far ahead and the lines are evicted before use: they are read twice.
//
// cp.async.bulk.prefetch.L2 (sm_90) is a hint: it has no effect in the
// memory model (it reads nothing a thread can observe and orders nothing),
// and the range is clipped to the input. In place it only warms L2, the
// point of coherence, so no stale value can come of it. CCCL 3.0.1's
// cuda::ptx has no wrapper for it, hence the inline PTX.
#pragma once

#include <cstdint>

namespace lookback::device {

// Called by one thread of the block that drew `tile`: asks L2 for the input
// of tile + kAhead (items [first, first + kTileItems) clipped to [0, n), cut
// to 16-byte boundaries: the instruction's alignment), unless that tile is
// one the grid's first wave draws (its own block is loading it already;
// KernelParams::first_wave). No memory clobber: the hint reads
// nothing the program can observe.
template <int kAhead, int kTileItems, class T>
__device__ inline void prefetch_later_tile(const T* in, std::int64_t n, std::uint32_t tile,
                                           std::uint32_t first_wave) {
  static_assert(kAhead > 0);
  if (tile + static_cast<std::uint32_t>(kAhead) < first_wave) return;
  const std::int64_t first = (static_cast<std::int64_t>(tile) + kAhead) * kTileItems;
  if (first >= n) return;
  const std::int64_t last = first + kTileItems < n ? first + kTileItems : n;
  const auto a = (reinterpret_cast<std::uintptr_t>(in + first) + 15) & ~std::uintptr_t{15};
  const auto b = reinterpret_cast<std::uintptr_t>(in + last) & ~std::uintptr_t{15};
  if (b <= a) return;
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(
                   __cvta_generic_to_global(reinterpret_cast<const void*>(a))),
               "r"(static_cast<std::uint32_t>(b - a)));
}

}  // namespace lookback::device
