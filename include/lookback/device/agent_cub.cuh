// Tile algorithm of the `warp-lookback` variant, built from CUB block
// primitives: cub::BlockLoad / cub::BlockStore (warp-striped scalar accesses
// transposed through shared memory) and cub::BlockScan (warp scans). The
// inter-tile part is the same generated protocol as every variant
// (tile_prefix.cuh). Data accesses are weak, so this agent serves protocols
// whose data_order() is Weak (no fallback).
#pragma once

#include <cstdint>

#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/first_wave.cuh"
#include "lookback/device/l2_prefetch.cuh"
#include "lookback/device/launch_state.cuh"
#include "lookback/device/params.hpp"
#include "lookback/device/partial.cuh"
#include "lookback/device/perturb.cuh"
#include "lookback/device/policy.hpp"
#include "lookback/device/tile_prefix.cuh"
#include "lookback/device/trace.cuh"

namespace lookback::device {

template <class Tag, class Policy, class T, class Op, bool kExclusive, bool kInstrumented>
struct CubAgent {
  static constexpr Protocol P = Tag::value;
  static_assert(!protocol::persistent(P), "the CUB tile algorithm runs one tile per block");
  static_assert(protocol::data_order(P) == protocol::Order::Weak,
                "the CUB tile algorithm moves data with weak accesses only");
  static_assert(!protocol::bounded_wait(P), "the CUB tile algorithm has no fallback");
  static constexpr int kThreads = Policy::template block_threads<T>();
  static constexpr int kMinBlocks = Policy::template min_blocks<T>();
  static constexpr int kItems = Policy::template items<T>();
  static_assert(Policy::template staged_items<T>() == 0, "the CUB tile algorithm stages nothing");
  static constexpr int kTileItems = kThreads * kItems;
  static_assert(kTileItems == policy_tile_items<Policy, T>());
  static constexpr int kAlign = static_cast<int>(alignof(T));
  using Desc = Descriptor<P, T>;
  using Params = KernelParams<T, Op>;
  using BlockLoadT = cub::BlockLoad<T, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using BlockStoreT = cub::BlockStore<T, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using BlockScanT = cub::BlockScan<T, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;

  struct Shared {
    union {
      typename BlockLoadT::TempStorage load;
      typename BlockStoreT::TempStorage store;
      typename BlockScanT::TempStorage scan;
    } cub;
    T tile_exclusive;
    std::uint32_t tile;
    std::uint32_t epoch;
    std::uint32_t drawn;  // the draw's count (LaunchState::finish)
    int has_exclusive;
    int ok;
  };

  struct NoReducer {
    __device__ T operator()(std::uint32_t) const { return T{}; }
  };

  // Called by all lanes of one warp after the block's last descriptor access.
  __device__ static void count_finished(const Params& p, Shared& sm, const Desc& desc,
                                        std::uint32_t epoch, int lane) {
    LaunchState<P>::finish(p.header, desc, p.num_tiles, epoch, sm.drawn, false, lane);
    if constexpr (kInstrumented) {
      if (lane == 0) perturb_count_done(p.perturb);
    }
  }

  // The drawing thread asks L2 for the input of a later tile
  // (TilePolicy::kL2PrefetchBytes; l2_prefetch.cuh).
  static constexpr int kPrefetchTiles = policy_prefetch_tiles<Policy, T>();
  static constexpr int kPaceGBps = Policy::kFirstWavePaceGBps;
  static_assert(kPaceGBps == 0 || LaunchState<P>::kDraws, "pacing goes by the ticket");

