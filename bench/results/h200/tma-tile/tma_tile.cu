// EXPERIMENT (measurement only): the tile's input through the TMA.
//
// At 2^20 u32 items the scan's look-back pays about two L2 round trips
// after the loads, each about 1 us under the input burst
// (bench/results/h200/block-lookback/), where an idle round trip is a few
// hundred ns. If the round trips wait behind the burst in the SM's own load
// path (the LSU and L1 miss queues hold the tile loads of the other blocks
// on the SM), moving the input off that path should shorten them: here one
// thread loads the whole tile with one bulk copy (cp.async.bulk, the TMA)
// into shared memory. Control: the same shared-memory tile filled by every
// thread's 16-byte loads. Both with and without the look-back (the latter a
// ticketed local scan, like explore_copy_floor's ladder), on the default
// small tile's shape (256 threads x 16 u32, 4096 items).
//
// The look-back is the library's (TilePrefix on warp-lookback's protocol);
// inclusive u32 sums only; not production.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <cub/block/block_scan.cuh>
#include <cuda/ptx>

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

namespace lbd = lookback::device;
namespace ptx = cuda::ptx;
constexpr lookback::protocol::Protocol kP = lookback::protocol::detail::kWarpLookback;
using T = std::uint32_t;
using Op = lookback::Sum;
using Desc = lbd::Descriptor<kP, T>;
using Params = lbd::KernelParams<T, Op>;

// kTma: the tile arrives by one bulk copy (else by every thread's 16-byte
// loads); kLookback: the scan (else each tile's local scan only); kStore
// false: no output (a store only if an item equals a value it practically
// never does, so that the work stays): do the look-back's round trips
// lengthen under the other tiles' output stores?
template <bool kTma, bool kLookback, bool kStore = true>
struct SmemTileAgent {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 16;
  static constexpr int kTileItems = kThreads * kItems;
  static constexpr int kMinBlocks = 4;
  static constexpr int kVectors = kTileItems / 4;  // uint4 per tile
  static constexpr std::uint32_t kTileBytes = kTileItems * sizeof(T);
  using ScanT = cub::BlockScan<T, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  using Prefix = lbd::TilePrefix<kP, lookback::WarpLookbackSmallPolicy, T, Op, false, false>;

  struct Shared {
    alignas(128) T tile[kTileItems];
    typename ScanT::TempStorage scan;
    alignas(8) std::uint64_t bar;
    T exclusive;
    int has_exclusive;
    int ok;
    std::uint32_t tile_id, epoch, drawn;
  };

  struct NoReducer {
    __device__ T operator()(std::uint32_t) const { return T{}; }
  };

