// Tuning: block size, items per thread and occupancy hint of the tile
// algorithms. Tuning lives here, with the kernels; the protocol (spec.hpp)
// holds none of it.
//
// Choices for the H100 (sm_90), from the benchmark's sweeps (bench/,
// bench/results/README.md has the commands and tables):
//   coarsened / fallback: 256 threads x 128 bytes per thread (32 x u32,
//     16 x u64) = 32 KiB tiles, __launch_bounds__(256, 4): 64 registers, 4
//     tiles = 128 KiB of data resident per SM, the most the register file
//     holds. Items move in 16-byte vectors, warp-striped so a warp's access
//     is 512 contiguous bytes, all loads of a thread in flight before the
//     first use. Throughput is bound by tile lifetime (ticket RMW, load,
//     look-back rounds at loaded-L2 latency), so the most resident data wins:
//     u32 at n = 2^30, % of copy, no delay: 256x16/4 58%, 256x16/6 62%,
//     256x24/5 66%, 256x32/4 73-74%.
//     Where the time goes (bench/explore/tile_bound.cu, a minimal kernel with
//     one cost at a time, H100, u32, n = 2^30): without the look-back the
//     same tile pipeline runs at 99.6% of copy, so loads, ticket and stores
//     are not the limit; the look-back's waiting is. Every waiting tile holds
//     its registers, so what helps is more data per tile: 128 more bytes per
//     thread staged in shared memory (cp.async, 64 KiB tiles, 4 blocks = 256
//     KiB in flight per SM) took 87.5% to 92.2% (d3000, no finished-blocks
//     counter); 256x(32+16) 91.5%, 256x(32+40) 92.9%, 256x(24+24)/5 88.4%,
//     256x(16+24)/6 90.0%. Counting the block finished before its output
//     stores (not after) costs nothing (92.8%); after, -3%. Waiting only for
//     the lanes above the closest PREFIX instead of the whole window: no
//     change. Spin back-off 200 ns: no change.
//     Chosen: 256 x (128 + 128 staged) bytes, 4 blocks per SM: u32 at 2^30
//     92.9%, 2^28 92.1%, 2^26 87.9% (bench/results/h100_tuning_staged.log,
//     h100_tuning_fallback.log); u64 90.7% at 2^30.
//   fallback: until 2026-11-25 one tile per block, 256 x (96 + 160 staged)
//     bytes: u32 at 2^30 91.9% (32+32: 86.4%, 28+36: 87.9%; the smaller
//     register share left room for the fallback's look-back code), 2^26
//     87.5%; 95.0% at 2^30 once the descriptors took a sector each. Now its
//     protocol is persistent like pipelined's and it takes pipelined's
//     4-byte shape; 8-byte values keep 128 x (4 + 20) items (FallbackPolicy
//     below).
//   look-back delay 3000 ns, only in grids of >= 1024 tiles: warp 0 sleeps
//     after publishing its aggregate so that its predecessors have published
//     by the time it reads; fewer wasted window reads and spin rounds.
//     256x32/4 u32 at 2^30: 0 ns 73%, 1000 ns 77%, 2000 ns 80%, 3000 ns 83%,
//     4000 ns 83%; at 2^26: 72 / 76 / 78 / 80 / 80%. Small grids are latency
//     bound and skip it. A spin back-off (300 ns) and streaming (.cs) hints
//     measured no gain. With staging: 2000 / 3000 / 4000 ns = 90.8 / 92.2 /
//     92.2%; 5000 ns and more fall off a cliff (74%: the sleep is coarse).
//     Again with relaxed publishes (2026-11-27 night, bench explore_delay
//     of commit 8be1441): 3000 ns still best from 2^26 for warp-lookback
//     and coarsened (0 / 1000 / 2000 / 3000 / 4000 ns at 2^30: 94.1 / 94.9
//     / 95.5 / 96.3 / 96.3% and 95.6 / 95.8 / 96.0 / 96.3 / 96.3%). Neither
//     4-6 blocks per SM nor more staged bytes lift the one-tile variants
//     past 96.8%: a one-tile ticketed block without the look-back runs at
//     99.7% of copy, so what they lose is the look-back's wait
//     (bench/results/README.md, "Why the one-tile variants stop at 96%").
//   pipelined (persistent blocks holding two tiles, protocol tiles_per_block
//     = 2): 128 threads, 4 blocks per SM, each block two register sets and
//     two shared-memory stages; no look-back delay (the next tile's loads
//     fill the wait). The register share is what ptxas can hold twice at
//     128 registers (u32 vector path: 16+40 items 124 registers, 20+40 and
//     24+40 128, none spills; 8-byte types spill at 80 register bytes).
//     With one packed word per sector and relaxed packed publishes
//     (bench/results/README.md, 2026-11-25 evening; h100_tuning.log there),
//     u32 at 2^20 in us, then % of copy at 2^24 / 2^26 / 2^28 / 2^30:
//     16+40 15.7 us, 85.0 / 95.3 / 98.9 / 98.9; 20+40 15.9 us, 85.2 /
//     97.6 / 98.5 / 99.0; 24+40 12.2 us, 94.0 / 97.9 / 99.3 / 99.1; 20+44
//     12.4 us, 93.7 / 97.9 / 99.2 / 99.1. The 8192-item tiles (24+40, 20+44)
//     win where n is a power of two: no partial tile, and the grid's last
//     round of tiles is full. u64: 8+16 items 91.1 / 96.6 / 97.4 / 97.8
//     against 10+20 (spills) 78.8 / 81.6 / 82.6 / 82.6. Chosen: 128 x
//     (96 + 160 staged) bytes; 8-byte values 192 x (4 + 12) items since
//     2026-11-26 (4 + 20 and 8 + 16 on 128 threads before; PipelinedPolicy
//     below). Before the descriptor changes the same shapes ran at
//     81-92.7% (pipelined/h100_tuning_persistent.log).
//   warp-lookback: CUB's BlockLoad/BlockStore warp transposes and BlockScan
//     on one-tile blocks, the same delay. Until 2026-11-26 CUB's own sm_90
//     shape for 4-byte sums, 128 threads x 96 bytes (24 x u32, 12 x u64),
//     __launch_bounds__(128, 6): level with CUB for u32 (80.4% of copy at
//     2^30 against 81.6), 80.5% for u64 where CUB (224 x 12) has 90.4%.
//     Now 224 threads x 44 4-byte or 20 8-byte items, 3 blocks per SM
//     (WarpLookbackPolicy below).
//   Measured orders: the pipelined kernel gained 3.6% from relaxed packed
//     publishes (Protocol::relaxed_packed_publish; 2026-11-25). One-tile
//     blocks first measured -0.3% from them at 2^30 (tile_bound's staged
//     one-tile kernel; 14.9 -> 11.7 us at 2^20 went unremarked), so they kept
//     the release until 2026-11-27; the library's one-tile variants then
//     measured (bench explore_relaxed_publish, H100, u32): warp-lookback
//     92.2 -> 96.3% of copy at 2^30, 88.7 -> 92.9% at 2^26, 78.6 -> 83.6% at
//     2^24, 10.9 -> 10.0 us at 2^20 (u64 91.9 -> 97.2% at 2^30); its small
//     tiles 11.65 -> 10.5 us at 2^20 and 0.3-0.8 us faster from 2^14 to 2^18;
//     coarsened level from 2^26, +1.5 points at 2^24, 0.3-1.0 us faster up to
//     2^22. So every production protocol sets it now
//     (catalogue.hpp). Relaxed look-back reads on top (small tiles, to 2^22):
//     no further change. The catalogue's fenced-lookback (fence.sc) is ~4%
//     slower.
//   L2 prefetch (kL2PrefetchBytes, l2_prefetch.cuh; 2026-11-28): the thread
//     that draws a tile asks L2 (cp.async.bulk.prefetch.L2, one instruction
//     for the whole tile) for the input of the tile 1 MiB of input further
//     on (coarsened 512 KiB), unless the first wave draws it. What the
//     one-tile variants lost at 96% was DRAM idling while blocks wait in
//     their look-backs; this keeps it reading. H100, u32 inclusive sum, % of
//     copy at 2^24 / 2^26 / 2^28 / 2^30, none -> 1 MiB (bench --suite
//     explore --group explore_prefetch, two passes; bench/results/prefetch/):
//     warp-lookback 84.2 / 93.0 / 95.9 / 96.4 -> 84.0 / 95.0 / 98.7 / 99.5,
//     coarsened (512 KiB) 81.9 / 91.8 / 95.7 / 96.4 -> 82.4 / 93.7 / 98.0 /
//     98.8, pipelined 96.7 / 98.4 / 99.3 / 99.2 -> 98.3 / 99.7 / 100.1 /
//     99.8, the in-place fallback 93.6 / 97.8 / 99.2 / 99.3 -> 95.0 / 99.3
//     / 100.1 / 99.9; u64 gains 2-5 points from 2^24 (in-place fallback
//     95.9 -> 100.4% at 2^26). Up to 2^22 items (one wave) within 0.4 us.
//     Distance (tiles are what a block draws; bytes are what L2 holds):
//     512 KiB to 2 MiB within 0.7 points, 3 MiB 0.5-2 behind, a whole
//     wave ahead (15-34 MiB) about 30 points behind (68% of copy: the lines
//     are evicted before use and read twice). Prefetching the first wave's
//     tiles cost 1-4 points at 2^24-2^26 (their own blocks load them at the
//     same time); issued once a block's own loads are in rather than as it
//     starts its tile, it lost 3 (warp-lookback) to 12 points (coarsened).
//     In persistent blocks, at ptxas's 128-register bound, the kernel side
//     must stay a compare and an address: clipping the range in the kernel
//     spilled 16 bytes in the out-of-place u32 fallback, which then ran
//     1.2-1.8 points slower than without prefetch
//     (bench/results/prefetch/spill-ea39607/).
//   First-wave pacing (kFirstWavePaceGBps, first_wave.cuh; 2026-11-28):
//     off in every production policy (the deterministic default's paced
//     tier, config.hpp's PacedWarpLookback, is the one user: there it lets
//     the left fold's chain run while later tiles load). Tile timelines (bench --suite trace,
//     H200) show one-tile grids at 2^24-2^26 running in waves of loads
//     alone and stores alone for 60 us after the launch: the first wave
//     asks for all its input at once and finishes together. Pacing the
//     first wave's loads at 2500-6000 GB/s took warp-lookback from 73.6 /
//     80.5 / 84.4% of copy at 2^24 / 2^25 / 2^26 to 76.7-77.0 / 82.7-84.1
//     / 85.9-86.5%, coarsened from 73.9 / 80.6 / 85.3% to 78.3-79.1 /
//     84.9-85.7 / 87.8-88.4%; pipelined within 1 point, the fallback 1-2
//     behind (4000 GB/s); level from 2^28; at 2^22 2500 GB/s lost 2-5
//     points (bench --suite explore --group explore_pace, two passes,
//     bench/results/h200/). Not measured on an H100, whose figures the
//     production tuning stands on, so not switched on; the rate would be
//     the GPU's (an H200 reads about 1.4x an H100).
#pragma once

