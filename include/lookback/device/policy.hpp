// Tuning: block size, items per thread and occupancy hint of the tile
// algorithms. Tuning lives here, with the kernels; the protocol (spec.hpp)
// holds none of it.
//
// Choices for the H100 (sm_90), with the reasoning; the benchmark in bench/
// sweeps the alternatives (bench/results/ holds the measured table):
//   coarsened / fallback: 256 threads x 64 bytes per thread (16 x u32, 8 x u64)
//     = 16 KiB tiles. Four 16-byte vector loads per thread, warp-striped so a
//     warp's load is 512 contiguous bytes; the four loads of a thread are all
//     in flight before the first use. 16 KiB amortises the look-back (one
//     ticket RMW, one AGGREGATE and one PREFIX publish, usually one window
//     read) over enough bytes that the copy bandwidth, not the protocol,
//     bounds throughput; __launch_bounds__(256, 4) caps registers at 64 so at
//     least 4 tiles (64 KiB of loads) are resident per SM while others wait
//     on their look-back.
//   warp-lookback: 256 threads x 32 bytes per thread through CUB's
//     BlockLoad/BlockStore warp transposes (scalar, coalesced accesses) and
//     BlockScan: the plain, CUB-shaped reference variant.
#pragma once

#include <cstdint>

namespace lookback {

template <int BlockThreads, int BytesPerThread, int MinBlocksPerSm>
struct TilePolicy {
  static_assert(BlockThreads % 32 == 0 && BlockThreads >= 32 && BlockThreads <= 1024);
  static_assert(BytesPerThread >= 1);
  static constexpr int kBlockThreads = BlockThreads;
  static constexpr int kBytesPerThread = BytesPerThread;
  static constexpr int kMinBlocks = MinBlocksPerSm;
  template <class T>
  static constexpr int items() {
    const int i = BytesPerThread / static_cast<int>(sizeof(T));
    return i < 1 ? 1 : i;
  }
  template <class T>
  static constexpr int tile_items() {
    return BlockThreads * items<T>();
  }
};

using CoarsenedPolicy = TilePolicy<256, 64, 4>;
using WarpLookbackPolicy = TilePolicy<256, 32, 4>;

}  // namespace lookback
