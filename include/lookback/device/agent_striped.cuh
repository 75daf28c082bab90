// Tile algorithm of the `coarsened`, `pipelined` and `fallback` variants:
// many items per thread, moved with 16-byte vectors in a warp-striped
// arrangement, scanned with cub::WarpScan, no shared-memory transpose.
//
// A tile of kThreads * (kItems + kStagedItems) items is cut into one
// contiguous segment per warp; a segment is kAllChunks chunks of 32 vectors
// (one per lane), so every warp-wide access is 32 * 16 = 512 contiguous
// bytes. The first kChunks chunks of a lane live in its registers, the other
// kStagedChunks in shared memory (Policy::kStagedBytesPerThread; cp.async
// copies them there without passing through registers), so a tile holds more
// than the register file allows and more data is in flight per SM. Per chunk a lane folds
// its vector, cub::WarpScan scans the 32 vector sums, and the chunk totals
// fold left into the warp's aggregate; warp aggregates fold left (through
// shared memory) into the tile's aggregate. That association is fixed, and a
// fallback reduces a predecessor's tile with the very same code (one warp
// playing every warp in turn), so its aggregate is bitwise the owner's.
//
// Per tile: tile id -> load -> aggregate -> warp 0 publishes and looks back
// (tile_prefix.cuh) while the other warps finish their local scan -> barrier
// -> combine with the tile's exclusive prefix -> store. A block counts itself
// finished (launch_state.cuh) after its last look-back, before its last
// stores.
//
// One tile per block (protocol::persistent(P) false): the grid has a block
// per tile. Persistent blocks (P.tiles_per_block == 2): the grid is what the
// device holds at once (dispatch.cuh) and a block holds two tiles, each in
// its own register set and shared-memory stage. Holding tile t (aggregate
// published), it draws its next tile, loads and scans it and publishes its
// aggregate, and only then looks back for t and stores t. So the look-back's
// wait overlaps the next tile's loads, an aggregate never waits on a
// look-back, and a block waits only on lower tiles whose aggregates are on
// their way: the protocol the model checks for such variants
// (models/src/protocol_model.cpp, run_persistent).
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_pipeline.h>

#include <cub/warp/warp_scan.cuh>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/first_wave.cuh"
#include "lookback/device/l2_prefetch.cuh"
#include "lookback/device/launch_state.cuh"
#include "lookback/device/params.hpp"
#include "lookback/device/partial.cuh"
#include "lookback/device/perturb.cuh"
#include "lookback/device/policy.hpp"
#include "lookback/device/tile_io.cuh"
#include "lookback/device/tile_prefix.cuh"
#include "lookback/device/trace.cuh"

