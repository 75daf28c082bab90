// Pacing of the first wave (tuning, not protocol: TilePolicy::
// kFirstWavePaceGBps, 0 = off).
//
// At a launch every resident block draws a tile at once and asks for its
// whole input at once. DRAM serves those requests interleaved, so the first
// wave's loads all end at about the same time, its look-backs and stores
// follow together, its blocks leave together, and the next wave starts
// together: waves of loads alone and stores alone, which take many waves to
// blur (bench --suite trace shows them). Here the block that drew ticket t of
// the first wave waits t x tile bytes / pace after its draw before it loads,
// so the first wave asks for its input at about the rate DRAM delivers it,
// and its tiles finish one after another. It delays loads and nothing else:
// no memory-model effect; the wait is on the global timer, so it ends.
#pragma once

#include <cstdint>

#include "lookback/device/global_timer.cuh"
#include "lookback/device/params.hpp"

namespace lookback::device {

// Thread 0 of a block, after its first draw. first_wave: tickets the
// launch's resident blocks draw first (one per block).
template <int kPaceGBps, std::uint64_t kTileBytes>
__device__ __forceinline__ void pace_first_wave(std::uint32_t ticket, std::uint32_t first_wave) {
  static_assert(kPaceGBps > 0);
  if (ticket >= first_wave) return;
  // GB/s = bytes per ns.
  const std::uint64_t wait_ns = std::uint64_t{ticket} * kTileBytes / kPaceGBps;
  const std::uint64_t until = global_timer_ns() + wait_ns;
  while (global_timer_ns() < until) {
  }
}

// Thread 0 of a block of Policy, after its first draw (ticket): paces it when
// the policy asks for it. Both agents call this; the launch's first wave is
// what its prefetch window starts after (params.hpp).
template <class Policy, std::uint64_t kTileBytes>
__device__ __forceinline__ void pace_first_draw(std::uint32_t ticket, PrefetchWindow window,
                                                int tiles_per_block) {
  if constexpr (Policy::kFirstWavePaceGBps > 0)
    pace_first_wave<Policy::kFirstWavePaceGBps, kTileBytes>(
        ticket, first_wave_blocks(window, tiles_per_block));
}

}  // namespace lookback::device
