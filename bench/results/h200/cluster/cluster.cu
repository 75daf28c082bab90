// EXPERIMENT (measurement only): a look-back over thread-block clusters.
//
// At 2^20 u32 items the default's tiles (256 or 107 of them, one wave) wait
// for a chain of look-back rounds: a tile's PREFIX needs its window's
// PREFIX, so the last of 256 tiles resolves about four L2 round trips after
// the last aggregate (bench/results/h200/README.md, "2^20 is a chain of
// look-back rounds"). Wider windows, two-level descriptors and racing warps
// made each round dearer by as much as they saved.
//
// Here the protocol's tile is a cluster of C blocks (sm_90 thread-block
// clusters, co-scheduled by the hardware): rank 0 draws the cluster's
// ticket and hands it to the other ranks through distributed shared memory;
// each rank loads and reduces its own sub-tile and writes its aggregate into
// rank 0's shared memory; rank 0 publishes the cluster's aggregate, looks
// back over cluster descriptors exactly as a one-tile block does (the
// library's TilePrefix / WindowLookback on warp-lookback's protocol), and
// writes each rank its exclusive prefix. The inter-cluster protocol is the
// catalogue's warp-lookback unchanged; the number of look-back tiles is 1/C
// of the blocks, so at 2^20 with C = 8 every cluster finds the PREFIX
// chain's end within one window.
//
// Not production: inclusive sums of u32 only, no epoch-wrap clear (a launch
// whose next epoch wraps, after 2^30 launches, would not clear), no
// instrumented build.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#include "harness/cases.cuh"
#include "harness/check.cuh"
#include "harness/configs.cuh"
#include "harness/pools.cuh"
#include "harness/report.hpp"
#include "harness/run_op.cuh"
#include "harness/settings.hpp"
#include "harness/timing.cuh"
#include "lookback/device/launch_state.cuh"
#include "lookback/device/tile_prefix.cuh"
#include "suites/floor_kernels.cuh"
#include "suites/suites.hpp"

namespace lookback_bench {
namespace {

namespace cg = cooperative_groups;
namespace lbd = lookback::device;
constexpr lookback::protocol::Protocol kP = lookback::protocol::detail::kWarpLookback;
using T = std::uint32_t;
using Op = lookback::Sum;
constexpr int kEpochBits = kP.epoch_bits;  // the hand-over's next epoch
using Desc = lbd::Descriptor<kP, T>;
using Params = lbd::KernelParams<T, Op>;

// kLookback false: no descriptor is touched, every cluster scans as if it were
// the first (what the draw, the barriers and the cluster launch cost; its
// output is wrong past the first cluster, so its row is not checked).
template <int C, class Policy, bool kLookback = true>
struct ClusterAgent {
  static constexpr int kThreads = Policy::template block_threads<T>();
  static constexpr int kItems = Policy::template items<T>();
  static constexpr int kTileItems = kThreads * kItems;
  static constexpr int kMinBlocks = Policy::template min_blocks<T>();
  static_assert(C >= 1 && C <= 16);
  using LoadT = cub::BlockLoad<T, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using StoreT = cub::BlockStore<T, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using ScanT = cub::BlockScan<T, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  using Prefix = lbd::TilePrefix<kP, Policy, T, Op, false, false>;

  struct Shared {
    union {
      typename LoadT::TempStorage load;
      typename StoreT::TempStorage store;
      typename ScanT::TempStorage scan;
    } cub;
    // Written by rank 0 into every rank: the cluster's draw.
    std::uint32_t tile, epoch, drawn;
    // Rank 0's only: each rank's aggregate (absent past the end).
    T aggregate[C];
    int has_aggregate[C];
    // Written by rank 0 into every rank: the rank's exclusive prefix.
    T exclusive;
    int has_exclusive;
    int ok;
  };

  struct NoReducer {
    __device__ T operator()(std::uint32_t) const { return T{}; }
  };

