// --suite explore, what the protocol and the tile pipeline cost: the floor
// under small scans (copies of our own and a ladder from a copy to a scan),
// relaxed against release publishes, the per-tile bookkeeping, the L2
// prefetch of a later tile's input, and pacing the first wave's loads.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <cub/device/device_transform.cuh>
#include <cuda/std/functional>

#include "harness/cases.cuh"
#include "harness/check.cuh"
#include "harness/configs.cuh"
#include "harness/pools.cuh"
#include "harness/report.hpp"
#include "harness/run_op.cuh"
#include "harness/settings.hpp"
#include "harness/timing.cuh"
#include "suites/floor_kernels.cuh"
#include "suites/suites.hpp"

namespace lookback_bench {

namespace {

// Items of out that break the inclusive sum of in within their tile
// (check_local_scan): 0 iff every tile is its own scan.
unsigned long long local_scan_breaks(const std::uint32_t* in, const std::uint32_t* out,
                                     std::int64_t n, std::int64_t tile_items) {
  return device_count(
      [&](unsigned long long* d) { check_local_scan<<<1024, 256>>>(in, out, n, tile_items, d); });
}

// Copies of our own next to cudaMemcpyAsync (explore_copy_floor): the floor
// under a one-launch scan at small n. Each row's output is compared with its
// input; % of copy and the ratio to CUB as for the scans.
ExtraRows<std::uint32_t> copy_floor_rows(const Settings& settings) {
  unsigned* d_counter = nullptr;  // the ladder's ticket counter
  CHECK_CUDA(cudaMalloc(&d_counter, sizeof(unsigned)));
  const std::shared_ptr<unsigned> counter(d_counter, [](unsigned* p) { cudaFree(p); });
  int dev = 0, sms = 0, per_sm = 0;
  CHECK_CUDA(cudaGetDevice(&dev));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, copy_grid_stride, 256, 0));
  const unsigned resident = static_cast<unsigned>(sms * per_sm);
  return [&settings, counter, resident](std::int64_t n, const Pools<std::uint32_t>& pools,
                                        cudaStream_t stream, Timing copy, Timing cub) {
    const std::int64_t n4 = n / 4;  // the group's sizes are multiples of 4
    const auto vin = [&](int s) { return reinterpret_cast<const uint4*>(pools.in_slice(n, s)); };
    const auto vout = [&](int s) { return reinterpret_cast<uint4*>(pools.out_slice(n, s)); };
    const auto grid_for = [&](std::int64_t vectors_per_block) {
      return static_cast<unsigned>((n4 + vectors_per_block - 1) / vectors_per_block);
    };
    // One checked launch on slice 0 (its output first filled with `fill_byte`, so
    // that nothing an earlier row wrote passes), then the timed ones.
    // bad_items counts what is wrong in slice 0; `ok` labels a pass.
    const auto timed_row =
        [&](const char* name, const std::function<void(int)>& launch, unsigned char fill_byte,
            const std::function<unsigned long long()>& bad_items, const char* ok) {
          CHECK_CUDA(
              cudaMemsetAsync(pools.out_slice(n, 0), fill_byte, n * sizeof(std::uint32_t), stream));
          launch(0);
          CHECK_CUDA(cudaGetLastError());
          CHECK_CUDA(cudaStreamSynchronize(stream));
          const unsigned long long bad = bad_items();
          const Timing t = time_it(launch, pools.slices(n), stream, settings.quick);
          const double bytes = 2.0 * static_cast<double>(n) * sizeof(std::uint32_t);
          emit({"explore_copy_floor", n, name, t.median_us, t.min_us, bytes / t.median_us / 1e3,
                100.0 * copy.median_us / t.median_us, cub.median_us / t.median_us,
                bad == 0 ? ok : "FAIL(" + std::to_string(bad) + ")"});
        };
    const auto row = [&](const char* name, const std::function<void(int)>& launch) {
      timed_row(
          name, launch, 0,
          [&] { return mismatches(pools.out_slice(n, 0), pools.in_slice(n, 0), n); }, "ok");
    };
    row("kcopy grid-stride", [&](int s) {
      const unsigned grid = std::min<unsigned>(resident, grid_for(256));
      copy_grid_stride<<<grid, 256, 0, stream>>>(vin(s), vout(s), n4);
    });
    row("kcopy tile 256x4",
        [&](int s) { copy_tile<1><<<grid_for(256), 256, 0, stream>>>(vin(s), vout(s), n4); });
    row("kcopy tile 256x16",
        [&](int s) { copy_tile<4><<<grid_for(256 * 4), 256, 0, stream>>>(vin(s), vout(s), n4); });
    row("kcopy tile 128x64",
        [&](int s) { copy_tile<16><<<grid_for(128 * 16), 128, 0, stream>>>(vin(s), vout(s), n4); });
    row("DeviceTransform", [&](int s) {
      CHECK_CUDA(cub::DeviceTransform::Transform(pools.in_slice(n, s), pools.out_slice(n, s), n,
                                                 ::cuda::std::identity{}, stream));
    });
    // The ladder on WarpLookbackSmall's 256 x 16 u32 tile (floor_kernels.cuh).
    constexpr int kLadderThreads = 256, kLadderItems = 16;
    constexpr std::int64_t kLadderTile = kLadderThreads * kLadderItems;
    const unsigned ladder_grid = static_cast<unsigned>((n + kLadderTile - 1) / kLadderTile);
    row("ladder cub-io copy", [&](int s) {
      tile_ladder<kLadderThreads, kLadderItems, false, false>
          <<<ladder_grid, kLadderThreads, 0, stream>>>(pools.in_slice(n, s), pools.out_slice(n, s),
                                                       n, nullptr);
    });
    const auto local_scan_row = [&](const char* name, const std::function<void(int)>& launch) {
      CHECK_CUDA(cudaMemsetAsync(counter.get(), 0, sizeof(unsigned), stream));
      // Filled with all ones, not the previous row's output: a tile this
      // launch skipped must fail.
      timed_row(
          name, launch, 0xff,
          [&] {
            return local_scan_breaks(pools.in_slice(n, 0), pools.out_slice(n, 0), n, kLadderTile);
          },
          "local-ok");
    };
    local_scan_row("ladder +local scan", [&](int s) {
      tile_ladder<kLadderThreads, kLadderItems, true, false>
          <<<ladder_grid, kLadderThreads, 0, stream>>>(pools.in_slice(n, s), pools.out_slice(n, s),
                                                       n, nullptr);
    });
    local_scan_row("ladder +ticket", [&](int s) {
      tile_ladder<kLadderThreads, kLadderItems, true, true>
          <<<ladder_grid, kLadderThreads, 0, stream>>>(pools.in_slice(n, s), pools.out_slice(n, s),
                                                       n, counter.get());
    });
    local_scan_row("ladder +ticket spec", [&](int s) {
      tile_ladder<kLadderThreads, kLadderItems, true, true, true>
          <<<ladder_grid, kLadderThreads, 0, stream>>>(pools.in_slice(n, s), pools.out_slice(n, s),
                                                       n, counter.get());
    });
  };
}

}  // namespace