  __device__ static void run(const Params& p) {
    __shared__ Shared sm;
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid & 31;
    const int warp = tid >> 5;
    Op op = p.op;
    const Desc desc(p.descriptors);

    if constexpr (kInstrumented) prestress(p.perturb);
    if (tid == 0) {
      const Draw d = LaunchState<P>::draw(p.header);
      sm.epoch = d.epoch;
      sm.drawn = d.count;
      sm.tile = kInstrumented ? perturb_tile(p.perturb, d.tile, p.num_tiles) : d.tile;
      if constexpr (kInstrumented) trace_stamp(p.trace, sm.tile, TracePoint::Drawn);
      if constexpr (kPrefetchTiles > 0)
        prefetch_later_tile<kPrefetchTiles, kTileItems, false>(p.in, sm.tile, p.prefetch);
      pace_first_draw<Policy, std::uint64_t{kTileItems} * sizeof(T)>(d.count, p.prefetch,
                                                                     P.tiles_per_block);
    }
    __syncthreads();
    const std::uint32_t tile = sm.tile;
    const std::uint32_t epoch = sm.epoch;
    // One draw per block: a count past the grid means the launch word was
    // not reset (a blockIdx variant draws too, under the epoch reset).
    if (tile >= p.num_tiles || sm.drawn >= gridDim.x) {
      if (tid == 0) raise_error(p.header, DeviceError::TicketOverflow, sm.drawn);
      if (warp == 0) count_finished(p, sm, desc, epoch, lane);
      return;
    }
    const std::int64_t tile_base = static_cast<std::int64_t>(tile) * kTileItems;
    const std::int64_t tile_valid = p.num_items - tile_base;
    const bool full = tile_valid >= kTileItems;

    T items[kItems];
    if (full) {
      BlockLoadT(sm.cub.load).Load(p.in + tile_base, items);
    } else {
      // Past the end: copies of the tile's first item, right of every valid item.
      BlockLoadT(sm.cub.load)
          .Load(p.in + tile_base, items, static_cast<int>(tile_valid), p.in[tile_base]);
    }
    __syncthreads();  // load storage is reused by the scan

    T thread_aggregate = items[0];
#pragma unroll
    for (int i = 1; i < kItems; ++i)
      thread_aggregate = op(thread_aggregate, items[i]);
    T thread_exclusive{};  // undefined for thread 0
    T aggregate{};
    BlockScanT(sm.cub.scan).ExclusiveScan(thread_aggregate, thread_exclusive, op, aggregate);

    using Prefix = TilePrefix<P, Policy, T, Op, kExclusive, kInstrumented>;
    if (warp == 0) Prefix::publish_aggregate(p, desc, op, tile, epoch, aggregate, lane);

    bool first_absent = false;
    {
      Partial<T> run{thread_exclusive, tid > 0};
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        const T x = items[i];
        if constexpr (kExclusive) {
          if (run.valid) {
            items[i] = run.value;
          } else {
            first_absent = true;
          }
          run = combine(op, run, x);
        } else {
          run = combine(op, run, x);
          items[i] = run.value;
        }
      }
    }

    if (warp == 0) {
      NoReducer reduce;
      Partial<T> exclusive{};
      const bool ok = Prefix::resolve(p, desc, op, tile, epoch, aggregate, reduce, lane, exclusive);
      if (lane == 0) {
        sm.tile_exclusive = exclusive.value;
        sm.has_exclusive = exclusive.valid ? 1 : 0;
        sm.ok = ok ? 1 : 0;
      }
    }
    __syncthreads();  // tile prefix ready; scan storage free for the store
    // The block's descriptor accesses are over (warp 0's, ordered by the
    // barrier): count it finished now, from the last warp, whose release
    // waits for no data store of its own (launch_state.cuh).
    if (warp == kThreads / 32 - 1) count_finished(p, sm, desc, epoch, lane);

    if (sm.ok) {
      const Partial<T> exclusive{sm.tile_exclusive, sm.has_exclusive != 0};
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if constexpr (kExclusive) {
          items[i] = (i == 0 && first_absent) ? exclusive.value : op(exclusive.value, items[i]);
        } else {
          if (exclusive.valid) items[i] = op(exclusive.value, items[i]);
        }
      }
      if (full) {
        BlockStoreT(sm.cub.store).Store(p.out + tile_base, items);
      } else {
        BlockStoreT(sm.cub.store).Store(p.out + tile_base, items, static_cast<int>(tile_valid));
      }
      if constexpr (kInstrumented) {
        // Stored: every warp issued its stores (a traced launch only).
        if (p.trace.tiles != nullptr) {
          __syncthreads();
          if (tid == 0) trace_stamp(p.trace, tile, TracePoint::Stored);
        }
      }
    }
  }
};

}  // namespace lookback::device