  __device__ static void run(const Params& p) {
    __shared__ Shared sm;
    cg::cluster_group cluster = cg::this_cluster();
    const int rank = static_cast<int>(cluster.block_rank());
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid & 31;
    const int warp = tid >> 5;
    Op op = p.op;
    const Desc desc(p.descriptors);

    if (rank == 0 && tid == 0) {
      const lbd::Draw d = lbd::LaunchState<kP>::draw(p.header);
      for (int r = 0; r < C; ++r) {
        Shared* to = cluster.map_shared_rank(&sm, r);
        to->tile = d.tile;
        to->epoch = d.epoch;
        to->drawn = d.count;
      }
    }
    cluster.sync();  // the draw is in every rank
    const std::uint32_t tile = sm.tile;
    const std::uint32_t epoch = sm.epoch;
    if (tile >= p.num_tiles) {  // every rank of the cluster leaves here
      if (rank == 0 && tid == 0) lbd::raise_error(p.header, lbd::DeviceError::TicketOverflow, tile);
      return;
    }
    const std::int64_t base = (static_cast<std::int64_t>(tile) * C + rank) * kTileItems;
    const std::int64_t valid = p.num_items - base;
    T items[kItems];
    if (valid >= kTileItems) {
      LoadT(sm.cub.load).Load(p.in + base, items);
    } else if (valid > 0) {
      LoadT(sm.cub.load).Load(p.in + base, items, static_cast<int>(valid), p.in[base]);
    }
    __syncthreads();
    T thread_exclusive{};
    T aggregate{};
    if (valid > 0) {
      T thread_aggregate = items[0];
#pragma unroll
      for (int i = 1; i < kItems; ++i)
        thread_aggregate = op(thread_aggregate, items[i]);
      ScanT(sm.cub.scan).ExclusiveScan(thread_aggregate, thread_exclusive, op, aggregate);
    }
    if (tid == 0) {
      Shared* to = cluster.map_shared_rank(&sm, 0);
      to->aggregate[rank] = aggregate;
      to->has_aggregate[rank] = valid > 0 ? 1 : 0;
    }
    cluster.barrier_arrive();  // release: the aggregate is in rank 0
    if (rank == 0) {
      cluster.barrier_wait();
      if (warp == 0) {
        // Inclusive scan of the ranks' aggregates over lanes 0 .. C-1 (ranks
        // past the end are absent: a suffix of the cluster).
        lbd::Partial<T> incl{lane < C ? sm.aggregate[lane] : T{},
                             lane < C && sm.has_aggregate[lane] != 0};
#pragma unroll
        for (int d = 1; d < C; d *= 2) {
          const T v = __shfl_up_sync(0xffffffffu, incl.value, d);
          const int ok = __shfl_up_sync(0xffffffffu, incl.valid ? 1 : 0, d);
          if (lane >= d && ok) incl = lbd::combine(op, lbd::Partial<T>{v, true}, incl);
        }
        const T total = __shfl_sync(0xffffffffu, incl.value, C - 1);
        lbd::Partial<T> exclusive{};
        bool ok = true;
        if constexpr (kLookback) {
          Prefix::publish_aggregate(p, desc, op, tile, epoch, total, lane);
          NoReducer reduce;
          ok = Prefix::resolve(p, desc, op, tile, epoch, total, reduce, lane, exclusive);
        }
        const T before = __shfl_up_sync(0xffffffffu, incl.value, 1);
        const lbd::Partial<T> mine =
            lane == 0 ? exclusive : lbd::combine(op, exclusive, lbd::Partial<T>{before, true});
        if (lane < C) {
          Shared* to = cluster.map_shared_rank(&sm, lane);
          to->exclusive = mine.value;
          to->has_exclusive = mine.valid ? 1 : 0;
          to->ok = ok ? 1 : 0;
        }
        // The launch's last drawer hands the launch word over (launch_state.cuh,
        // step 2) once its descriptor accesses are done; one draw per cluster.
        if (lane == 0 && sm.drawn == p.num_tiles - 1) {
          using lookback::protocol::kResetOrder;
          if (lbd::load_word<kResetOrder>(&p.header->high_water) < p.num_tiles)
            lbd::store_word<kResetOrder>(&p.header->high_water, p.num_tiles);
          lbd::store_word<kResetOrder>(
              &p.header->draw,
              lbd::draw_word(0u, lookback::protocol::next_epoch(epoch, kEpochBits)));
        }
      }
    }
    if (valid > 0) {
      lbd::Partial<T> r{thread_exclusive, tid > 0};
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        r = lbd::combine(op, r, items[i]);
        items[i] = r.value;
      }
    }
    if (rank != 0) cluster.barrier_wait();
    cluster.sync();  // rank 0 wrote every rank's prefix
    if (valid > 0 && sm.ok) {
      if (sm.has_exclusive) {
#pragma unroll
        for (int i = 0; i < kItems; ++i)
          items[i] = op(sm.exclusive, items[i]);
      }
      if (valid >= kTileItems) {
        StoreT(sm.cub.store).Store(p.out + base, items);
      } else {
        StoreT(sm.cub.store).Store(p.out + base, items, static_cast<int>(valid));
      }
    }
  }
};

// Cluster-scope flags in shared memory (distributed shared memory through
// generic addresses): a 64-bit word whose high half is nonzero once written.
__device__ __forceinline__ void st_release_cluster(std::uint64_t* at, std::uint64_t v) {
  asm volatile("st.release.cluster.u64 [%0], %1;" ::"l"(at), "l"(v) : "memory");
}
__device__ __forceinline__ std::uint64_t ld_acquire_cluster(const std::uint64_t* at) {
  std::uint64_t v;
  asm volatile("ld.acquire.cluster.u64 %0, [%1];" : "=l"(v) : "l"(at) : "memory");
  return v;
}
__device__ __forceinline__ std::uint64_t ld_relaxed_cluster(const std::uint64_t* at) {
  std::uint64_t v;
  asm volatile("ld.relaxed.cluster.u64 %0, [%1];" : "=l"(v) : "l"(at) : "memory");
  return v;
}
// kRelaxedPoll: poll relaxed, then one acquire fence (an acquire load per
// round may cost more than the round).
template <bool kRelaxedPoll>
__device__ __forceinline__ std::uint64_t spin_cluster(const std::uint64_t* at) {
  std::uint64_t v;
  if constexpr (kRelaxedPoll) {
    while (((v = ld_relaxed_cluster(at)) >> 32) == 0) {
    }
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
  } else {
    while (((v = ld_acquire_cluster(at)) >> 32) == 0) {
    }
  }
  return v;
}

// The same scan with one cluster barrier (at the start: every rank's flags
// are zero before anyone writes them) and flags after it: rank 0 writes the
// draw into each rank, each rank its aggregate into rank 0, rank 0 each
// rank's exclusive prefix into it; every wait is a spin on the waiter's own
// shared memory. A rank waits for rank 0's look-back, rank 0 for every rank's
// aggregate (the cluster's AGGREGATE needs them all).
template <int C, class Policy, bool kRelaxedPoll>
struct FlagClusterAgent {
  static constexpr int kThreads = Policy::template block_threads<T>();
  static constexpr int kItems = Policy::template items<T>();
  static constexpr int kTileItems = kThreads * kItems;
  static constexpr int kMinBlocks = Policy::template min_blocks<T>();
  static_assert(C >= 1 && C <= 16 && sizeof(T) == 4);
  using LoadT = cub::BlockLoad<T, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using StoreT = cub::BlockStore<T, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using ScanT = cub::BlockScan<T, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  using Prefix = lbd::TilePrefix<kP, Policy, T, Op, false, false>;
  // Flag words: high half 1 | valid << 1 | ok << 2 (nonzero once written).
  static constexpr std::uint64_t kWritten = std::uint64_t{1} << 32;
  static constexpr std::uint64_t kValid = std::uint64_t{2} << 32;
  static constexpr std::uint64_t kOk = std::uint64_t{4} << 32;

