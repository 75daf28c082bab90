// EXPERIMENT (measurement only): a look-back read by the whole block.
//
// At 2^20 u32 items the scan waits for a chain of look-back hops (one window
// of 32 predecessors a hop, 0.6-1 us each under the input burst). Reading
// wider windows with one warp made every round dearer (a lane's 8 loads did
// not all issue before the first status test; bench/results/h200/README.md,
// "Wider windows"). Here every thread of the tile's block reads one
// predecessor's descriptor, so one round reads blockDim predecessors with one
// load per thread: where the grid is one wave (at most blockDim tiles), a
// tile resolves one round trip after the last aggregate it needs, not after
// the chain of PREFIXes. A round re-reads only the INVALID descriptors right
// of the closest PREFIX; the values are combined in tile order by a block
// reduction.
//
// The tile algorithm is the library's CubAgent's (CUB warp-transposed loads
// and stores, block scan) on warp-lookback's protocol; only the look-back is
// the block's. Not production: inclusive u32 sums, no fallback, no
// instrumented build; its rounds are bounded (an error and no output past
// 2^22 rounds).
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
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

namespace lbd = lookback::device;
constexpr lookback::protocol::Protocol kP = lookback::protocol::detail::kWarpLookback;
using T = std::uint32_t;
using Op = lookback::Sum;
using Desc = lbd::Descriptor<kP, T>;
using Params = lbd::KernelParams<T, Op>;
using lookback::protocol::Status;
constexpr std::uint32_t kRoundBound = 1u << 22;

// kSentinel: between full reads, only the nearest INVALID predecessor is
// polled (one thread), and all INVALID ones are read again once it is not:
// fewer reads of the same few descriptor lines while waiting. kBackoffNs: a
// pause before every re-read.
template <class Policy, bool kSentinel = false, int kBackoffNs = 0>
struct BlockLookbackAgent {
  static constexpr int kThreads = Policy::template block_threads<T>();
  static constexpr int kItems = Policy::template items<T>();
  static constexpr int kTileItems = kThreads * kItems;
  static constexpr int kMinBlocks = Policy::template min_blocks<T>();
  static constexpr int kWarps = kThreads / 32;
  using LoadT = cub::BlockLoad<T, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using StoreT = cub::BlockStore<T, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using ScanT = cub::BlockScan<T, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  using ReduceT = cub::BlockReduce<lbd::Partial<T>, kThreads, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  using Prefix = lbd::TilePrefix<kP, Policy, T, Op, false, false>;

  struct Shared {
    union {
      typename LoadT::TempStorage load;
      typename StoreT::TempStorage store;
      typename ScanT::TempStorage scan;
      typename ReduceT::TempStorage reduce;
    } cub;
    // Per round (two, alternating): each warp's ballots of PREFIX and
    // INVALID descriptors.
    unsigned prefix_bits[2][kWarps];
    unsigned invalid_bits[2][kWarps];
    T exclusive;
    int has_exclusive;
    int ok;
    std::uint32_t tile, epoch, drawn;
  };

  struct Combine {
    Op op;
    __device__ lbd::Partial<T> operator()(const lbd::Partial<T>& a,
                                          const lbd::Partial<T>& b) const {
      Op o = op;
      return lbd::combine(o, a, b);
    }
  };

