// --suite stats: look-back statistics of instrumented kernels (windows and
// spin rounds per tile, fallbacks taken, and in deterministic mode the
// windows its second pass read again and how many of those restarted at a
// PREFIX) at several sizes, under forced
// stalls of every second tile, and with sleeping tiles placed where others
// wait for them and where none does. One line per configuration and size,
// and a stats_* row in the CSV. u32 inclusive sums, and the pipelined
// kernels on u64 and f64 sums with and without the deterministic mode.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "harness/check.cuh"
#include "harness/configs.cuh"
#include "harness/pools.cuh"
#include "harness/report.hpp"
#include "harness/settings.hpp"
#include "harness/timing.cuh"
#include "lookback/device_scan.cuh"
#include "suites/suites.hpp"

namespace lookback_bench {

namespace {

template <class Cfg, class T = std::uint32_t>
void stats_one(const char* name, std::int64_t n, const char* perturbation,
               const lookback::device::Perturbation& perturb, Pools<T>& pools, cudaStream_t stream,
               bool quick) {
  lookback::ScanPlan<T, Cfg> plan;
  CHECK_CUDA(plan.init(n, stream));
  lookback::Options o;
  o.perturb = perturb;
  const int slices = pools.slices(n);
  const Timing t = time_it(
      [&](int sl) {
        CHECK_CUDA(plan.InclusiveSum(pools.in_slice(n, sl), pools.out_slice(n, sl), n, stream, o));
      },
      slices, stream, quick);
  CHECK_CUDA(plan.reset_stats(stream));
  CHECK_CUDA(plan.InclusiveSum(pools.in_slice(n, 0), pools.out_slice(n, 0), n, stream, o));
  lookback::LookbackStats st{};
  CHECK_CUDA(plan.read_stats(st, stream));
  const double tiles = static_cast<double>(lookback::detail::tiles_for<Cfg, T>(n));
  std::printf(
      "%-20s n=%-11lld %-22s %10.2f us  windows/tile %.3f  spins/tile %.3f  "
      "fallbacks %llu (won %llu)  rereads/tile %.3f (restarted %llu)\n",
      name, static_cast<long long>(n), perturbation, t.median_us, st.windows / tiles,
      st.spin_rounds / tiles, st.fallbacks, st.fallback_wins, st.reread_windows / tiles,
      st.reread_restarts);
  if (g_report.csv)
    std::fprintf(g_report.csv, "stats_%s,%lld,%s,%.3f,%.3f,%.4f,%.4f,%llu,%llu,%.4f,%llu\n", name,
                 static_cast<long long>(n), perturbation, t.median_us, t.min_us, st.windows / tiles,
                 st.spin_rounds / tiles, st.fallbacks, st.fallback_wins, st.reread_windows / tiles,
                 st.reread_restarts);
}

}  // namespace

void stats_suite(const Settings& s) {
  using lookback::device::Perturbation;
  using lookback::device::PerturbPoint;
  // The suites' configurations (configs.cuh), instrumented.
  using lookback::Instrumented;
  using IC = Instrumented<BCoarse>;
  using IF = Instrumented<BFallback>;
  using IW = Instrumented<BWarp>;
  std::printf("\n== look-back statistics (instrumented kernels, u32 inclusive sum) ==\n");
  const std::int64_t big = std::int64_t{1} << std::min(s.max_log, 28);
  Pools<std::uint32_t> pools(big);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  using ICd =
      Instrumented<Bench<lookback::Variant::Coarsened, lookback::TilePolicy<256, 128, 4, 0>>>;
  using IP = Instrumented<BPipelined>;
  using ICdet = Instrumented<BCoarseDet>;
  using IPdet = Instrumented<BPipelinedDet>;
  const Perturbation none{};
  // Small inputs (2026-11-27, evening): how many windows and spin rounds the
  // default's first and last tiers take where the look-back, not the tile pipeline,
  // costs a scan 2.4-3.6 us over a copy (explore_copy_floor, with the release
  // publish the one-tile variants had until 2a20084; about 1.4-2.5 us since).
  using IWs = Instrumented<BWarpSmall>;
  for (int l : {14, 16, 17, 18, 19, 20}) {
    stats_one<IWs>("warp-lookback-small", std::int64_t{1} << l, "-", none, pools, stream, s.quick);
    stats_one<IP>("pipelined", std::int64_t{1} << l, "-", none, pools, stream, s.quick);
  }
  for (std::int64_t n : {std::int64_t{1} << 20, std::int64_t{1} << 24, big}) {
    stats_one<ICd>("coarsened-nodelay", n, "-", none, pools, stream, s.quick);
    stats_one<IW>("warp-lookback", n, "-", none, pools, stream, s.quick);
    stats_one<IC>("coarsened", n, "-", none, pools, stream, s.quick);
    stats_one<IP>("pipelined", n, "-", none, pools, stream, s.quick);
    stats_one<IF>("fallback", n, "-", none, pools, stream, s.quick);
    // Deterministic mode (2026-12-01): how many windows a look-back passes
    // beyond the 4 it holds, and how many it passed at all (EXPT h0 reads
    // every one again; bench/results/h200/held-windows/).
    stats_one<ICdet>("coarsened-det", n, "-", none, pools, stream, s.quick);
    stats_one<IPdet>("pipelined-det", n, "-", none, pools, stream, s.quick);
    stats_one<ExptHeld<IPdet, 0>>("EXPT-pdet h0", n, "-", none, pools, stream, s.quick);
  }
  const std::int64_t n = std::int64_t{1} << 24;
  // The blocking simulation: every second tile sleeps before publishing its
  // AGGREGATE, so its successors wait (or, past the spin bound, fall back).
  // Stalls from 1 us (a tile's own time at 2^24 is about 13 us a block) to
  // 100 us (twice the unstalled scan).
  for (std::uint32_t stall : {1000u, 2000u, 5000u, 10000u, 20000u, 100000u}) {
    Perturbation q{};
    q.stall_ns = stall;
    q.stall_every = 2;
    const std::string label = "stall=" + std::to_string(stall) + "ns";
    stats_one<IC>("coarsened", n, label.c_str(), q, pools, stream, s.quick);
    stats_one<IP>("pipelined", n, label.c_str(), q, pools, stream, s.quick);
    stats_one<IF>("fallback", n, label.c_str(), q, pools, stream, s.quick);
  }
  // The same kind of sleeps, but where they block others (before AGGREGATE)
  // and where no tile waits for them (before PREFIX, the AGGREGATE already
  // out): half of the tiles, drawn by hash, sleep up to max_ns (uniform). The
  // second is the floor a scan with these sleeping tiles can reach; the gap
  // between the two is what waiting on sleepers costs.
  for (std::uint32_t max_ns : {40000u, 200000u}) {
    for (const PerturbPoint point : {PerturbPoint::BeforeAggregate, PerturbPoint::BeforePrefix}) {
      Perturbation q{};
      q.seed = 7;
      q.delay_chance = 32768;
      q.max_delay_ns(point) = max_ns;
      const std::string label =
          std::string(point == PerturbPoint::BeforeAggregate ? "sleep<=" : "floor<=") +
          std::to_string(max_ns) + "ns";
      stats_one<IP>("pipelined", n, label.c_str(), q, pools, stream, s.quick);
      stats_one<IF>("fallback", n, label.c_str(), q, pools, stream, s.quick);
    }
  }
  // 8-byte sums (2026-12-02): on an H200 the deterministic pipelined kernels
  // ran 17-23% behind their non-deterministic selves on u64 and 4-9% on f64
  // (bench/results/h200/default-det/integer/); whether the look-backs do
  // more there (windows passed, spins, re-reads) or the same work slower.
  std::printf("\n== u64 and f64 inclusive sums ==\n");
  const auto eight_byte = [&](auto value, const char* type, bool small_values) {
    using T = decltype(value);
    Pools<T> pools8(std::int64_t{1} << std::min(s.max_log, 24));
    if (small_values) {  // what f64 gets (-4 .. 4), as u64 0 .. 8: whether the data matters
      fill<<<1024, 256>>>(pools8.in, static_cast<std::int64_t>(pools8.pool_items), 0, true);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
    }
    const std::string det = std::string("pipelined-det-") + type;
    const std::string plain = std::string("pipelined-") + type;
    for (const int l : {21, 22, 24}) {
      if (l > s.max_log) continue;
      const std::int64_t n8 = std::int64_t{1} << l;
      stats_one<IP, T>(plain.c_str(), n8, "-", none, pools8, stream, s.quick);
      stats_one<IPdet, T>(det.c_str(), n8, "-", none, pools8, stream, s.quick);
    }
  };
  eight_byte(std::uint64_t{}, "u64", false);
  eight_byte(std::uint64_t{}, "u64-small", true);
  eight_byte(double{}, "f64", false);
  CHECK_CUDA(cudaStreamDestroy(stream));
}

}  // namespace lookback_bench