  struct Shared {
    union {
      typename LoadT::TempStorage load;
      typename StoreT::TempStorage store;
      typename ScanT::TempStorage scan;
    } cub;
    std::uint64_t draw;          // rank 0 writes: tile | epoch (bits 32.. of the draw)
    std::uint64_t drawn_epoch;   // the epoch, plain (read after draw)
    std::uint64_t aggregate[C];  // rank 0's: each rank's aggregate
    std::uint64_t exclusive;     // rank 0 writes: this rank's exclusive prefix
    std::uint32_t tile, epoch, drawn;
  };

  struct NoReducer {
    __device__ T operator()(std::uint32_t) const { return T{}; }
  };

  __device__ static void run(const Params& p) {
    __shared__ Shared sm;
    cg::cluster_group cluster = cg::this_cluster();
    const int rank = static_cast<int>(cluster.block_rank());
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid & 31;
    const int warp = tid >> 5;
    Op op = p.op;
    const Desc desc(p.descriptors);

    lbd::Draw d{};
    if (tid == 0) {
      if (rank == 0) d = lbd::LaunchState<kP>::draw(p.header);  // in flight across the barrier
      sm.draw = 0;
      sm.exclusive = 0;
#pragma unroll
      for (int r = 0; r < C; ++r)
        sm.aggregate[r] = 0;
    }
    cluster.sync();  // every rank's flags are zero
    if (tid == 0) {
      if (rank == 0) {
        // Tile in the low half, the epoch at bit 33 up (bit 32: written).
        const std::uint64_t w = kWritten | (std::uint64_t{d.epoch} << 33) | d.tile;
        for (int r = 1; r < C; ++r)
          st_release_cluster(cluster.map_shared_rank(&sm.draw, r), w);
        sm.tile = d.tile;
        sm.epoch = d.epoch;
        sm.drawn = d.count;
      } else {
        const std::uint64_t w = spin_cluster<kRelaxedPoll>(&sm.draw);
        sm.tile = static_cast<std::uint32_t>(w);
        sm.epoch = static_cast<std::uint32_t>(w >> 33);
      }
    }
    __syncthreads();
    const std::uint32_t tile = sm.tile;
    const std::uint32_t epoch = sm.epoch;
    if (tile >= p.num_tiles) {
      if (rank == 0 && tid == 0) lbd::raise_error(p.header, lbd::DeviceError::TicketOverflow, tile);
      return;
    }
    const std::int64_t base = (static_cast<std::int64_t>(tile) * C + rank) * kTileItems;
    const std::int64_t valid = p.num_items - base;
    T items[kItems];
    if (valid >= kTileItems) {
      LoadT(sm.cub.load).Load(p.in + base, items);
    } else if (valid > 0) {
      LoadT(sm.cub.load).Load(p.in + base, items, static_cast<int>(valid), p.in[base]);
    }
    __syncthreads();
    T thread_exclusive{};
    T aggregate{};
    if (valid > 0) {
      T thread_aggregate = items[0];
#pragma unroll
      for (int i = 1; i < kItems; ++i)
        thread_aggregate = op(thread_aggregate, items[i]);
      ScanT(sm.cub.scan).ExclusiveScan(thread_aggregate, thread_exclusive, op, aggregate);
    }
    if (tid == 0)
      st_release_cluster(cluster.map_shared_rank(&sm.aggregate[rank], 0),
                         kWritten | (valid > 0 ? kValid : 0) | aggregate);
    if (rank == 0 && warp == 0) {
      const std::uint64_t w = lane < C ? spin_cluster<kRelaxedPoll>(&sm.aggregate[lane]) : 0;
      lbd::Partial<T> incl{static_cast<T>(w), (w & kValid) != 0};
#pragma unroll
      for (int dd = 1; dd < C; dd *= 2) {
        const T v = __shfl_up_sync(0xffffffffu, incl.value, dd);
        const int ok = __shfl_up_sync(0xffffffffu, incl.valid ? 1 : 0, dd);
        if (lane >= dd && ok) incl = lbd::combine(op, lbd::Partial<T>{v, true}, incl);
      }
      const T total = __shfl_sync(0xffffffffu, incl.value, C - 1);
      Prefix::publish_aggregate(p, desc, op, tile, epoch, total, lane);
      NoReducer reduce;
      lbd::Partial<T> exclusive{};
      const bool ok = Prefix::resolve(p, desc, op, tile, epoch, total, reduce, lane, exclusive);
      const T before = __shfl_up_sync(0xffffffffu, incl.value, 1);
      const lbd::Partial<T> mine =
          lane == 0 ? exclusive : lbd::combine(op, exclusive, lbd::Partial<T>{before, true});
      if (lane < C)
        st_release_cluster(cluster.map_shared_rank(&sm.exclusive, lane),
                           kWritten | (mine.valid ? kValid : 0) | (ok ? kOk : 0) | mine.value);
      if (lane == 0 && sm.drawn == p.num_tiles - 1) {
        using lookback::protocol::kResetOrder;
        if (lbd::load_word<kResetOrder>(&p.header->high_water) < p.num_tiles)
          lbd::store_word<kResetOrder>(&p.header->high_water, p.num_tiles);
        lbd::store_word<kResetOrder>(
            &p.header->draw, lbd::draw_word(0u, lookback::protocol::next_epoch(epoch, kEpochBits)));
      }
    }
    if (valid > 0) {
      lbd::Partial<T> r{thread_exclusive, tid > 0};
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        r = lbd::combine(op, r, items[i]);
        items[i] = r.value;
      }
    }
    if (tid == 0) spin_cluster<kRelaxedPoll>(&sm.exclusive);
    __syncthreads();
    const std::uint64_t w = sm.exclusive;
    if (valid > 0 && (w & kOk) != 0) {
      if ((w & kValid) != 0) {
#pragma unroll
        for (int i = 0; i < kItems; ++i)
          items[i] = op(static_cast<T>(w), items[i]);
      }
      if (valid >= kTileItems) {
        StoreT(sm.cub.store).Store(p.out + base, items);
      } else {
        StoreT(sm.cub.store).Store(p.out + base, items, static_cast<int>(valid));
      }
    }
  }
};