  // All threads. The exclusive prefix of `tile` >= 1 (thread 0's is the one
  // that counts); false when the rounds ran out.
  __device__ static bool look_back(const Desc& desc, Shared& sm, Op op, std::uint32_t tile,
                                   std::uint32_t epoch, int tid, lbd::Partial<T>& acc) {
    const int lane = tid & 31;
    const int warp = tid >> 5;
    std::int64_t base = tile;  // the segment is [base - kThreads, base - 1]
    std::uint32_t round = 0;
    while (true) {
      const std::int64_t j = base - kThreads + tid;
      const bool active = j >= 0;
      typename Desc::Word w{};
      if (active) w = desc.load(static_cast<std::uint32_t>(j));
      int lo = -1;  // the closest PREFIX of the segment, by thread
      Status s = Status::Invalid;
      while (true) {
        s = active ? lookback::protocol::effective_status(Desc::tag(w), epoch, kP.reset)
                   : Status::Aggregate;
        const unsigned pb = __ballot_sync(0xffffffffu, active && s == Status::Prefix);
        const unsigned ib = __ballot_sync(0xffffffffu, active && s == Status::Invalid);
        const int buf = static_cast<int>(round & 1u);
        if (lane == 0) {
          sm.prefix_bits[buf][warp] = pb;
          sm.invalid_bits[buf][warp] = ib;
        }
        __syncthreads();
        lo = -1;
#pragma unroll
        for (int k = kWarps - 1; k >= 0; --k) {
          const unsigned b = sm.prefix_bits[buf][k];
          if (lo < 0 && b != 0) lo = k * 32 + 31 - __clz(b);
        }
        int hi = -1;  // the nearest INVALID predecessor right of lo
#pragma unroll
        for (int k = 0; k < kWarps; ++k) {
          unsigned b = sm.invalid_bits[buf][k];
          const int first = lo + 1 - k * 32;  // bits at or above it are right of lo
          if (first >= 32)
            b = 0;
          else if (first > 0)
            b &= ~0u << first;
          if (b != 0) hi = k * 32 + 31 - __clz(b);
        }
        ++round;
        if (hi < 0) break;
        if (round > kRoundBound) return false;
        if constexpr (kBackoffNs > 0) __nanosleep(kBackoffNs);
        if constexpr (kSentinel) {
          // Poll the nearest until it is published, then read all again.
          if (tid == hi) {
            typename Desc::Word x;
            std::uint32_t polls = 0;
            do {
              x = desc.load(static_cast<std::uint32_t>(j));
              if (++polls > kRoundBound) break;
            } while (lookback::protocol::effective_status(Desc::tag(x), epoch, kP.reset) ==
                     Status::Invalid);
          }
          __syncthreads();
        }
        if (active && s == Status::Invalid && tid > lo)
          w = desc.load(static_cast<std::uint32_t>(j));
      }
      const bool take = active && tid >= lo;
      const lbd::Partial<T> v{take ? desc.value(static_cast<std::uint32_t>(j), w) : T{}, take};
      const lbd::Partial<T> seg = ReduceT(sm.cub.reduce).Reduce(v, Combine{op});
      if (tid == 0) acc = lbd::combine(op, seg, acc);
      if (lo >= 0) return true;
      // No PREFIX in the segment: a segment that reaches tile 0 holds its
      // PREFIX (tile 0 publishes one at once), so base - kThreads > 0 here.
      base -= kThreads;
      __syncthreads();  // reduce storage reused
    }
  }

  __device__ static void run(const Params& p) {
    __shared__ Shared sm;
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid & 31;
    const int warp = tid >> 5;
    Op op = p.op;
    const Desc desc(p.descriptors);
    if (tid == 0) {
      const lbd::Draw d = lbd::LaunchState<kP>::draw(p.header);
      sm.tile = d.tile;
      sm.epoch = d.epoch;
      sm.drawn = d.count;
    }
    __syncthreads();
    const std::uint32_t tile = sm.tile;
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
    T items[kItems];
    if (full) {
      LoadT(sm.cub.load).Load(p.in + base, items);
    } else {
      LoadT(sm.cub.load).Load(p.in + base, items, static_cast<int>(valid), p.in[base]);
    }
    __syncthreads();
    T thread_aggregate = items[0];
#pragma unroll
    for (int i = 1; i < kItems; ++i)
      thread_aggregate = op(thread_aggregate, items[i]);
    T thread_exclusive{};
    T aggregate{};
    ScanT(sm.cub.scan).ExclusiveScan(thread_aggregate, thread_exclusive, op, aggregate);
    if (warp == 0) Prefix::publish_aggregate(p, desc, op, tile, epoch, aggregate, lane);
    {
      lbd::Partial<T> r{thread_exclusive, tid > 0};
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        r = lbd::combine(op, r, items[i]);
        items[i] = r.value;
      }
    }
    __syncthreads();  // scan storage free for the reduction
    lbd::Partial<T> exclusive{};
    bool ok = true;
    if (tile != 0) {
      ok = look_back(desc, sm, op, tile, epoch, tid, exclusive);
      if (tid == 0 && ok) desc.publish(tile, Status::Prefix, op(exclusive.value, aggregate), epoch);
    }
    if (tid == 0) {
      sm.exclusive = exclusive.value;
      sm.has_exclusive = exclusive.valid ? 1 : 0;
      sm.ok = ok ? 1 : 0;
      if (!ok) lbd::raise_error(p.header, lbd::DeviceError::WatchdogExpired, tile);
    }
    __syncthreads();
    if (warp == kWarps - 1)
      lbd::LaunchState<kP>::finish(p.header, desc, p.num_tiles, epoch, sm.drawn, false, lane);
    if (sm.ok) {
      if (sm.has_exclusive) {
#pragma unroll
        for (int i = 0; i < kItems; ++i)
          items[i] = op(sm.exclusive, items[i]);
      }
      if (full) {
        StoreT(sm.cub.store).Store(p.out + base, items);
      } else {
        StoreT(sm.cub.store).Store(p.out + base, items, static_cast<int>(valid));
      }
    }
  }
};