  __device__ static void run(const Params& p) {
    __shared__ Shared sm;
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid & 31;
    const int warp = tid >> 5;
    Op op = p.op;
    const Desc desc(p.descriptors);
    if (tid == 0) {
      const lbd::Draw d = lbd::LaunchState<kP>::draw(p.header);
      sm.tile_id = d.tile;
      sm.epoch = d.epoch;
      sm.drawn = d.count;
      if constexpr (kTma) {
        ptx::mbarrier_init(&sm.bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
      }
    }
    __syncthreads();
    const std::uint32_t tile = sm.tile_id;
    const std::uint32_t epoch = sm.epoch;
    if (tile >= p.num_tiles || sm.drawn >= gridDim.x) {
      if (tid == 0) lbd::raise_error(p.header, lbd::DeviceError::TicketOverflow, sm.drawn);
      if (warp == 0)
        lbd::LaunchState<kP>::finish(p.header, desc, p.num_tiles, epoch, sm.drawn, false, lane);
      return;
    }
    const std::int64_t base = static_cast<std::int64_t>(tile) * kTileItems;
    const std::int64_t valid = p.num_items - base;
    const bool full = valid >= kTileItems;
    // The tile into shared memory (past the end: copies of the first item).
    if (full && kTma) {
      if (tid == 0) {
        const std::uint32_t bytes = kTileBytes;  // the wrappers take references
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &sm.bar,
                                       bytes);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, sm.tile, p.in + base, bytes,
                           &sm.bar);
      }
      while (!ptx::mbarrier_try_wait_parity(&sm.bar, 0u)) {
      }
    } else if (full) {
      const uint4* in4 = reinterpret_cast<const uint4*>(p.in + base);
      uint4* tile4 = reinterpret_cast<uint4*>(sm.tile);
      uint4 v[kVectors / kThreads];
#pragma unroll
      for (int k = 0; k < kVectors / kThreads; ++k)
        v[k] = in4[k * kThreads + tid];
#pragma unroll
      for (int k = 0; k < kVectors / kThreads; ++k)
        tile4[k * kThreads + tid] = v[k];
      __syncthreads();
    } else {
      for (int i = tid; i < kTileItems; i += kThreads)
        sm.tile[i] = i < valid ? p.in[base + i] : p.in[base];
      __syncthreads();
    }
    // Blocked: thread t holds items 16t .. 16t + 15.
    T items[kItems];
    {
      const uint4* mine = reinterpret_cast<const uint4*>(sm.tile + tid * kItems);
#pragma unroll
      for (int k = 0; k < kItems / 4; ++k) {
        const uint4 q = mine[k];
        items[4 * k] = q.x;
        items[4 * k + 1] = q.y;
        items[4 * k + 2] = q.z;
        items[4 * k + 3] = q.w;
      }
    }
    T thread_aggregate = items[0];
#pragma unroll
    for (int i = 1; i < kItems; ++i)
      thread_aggregate = op(thread_aggregate, items[i]);
    T thread_exclusive{};
    T aggregate{};
    ScanT(sm.scan).ExclusiveScan(thread_aggregate, thread_exclusive, op, aggregate);
    if constexpr (kLookback) {
      if (warp == 0) Prefix::publish_aggregate(p, desc, op, tile, epoch, aggregate, lane);
    }
    {
      lbd::Partial<T> r{thread_exclusive, tid > 0};
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        r = lbd::combine(op, r, items[i]);
        items[i] = r.value;
      }
    }
    if constexpr (kLookback) {
      if (warp == 0) {
        NoReducer reduce;
        lbd::Partial<T> exclusive{};
        const bool ok =
            Prefix::resolve(p, desc, op, tile, epoch, aggregate, reduce, lane, exclusive);
        if (lane == 0) {
          sm.exclusive = exclusive.value;
          sm.has_exclusive = exclusive.valid ? 1 : 0;
          sm.ok = ok ? 1 : 0;
        }
      }
    } else {
      if (tid == 0) {
        sm.has_exclusive = 0;
        sm.ok = 1;
      }
    }
    __syncthreads();  // the prefix; every thread's items read from the tile
    if (warp == kThreads / 32 - 1)
      lbd::LaunchState<kP>::finish(p.header, desc, p.num_tiles, epoch, sm.drawn, false, lane);
    if (!sm.ok) return;
    if (sm.has_exclusive) {
#pragma unroll
      for (int i = 0; i < kItems; ++i)
        items[i] = op(sm.exclusive, items[i]);
    }
    if constexpr (!kStore) {
      T x = items[0];
#pragma unroll
      for (int i = 1; i < kItems; ++i)
        x ^= items[i];
      if (x == 0x9e3779b9u) p.out[base + tid] = x;
      return;
    }
    {
      uint4* mine = reinterpret_cast<uint4*>(sm.tile + tid * kItems);
#pragma unroll
      for (int k = 0; k < kItems / 4; ++k)
        mine[k] = make_uint4(items[4 * k], items[4 * k + 1], items[4 * k + 2], items[4 * k + 3]);
    }
    __syncthreads();
    if (full) {
      uint4* out4 = reinterpret_cast<uint4*>(p.out + base);
      const uint4* tile4 = reinterpret_cast<const uint4*>(sm.tile);
#pragma unroll
      for (int k = 0; k < kVectors / kThreads; ++k)
        out4[k * kThreads + tid] = tile4[k * kThreads + tid];
    } else {
      for (int i = tid; i < valid; i += kThreads)
        p.out[base + i] = sm.tile[i];
    }
  }
};

template <class Agent>
__global__ void __launch_bounds__(Agent::kThreads, Agent::kMinBlocks)
    smem_tile_kernel(const Params p) {
  Agent::run(p);
}