// The ladder's ticketed local scan with one cluster barrier before it: what
// a barrier.cluster costs at the start of a launch.
template <int kThreads, int kItems>
__global__ void __launch_bounds__(kThreads, 4)
    ladder_after_cluster_sync(const T* in, T* out, std::int64_t n, unsigned* counter) {
  cg::this_cluster().sync();
  using Load = cub::BlockLoad<T, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<T, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<T, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  } sm;
  __shared__ unsigned tile_id;
  constexpr std::int64_t kTile = std::int64_t{kThreads} * kItems;
  if (threadIdx.x == 0) tile_id = atomicInc(counter, gridDim.x - 1);
  __syncthreads();
  const unsigned tile = tile_id;
  const std::int64_t left = n - tile * kTile;
  const int valid = static_cast<int>(left < kTile ? left : kTile);
  T items[kItems];
  Load(sm.load).Load(in + tile * kTile, items, valid, 0u);
  __syncthreads();
  Scan(sm.scan).InclusiveSum(items, items);
  __syncthreads();
  Store(sm.store).Store(out + tile * kTile, items, valid);
}

template <class Agent>
__global__ void __launch_bounds__(Agent::kThreads, Agent::kMinBlocks)
    cluster_scan_kernel(const Params p) {
  Agent::run(p);
}