namespace lookback::device {

template <class Tag, class Policy, class T, class Op, bool kExclusive, Access kAccess,
          bool kInstrumented>
struct StripedAgent {
  static constexpr Protocol P = Tag::value;
  static constexpr int kThreads = Policy::template block_threads<T>();
  static constexpr int kMinBlocks = Policy::template min_blocks<T>();
  static constexpr int kItems = Policy::template items<T>();
  static constexpr int kWarps = kThreads / 32;
  static constexpr protocol::Order kData = protocol::data_order(P);
  static constexpr int kVec = vector_items<T, kData, kAccess>();
  static constexpr int kStagedItems = Policy::template staged_items<T>();
  // The scalar path always keeps the full warps of a partial tile on the
  // full path: its partial path moves one item per loop step, and with the
  // whole tile on it a third-full last tile took 3 us longer (u32, 2^16 +
  // 2,735 items: coarsened 14.2 -> 17.7 us, fallback 12.3 -> 15.4).
  static constexpr bool kFullWarpsInPartialTile =
      kAccess == Access::Scalar || Policy::template full_warps_in_partial_tile<T>();
  static_assert(kItems % kVec == 0, "items per thread must be a multiple of the vector width");
  static_assert(kStagedItems % kVec == 0, "staged items must be a multiple of the vector width");
  static constexpr int kChunks = kItems / kVec;              // in registers
  static constexpr int kStagedChunks = kStagedItems / kVec;  // in shared memory
  static constexpr int kAllChunks = kChunks + kStagedChunks;
  static_assert(kAllChunks <= 64, "at most 64 chunks per thread (one bit each)");
  // Bit k: lane 0's first item of chunk k has nothing left of it in its chunk.
  using Absent = std::conditional_t<(kAllChunks > 32), std::uint64_t, std::uint32_t>;
  static constexpr int kSegment = 32 * (kItems + kStagedItems);
  static constexpr int kTileItems = kThreads * (kItems + kStagedItems);
  static_assert(kTileItems == policy_tile_items<Policy, T>());
  // Output stores and the fallback's reads of other tiles' input take
  // kData; the owner's reads of its own input take kOwnerLoad (weak, also in
  // place: protocol::input_load_order).
  using DataIO = VectorIO<T, kVec, kData, Policy::kStreaming>;
  static constexpr protocol::Order kOwnerLoad = protocol::input_load_order(P);
  using OwnerLoadIO = VectorIO<T, kVec, kOwnerLoad, Policy::kStreaming>;
  static constexpr int kAlign = DataIO::kAlign;  // pointer alignment this path needs
  // cp.async moves 4, 8 or 16 aligned bytes with a weak read; otherwise (odd
  // sizes) staged vectors pass through registers.
  static constexpr bool kAsyncStage =
      kOwnerLoad == protocol::Order::Weak && OwnerLoadIO::kAlign >= OwnerLoadIO::kBytes &&
      (OwnerLoadIO::kBytes == 4 || OwnerLoadIO::kBytes == 8 || OwnerLoadIO::kBytes == 16);
  struct alignas(DataIO::kAlign) Vector {
    T item[kVec];
  };
  using Desc = Descriptor<P, T>;
  using WarpScanT = cub::WarpScan<T>;
  using Params = KernelParams<T, Op>;
  using Items = T[kChunks][kVec];

  // Tiles a block holds at once: one register set and one shared-memory
  // stage each.
  static constexpr bool kPersistent = protocol::persistent(P);
  static constexpr int kStages = kPersistent ? 2 : 1;
  // With a fallback on one-tile blocks, warp 0 parks its items in shared
  // memory during the look-back, so the inlined fallback reduction has the
  // registers to itself (a call, or both live at once, would spill in the
  // hot path under __launch_bounds__(256, 4)). Persistent blocks run at 128
  // registers (80 for 8-byte values, with fewer items each), where the
  // reduction fits beside both tiles' items, and a stash
  // of both would not fit in static shared memory (policy.hpp).
  static constexpr bool kStashWarp0 = protocol::bounded_wait(P) && !kPersistent;
  static constexpr int kStashItems = kStashWarp0 ? 32 * kItems : 1;
  static_assert(!kPersistent || P.tile_id == protocol::TileIdSource::Ticket,
                "persistent blocks draw their tiles by ticket");

  struct Shared {
    Vector staged[kStages][kStagedChunks > 0 ? kWarps : 1][kStagedChunks > 0 ? kStagedChunks : 1]
                 [32];
    T stash[kStashItems];
    typename WarpScanT::TempStorage scan[kWarps];
    // carry[s][w][k] = total_0 op ... op total_{k-1} of warp w, stage s
    T carry[kStages][kWarps][kAllChunks];
    T warp_aggregate[kWarps];
    T tile_exclusive;
    std::uint32_t tile;
    std::uint32_t epoch;
    std::uint32_t drawn;  // one-tile blocks: the draw's count (LaunchState::finish)
    int has_exclusive;
    int ok;
  };

  // A lane's vector of chunk k starts here in its warp's segment.
  __device__ static constexpr int offset(int k, int lane) { return (k * 32 + lane) * kVec; }

