// Tile algorithm of the `coarsened` and `fallback` variants: many items per
// thread, moved with 16-byte vectors in a warp-striped arrangement, scanned
// with cub::WarpScan, no shared-memory transpose.
//
// A tile of kThreads * kItems items is cut into one contiguous segment per
// warp; a segment is kChunks chunks of 32 vectors (one per lane), so every
// warp-wide access is 32 * 16 = 512 contiguous bytes. Per chunk a lane folds
// its vector, cub::WarpScan scans the 32 vector sums, and the chunk totals
// fold left into the warp's aggregate; warp aggregates fold left (through
// shared memory) into the tile's aggregate. That association is fixed, and a
// fallback reduces a predecessor's tile with the very same code (one warp
// playing every warp in turn), so its aggregate is bitwise the owner's.
//
// Per block: tile id (and epoch) -> load -> aggregate -> warp 0 publishes and
// looks back (tile_prefix.cuh) while the other warps finish their local scan
// -> barrier -> combine with the tile's exclusive prefix -> store.
#pragma once

#include <cstdint>

#include <cub/warp/warp_scan.cuh>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/launch_state.cuh"
#include "lookback/device/params.hpp"
#include "lookback/device/partial.cuh"
#include "lookback/device/tile_io.cuh"
#include "lookback/device/tile_prefix.cuh"

namespace lookback::device {

template <class Tag, class Policy, class T, class Op, bool kExclusive, Access kAccess,
          bool kDeterministic, bool kInstrumented>
struct StripedAgent {
  static constexpr Protocol P = Tag::value;
  static constexpr int kThreads = Policy::kBlockThreads;
  static constexpr int kMinBlocks = Policy::kMinBlocks;
  static constexpr int kItems = Policy::template items<T>();
  static constexpr int kWarps = kThreads / 32;
  static constexpr protocol::Order kData = protocol::data_order(P);
  static constexpr int kVec = vector_items<T, kData, kAccess>();
  static_assert(kItems % kVec == 0, "items per thread must be a multiple of the vector width");
  static constexpr int kChunks = kItems / kVec;
  static constexpr int kSegment = 32 * kItems;
  static constexpr int kTileItems = kThreads * kItems;
  using IO = VectorIO<T, kVec, kData>;
  static constexpr int kAlign = IO::kAlign;  // pointer alignment this path needs
  using Desc = Descriptor<P, T>;
  using WarpScanT = cub::WarpScan<T>;
  using Params = KernelParams<T, Op>;
  using Items = T[kChunks][kVec];

  struct Shared {
    typename WarpScanT::TempStorage scan[kWarps];
    T warp_aggregate[kWarps];
    T tile_exclusive;
    std::uint32_t tile;
    std::uint32_t epoch;
    int has_exclusive;
    int ok;
  };

  __device__ static void load_full(const T* segment, int lane, Items& items) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k)
      IO::load(segment + (k * 32 + lane) * kVec, items[k]);
  }
  __device__ static void load_partial(const T* segment, int lane, std::int64_t valid, const T& fill,
                                      Items& items) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int off = (k * 32 + lane) * kVec;
      if (off + kVec <= valid) {
        IO::load(segment + off, items[k]);
      } else {
#pragma unroll
        for (int e = 0; e < kVec; ++e)
          items[k][e] = off + e < valid ? load_object<kData, alignof(T)>(segment + off + e) : fill;
      }
    }
  }

  // The fixed association of a segment's aggregate (see the top comment).
  __device__ static T segment_reduce(Op& op, typename WarpScanT::TempStorage& storage,
                                     const Items& items, T (&inclusive)[kChunks],
                                     T (&total)[kChunks]) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      T s = items[k][0];
#pragma unroll
      for (int e = 1; e < kVec; ++e)
        s = op(s, items[k][e]);
      WarpScanT(storage).InclusiveScan(s, inclusive[k], op, total[k]);
    }
    T aggregate = total[0];