// One row: C-block clusters of Policy's tiles.
template <int C, class Policy, bool kLookback = true, bool kFlags = false,
          bool kRelaxedPoll = false>
void cluster_row(const char* name, std::int64_t n, const Pools<T>& pools, cudaStream_t stream,
                 const Settings& settings, Timing copy, Timing cub) {
  using Agent = std::conditional_t<kFlags, FlagClusterAgent<C, Policy, kRelaxedPoll>,
                                   ClusterAgent<C, Policy, kLookback>>;
  const auto kernel = cluster_scan_kernel<Agent>;
  if constexpr (C > 8)
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  const std::int64_t super_items = std::int64_t{C} * Agent::kTileItems;
  const auto supers = static_cast<std::uint32_t>((n + super_items - 1) / super_items);
  constexpr auto shape = lbd::descriptor_shape<kP, T>();
  const std::size_t bytes = lbd::temp_storage_bytes(supers, shape);
  void* temp = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, bytes));
  CHECK_CUDA(cudaMemset(temp, 0, bytes));
  lbd::Header* header = lbd::header_of(temp);
  Params base{};
  base.num_items = n;
  base.num_tiles = supers;
  base.header = header;
  base.descriptors = lbd::descriptors_of(header, lbd::descriptor_capacity(bytes, shape));
  base.watchdog = 1u << 22;
  const auto launch = [&](int s) {
    Params p = base;
    p.in = pools.in_slice(n, s);
    p.out = pools.out_slice(n, s);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(supers * C);
    config.blockDim = dim3(Agent::kThreads);
    config.stream = stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = C;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    CHECK_CUDA(cudaLaunchKernelEx(&config, kernel, p));
  };
  CHECK_CUDA(cudaMemsetAsync(pools.out_slice(n, 0), 0, n * sizeof(T), stream));
  launch(0);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaStreamSynchronize(stream));
  unsigned long long bad = mismatches(pools.out_slice(n, 0), pools.expected, n);
  const Timing t = time_it(launch, pools.slices(n), stream, settings.quick);
  CHECK_CUDA(cudaMemsetAsync(pools.out_slice(n, 0), 0, n * sizeof(T), stream));
  launch(0);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  bad += mismatches(pools.out_slice(n, 0), pools.expected, n);
  lbd::Header h{};
  CHECK_CUDA(cudaMemcpy(&h, header, sizeof h, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(temp));
  const double b = 2.0 * static_cast<double>(n) * sizeof(T);
  std::string check = !kLookback ? "unchecked"
                      : bad == 0 ? "ok"
                                 : "FAIL(" + std::to_string(bad) + ")";
  if (h.error != 0) check += " error " + std::to_string(h.error);
  emit({"explore_cluster", n, name, t.median_us, t.min_us, b / t.median_us / 1e3,
        100.0 * copy.median_us / t.median_us, cub.median_us / t.median_us, check});
}