  // The staged chunks first (cp.async, in flight while the register loads
  // are issued), then the register chunks.
  __device__ static void stage_full(Shared& sm, int stage, const T* segment, int warp, int lane) {
#pragma unroll
    for (int s = 0; s < kStagedChunks; ++s)
      stage_vector(sm.staged[stage][warp][s][lane], segment + offset(kChunks + s, lane));
    if constexpr (kAsyncStage && kStagedChunks > 0) __pipeline_commit();
  }
  __device__ static void stage_vector(Vector& dst, const T* src) {
    if constexpr (kAsyncStage) {
      __pipeline_memcpy_async(&dst, src, OwnerLoadIO::kBytes);
    } else {
      OwnerLoadIO::load(src, dst.item);
    }
  }
  __device__ static void load_full(const T* segment, int lane, Items& items) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k)
      OwnerLoadIO::load(segment + offset(k, lane), items[k]);
  }
  // A partial tile (the grid's last). Items past the end get a copy of the
  // tile's first item: they only ever sit to the right of every valid item,
  // so no valid output sees them. Every load is issued first (whole vectors
  // as on the full path, the vector holding the end item by item, staged
  // ones by cp.async), and only then are the fills written. Until
  // 2026-11-26 every staged vector passed through registers on its way to
  // shared memory, one DRAM round trip after another on the grid's critical
  // path (H100, pipelined u32 at 2^20 + 54,919 items: 17.1 us then, 11.9
  // now, as at 2^20; bench/results/README.md, "Partial last tiles"). Staged
  // items that cp.async cannot move still pass through registers: those of
  // the vector holding the end where kAsyncStageItem is false (one round
  // trip), every staged vector without kAsyncStage (as on the full path).
  // cp.async moves one item of the vector holding the end where the item is
  // 4 or 8 bytes aligned to its size (a 16-byte item is a vector of its own).
  static constexpr bool kAsyncStageItem = kAsyncStage && alignof(T) >= sizeof(T) &&
                                          (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16);

  // A segment's valid items: at most kSegment (and at least
  // 1 - (kWarps - 1) * kSegment), so an int holds it.
  __device__ static int segment_items(std::int64_t segment_valid) {
    return static_cast<int>(segment_valid < kSegment ? segment_valid : std::int64_t{kSegment});
  }
  // The partial path is kept small. Only the warp holding the end and those
  // past it take it (the warps before it load and store as in a full tile:
  // Work::full is per warp), unless the policy sends the whole tile down it
  // (kFullWarpsInPartialTile false); its staged chunks go through loops that are
  // not unrolled (shared memory takes a run-time index; the loads and the
  // stores stop at the end, the fills begin at the chunk holding it); its
  // register chunks are unrolled. Smaller code mattered more
  // than fewer instructions: H100, u32, with every chunk unrolled and
  // branching once per chunk (fewer instructions executed than now) a
  // nearly full last tile took 1 us longer, and the scalar path's partial
  // tile 14 us (pipelined on misaligned pointers: 106.6 us at 2^24 + 1
  // items against 92.2 at 2^24; now 65.6 against 65.4). Only one block per
  // launch runs this code, so a cold instruction cache is the likely cause;
  // not profiled. bench/results/README.md, "Partial-tile code size".
  // Staged vectors that pass through registers (no kAsyncStage) keep every
  // staged loop unrolled, so that ptxas can issue their loads before their
  // shared-memory stores (not checked in SASS since the loads' loop exits
  // at the end).
  static constexpr int kStagedUnroll = kAsyncStage ? 1 : (kStagedChunks > 0 ? kStagedChunks : 1);
  // The part of a lane's vector at `off` that lies before the end: the whole
  // vector, or item by item.
  template <class Whole, class Item>
  __device__ static void before_end(int off, int valid, Whole whole, Item item) {
    if (off + kVec <= valid) {
      whole();
    } else {
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        if (off + e < valid) item(e);
    }
  }
  __device__ static void load_partial(Shared& sm, int stage, const T* segment, int warp, int lane,
                                      std::int64_t segment_valid, const T* tile_first,
                                      Items& items) {
    const int valid = segment_items(segment_valid);
    const T fill = load_object<kOwnerLoad, alignof(T)>(tile_first);
    // Chunks wholly past the end load nothing (the test is the same in
    // every lane of the warp).
#pragma unroll kStagedUnroll
    for (int s = 0; s < kStagedChunks && offset(kChunks + s, 0) < valid; ++s) {
      Vector& dst = sm.staged[stage][warp][s][lane];
      const T* src = segment + offset(kChunks + s, lane);
      before_end(
          offset(kChunks + s, lane), valid, [&] { stage_vector(dst, src); },
          [&](int e) {
            if constexpr (kAsyncStageItem) {
              __pipeline_memcpy_async(&dst.item[e], src + e, sizeof(T));
            } else {
              dst.item[e] = load_object<kOwnerLoad, alignof(T)>(src + e);
            }
          });
    }
    if constexpr (kAsyncStage && kStagedChunks > 0) __pipeline_commit();
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const T* src = segment + offset(k, lane);
      before_end(
          offset(k, lane), valid, [&] { OwnerLoadIO::load(src, items[k]); },
          [&](int e) { items[k][e] = load_object<kOwnerLoad, alignof(T)>(src + e); });
    }
    // Fills from the chunk holding the end on.
    const int first_fill = valid <= 0 ? 0 : valid / (32 * kVec) - kChunks;