// Times one agent; kLookback rows are checked against CUB, the others'
// tiles against their own local scans.
template <bool kTma, bool kLookback, bool kStore = true>
void smem_row(const char* name, std::int64_t n, const Pools<T>& pools, cudaStream_t stream,
              const Settings& settings, Timing copy, Timing cub) {
  using Agent = SmemTileAgent<kTma, kLookback, kStore>;
  const auto tiles = static_cast<std::uint32_t>((n + Agent::kTileItems - 1) / Agent::kTileItems);
  constexpr auto shape = lbd::descriptor_shape<kP, T>();
  const std::size_t bytes = lbd::temp_storage_bytes(tiles, shape);
  void* temp = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, bytes));
  CHECK_CUDA(cudaMemset(temp, 0, bytes));
  lbd::Header* header = lbd::header_of(temp);
  Params base{};
  base.num_items = n;
  base.num_tiles = tiles;
  base.header = header;
  base.descriptors = lbd::descriptors_of(header, lbd::descriptor_capacity(bytes, shape));
  base.watchdog = 1u << 22;
  const auto launch = [&](int s) {
    Params p = base;
    p.in = pools.in_slice(n, s);
    p.out = pools.out_slice(n, s);
    smem_tile_kernel<Agent><<<tiles, Agent::kThreads, 0, stream>>>(p);
  };
  const auto bad_items = [&]() -> unsigned long long {
    if constexpr (kLookback) {
      return mismatches(pools.out_slice(n, 0), pools.expected, n);
    } else {
      return device_count([&](unsigned long long* d) {
        check_local_scan<<<1024, 256>>>(pools.in_slice(n, 0), pools.out_slice(n, 0), n,
                                        Agent::kTileItems, d);
      });
    }
  };
  CHECK_CUDA(cudaMemsetAsync(pools.out_slice(n, 0), 0xff, n * sizeof(T), stream));
  launch(0);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaStreamSynchronize(stream));
  unsigned long long bad = bad_items();
  const Timing t = time_it(launch, pools.slices(n), stream, settings.quick);
  CHECK_CUDA(cudaMemsetAsync(pools.out_slice(n, 0), 0xff, n * sizeof(T), stream));
  launch(0);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  bad += bad_items();
  lbd::Header h{};
  CHECK_CUDA(cudaMemcpy(&h, header, sizeof h, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(temp));
  const double b = 2.0 * static_cast<double>(n) * sizeof(T);
  const char* ok = kLookback ? "ok" : "local-ok";
  std::string check = !kStore ? "unchecked" : bad == 0 ? ok : "FAIL(" + std::to_string(bad) + ")";
  if (h.error != 0) check += " error " + std::to_string(h.error);
  emit({"explore_tma_tile", n, name, t.median_us, t.min_us, b / t.median_us / 1e3,
        100.0 * copy.median_us / t.median_us, cub.median_us / t.median_us, check});
}

ExtraRows<T> tma_rows(const Settings& settings) {
  unsigned* d_counter = nullptr;  // the ladder's ticket counter
  CHECK_CUDA(cudaMalloc(&d_counter, sizeof(unsigned)));
  const std::shared_ptr<unsigned> counter(d_counter, [](unsigned* p) { cudaFree(p); });
  return [&settings, counter](std::int64_t n, const Pools<T>& pools, cudaStream_t stream,
                              Timing copy, Timing cub) {
    // explore_copy_floor's "+ticket" row: CUB's transposes, a ticket, the
    // local scan, nothing shared; checked per tile.
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
    emit({"explore_tma_tile", n, "ladder +ticket", t.median_us, t.min_us,
          2.0 * n * sizeof(T) / t.median_us / 1e3, 100.0 * copy.median_us / t.median_us,
          cub.median_us / t.median_us,
          breaks == 0 ? "local-ok" : "FAIL(" + std::to_string(breaks) + ")"});
    smem_row<false, false>("EXPT lsu ladder", n, pools, stream, settings, copy, cub);
    smem_row<true, false>("EXPT tma ladder", n, pools, stream, settings, copy, cub);
    smem_row<false, true>("EXPT lsu scan", n, pools, stream, settings, copy, cub);
    smem_row<true, true>("EXPT tma scan", n, pools, stream, settings, copy, cub);
    smem_row<false, false, false>("EXPT lsu ladder nostore", n, pools, stream, settings, copy, cub);
    smem_row<false, true, false>("EXPT lsu scan nostore", n, pools, stream, settings, copy, cub);
  };
}

}  // namespace

void explore_protocol_groups(const Settings& s) {
  std::vector<std::int64_t> sizes;
  for (int l = std::max(s.min_log, 12); l <= std::min(s.max_log, 30); ++l) {
    if (l > 22 && l % 2 == 1) continue;
    sizes.push_back(std::int64_t{1} << l);
    if (l >= 16 && l <= 21) sizes.push_back(std::int64_t{3} << (l - 1));
  }
  run_op<Case<T, OpKind::Sum, false>, T, false, BWarpSmall, BWarp, BDefaultFor<T>>(
      s, "explore_tma_tile", sizes, {"warp-lookback small", "warp-lookback", "default"}, 0,
      tma_rows(s));
}
void main_suite(const Settings&) {}
void tuning_suite(const Settings&) {}
void stats_suite(const Settings&) {}
void trace_suite(const Settings&) {}
void explore_shape_groups(const Settings&) {}
void explore_input_groups(const Settings&) {}

}  // namespace lookback_bench