#include <cstdint>

namespace lookback {

// BlockThreads x BytesPerThread per tile; MinBlocksPerSm feeds
// __launch_bounds__. Look-back timing (tuning, not protocol): LookbackDelayNs
// is slept after publishing the aggregate and before the first window read
// (the predecessors get time to publish, so fewer rounds are wasted);
// SpinDelayNs is slept before re-reading a window that still had an INVALID
// descriptor. Streaming marks 16-byte data accesses evict-first (ld/st .cs).
// DelayMinTiles: grids with fewer tiles skip LookbackDelayNs.
// StagedBytesPerThread: more items per thread that wait in shared memory
// instead of registers (loaded with cp.async; striped agent only): the tile
// grows beyond what the register file holds, so more data is in flight per SM.
template <int BlockThreads, int BytesPerThread, int MinBlocksPerSm, int LookbackDelayNs = 0,
          int SpinDelayNs = 0, bool Streaming = false, int DelayMinTiles = 0,
          int StagedBytesPerThread = 0>
struct TilePolicy {
  static_assert(BlockThreads % 32 == 0 && BlockThreads >= 32 && BlockThreads <= 1024);
  static_assert(BytesPerThread >= 1);
  static constexpr int kBlockThreads = BlockThreads;
  static constexpr int kBytesPerThread = BytesPerThread;
  static constexpr int kMinBlocks = MinBlocksPerSm;
  static constexpr int kLookbackDelayNs = LookbackDelayNs;
  static constexpr int kSpinDelayNs = SpinDelayNs;
  static constexpr bool kStreaming = Streaming;
  // The look-back delay applies only to grids of at least this many tiles
  // (small scans are latency bound: every tile resolves within a few windows).
  static constexpr int kDelayMinTiles = DelayMinTiles;
  static_assert(StagedBytesPerThread >= 0);
  static constexpr int kStagedBytesPerThread = StagedBytesPerThread;
  // The thread that draws a tile asks L2 for the input of the tile about
  // this many bytes of input further on (0: never; l2_prefetch.cuh).
  static constexpr int kL2PrefetchBytes = 0;
  // The first wave's blocks ask for their input at about this rate
  // (first_wave.cuh; 0: all at once).
  static constexpr int kFirstWavePaceGBps = 0;
  // Threads per block and the __launch_bounds__ occupancy hint, per value
  // type (a policy may shape 8-byte tiles differently).
  template <class T>
  static constexpr int block_threads() {
    return BlockThreads;
  }
  template <class T>
  static constexpr int min_blocks() {
    return MinBlocksPerSm;
  }
  // Items per thread held in registers.
  template <class T>
  static constexpr int items() {
    const int i = BytesPerThread / static_cast<int>(sizeof(T));
    return i < 1 ? 1 : i;
  }
  // Items per thread staged in shared memory (after the register items).
  template <class T>
  static constexpr int staged_items() {
    return StagedBytesPerThread / static_cast<int>(sizeof(T));
  }
  // Striped agent, vector path, partial last tile: true, the warps before
  // the one holding the end load and store as in a full tile (less work in
  // the last tile: small scans are faster); false, every warp of a partial
  // tile takes the partial path. The choice moves ptxas's register
  // allocation of the whole kernel, full tiles included, so it is tuned per
  // shape and type (CoarsenedPolicy, FallbackPolicy below). The scalar path
  // always takes true (agent_striped.cuh).
  template <class T>
  static constexpr bool full_warps_in_partial_tile() {
    return true;
  }
};

// Policy with its first wave paced at kGBps (kFirstWavePaceGBps,
// first_wave.cuh), e.g. PacedFirstWave<CoarsenedPolicy, 4000>.
template <class Policy, int kGBps>
struct PacedFirstWave : Policy {
  static_assert(kGBps > 0, "a paced first wave needs a rate (0 would leave it unpaced)");
  static constexpr int kFirstWavePaceGBps = kGBps;
};

// Items per tile of Policy for value type T. A free function, so that a
// policy overriding block_threads / items / staged_items (static member
// functions: a call inside the base class would bind to the base's) gets its
// own shape counted without re-declaring this.
template <class Policy, class T>
constexpr int policy_tile_items() {
  return Policy::template block_threads<T>() *
         (Policy::template items<T>() + Policy::template staged_items<T>());
}

// Tiles ahead whose input a block of Policy asks L2 for (0: none): the
// policy's prefetch bytes in whole tiles, at least one.
template <class Policy, class T>
constexpr int policy_prefetch_tiles() {
  if constexpr (Policy::kL2PrefetchBytes <= 0) {
    return 0;
  } else {
    constexpr int tile_bytes = policy_tile_items<Policy, T>() * static_cast<int>(sizeof(T));
    return Policy::kL2PrefetchBytes / tile_bytes > 0 ? Policy::kL2PrefetchBytes / tile_bytes : 1;
  }
}

// Coarsened sends a whole partial tile of 4- or 8-byte values down the
// partial path. With the full warps of a partial tile on the full path
// ptxas spilled at the 64-register bound (bytes, then -> now: u32 exclusive
// 36 -> 0, u64 exclusive 76 -> 40, u64 inclusive 12 -> 0), and coarsened ran
// 5.0% (u32 exclusive) and 2.9% (u64) slower from 2^26; below 2^21 the
// change is within +-2% on the geometric mean, up to +8% at 2^10-2^12 for
// 8-byte values (H100; bench/results/README.md, "Partial tiles per
// agent"). Other sizes were not measured and keep the full warps on the
// full path.
// 1- and 2-byte values take u32's item counts, 32 + 32 staged (a 16384-item
// tile), not its bytes: each item holds a register, and the scalar path
// holds one item per chunk, at most 64 chunks a thread (agent_striped.cuh).
// 128 + 128 bytes of them did not compile on the scalar path and spilled
// 0.6-3 KB on the vector path (ptxas 13.0, sm_90). H100, % of copy at 2^26 /
// 2^30 (bench --suite explore --group explore_u16 / explore_u8, 2026-11-27;
// bench/results/README.md, "Default configuration by size; 1- and 2-byte
// values"): u16 76.6 / 82.6, u8 60.4 / 64.4; pipelined is ahead of it for
// u16 from 2^20 items, level with it for u8 to 2^22 and ahead from 2^24
// (that day; since the relaxed publishes coarsened leads u8 by 0.7-1.4 us
// from 2^19 to 2^22 on both GPUs and is the default's u8 middle tier,
// config.hpp).
struct CoarsenedPolicy : TilePolicy<256, 128, 4, 3000, 0, false, 1024, 128> {
  static constexpr int kL2PrefetchBytes = 512 << 10;  // l2_prefetch.cuh
  template <class T>
  static constexpr int items() {
    return sizeof(T) < 4 ? 32 : TilePolicy::items<T>();
  }
  template <class T>
  static constexpr int staged_items() {
    return sizeof(T) < 4 ? 32 : TilePolicy::staged_items<T>();
  }
  template <class T>
  static constexpr bool full_warps_in_partial_tile() {
    return sizeof(T) != 4 && sizeof(T) != 8;
  }
};
static_assert(policy_tile_items<CoarsenedPolicy, std::uint16_t>() == 16384 &&
              policy_tile_items<CoarsenedPolicy, std::uint8_t>() == 16384 &&
              policy_tile_items<CoarsenedPolicy, std::uint32_t>() == 16384);
// 1- and 2-byte values on the persistent 128-thread shapes (pipelined and
// fallback): 16 + 48 staged items, u32's 8192-item tile. Their bytes (96 +
// 160) are 48 + 80 u16 or 96 + 160 u8 items: over the striped agent's 64
// chunks a thread on the scalar path (one item per chunk), so
// ScanPlan<std::uint16_t, Pipelined> did not compile. u32's counts (24 + 40)
// would not do for u8 either: its register items must be a multiple of its
// 16-item vector. 16 in registers (u32: 24) keeps two tiles' register sets
// within the 128-register bound (ptxas 13.0, sm_90: no spill). H100, % of
// copy at 2^26 / 2^30 (explore_u16 / explore_u8, 2026-11-27): pipelined u16
// 89.9 / 92.3, u8 63.2 / 65.2; fallback u16 89.2 / 91.8, u8 60.9 / 62.5. u8
// stays far from copy: an 8 KiB tile pays a whole tile's look-back and
// block-wide steps for a quarter of u32's bytes (not tuned further). In
// place, the fallback's 1- and 2-byte strong output stores (scalar path,
// partial last vector) are CAS loops (libcu++ has no native 8- or 16-bit
// atomic store; not measured).
inline constexpr int kPersistentSmallItems = 16;
inline constexpr int kPersistentSmallStagedItems = 48;
// Persistent blocks of two tiles each (the pipelined protocol,
// tiles_per_block = 2): 128 threads x (96 + 160 staged) bytes, 4 blocks per
// SM, no look-back delay (the next tile's loads fill the wait). Two tiles'
// register sets and stages: 128 registers, 41.5 KiB of shared memory. The
// tile is 8192 4-byte items: a power of two, so a scan of 2^k items has no
// partial tile and fills the grid's last round (2^20: 12.2 us against 15.9
// with 80 + 160; 2^24: 94.0% of copy against 85.2%).
// 8-byte values: 192 threads x (4 + 12 staged) items, 4 blocks per SM, the
// same 3072-item tile as before in smaller per-thread shares (ptxas, sm_90:
// 80 registers; spills of 4-16 bytes in some kernels: u64 and i64
// exclusive 12, f64 inclusive 8 and exclusive 16, Affine exclusive 16;
// bench/results/partial-tile-code/ptxas.txt). The
// hint was 3 until 2026-11-26; the vector-path kernels (78-80 registers)
// fitted 4 blocks anyway, until the smaller partial-tile
// code (agent_striped.cuh) let ptxas take 90-96 registers: 3 blocks, 5%
// slower at 2^24 and 2^26 (bench/results/README.md, "Partial-tile code
// size"). H100, u64 sum, against 128 x (4 + 20) / 4 (bench --suite explore,
// group explore_u64, bench/results/README.md 2026-11-26):
// 2^13 11.3 us against 12.9, 2^16 12.1 against 13.9, 2^20 16.1 against 18.1,
// % of copy at 2^24 / 2^26 / 2^28 / 2^30 93.4 / 97.5 / 98.1 / 98.3 against
// 90.0 / 96.3 / 97.4 / 97.8. 256 x (4 + 10) / 2 ran about 1 point behind it
// from 2^24 (up to 0.9 us faster below 2^19); 128 x (4 + 12) / 4 (2048-item
// tiles) was faster up to 2^22 and 1.3-2.5 points behind from 2^24. 128 x
// (8 + 16) / 4 and 128 x (4 + 20) / 4 ran 1-4 us slower than all of them
// below 2^21.
struct PipelinedPolicy : TilePolicy<128, 96, 4, 0, 0, false, 0, 160> {
  static constexpr int kL2PrefetchBytes = 1 << 20;  // l2_prefetch.cuh
  template <class T>
  static constexpr int block_threads() {
    return sizeof(T) == 8 ? 192 : kBlockThreads;
  }
  template <class T>
  static constexpr int min_blocks() {
    return sizeof(T) == 8 ? 4 : kMinBlocks;
  }
  template <class T>
  static constexpr int items() {
    return sizeof(T) == 8 ? 4 : sizeof(T) < 4 ? kPersistentSmallItems : TilePolicy::items<T>();
  }
  template <class T>
  static constexpr int staged_items() {
    return sizeof(T) == 8  ? 12
           : sizeof(T) < 4 ? kPersistentSmallStagedItems
                           : TilePolicy::staged_items<T>();
  }
};
static_assert(policy_tile_items<PipelinedPolicy, std::uint32_t>() == 8192 &&
              policy_tile_items<PipelinedPolicy, std::uint16_t>() == 8192 &&
              policy_tile_items<PipelinedPolicy, std::uint8_t>() == 8192);
static_assert(PipelinedPolicy::block_threads<std::uint64_t>() == 192 &&
              PipelinedPolicy::items<std::uint64_t>() == 4 &&
              PipelinedPolicy::staged_items<std::uint64_t>() == 12 &&
              policy_tile_items<PipelinedPolicy, std::uint64_t>() == 3072);
// Pipelined on GPUs of more DRAM bandwidth per SM (DeviceAdaptive,
// config.hpp: from kWideGBpsPerSm; the H200's 36.5 GB/s per SM, not the
// H100's 25.4): the same 4-byte shapes; 8-byte values 128 threads x (10 + 20
// staged) items, 4 blocks per SM (a 3840-item tile; ptxas 13.0, sm_90, the
// bench's vector-path inclusive sums: 128 registers, u64 no spill, f64 8
// bytes on 2026-11-28, none on 11-29).
// H200, u64 sum, % of copy at 2^26 / 2^28 / 2^30 (bench --suite tuning,
// two passes; bench/results/h200/tuning/): 93.5 / 93.6 / 93.2 against
// PipelinedPolicy's 192 x (4 + 12) 91.8 / 87.8 / 90.4. On the H100 the
// shape ran at 82.6% at 2^30 against 97.8% (without the L2 prefetch,
// bench/results/sectors/h100_tuning.log), so there it is not used. Again,
// explore_u64_shapes / explore_f64_shapes (two passes, 2026-11-28 evening,
// bench/results/h200/wide/): the default (this shape) at 2^24 / 2^26 / 2^28
// / 2^30 u64 87.8 / 93.3 / 92.3 / 92.5% against Pipelined's 87.2 / 91.6 /
// 90.1 / 90.9, f64 90.0 / 94.8 / 95.1 / 95.2 against 87.3 / 91.5 / 91.6 /
// 91.7; neighbours 128 x (12 + 20), (10 + 22), (12 + 18), 192 x (6 + 12)
// and 3 blocks per SM within 1 point of it or behind. Below 2^24 u64 items
// it pays at a few sizes only (explore_wide_switch, quarter steps,
// 2026-11-29, bench/results/h200/README.md, "Bring-up"): PipelinedPolicy's
// shape is 0.3-1.6 us ahead at most sizes from 1.25 x 2^20 to 10 x 2^20
// u64 items (wide ahead at 3.5-4 x 2^20), and 0.2-1.1 us from 1.5 x 2^20 to
// 3 x 2^20 f64 items (wide ahead from 3.5 x 2^20), on a second card too:
// so the default runs it above default_wide_switch_bytes only (config.hpp).
struct PipelinedWidePolicy : PipelinedPolicy {
  template <class T>
  static constexpr int block_threads() {
    return sizeof(T) == 8 ? 128 : PipelinedPolicy::block_threads<T>();
  }
  template <class T>
  static constexpr int items() {
    return sizeof(T) == 8 ? 10 : PipelinedPolicy::items<T>();
  }
  template <class T>
  static constexpr int staged_items() {
    return sizeof(T) == 8 ? 20 : PipelinedPolicy::staged_items<T>();
  }
};
static_assert(policy_tile_items<PipelinedWidePolicy, std::uint64_t>() == 3840 &&
              policy_tile_items<PipelinedWidePolicy, std::uint32_t>() ==
                  policy_tile_items<PipelinedPolicy, std::uint32_t>());
// Peak DRAM bandwidth per SM from which DefaultConfig takes the wide
// policies (device_memory.hpp): between the H100 SXM's 25.4 GB/s (3.35
// TB/s, 132 SMs) and H100 NVL's 29.6 on one side and the H200's 36.5
// (its runtime reports 3201 MHz x 6016 bits: 4.8 TB/s, 132 SMs) on the
// other; only the H100 SXM and the H200 were measured.
inline constexpr int kWideGBpsPerSm = 32;
// The fallback's blocks are persistent too (its protocol holds two tiles per
// block). 4-byte values take the pipelined shape. Its look-back code fits
// beside both register sets out of place (ptxas 13.0, sm_90, vector path:
// u32 122 registers and u64 128, no spill). In place the u32 kernel spills
// 116 bytes (u64: 4), from binding each strong 16-byte output store to a
// .b128 register; it ran at 92-93% of copy from 2^28 against pipelined's
// 99% (bench/results/README.md, 2026-11-26), 97.9% (u64 92.3%) by
// 2026-11-27, and 99.3% (u64 96.3%) at 2^30 since its output fence runs
// before every second tile's output only (protocol::output_fence_before):
// the fence was the gap; weak output stores measured no faster. Parking
// warp 0's items in shared memory during the look-back, as the one-tile
// fallback does, would take the u32 kernel past 48 KiB of static shared
// memory, and for u64 it measured no gain (H200, 2^30: 79.8 against 79.9%
// of copy).
// 8-byte values: 128 threads x (4 + 20 staged) items, 4 blocks per SM (32 +
// 160 bytes; 40 KiB of stages, like the 4-byte tile). 8 + 16 (the same
// 3072-item tile) spilled 100 bytes in the hot path (ptxas, sm_90) and ran 9%
// behind pipelined (H100, u64 at 2^28: 1602 us against 1473); with 4 + 20
// there is no spill and it took 1470 us (bench/results/fallback/
// h100_u64_spill_probe.log). Pipelined's 8-byte shape does not suit the
// fallback: % of copy at 2^26 / 2^30, u64, 192 x (4 + 12) / 3 93.1 / 94.2,
// 256 x (4 + 10) / 2 87.2 / 87.9, 128 x (4 + 12) / 4 90.8 / 91.2, against
// 96.1 / 97.7 (explore_u64_fallback; in place likewise: 82.7-88.1% at 2^30
// against 90.9%); below 2^21 those were 1-3 us faster.
// Partial tiles: 4-byte values send the whole tile down the partial path
// (ptxas: the u32 kernel's 4-byte spill goes; u32 sum 0.9% faster from 2^26,
// 98.5% of copy at 2^26 instead of 97.5; other 4-byte operations -1.9 to
// +1.1% from 2^21; below, +0.8 to +1.3% on the geometric mean, up to +6%,
// 0.5 us, at 2^11-2^13). 8-byte values keep the full warps on the full
// path (the whole tile on the partial path cost u64 and f64 6-10% below
// 2^18). H100; bench/results/README.md, "Partial tiles per agent".
struct FallbackPolicy : TilePolicy<128, 96, 4, 0, 0, false, 0, 160> {
  static constexpr int kL2PrefetchBytes = 1 << 20;  // l2_prefetch.cuh
  template <class T>
  static constexpr int items() {
    return sizeof(T) == 8 ? 4 : sizeof(T) < 4 ? kPersistentSmallItems : TilePolicy::items<T>();
  }
  template <class T>
  static constexpr int staged_items() {
    return sizeof(T) < 4 ? kPersistentSmallStagedItems : TilePolicy::staged_items<T>();
  }
  template <class T>
  static constexpr bool full_warps_in_partial_tile() {
    return sizeof(T) != 4;
  }
};
static_assert(policy_tile_items<FallbackPolicy, std::uint32_t>() == 8192 &&
              policy_tile_items<FallbackPolicy, std::uint16_t>() == 8192 &&
              policy_tile_items<FallbackPolicy, std::uint8_t>() == 8192);
static_assert(FallbackPolicy::items<std::uint64_t>() == 4 &&
              FallbackPolicy::staged_items<std::uint64_t>() == 20 &&
              policy_tile_items<FallbackPolicy, std::uint64_t>() == 3072);
// warp-lookback: 224 threads x 44 4-byte items (176 bytes, a 9856-item
// tile) or 20 8-byte items (160 bytes, 4480), __launch_bounds__(224, 3),
// look-back delay 3000 ns from 1024 tiles. Other sizes take 176 bytes a
// thread (12-byte values 14 items, 16-byte 11), capped at 44 items for 1-
// and 2-byte values (each item holds a register; CUB caps its scaling the
// same way). 1- and 2-byte sums (explore_u16 / explore_u8, 2026-11-27):
// within 0.2 us of the fastest variant up to 2^18 items and ahead at 2^10
// and 2^16 (u16 7.6 us at 2^18 against pipelined's 8.3), 70.9% (u16) and
// 40.7% (u8) of copy at 2^30; 12- and 16-byte values were not measured. Larger tiles than CUB's
// (128 x 24 u32, 224 x 12 u64) put more data in flight per SM, which one-tile blocks need
// (coarsened's finding too). ptxas 13.0, sm_90: 72-80 registers (sums, max, affine maps,
// deterministic floats, instrumented), no spill. H100, inclusive sum, % of copy at 2^24 / 2^26 /
// 2^28 / 2^30 (bench
// --suite explore --group explore_warp / explore_warp_u64, 2026-11-26
// afternoon; one run each, on different cards: bench/results/warp-shape/):
//   u32 224 x 44: 78.2 / 88.5 / 91.7 / 92.2, against 128 x 24 73.0 / 78.5 /
//     80.3 / 80.4 and CUB 75.6 / 80.0 / 81.6 / 81.6 (the same run); 224 x
//     40, 36 and 52 ran 0.2-2.5 points behind 224 x 44, 224 x 48 5.4 (not
//     monotone), 256 x 44 0.8, and 256 x 32 / 3, 224 x 32 / 4, 192 x 48,
//     192 x 56 and 128 x 64 further; delays of 2000 and 4000 ns within 1
//     point of 3000.
//   u64 224 x 20: 83.8 / 90.2 / 91.5 / 91.9, against 128 x 12 76.9 / 79.9 /
//     80.4 / 80.5 and CUB 86.5 / 89.9 / 90.2 / 90.4; at 2^30 CUB's own
//     shape 224 x 12 84.5 (another card), 224 x 16 87.5, 224 x 18 90.7,
//     224 x 22 88.7, 224 x 24 87.7, 256 x 20 89.3, 160 x 32 89.5, and
//     192 x 22 91.5: 1.3 and 0.6 points ahead of 224 x 20 at 2^22 and
//     2^24 (the same run), level at 2^26 and 0.3-0.4 behind from 2^28,
//     where the targets are; 224 threads keeps one block size for all
//     types.
//   u32 at 2^20: 10.9 us against 12.0 (CUB 12.5); 2^22 74.8% (CUB 66.0).
//   u64 still trails CUB at 2^22 and 2^24 (0.94x, 0.97x).
struct WarpLookbackPolicy : TilePolicy<224, 176, 3, 3000, 0, false, 1024> {
  static constexpr int kL2PrefetchBytes = 1 << 20;  // l2_prefetch.cuh
  template <class T>
  static constexpr int items() {
    return sizeof(T) == 8 ? 20 : sizeof(T) < 4 ? 44 : TilePolicy::items<T>();
  }
};
static_assert(policy_tile_items<WarpLookbackPolicy, std::uint32_t>() == 9856 &&
              policy_tile_items<WarpLookbackPolicy, std::uint64_t>() == 4480);
// warp-lookback for small inputs (the default's small half, config.hpp): 256
// threads x 64 bytes (16 x u32, 8 x u64; 1- and 2-byte values 16 items),
// __launch_bounds__(256, 4), the same delay (grids of these sizes stay under
// its 1024 tiles). Small scans are latency: a block's load, local scan and
// store take longer the more items a thread holds, and the scan is done when
// its slowest tile is. H100, sum, against WarpLookbackPolicy's 224 x 44 (bench
// --suite explore --group explore_small_warp{,_u64,_u16,_u8}, two passes,
// 2026-11-27; bench/results/README.md, "Small inputs"), mean change of the two
// passes: from 1.5 x 2^13 to 2^16 items 0.6-1.3 us faster for every type (u32
// 2^14: 6.50 / 7.17 us against 7.81 / 8.00), 2^17 0.6 (u64 0.1), 1.5 x 2^17
// 0.2-0.5, 2^18 level (-0.08 to +0.06 us), 2^19 u32 +0.10, u64 +0.58, 2^20 +0.4
// to +0.9. Below 1.5 x 2^13 items mixed: u64 0.5-1.3 us faster at 6144 and 8192
// (its 224 x 20 tile holds 4480 items) and 0.8 slower at 1024; the others
// within -0.5 to +0.6 us, about the pass-to-pass spread at these sizes (up to
// 9856 items the 224 x 44 tile scans as one tile and skips the look-back). 128
// x 96 bytes / 6 (CUB's 4-byte shape) and 128 x 64 / 8 were about as fast to
// 2^16 and slower above.
struct WarpLookbackSmallPolicy : TilePolicy<256, 64, 4, 3000, 0, false, 1024> {
  template <class T>
  static constexpr int items() {
    return sizeof(T) < 4 ? 16 : TilePolicy::items<T>();
  }
};
static_assert(policy_tile_items<WarpLookbackSmallPolicy, std::uint32_t>() == 4096 &&
              policy_tile_items<WarpLookbackSmallPolicy, std::uint64_t>() == 2048 &&
              policy_tile_items<WarpLookbackSmallPolicy, std::uint16_t>() == 4096 &&
              policy_tile_items<WarpLookbackSmallPolicy, std::uint8_t>() == 4096);

}  // namespace lookback