#pragma unroll kStagedUnroll
    for (int s = first_fill > 0 ? first_fill : 0; s < kStagedChunks; ++s)
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        if (offset(kChunks + s, lane) + e >= valid) sm.staged[stage][warp][s][lane].item[e] = fill;
#pragma unroll
    for (int k = 0; k < kChunks; ++k)
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        if (offset(k, lane) + e >= valid) items[k][e] = fill;
  }

  // One chunk: fold the lane's vector left, scan the 32 vector sums; returns
  // the chunk's total. The fixed association of a segment's aggregate is
  // ((total_0 op total_1) op ...) op total_{kAllChunks-1}.
  __device__ static T chunk_scan(Op& op, typename WarpScanT::TempStorage& storage,
                                 const T (&v)[kVec], T& inclusive) {
    T s = v[0];
#pragma unroll
    for (int e = 1; e < kVec; ++e)
      s = op(s, v[e]);
    T total;
    WarpScanT(storage).InclusiveScan(s, inclusive, op, total);
    return total;
  }
  // The owner's pass over one chunk of its segment: chunk_scan, then the
  // items become prefixes local to the chunk (lane 0's first item of each
  // chunk has nothing left of it in an exclusive scan: bit k of `absent`);
  // lane 0 records the chunk's carry. `running` folds the chunk totals
  // exactly as TileReducer folds them.
  __device__ static void scan_chunk(Op& op, Shared& sm, int stage, int warp, int lane, int k,
                                    T (&v)[kVec], T& running, Absent& absent) {
    T inclusive;
    const T total = chunk_scan(op, sm.scan[warp], v, inclusive);
    const T up = cub::ShuffleUp<32>(inclusive, 1, 0, 0xffffffffu);
    Partial<T> run{up, lane > 0};
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      const T x = v[e];
      if constexpr (kExclusive) {
        if (run.valid) {
          v[e] = run.value;
        } else {
          absent |= Absent{1} << k;
        }
        run = combine(op, run, x);
      } else {
        run = combine(op, run, x);
        v[e] = run.value;
      }
    }
    if (k > 0 && lane == 0) sm.carry[stage][warp][k] = running;
    running = k == 0 ? total : op(running, total);
  }
  // The register chunks, then the staged ones (in place in shared memory).
  // Returns the warp's aggregate.
  __device__ static T scan_segment(Op& op, Shared& sm, int stage, int warp, int lane, Items& items,
                                   Absent& absent) {
    T running{};
#pragma unroll
    for (int k = 0; k < kChunks; ++k)
      scan_chunk(op, sm, stage, warp, lane, k, items[k], running, absent);
    // Own copies only. In place this also keeps them ahead of the tile's
    // output stores (protocol::input_load_order).
    if constexpr (kAsyncStage && kStagedChunks > 0) __pipeline_wait_prior(0);
#pragma unroll
    for (int s = 0; s < kStagedChunks; ++s) {
      Vector& staged = sm.staged[stage][warp][s][lane];
      T v[kVec];
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        v[e] = staged.item[e];
      scan_chunk(op, sm, stage, warp, lane, kChunks + s, v, running, absent);
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        staged.item[e] = v[e];
    }
    return running;
  }

  // Chunk k's items become prefixes local to the tile: (warp_exclusive op
  // carry_k) op item. `first_absent`: the tile's very first item of an
  // exclusive scan, with nothing left of it at all.
  __device__ static void to_tile_prefix(Op& op, const Shared& sm, int stage, int warp, int k,
                                        const Partial<T>& warp_exclusive, Absent absent,
                                        T (&v)[kVec], bool& first_absent) {
    Partial<T> pre = warp_exclusive;
    if (k > 0) pre = combine(op, pre, sm.carry[stage][warp][k]);
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      if (kExclusive && e == 0 && ((absent >> k) & 1)) {
        if (pre.valid) {
          v[e] = pre.value;
        } else {
          first_absent = true;
        }
      } else if (pre.valid) {
        v[e] = op(pre.value, v[e]);
      }
    }
  }
  // Chunk k's tile-local prefixes become the scan's output.
  __device__ static void to_output(Op& op, int k, const Partial<T>& exclusive, bool first_absent,
                                   T (&v)[kVec]) {
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      if constexpr (kExclusive) {
        v[e] = (k == 0 && e == 0 && first_absent) ? exclusive.value : op(exclusive.value, v[e]);
      } else {
        if (exclusive.valid) v[e] = op(exclusive.value, v[e]);
      }
    }
  }
  // A partial tile's vector at `off`: only what lies before the end.
  __device__ static void store_partial(T* segment, int off, int valid, const T (&v)[kVec]) {
    before_end(
        off, valid, [&] { DataIO::store(segment + off, v); },
        [&](int e) { store_object<kData, alignof(T)>(segment + off + e, v[e]); });
  }

  // The fallback's reduction of a (full) predecessor tile by one warp: the
  // same chunk_scan calls in the same order as the owner's, so the same
  // bits; a few chunks at a time to keep its registers small.
  static constexpr int kReduceGroup = kAllChunks % 2 == 0 ? 2 : 1;
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
        T segment{};