ExtraRows<T> cluster_rows(const Settings& settings) {
  unsigned* d_counter = nullptr;  // the ladder's ticket counter
  CHECK_CUDA(cudaMalloc(&d_counter, sizeof(unsigned)));
  const std::shared_ptr<unsigned> counter(d_counter, [](unsigned* p) { cudaFree(p); });
  return [&settings, counter](std::int64_t n, const Pools<T>& pools, cudaStream_t stream,
                              Timing copy, Timing cub) {
    // The floor: the small tile's ticketed local scan, nothing shared
    // (explore_copy_floor's "+ticket" row), checked per tile.
    constexpr int kLT = 256, kLI = 16;
    const unsigned grid = static_cast<unsigned>((n + kLT * kLI - 1) / (kLT * kLI));
    const auto ladder = [&](int s) {
      tile_ladder<kLT, kLI, true, true>
          <<<grid, kLT, 0, stream>>>(pools.in_slice(n, s), pools.out_slice(n, s), n, counter.get());
    };
    CHECK_CUDA(cudaMemsetAsync(counter.get(), 0, sizeof(unsigned), stream));
    CHECK_CUDA(cudaMemsetAsync(pools.out_slice(n, 0), 0xff, n * sizeof(T), stream));
    ladder(0);
    CHECK_CUDA(cudaStreamSynchronize(stream));
    const unsigned long long breaks = device_count([&](unsigned long long* d) {
      check_local_scan<<<1024, 256>>>(pools.in_slice(n, 0), pools.out_slice(n, 0), n, kLT * kLI, d);
    });
    const Timing t = time_it(ladder, pools.slices(n), stream, settings.quick);
    emit({"explore_cluster", n, "ladder +ticket", t.median_us, t.min_us,
          2.0 * n * sizeof(T) / t.median_us / 1e3, 100.0 * copy.median_us / t.median_us,
          cub.median_us / t.median_us,
          breaks == 0 ? "local-ok" : "FAIL(" + std::to_string(breaks) + ")"});
    // The same ladder launched in clusters of 8 (no cluster code in it): what
    // the cluster launch itself costs.
    const auto ladder_c8 = [&](int s, bool sync) {
      cudaLaunchConfig_t config{};
      config.gridDim = dim3((grid + 7) / 8 * 8);
      config.blockDim = dim3(kLT);
      config.stream = stream;
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = 8;
      attr[0].val.clusterDim.y = 1;
      attr[0].val.clusterDim.z = 1;
      config.attrs = attr;
      config.numAttrs = 1;
      const T* in = pools.in_slice(n, s);
      if (sync) {
        CHECK_CUDA(cudaLaunchKernelEx(&config, ladder_after_cluster_sync<kLT, kLI>, in,
                                      pools.out_slice(n, s), n, counter.get()));
      } else {
        CHECK_CUDA(cudaLaunchKernelEx(&config, tile_ladder<kLT, kLI, true, true>, in,
                                      pools.out_slice(n, s), n, counter.get()));
      }
    };
    for (const bool sync : {false, true}) {
      CHECK_CUDA(cudaMemsetAsync(counter.get(), 0, sizeof(unsigned), stream));
      const Timing tc =
          time_it([&](int s) { ladder_c8(s, sync); }, pools.slices(n), stream, settings.quick);
      emit({"explore_cluster", n, sync ? "EXPT ladder c8 +sync" : "EXPT ladder in c8", tc.median_us,
            tc.min_us, 2.0 * n * sizeof(T) / tc.median_us / 1e3,
            100.0 * copy.median_us / tc.median_us, cub.median_us / tc.median_us, "unchecked"});
    }
    using Small = lookback::WarpLookbackSmallPolicy;
    using Warp = lookback::WarpLookbackPolicy;
    cluster_row<2, Small>("EXPT small c2", n, pools, stream, settings, copy, cub);
    cluster_row<4, Small>("EXPT small c4", n, pools, stream, settings, copy, cub);
    cluster_row<8, Small>("EXPT small c8", n, pools, stream, settings, copy, cub);
    cluster_row<16, Small>("EXPT small c16", n, pools, stream, settings, copy, cub);
    cluster_row<8, Small, false>("EXPT small c8 no-lb", n, pools, stream, settings, copy, cub);
    cluster_row<2, Small, false>("EXPT small c2 no-lb", n, pools, stream, settings, copy, cub);
    cluster_row<2, Small, true, true, true>("EXPT small c2 flags rlx", n, pools, stream, settings,
                                            copy, cub);
    cluster_row<8, Small, true, true, true>("EXPT small c8 flags rlx", n, pools, stream, settings,
                                            copy, cub);
    cluster_row<2, Small, true, true>("EXPT small c2 flags", n, pools, stream, settings, copy, cub);
    cluster_row<4, Small, true, true>("EXPT small c4 flags", n, pools, stream, settings, copy, cub);
    cluster_row<8, Small, true, true>("EXPT small c8 flags", n, pools, stream, settings, copy, cub);
    cluster_row<16, Small, true, true>("EXPT small c16 flags", n, pools, stream, settings, copy,
                                       cub);
    cluster_row<4, Warp, true, true>("EXPT warp c4 flags", n, pools, stream, settings, copy, cub);
    cluster_row<4, Warp>("EXPT warp c4", n, pools, stream, settings, copy, cub);
    cluster_row<8, Warp>("EXPT warp c8", n, pools, stream, settings, copy, cub);
  };
}

}  // namespace

void explore_protocol_groups(const Settings& s) {
  std::vector<std::int64_t> sizes;
  for (int l = std::max(s.min_log, 12); l <= std::min(s.max_log, 26); ++l) {
    if (l > 22 && l % 2 == 1) continue;
    sizes.push_back(std::int64_t{1} << l);
    if (l >= 16 && l <= 21) sizes.push_back(std::int64_t{3} << (l - 1));
  }
  run_op<Case<T, OpKind::Sum, false>, T, false, BWarpSmall, BWarp, BPipelined, BDefaultFor<T>>(
      s, "explore_cluster", sizes, {"warp-lookback small", "warp-lookback", "pipelined", "default"},
      0, cluster_rows(s));
}
void main_suite(const Settings&) {}
void tuning_suite(const Settings&) {}
void stats_suite(const Settings&) {}
void trace_suite(const Settings&) {}
void explore_shape_groups(const Settings&) {}
void explore_input_groups(const Settings&) {}

}  // namespace lookback_bench