#pragma unroll
    for (int k = 1; k < kChunks; ++k)
      aggregate = op(aggregate, total[k]);
    return aggregate;
  }

  // The fallback's reduction of a (full) predecessor tile, by one warp.
  struct TileReducer {
    const T* in;
    Op op;
    typename WarpScanT::TempStorage* storage;
    int lane;
    __device__ T operator()(std::uint32_t t) {
      const T* tile_in = in + static_cast<std::int64_t>(t) * kTileItems;
      T block{};
#pragma unroll 1
      for (int w = 0; w < kWarps; ++w) {
        Items items;
        load_full(tile_in + w * kSegment, lane, items);
        T inclusive[kChunks], total[kChunks];
        const T warp_aggregate = segment_reduce(op, *storage, items, inclusive, total);
        block = w == 0 ? warp_aggregate : op(block, warp_aggregate);
      }
      return block;
    }
  };

  __device__ static void run(const Params& p) {
    __shared__ Shared sm;
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid & 31;
    const int warp = tid >> 5;
    Op op = p.op;
    const Desc desc(p.descriptors);

    if (tid == 0) {
      sm.tile = LaunchState<P>::tile_id(p.header);
      sm.epoch = LaunchState<P>::epoch(p.header);
    }
    __syncthreads();
    const std::uint32_t tile = sm.tile;
    const std::uint32_t epoch = sm.epoch;
    if (tile >= p.num_tiles) {  // only if the ticket was not reset
      if (tid == 0) raise_error(p.header, DeviceError::TicketOverflow, tile);
      if (warp == 0) LaunchState<P>::finish(p.header, desc, p.num_tiles, epoch, lane);
      return;
    }

    const std::int64_t tile_base = static_cast<std::int64_t>(tile) * kTileItems;
    const std::int64_t tile_valid = p.num_items - tile_base;
    const bool full = tile_valid >= kTileItems;
    const std::int64_t segment_base = tile_base + static_cast<std::int64_t>(warp) * kSegment;
    const std::int64_t segment_valid = tile_valid - static_cast<std::int64_t>(warp) * kSegment;

    Items items;
    if (full) {
      load_full(p.in + segment_base, lane, items);
    } else {
      // Items past the end get a copy of the tile's first item: they only
      // ever sit to the right of every valid item, so no valid output sees them.
      const T fill = load_object<kData, alignof(T)>(p.in + tile_base);
      load_partial(p.in + segment_base, lane, segment_valid, fill, items);
    }

    T inclusive[kChunks], total[kChunks];
    const T warp_aggregate = segment_reduce(op, sm.scan[warp], items, inclusive, total);
    if (lane == 0) sm.warp_aggregate[warp] = warp_aggregate;
    __syncthreads();

    T aggregate = sm.warp_aggregate[0];
    Partial<T> warp_exclusive{};
#pragma unroll
    for (int w = 1; w < kWarps; ++w) {
      if (w == warp) warp_exclusive = Partial<T>{aggregate, true};
      aggregate = op(aggregate, sm.warp_aggregate[w]);
    }

    if (warp == 0) {
      TileReducer reduce{p.in, op, &sm.scan[0], lane};
      Partial<T> exclusive{};
      const bool ok = TilePrefix<P, T, Op, kExclusive, kDeterministic, kInstrumented>::run(
          p, desc, op, tile, epoch, aggregate, reduce, lane, exclusive);
      if (lane == 0) {
        sm.tile_exclusive = exclusive.value;
        sm.has_exclusive = exclusive.valid ? 1 : 0;
        sm.ok = ok ? 1 : 0;
      }
    }

    // Local scan, relative to the tile's start: items become inclusive (or
    // exclusive) prefixes within the tile.
    bool first_absent = false;  // exclusive: nothing left of it inside the tile
    {
      Partial<T> carry = warp_exclusive;
#pragma unroll
      for (int k = 0; k < kChunks; ++k) {
        const T up = cub::ShuffleUp<32>(inclusive[k], 1, 0, 0xffffffffu);
        Partial<T> run = combine(op, carry, Partial<T>{up, lane > 0});
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          const T x = items[k][e];
          if constexpr (kExclusive) {
            if (run.valid) {
              items[k][e] = run.value;
            } else {
              first_absent = true;
            }
            run = combine(op, run, x);
          } else {
            run = combine(op, run, x);
            items[k][e] = run.value;
          }
        }
        carry = combine(op, carry, total[k]);
      }
    }
    __syncthreads();

    if (sm.ok) {
      const Partial<T> exclusive{sm.tile_exclusive, sm.has_exclusive != 0};
#pragma unroll
      for (int k = 0; k < kChunks; ++k) {
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          if constexpr (kExclusive) {
            items[k][e] = (k == 0 && e == 0 && first_absent) ? exclusive.value
                                                             : op(exclusive.value, items[k][e]);
          } else {
            if (exclusive.valid) items[k][e] = op(exclusive.value, items[k][e]);
          }
        }
      }
      // In-place fallback: "output written" must imply "descriptor published"
      // for a validating reader (protocol::output_fence).
      fence<protocol::output_fence(P)>();
      T* segment = p.out + segment_base;
      if (full) {
#pragma unroll
        for (int k = 0; k < kChunks; ++k)
          IO::store(segment + (k * 32 + lane) * kVec, items[k]);
      } else {
#pragma unroll
        for (int k = 0; k < kChunks; ++k) {
          const int off = (k * 32 + lane) * kVec;
          if (off + kVec <= segment_valid) {
            IO::store(segment + off, items[k]);
          } else {
#pragma unroll
            for (int e = 0; e < kVec; ++e)
              if (off + e < segment_valid)
                store_object<kData, alignof(T)>(segment + off + e, items[k][e]);
          }
        }
      }
    }
    if (warp == 0) LaunchState<P>::finish(p.header, desc, p.num_tiles, epoch, lane);
  }
};

}  // namespace lookback::device