template <class Agent>
__global__ void __launch_bounds__(Agent::kThreads, Agent::kMinBlocks)
    block_lookback_kernel(const Params p) {
  Agent::run(p);
}

template <class Policy, bool kSentinel = false, int kBackoffNs = 0>
void block_row(const char* name, std::int64_t n, const Pools<T>& pools, cudaStream_t stream,
               const Settings& settings, Timing copy, Timing cub) {
  using Agent = BlockLookbackAgent<Policy, kSentinel, kBackoffNs>;
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
  base.watchdog = 0;
  const auto launch = [&](int s) {
    Params p = base;
    p.in = pools.in_slice(n, s);
    p.out = pools.out_slice(n, s);
    block_lookback_kernel<Agent><<<tiles, Agent::kThreads, 0, stream>>>(p);
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
  std::string check = bad == 0 ? "ok" : "FAIL(" + std::to_string(bad) + ")";
  if (h.error != 0) check += " error " + std::to_string(h.error);
  emit({"explore_block_lookback", n, name, t.median_us, t.min_us, b / t.median_us / 1e3,
        100.0 * copy.median_us / t.median_us, cub.median_us / t.median_us, check});
}

ExtraRows<T> block_rows(const Settings& settings) {
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
    emit({"explore_block_lookback", n, "ladder +ticket", t.median_us, t.min_us,
          2.0 * n * sizeof(T) / t.median_us / 1e3, 100.0 * copy.median_us / t.median_us,
          cub.median_us / t.median_us,
          breaks == 0 ? "local-ok" : "FAIL(" + std::to_string(breaks) + ")"});
    block_row<lookback::WarpLookbackSmallPolicy>("EXPT small block-lb", n, pools, stream, settings,
                                                 copy, cub);
    block_row<lookback::WarpLookbackPolicy>("EXPT warp block-lb", n, pools, stream, settings, copy,
                                            cub);
    using Small = lookback::WarpLookbackSmallPolicy;
    using Warp = lookback::WarpLookbackPolicy;
    block_row<Small, true>("EXPT small block-lb sentinel", n, pools, stream, settings, copy, cub);
    block_row<Warp, true>("EXPT warp block-lb sentinel", n, pools, stream, settings, copy, cub);
    block_row<Small, false, 200>("EXPT small block-lb b200", n, pools, stream, settings, copy, cub);
    block_row<Warp, false, 200>("EXPT warp block-lb b200", n, pools, stream, settings, copy, cub);
    block_row<Small, true, 100>("EXPT small block-lb sent b100", n, pools, stream, settings, copy,
                                cub);
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
  run_op<Case<T, OpKind::Sum, false>, T, false, BWarpSmall, BWarp, BPipelined, BDefaultFor<T>>(
      s, "explore_block_lookback", sizes,
      {"warp-lookback small", "warp-lookback", "pipelined", "default"}, 0, block_rows(s));
}
void main_suite(const Settings&) {}
void tuning_suite(const Settings&) {}
void stats_suite(const Settings&) {}
void trace_suite(const Settings&) {}
void explore_shape_groups(const Settings&) {}
void explore_input_groups(const Settings&) {}

}  // namespace lookback_bench
