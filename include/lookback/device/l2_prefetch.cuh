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
// memory model (it reads nothing a thread can observe and orders nothing).
// It does trap on an address that is not 16-byte aligned, so its range is
// cut to 16-byte boundaries inside one whole tile of the input. In place it
// only warms L2, the point of coherence, so no stale value can come of it.
// CCCL 3.0.1's cuda::ptx has no wrapper for it, hence the inline PTX.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lookback/device/params.hpp"

namespace lookback::device {

// The most bytes one prefetch instruction takes (ptxas rejects an immediate
// size above 2^20 - 16); a larger tile is asked for in part.
inline constexpr std::uint32_t kMaxPrefetchBytes = (1u << 20) - 16;

// Called by one thread of the block that drew `tile`: asks L2 for the input
// of tile + kAhead if that tile lies in the launch's PrefetchWindow. The
// range starts at the tile's first 16-byte boundary and stops 16 bytes
// short of its end (the instruction takes 16-byte multiples at 16-byte
// boundaries, and traps on a misaligned address), so it stays inside the
// tile whatever the input's alignment; kAligned: the input is known to be
// 16-byte aligned (the striped vector path of 16-byte vectors), no
// rounding. The arithmetic is kept to a minimum: this runs where persistent
// blocks hold two tiles' registers, at ptxas's 128-register bound. No
// memory clobber: the hint reads nothing the program can observe.
template <int kAhead, int kTileItems, bool kAligned, class T>
__device__ __forceinline__ void prefetch_later_tile(const T* in, std::uint32_t tile,
                                                    PrefetchWindow window) {
  static_assert(kAhead > 0);
  constexpr std::uint64_t kTileBytes = std::uint64_t{kTileItems} * sizeof(T);
  constexpr std::uint64_t kWhole = kAligned ? kTileBytes / 16 * 16 : kTileBytes / 16 * 16 - 16;
  static_assert(kTileBytes >= 32, "tiles of at least 32 bytes");
  constexpr auto kBytes =
      static_cast<std::uint32_t>(kWhole < kMaxPrefetchBytes ? kWhole : kMaxPrefetchBytes);
  const std::uint32_t later = tile + static_cast<std::uint32_t>(kAhead);
  if (later < window.from || later >= window.to) return;
  std::uintptr_t a =
      reinterpret_cast<std::uintptr_t>(in + static_cast<std::size_t>(later) * kTileItems);
  if constexpr (!kAligned) a = (a + 15) & ~std::uintptr_t{15};
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(
                   __cvta_generic_to_global(reinterpret_cast<const void*>(a))),
               "n"(kBytes));
}

}  // namespace lookback::device