void explore_protocol_groups(const Settings& s) {
  using C = lookback::Variant;
  using lookback::protocol::Reset;
  using lookback::protocol::TileIdSource;
  const auto large = powers_of_two(s, {20, 22, 24, 26, 28, 30});
  // The floor under a one-launch scan at small n (2026-11-27, evening): how
  // close copies of our own come to cudaMemcpyAsync, next to the scans. From
  // 2^26 (night): whether one-tile blocks as such stop short of the copy
  // (warp-lookback and coarsened level off at 96.3% from 2^28).
  std::vector<std::int64_t> floor_sizes;
  for (int l = std::max(s.min_log, 10); l <= std::min(s.max_log, 30); ++l) {
    if (l > 24 && l % 2 == 1) continue;
    floor_sizes.push_back(std::int64_t{1} << l);
    if (l >= 16 && l <= 21) floor_sizes.push_back(std::int64_t{3} << (l - 1));
  }
  // EXPT rows: tile ids from blockIdx; the release publish the one-tile
  // protocols had until 2a20084 (its logs call the production rows of today
  // "EXPT-wsmall rlx-pub"); relaxed look-back reads on top of today's.
  using lookback::protocol::Order;
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarpSmall,
         ExptBookkeeping<BWarpSmall, TileIdSource::BlockIdx, Reset::Epoch>,
         ExptOrders<BWarpSmall, false, Order::Acquire>,
         ExptOrders<BWarpSmall, true, Order::Relaxed>, BPipelined, BDefaultFor<std::uint32_t>,
         BWarp, BCoarse>(
      s, "explore_copy_floor", floor_sizes,
      {"warp-lookback small", "EXPT-wsmall blockidx", "EXPT-wsmall release", "EXPT-wsmall rlx-rd",
       "pipelined", "default", "warp-lookback", "coarsened"},
      0, copy_floor_rows(s));
  // Relaxed packed publishes on the one-tile variants, at every size:
  // explore_copy_floor found them 0.4-1.2 us faster on the default's small
  // tiles from 2^13 to 2^20 items (2026-11-27, evening); since 2a20084 every
  // production protocol has them, and the EXPT rows are the release they
  // replaced (the logs of a45c457's build name the relaxed rows "rlx-pub").
  const auto rp_sizes = powers_of_two(s, {14, 16, 18, 20, 22, 24, 26, 28, 30});
  const std::vector<const char*> rp_names = {"warp-lookback small", "EXPT-wsmall release",
                                             "warp-lookback",       "EXPT-warp release",
                                             "coarsened",           "EXPT-coarse release"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarpSmall,
         ExptOrders<BWarpSmall, false, Order::Acquire>, BWarp,
         ExptOrders<BWarp, false, Order::Acquire>, BCoarse,
         ExptOrders<BCoarse, false, Order::Acquire>>(s, "explore_relaxed_publish", rp_sizes,
                                                     rp_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarpSmall,
         ExptOrders<BWarpSmall, false, Order::Acquire>, BWarp,
         ExptOrders<BWarp, false, Order::Acquire>, BCoarse,
         ExptOrders<BCoarse, false, Order::Acquire>>(s, "explore_relaxed_publish_u64", rp_sizes,
                                                     rp_names);
  // What the per-tile bookkeeping of a one-launch scan costs: tile ids from
  // blockIdx, as CUB (EXPT blockidx; under the epoch reset a block still
  // draws from the launch word, for the epoch, so since 2026-11-26 this
  // saves only the tile id's dependence on the draw), and the epoch reset
  // itself (EXPT memset: the host clears the storage before every launch,
  // as the stateless API does; its memset is timed with the scan). Before
  // the launch word every block also read the epoch and counted itself
  // finished: that cost warp-lookback 3.5 points (bench/results/README.md).
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp,
         ExptBookkeeping<BWarp, TileIdSource::BlockIdx, Reset::Epoch>,
         ExptBookkeeping<BWarp, TileIdSource::Ticket, Reset::HostMemset>,
         ExptBookkeeping<BWarp, TileIdSource::BlockIdx, Reset::HostMemset>, BCoarse,
         ExptBookkeeping<BCoarse, TileIdSource::Ticket, Reset::HostMemset>, BPipelined, BFallback>(
      s, "explore_bookkeeping", large,
      {"warp-lookback", "EXPT-w blockidx", "EXPT-w memset", "EXPT-w blockidx+memset", "coarsened",
       "EXPT-c memset", "pipelined", "fallback"});
  // L2 prefetch of a later tile's input (2026-11-28): the thread that draws
  // a tile asks L2 for the input of the tile about B bytes further on
  // (TilePolicy::kL2PrefetchBytes: 1 MiB, coarsened 512 KiB; tiles of the
  // grid's first wave are not asked for). EXPT rows: none ("no-pf"), or
  // another distance ("pf2M": 2 MiB). policy.hpp has the sweep.
  const auto pf_sizes = powers_of_two(s, {20, 22, 24, 25, 26, 28, 30});
  using lookback::CoarsenedPolicy;
  using lookback::FallbackPolicy;
  using lookback::PipelinedPolicy;
  using lookback::WarpLookbackPolicy;
  constexpr int kKiB = 1 << 10;
  using NoPfWarp = Bench<C::WarpLookback, L2Prefetch<WarpLookbackPolicy, 0>>;
  using NoPfCoarse = Bench<C::Coarsened, L2Prefetch<CoarsenedPolicy, 0>>;
  using NoPfPipelined = Bench<C::Pipelined, L2Prefetch<PipelinedPolicy, 0>>;
  using NoPfFallback = Bench<C::Fallback, L2Prefetch<FallbackPolicy, 0>>;
  const std::vector<const char*> pf_names = {
      "warp-lookback", "EXPT-w no-pf", "EXPT-w pf2M",  "coarsened", "EXPT-c no-pf",
      "EXPT-c pf1M",   "pipelined",    "EXPT-p no-pf", "fallback",  "EXPT-f no-pf"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, NoPfWarp,
         Bench<C::WarpLookback, L2Prefetch<WarpLookbackPolicy, 2048 * kKiB>>, BCoarse, NoPfCoarse,
         Bench<C::Coarsened, L2Prefetch<CoarsenedPolicy, 1024 * kKiB>>, BPipelined, NoPfPipelined,
         BFallback, NoPfFallback>(s, "explore_prefetch", pf_sizes, pf_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, NoPfWarp,
         Bench<C::WarpLookback, L2Prefetch<WarpLookbackPolicy, 2048 * kKiB>>, BCoarse, NoPfCoarse,
         Bench<C::Coarsened, L2Prefetch<CoarsenedPolicy, 1024 * kKiB>>, BPipelined, NoPfPipelined,
         BFallback, NoPfFallback>(s, "explore_prefetch_u64", pf_sizes, pf_names);
  const std::vector<const char*> pf_inplace_names = {"pipelined", "EXPT-p no-pf", "fallback",
                                                     "EXPT-f no-pf", "EXPT-f pf2M"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, true, BPipelined, NoPfPipelined,
         BFallback, NoPfFallback, Bench<C::Fallback, L2Prefetch<FallbackPolicy, 2048 * kKiB>>>(
      s, "explore_prefetch_inplace", pf_sizes, pf_inplace_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, true, BPipelined, NoPfPipelined,
         BFallback, NoPfFallback, Bench<C::Fallback, L2Prefetch<FallbackPolicy, 2048 * kKiB>>>(
      s, "explore_prefetch_u64_inplace", pf_sizes, pf_inplace_names);
  // Pacing the first wave (2026-11-28, first_wave.cuh): the block of ticket
  // t < resident blocks waits t x tile bytes / pace before its loads, so the
  // first wave's tiles do not all finish their loads, look-backs and stores
  // at once (bench --suite trace showed waves of loads alone and stores
  // alone for 60 us on an H200). EXPT rows: pace in GB/s.
  const std::vector<const char*> pace_names = {
      "warp-lookback",   "EXPT-w pace2500", "EXPT-w pace4000", "EXPT-w pace6000", "coarsened",
      "EXPT-c pace2500", "EXPT-c pace4000", "EXPT-c pace6000", "pipelined",       "EXPT-p pace2500",
      "EXPT-p pace4000", "EXPT-p pace6000", "fallback",        "EXPT-f pace4000"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp,
         Bench<C::WarpLookback, lookback::PacedFirstWave<WarpLookbackPolicy, 2500>>,
         Bench<C::WarpLookback, lookback::PacedFirstWave<WarpLookbackPolicy, 4000>>,
         Bench<C::WarpLookback, lookback::PacedFirstWave<WarpLookbackPolicy, 6000>>, BCoarse,
         Bench<C::Coarsened, lookback::PacedFirstWave<CoarsenedPolicy, 2500>>,
         Bench<C::Coarsened, lookback::PacedFirstWave<CoarsenedPolicy, 4000>>,
         Bench<C::Coarsened, lookback::PacedFirstWave<CoarsenedPolicy, 6000>>, BPipelined,
         Bench<C::Pipelined, lookback::PacedFirstWave<PipelinedPolicy, 2500>>,
         Bench<C::Pipelined, lookback::PacedFirstWave<PipelinedPolicy, 4000>>,
         Bench<C::Pipelined, lookback::PacedFirstWave<PipelinedPolicy, 6000>>, BFallback,
         Bench<C::Fallback, lookback::PacedFirstWave<FallbackPolicy, 4000>>>(s, "explore_pace",
                                                                             pf_sizes, pace_names);
  // The deterministic mode's second pass (2026-12-01): re-reading every
  // window a look-back passed (h0) against holding the nearest K in shared
  // memory (EXPT-hK; Protocol::held_windows, the catalogue's is 4), next to
  // the default (Fold::Tree) of the same kernel. Float sums, where the mode
  // matters. Logs: bench/results/h200/held-windows/.
  const auto held_sizes = powers_of_two(s, {18, 20, 21, 22, 23, 24, 25, 26, 28});
  run_op<Case<float, OpKind::Sum, false>, float, false, BCoarse, ExptHeld<BCoarseDet, 0>,
         ExptHeld<BCoarseDet, 2>, ExptHeld<BCoarseDet, 4>, ExptHeld<BCoarseDet, 8>, BPipelined,
         ExptHeld<BPipelinedDet, 0>, ExptHeld<BPipelinedDet, 2>, ExptHeld<BPipelinedDet, 4>,
         ExptHeld<BPipelinedDet, 8>, ExptHeld<BPipelinedDet, 16>, BFallback,
         ExptHeld<BFallbackDet, 0>, ExptHeld<BFallbackDet, 4>, ExptHeld<BFallbackDet, 8>>(
      s, "explore_held_windows", held_sizes,
      {"coarsened", "EXPT-cdet h0", "EXPT-cdet h2", "EXPT-cdet h4", "EXPT-cdet h8", "pipelined",
       "EXPT-pdet h0", "EXPT-pdet h2", "EXPT-pdet h4", "EXPT-pdet h8", "EXPT-pdet h16", "fallback",
       "EXPT-fdet h0", "EXPT-fdet h4", "EXPT-fdet h8"});
  run_op<Case<double, OpKind::Sum, false>, double, false, BCoarse, ExptHeld<BCoarseDet, 0>,
         ExptHeld<BCoarseDet, 4>, ExptHeld<BCoarseDet, 8>, BPipelined, ExptHeld<BPipelinedDet, 0>,
         ExptHeld<BPipelinedDet, 4>, ExptHeld<BPipelinedDet, 8>>(
      s, "explore_held_windows_f64", held_sizes,
      {"coarsened", "EXPT-cdet h0", "EXPT-cdet h4", "EXPT-cdet h8", "pipelined", "EXPT-pdet h0",
       "EXPT-pdet h4", "EXPT-pdet h8"});
  // The deterministic mode as a user gets it: Deterministic<DefaultConfig<T>>
  // next to DefaultConfig<T> and every deterministic kernel its switches
  // choose from, in quarter steps from 2^17 to 2^23 items (where the
  // switches are), then powers of two. Until 2026-12-01 the deterministic
  // default ran the default's tiers; these sizes and rows chose its own
  // switches (config.hpp, DeterministicDefaultConfig;
  // bench/results/h200/default-det/), and since 2026-12-02 its paced tier
  // (bench/results/h200/det-pace/); coarsened-det, its 4-byte tier until
  // then, stays as a row.
  std::vector<std::int64_t> det_sizes = quarter_steps(s, 17, 23);
  for (const std::int64_t n : powers_of_two(s, {24, 26, 28}))
    det_sizes.push_back(n);
  const std::vector<const char*> det_names = {"default",
                                              "default-det",
                                              "warp-lookback-small-det",
                                              "warp-lookback-det",
                                              "warp-lookback-paced-det",
                                              "coarsened-det",
                                              "pipelined-det"};
  run_op<Case<float, OpKind::Sum, false>, float, false, BDefaultFor<float>, BDefaultDetFor<float>,
         BWarpSmallDet, BWarpDet, BWarpPacedDet<lookback::deterministic_pace_gbps<float>()>,
         BCoarseDet, BPipelinedDet>(s, "explore_default_det", det_sizes, det_names);
  std::vector<const char*> det_names_f64 = det_names;
  det_names_f64.push_back("pipelined-wide-det");  // the 8-byte wide shape
  run_op<Case<double, OpKind::Sum, false>, double, false, BDefaultFor<double>,
         BDefaultDetFor<double>, BWarpSmallDet, BWarpDet,
         BWarpPacedDet<lookback::deterministic_pace_gbps<double>()>, BCoarseDet, BPipelinedDet,
         BPipelinedWideDet>(s, "explore_default_det_f64", det_sizes, det_names_f64);
  // Integer sums come out bitwise alike whatever the bracketing, so the
  // deterministic default runs the default on them (runs_on_t, since
  // 2026-12-02; before, 20-32% behind it on u64 from 14 MiB to 2^23 items:
  // bench/results/h200/default-det/integer/). What the left fold costs them
  // shows in the same kernels on u64 and f64 sums: on the H200 (2026-12-02)
  // u64's pipelined-det 17-23% behind pipelined, f64's 3.5-8.9%.
  const auto by_type_sizes = powers_of_two(s, {20, 21, 22, 23, 24, 26, 28});
  const std::vector<const char*> by_type_names = {"pipelined", "pipelined-det", "pipelined-wide",
                                                  "pipelined-wide-det"};
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BPipelined, BPipelinedDet,
         BPipelinedWide, BPipelinedWideDet>(s, "explore_det_by_type_u64", by_type_sizes,
                                            by_type_names);
  run_op<Case<double, OpKind::Sum, false>, double, false, BPipelined, BPipelinedDet, BPipelinedWide,
         BPipelinedWideDet>(s, "explore_det_by_type_f64", by_type_sizes, by_type_names);
}

}  // namespace lookback_bench
