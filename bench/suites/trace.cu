// --suite trace: tile timelines of instrumented kernels (device/trace.hpp),
// u32 inclusive sums at 2^16, 2^20, 2^24 and 2^26: per-step times, fill and
// drain, a timeline of tiles in and out, and with --trace-dir the stamps of
// every tile.

#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cub/device/device_scan.cuh>

#include "harness/check.cuh"
#include "harness/configs.cuh"
#include "harness/pools.cuh"
#include "harness/report.hpp"
#include "harness/settings.hpp"
#include "harness/timing.cuh"
#include "lookback/device_scan.cuh"
#include "lookback/trace_summary.hpp"
#include "suites/suites.hpp"

namespace lookback_bench {

namespace {

// --trace-dir: one summary row per traced launch (summary.csv) and its
// stamps, one row a tile, in ns from the first draw (empty: never stamped).
void write_trace_files(const std::string& dir, const char* name, std::int64_t n, const Timing& t,
                       const Timing& copy, const lookback::TraceSummary& sum,
                       const std::vector<lookback::device::TileStamps>& stamps) {
  const auto open = [](const std::string& path, const char* mode) {
    FILE* f = std::fopen(path.c_str(), mode);
    if (!f) {
      std::perror(path.c_str());
      std::exit(1);
    }
    return f;
  };
  static bool summary_started = false;
  FILE* f = open(dir + "/summary.csv", summary_started ? "a" : "w");
  if (!summary_started)
    std::fprintf(f,
                 "impl,n,median_us,copy_us,span_us,first_input_us,last_draw_us,drain_us,"
                 "load_median_us,lookback_median_us,store_median_us,sms,incomplete,"
                 "out_of_order,timer_step_ns\n");
  summary_started = true;
  std::fprintf(f, "%s,%lld,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%u,%u,%u,%.0f\n", name,
               static_cast<long long>(n), t.median_us, copy.median_us, sum.span_us,
               sum.first_input_us, sum.last_draw_us, sum.tail_us, sum.load.median_us,
               sum.lookback.median_us, sum.store.median_us, sum.sms, sum.incomplete,
               sum.out_of_order, sum.timer_step_ns);
  std::fclose(f);

  std::string file = std::string("trace_") + name + "_" + std::to_string(static_cast<long long>(n));
  // Row names are free text ("EXPT-w no-delay", "race 4/150"): keep what a
  // file name takes.
  for (char& c : file)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_') c = '_';
  f = open(dir + "/" + file + ".csv", "w");
  constexpr int kDrawn = static_cast<int>(lookback::device::TracePoint::Drawn);
  std::uint64_t t0 = ~std::uint64_t{0};
  for (const auto& x : stamps)
    if (x.ns[kDrawn] != 0) t0 = std::min(t0, x.ns[kDrawn]);
  std::fprintf(f, "tile,sm,block,drawn_ns,aggregate_ns,prefix_ns,stored_ns\n");
  for (std::size_t i = 0; i < stamps.size(); ++i) {
    const auto& x = stamps[i];
    std::fprintf(f, "%zu,%u,%u", i, x.sm, x.block);
    for (const std::uint64_t ns : x.ns) {
      if (ns == 0 || ns < t0) {
        std::fprintf(f, ",");
      } else {
        std::fprintf(f, ",%llu", static_cast<unsigned long long>(ns - t0));
      }
    }
    std::fprintf(f, "\n");
  }
  std::fclose(f);
}

// Tile timelines (--suite trace; device/trace.hpp): where a scan's time
// goes at one size. Each configuration is timed with its trace on (four
// plain stores a tile), and the stamps of the last timed launch, which ran
// in the rotation like every other, are summarized: per-step times, how long
// the grid took to fill (first tile's input in) and to drain (last draw to
// last store), and a timeline of tiles in and out per bucket with the tiles
// in each step at the bucket's start. --trace-dir DIR also writes each
// launch's stamps, one row a tile (ns from the first draw).
template <class Cfg>
void trace_one(const char* name, std::int64_t n, const Timing& copy, Pools<std::uint32_t>& pools,
               cudaStream_t stream, const Settings& s) {
  using T = std::uint32_t;
  using lookback::device::TileStamps;
  const auto tiles = static_cast<std::uint32_t>(lookback::detail::tiles_for<Cfg, T>(n));
  lookback::ScanPlan<T, Cfg> plan;
  CHECK_CUDA(plan.init(n, stream));
  TileStamps* d_stamps = nullptr;
  CHECK_CUDA(cudaMalloc(&d_stamps, sizeof(TileStamps) * tiles));
  CHECK_CUDA(cudaMemsetAsync(d_stamps, 0, sizeof(TileStamps) * tiles, stream));
  lookback::Options o;
  o.trace = {d_stamps, tiles};
  int last = 0;
  const Timing t = time_it(
      [&](int sl) {
        last = sl;
        CHECK_CUDA(plan.InclusiveSum(pools.in_slice(n, sl), pools.out_slice(n, sl), n, stream, o));
      },
      pools.slices(n), stream, s.quick);
  std::vector<TileStamps> stamps(tiles);
  CHECK_CUDA(
      cudaMemcpy(stamps.data(), d_stamps, sizeof(TileStamps) * tiles, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_stamps));
  // The traced launch's output against CUB's on the same slice.
  std::size_t cub_bytes = 0;
  CHECK_CUDA(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, pools.in_slice(n, last),
                                           pools.expected, static_cast<int>(n), stream));
  void* cub_temp = nullptr;
  CHECK_CUDA(cudaMalloc(&cub_temp, cub_bytes));
  CHECK_CUDA(cub::DeviceScan::InclusiveSum(cub_temp, cub_bytes, pools.in_slice(n, last),
                                           pools.expected, static_cast<int>(n), stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaFree(cub_temp));
  const unsigned long long bad = mismatches(pools.out_slice(n, last), pools.expected, n);

  // About 30 buckets of whole timer steps (%globaltimer may tick in
  // microseconds: a bucket of 1.5 steps would count one or two ticks).
  const double step_us = std::max(lookback::timer_step_ns(stamps) / 1000.0, 0.001);
  const double bucket = std::ceil(std::max(t.median_us / 30.0, 0.5) / step_us) * step_us;
  const lookback::TraceSummary sum = lookback::summarize_trace(stamps, bucket);
  const bool whole = sum.incomplete == 0 && sum.out_of_order == 0;
  const std::string check = bad != 0 ? "FAIL(" + std::to_string(bad) + ")"
                            : !whole
                                ? "TRACE-FAIL(" + std::to_string(sum.incomplete) + " incomplete, " +
                                      std::to_string(sum.out_of_order) + " out of order)"
                                : "ok";
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
  // speedup_vs_cub 0: CUB is not timed here.
  record({"trace_u32_incl_sum", n, name, t.median_us, t.min_us, bytes / t.median_us / 1e3,
          100.0 * copy.median_us / t.median_us, 0.0, check});
  std::printf(
      "\n%s n=%lld: %u tiles on %u SMs, %.2f us (copy %.2f us, %.1f%%), %s\n"
      "  traced launch: span %.2f us; first input in at %.2f us; last draw at %.2f us; "
      "drain %.2f us; timer step %.0f ns\n"
      "  per tile, median / p90 / max us: load %.2f / %.2f / %.2f, look-back %.2f / %.2f / "
      "%.2f, store %.2f / %.2f / %.2f\n",
      name, static_cast<long long>(n), tiles, sum.sms, t.median_us, copy.median_us,
      100.0 * copy.median_us / t.median_us, check.c_str(), sum.span_us, sum.first_input_us,
      sum.last_draw_us, sum.tail_us, sum.timer_step_ns, sum.load.median_us, sum.load.p90_us,
      sum.load.max_us, sum.lookback.median_us, sum.lookback.p90_us, sum.lookback.max_us,
      sum.store.median_us, sum.store.p90_us, sum.store.max_us);
  const double tile_bytes = static_cast<double>(lookback::detail::tile_items<Cfg, T>()) * sizeof(T);
  const double copy_gbps = bytes / 2.0 / copy.median_us / 1e3;  // one direction
  std::printf("  %8s %6s %6s %6s %8s %8s | in flight: %7s %9s %7s\n", "t(us)", "drawn", "in",
              "stored", "in GB/s", "out GB/s", "loading", "look-back", "storing");
  for (const auto& b : sum.timeline)
    std::printf("  %8.1f %6u %6u %6u %8.0f %8.0f | %18u %9u %7u\n", b.start_us, b.drawn,
                b.aggregated, b.stored, b.aggregated * tile_bytes / bucket / 1e3,
                b.stored * tile_bytes / bucket / 1e3, b.loading, b.looking, b.storing);
  std::printf(
      "  (copy: %.0f GB/s each way; in / out GB/s count whole tiles by when their input "
      "was in and their stores issued)\n",
      copy_gbps);
  std::fflush(stdout);
  if (!s.trace_dir.empty()) write_trace_files(s.trace_dir, name, n, t, copy, sum, stamps);
}

}  // namespace

void trace_suite(const Settings& s) {
  using lookback::Instrumented;
  using V = lookback::Variant;
  using IW = Instrumented<BWarp>;
  using IWs = Instrumented<BWarpSmall>;
  using IC = Instrumented<BCoarse>;
  using IP = Instrumented<BPipelined>;
  using IF = Instrumented<BFallback>;
  // Open question (2026-11-28): what the one-tile variants lose at 2^24-2^26
  // against the persistent ones; without the look-back delay, without the
  // L2 prefetch.
  using IWnd = Instrumented<Bench<V::WarpLookback, NoDelay<lookback::WarpLookbackPolicy>>>;
  using IWnp = Instrumented<Bench<V::WarpLookback, L2Prefetch<lookback::WarpLookbackPolicy, 0>>>;
  using IWpace = Instrumented<
      Bench<V::WarpLookback, lookback::PacedFirstWave<lookback::WarpLookbackPolicy, 4000>>>;
  using ICpace =
      Instrumented<Bench<V::Coarsened, lookback::PacedFirstWave<lookback::CoarsenedPolicy, 4000>>>;
  using IPpace =
      Instrumented<Bench<V::Pipelined, lookback::PacedFirstWave<lookback::PipelinedPolicy, 4000>>>;
  // Open question (2026-11-28): whether 2^20 waits for the look-back's
  // serial rounds (one per window of predecessors); with narrower windows
  // it would take more rounds and longer.
  using IWs16 = ExptProtocol<IWs, WindowChange<16>>;
  using IWs8 = ExptProtocol<IWs, WindowChange<8>>;
  std::printf("\n== tile timelines (instrumented kernels, u32 inclusive sum) ==\n");
  const auto ns = powers_of_two(s, {16, 20, 24, 26});
  if (ns.empty()) return;
  Pools<std::uint32_t> pools(*std::max_element(ns.begin(), ns.end()));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (const std::int64_t n : ns) {
    const Timing copy = time_it(
        [&](int sl) {
          CHECK_CUDA(cudaMemcpyAsync(pools.out_slice(n, sl), pools.in_slice(n, sl),
                                     n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream));
        },
        pools.slices(n), stream, s.quick);
    if (n <= (std::int64_t{1} << 20)) {
      trace_one<IWs>("warp-lookback-small", n, copy, pools, stream, s);
      trace_one<IWs16>("EXPT-ws window16", n, copy, pools, stream, s);
      trace_one<IWs8>("EXPT-ws window8", n, copy, pools, stream, s);
    }
    trace_one<IW>("warp-lookback", n, copy, pools, stream, s);
    trace_one<IC>("coarsened", n, copy, pools, stream, s);
    trace_one<IP>("pipelined", n, copy, pools, stream, s);
    trace_one<IF>("fallback", n, copy, pools, stream, s);
    if (n >= (std::int64_t{1} << 24)) {
      trace_one<IWnd>("EXPT-w no-delay", n, copy, pools, stream, s);
      trace_one<IWnp>("EXPT-w no-pf", n, copy, pools, stream, s);
      trace_one<IWpace>("EXPT-w pace4000", n, copy, pools, stream, s);
      trace_one<ICpace>("EXPT-c pace4000", n, copy, pools, stream, s);
      trace_one<IPpace>("EXPT-p pace4000", n, copy, pools, stream, s);
    }
  }
  CHECK_CUDA(cudaStreamDestroy(stream));
}

}  // namespace lookback_bench