#pragma unroll 1
        for (int k0 = 0; k0 < kAllChunks; k0 += kReduceGroup) {
          T v[kReduceGroup][kVec];
#pragma unroll
          for (int g = 0; g < kReduceGroup; ++g)
            DataIO::load(tile_in + w * kSegment + offset(k0 + g, lane), v[g]);
#pragma unroll
          for (int g = 0; g < kReduceGroup; ++g) {
            T inclusive;
            const T total = chunk_scan(op, *storage, v[g], inclusive);
            segment = (k0 + g == 0) ? total : op(segment, total);
          }
        }
        block = w == 0 ? segment : op(block, segment);
      }
      return block;
    }
  };

  // One tile's state between its steps, in the registers of every thread
  // (each thread's own share).
  struct Work {
    std::uint32_t tile;
    bool full;  // this warp's segment (or, per policy, the tile) lies wholly before the end
    std::int64_t segment_base, segment_valid;
    T aggregate;
    Partial<T> warp_exclusive;
    Absent absent;      // see scan_chunk
    bool first_absent;  // exclusive: the tile's first item, nothing left of it
  };
  using Prefix = TilePrefix<P, Policy, T, Op, kExclusive, kInstrumented>;

  // Every persistent block draws until a ticket is past the last tile, so a
  // launch draws num_tiles + gridDim.x tickets: a larger one means the
  // ticket was not reset (the one-tile program's TicketOverflow check).
  __device__ static void check_ticket(const Params& p, std::uint32_t t) {
    if (kPersistent && t >= p.num_tiles && t - p.num_tiles >= gridDim.x)
      raise_error(p.header, DeviceError::TicketOverflow, t);
  }

  // Thread 0's draw of the block's next tile id: the ticket, checked, and
  // (instrumented) perturbed; and the launch epoch.
  __device__ static Draw next_tile(const Params& p) {
    Draw d = LaunchState<P>::draw(p.header);
    check_ticket(p, d.tile);
    prefetch_after(p, d.tile);
    if constexpr (kInstrumented) {
      d.tile = perturb_tile(p.perturb, d.tile, p.num_tiles);
      trace_stamp(p.trace, d.tile, TracePoint::Drawn);
    }
    return d;
  }

  // The drawing thread asks L2 for the input of a later tile
  // (TilePolicy::kL2PrefetchBytes; l2_prefetch.cuh).
  static constexpr int kPrefetchTiles = policy_prefetch_tiles<Policy, T>();
  static constexpr int kPaceGBps = Policy::kFirstWavePaceGBps;
  static_assert(kPaceGBps == 0 || LaunchState<P>::kDraws, "pacing goes by the ticket");
  __device__ static void prefetch_after(const Params& p, std::uint32_t tile) {
    if constexpr (kPrefetchTiles > 0)
      prefetch_later_tile<kPrefetchTiles, kTileItems, DataIO::kAlign % 16 == 0>(p.in, tile,
                                                                                p.prefetch);
  }

  // Thread 0 draws the block's next tile (a persistent block's later draws).
  __device__ static std::uint32_t draw(const Params& p, Shared& sm, int tid) {
    if (tid == 0) sm.tile = next_tile(p).tile;
    __syncthreads();
    const std::uint32_t t = sm.tile;
    __syncthreads();  // sm.tile is free for the next draw
    return t;
  }

  // Load, local scan, aggregate; warp 0 publishes it. The register items
  // become prefixes local to the tile (the staged ones on their way out).
  __device__ static void begin(const Params& p, Shared& sm, const Desc& desc, Op& op, int stage,
                               std::uint32_t epoch, int warp, int lane, Work& w, Items& items) {
    const std::int64_t tile_base = static_cast<std::int64_t>(w.tile) * kTileItems;
    const std::int64_t tile_valid = p.num_items - tile_base;
    w.segment_base = tile_base + static_cast<std::int64_t>(warp) * kSegment;
    w.segment_valid = tile_valid - static_cast<std::int64_t>(warp) * kSegment;
    // Per warp (kFullWarpsInPartialTile): in a partial tile the warps
    // before the one holding the end load and store as in a full one.
    w.full = kFullWarpsInPartialTile ? w.segment_valid >= kSegment : tile_valid >= kTileItems;
    if (w.full) {
      stage_full(sm, stage, p.in + w.segment_base, warp, lane);
      load_full(p.in + w.segment_base, lane, items);
    } else {
      // (Every thread of this warp reads the tile's first item; the barrier
      // after the local scan orders those reads before warp 0's store of that
      // item, in place.)
      load_partial(sm, stage, p.in + w.segment_base, warp, lane, w.segment_valid, p.in + tile_base,
                   items);
    }

    w.absent = 0;
    const T warp_aggregate = scan_segment(op, sm, stage, warp, lane, items, w.absent);
    if (lane == 0) sm.warp_aggregate[warp] = warp_aggregate;
    __syncthreads();

    w.aggregate = sm.warp_aggregate[0];
    w.warp_exclusive = Partial<T>{};
#pragma unroll
    for (int v = 1; v < kWarps; ++v) {
      if (v == warp) w.warp_exclusive = Partial<T>{w.aggregate, true};
      w.aggregate = op(w.aggregate, sm.warp_aggregate[v]);
    }

    if (warp == 0) Prefix::publish_aggregate(p, desc, op, w.tile, epoch, w.aggregate, lane);

    // Warp 0 does its share before its look-back, which gives its
    // predecessors time to publish.
    w.first_absent = false;
#pragma unroll
    for (int k = 0; k < kChunks; ++k)
      to_tile_prefix(op, sm, stage, warp, k, w.warp_exclusive, w.absent, items[k], w.first_absent);
  }

  // Warp 0 looks back and publishes PREFIX; the block learns the tile's
  // exclusive prefix (sm.tile_exclusive) after the barrier. Returns false
  // when the look-back gave up (watchdog).
  __device__ static bool resolve(const Params& p, Shared& sm, const Desc& desc, Op& op,
                                 std::uint32_t epoch, int warp, int lane, const Work& w,
                                 Items& items) {
    if (warp == 0) {
      if constexpr (kStashWarp0) {
#pragma unroll
        for (int k = 0; k < kChunks; ++k)
#pragma unroll
          for (int e = 0; e < kVec; ++e)
            sm.stash[(k * kVec + e) * 32 + lane] = items[k][e];
      }
      TileReducer reduce{p.in, op, &sm.scan[0], lane};
      Partial<T> exclusive{};
      const bool ok =
          Prefix::resolve(p, desc, op, w.tile, epoch, w.aggregate, reduce, lane, exclusive);
      if (lane == 0) {
        sm.tile_exclusive = exclusive.value;
        sm.has_exclusive = exclusive.valid ? 1 : 0;
        sm.ok = ok ? 1 : 0;
      }
    }
    __syncthreads();
    if constexpr (kStashWarp0) {
      if (warp == 0) {
#pragma unroll
        for (int k = 0; k < kChunks; ++k)
#pragma unroll
          for (int e = 0; e < kVec; ++e)
            items[k][e] = sm.stash[(k * kVec + e) * 32 + lane];
      }
    }
    return sm.ok != 0;
  }

  // The tile's output: local prefixes combined with its exclusive prefix.
  __device__ static void store(const Params& p, Shared& sm, Op& op, int stage, int warp, int lane,
                               const Work& w, Items& items) {
    const Partial<T> exclusive{sm.tile_exclusive, sm.has_exclusive != 0};
#pragma unroll
    for (int k = 0; k < kChunks; ++k)
      to_output(op, k, exclusive, w.first_absent, items[k]);
    // In-place fallback: "output written" must imply "descriptor published"
    // for a validating reader (protocol::output_fence). A persistent block's
    // k-th tile is in stage k % 2 (run_persistent begins its first tile in
    // stage 0), and one fence covers two tiles (protocol::output_fence_before:
    // the stage-1 tile's publish is ordered before this fence by resolve()'s
    // barrier).
    constexpr bool kFence0 = protocol::output_fence_before(P, 0);
    constexpr bool kFence1 = protocol::output_fence_before(P, 1);
    if (stage == 0 ? kFence0 : kFence1) fence<protocol::output_fence(P)>();
    T* segment = p.out + w.segment_base;
    if (w.full) {
#pragma unroll
      for (int k = 0; k < kChunks; ++k)
        DataIO::store(segment + offset(k, lane), items[k]);
#pragma unroll
      for (int s = 0; s < kStagedChunks; ++s) {
        T v[kVec];
        staged_output(op, sm, stage, warp, lane, s, w, exclusive, v);
        DataIO::store(segment + offset(kChunks + s, lane), v);
      }
    } else {
      // Small code, as in load_partial; chunks wholly past the end are
      // skipped (the test is the same in every lane of the warp).
      const int valid = segment_items(w.segment_valid);
#pragma unroll
      for (int k = 0; k < kChunks; ++k)
        store_partial(segment, offset(k, lane), valid, items[k]);
#pragma unroll kStagedUnroll
      for (int s = 0; s < kStagedChunks && offset(kChunks + s, 0) < valid; ++s) {
        T v[kVec];
        staged_output(op, sm, stage, warp, lane, s, w, exclusive, v);
        store_partial(segment, offset(kChunks + s, lane), valid, v);
      }
    }
    if constexpr (kInstrumented) {
      // Stored: every warp issued its stores (a traced launch only; the
      // launch's other barriers are those of an untraced one).
      if (p.trace.tiles != nullptr) {
        __syncthreads();
        if (warp == 0 && lane == 0) trace_stamp(p.trace, w.tile, TracePoint::Stored);
      }
    }
  }
  // Staged chunk s's output, read from shared memory.
  __device__ static void staged_output(Op& op, const Shared& sm, int stage, int warp, int lane,
                                       int s, const Work& w, const Partial<T>& exclusive,
                                       T (&v)[kVec]) {
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      v[e] = sm.staged[stage][warp][s][lane].item[e];
    bool unused = false;  // the tile's first item is never a staged one (kChunks >= 1)
    to_tile_prefix(op, sm, stage, warp, kChunks + s, w.warp_exclusive, w.absent, v, unused);
    to_output(op, kChunks + s, exclusive, false, v);
  }

  // Counts the block finished (after a __syncthreads() that follows its last
  // descriptor access), from the last warp, whose release waits for no data
  // store of its own (launch_state.cuh). `drawn`: the count of the block's
  // last draw (a persistent block's last draw is past the last tile, where
  // the tile id is the count); `gave_up`: a look-back gave up (watchdog).
  __device__ static void count_finished(const Params& p, const Desc& desc, std::uint32_t epoch,
                                        std::uint32_t drawn, bool gave_up, int warp, int lane) {
    if (warp != kWarps - 1) return;
    LaunchState<P>::finish(p.header, desc, p.num_tiles, epoch, drawn, gave_up, lane);
    if constexpr (kInstrumented) {
      if (lane == 0) perturb_count_done(p.perturb);
    }
  }

  __device__ static void run(const Params& p) {
    __shared__ Shared sm;
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid & 31;
    const int warp = tid >> 5;
    Op op = p.op;
    const Desc desc(p.descriptors);

    if constexpr (kInstrumented) prestress(p.perturb);
    if (tid == 0) {
      const Draw d = next_tile(p);
      sm.epoch = d.epoch;
      sm.tile = d.tile;
      sm.drawn = d.count;
      pace_first_draw<Policy, std::uint64_t{kTileItems} * sizeof(T)>(d.count, p.prefetch,
                                                                     P.tiles_per_block);
    }
    __syncthreads();
    const std::uint32_t epoch = sm.epoch;
    Work a;
    a.tile = sm.tile;
    if constexpr (kPersistent) {
      __syncthreads();  // sm.tile is free for the next draw
      run_persistent(p, sm, desc, op, epoch, warp, lane, a);
      return;
    }
    // One draw per block: a count past the grid means the launch word was
    // not reset (a blockIdx variant draws too, under the epoch reset).
    if (a.tile >= p.num_tiles || sm.drawn >= gridDim.x) {
      if (tid == 0) raise_error(p.header, DeviceError::TicketOverflow, sm.drawn);
      count_finished(p, desc, epoch, sm.drawn, false, warp, lane);
      return;
    }
    Items items;
    begin(p, sm, desc, op, 0, epoch, warp, lane, a, items);
    const bool ok = resolve(p, sm, desc, op, epoch, warp, lane, a, items);
    count_finished(p, desc, epoch, sm.drawn, !ok, warp, lane);
    if (ok) store(p, sm, op, 0, warp, lane, a, items);
  }

  // Two tiles in flight, a and b, each with its own registers and stage;
  // the loop body is written out once per role so that no register array is
  // indexed at run time. A stage is refilled only after these threads issued
  // the stores of the tile it held (their shared-memory reads of it are done:
  // every thread reads only the slots it filled).
  __device__ static void run_persistent(const Params& p, Shared& sm, const Desc& desc, Op& op,
                                        std::uint32_t epoch, int warp, int lane, Work& a) {
    const int tid = static_cast<int>(threadIdx.x);
    // Under the CountTilesNotBlocks flaw (a mutant) every tile counts itself
    // finished, as if it had a block of its own.
    constexpr bool kCountTiles = P.flaw == protocol::Flaw::CountTilesNotBlocks;
    if (a.tile >= p.num_tiles) {  // other blocks took every tile
      if (!kCountTiles) count_finished(p, desc, epoch, a.tile, false, warp, lane);
      return;
    }
    Items ra, rb;
    Work b;
    begin(p, sm, desc, op, 0, epoch, warp, lane, a, ra);
    for (;;) {
      b.tile = draw(p, sm, tid);
      if (b.tile < p.num_tiles) begin(p, sm, desc, op, 1, epoch, warp, lane, b, rb);
      bool ok = resolve(p, sm, desc, op, epoch, warp, lane, a, ra);
      bool last = b.tile >= p.num_tiles || !ok;
      if (last || kCountTiles) count_finished(p, desc, epoch, b.tile, !ok, warp, lane);
      if (ok) store(p, sm, op, 0, warp, lane, a, ra);
      if (last) return;

      a.tile = draw(p, sm, tid);
      if (a.tile < p.num_tiles) begin(p, sm, desc, op, 0, epoch, warp, lane, a, ra);
      ok = resolve(p, sm, desc, op, epoch, warp, lane, b, rb);
      last = a.tile >= p.num_tiles || !ok;
      if (last || kCountTiles) count_finished(p, desc, epoch, a.tile, !ok, warp, lane);
      if (ok) store(p, sm, op, 1, warp, lane, b, rb);
      if (last) return;
    }
  }
};

}  // namespace lookback::device
