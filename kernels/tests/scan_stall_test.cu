// Forced stalls (instrumented kernels): every second tile sleeps before
// publishing its aggregate. The fallback variant must take fallbacks (and
// stay exact, in place too, where its validation matters); the others must
// simply wait and stay exact.

#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lt::Kind;

namespace {

template <class Cfg, class T>
lookback::LookbackStats stalled_scan(bool in_place, Kind kind, std::uint32_t stall_ns) {
  lookback::LookbackStats stats{};
  const std::int64_t n = (1 << 22) + 5;
  const std::vector<T> in = lt::make_input<T>(n, 99);
  const std::vector<T> want = lt::reference_scan(in, kind);
  lt::DeviceBuffer<T> a(in.size()), b(in.size());
  EXPECT_TRUE(a && b);
  if (!a || !b) return stats;
  T* d_out = in_place ? a.get() : b.get();
  EXPECT_EQ(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  // A fresh allocation may hold an earlier test's output of the same input.
  if (!in_place) EXPECT_EQ(cudaMemset(b.get(), 0xa5, n * sizeof(T)), cudaSuccess);
  lookback::ScanPlan<T, Cfg> plan;
  EXPECT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  lookback::Options options;
  options.perturb.stall_ns = stall_ns;
  options.perturb.stall_every = 2;
  EXPECT_EQ(lt::plan_scan(plan, a.get(), d_out, n, kind, options), cudaSuccess)
      << lookback::last_error_message();
  std::vector<T> got(in.size());
  EXPECT_EQ(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(lt::equal_exactly(want, got, lookback::detail::tile_items<Cfg, T>()));
  EXPECT_EQ(plan.read_stats(stats), cudaSuccess);
  return stats;
}

using InstrumentedFallback = lookback::Instrumented<lookback::Fallback>;

// Whether a fallback is taken depends on time: a waiting tile gives up after
// a bound of spin rounds, the stalled one sleeps a fixed time. Under
// compute-sanitizer the sleepers wake first: there the fallback counts are
// not checked, the results' exactness still is.
bool timing_checked() {
  return lt::timing_checked("fallback counts");
}

}  // namespace

TEST(ScanStall, FallbackTakesFallbacksOutOfPlace) {
  LOOKBACK_REQUIRE_GPU();
  const auto s = stalled_scan<InstrumentedFallback, std::uint32_t>(false, Kind::Inclusive, 200000);
  if (timing_checked()) {
    EXPECT_GT(s.fallbacks, 0u);
    EXPECT_GT(s.fallback_wins, 0u);
  }
}
TEST(ScanStall, FallbackTakesFallbacksInPlace) {
  LOOKBACK_REQUIRE_GPU();
  const auto s = stalled_scan<InstrumentedFallback, std::uint32_t>(true, Kind::Exclusive, 200000);
  if (timing_checked()) EXPECT_GT(s.fallbacks, 0u);
}
TEST(ScanStall, FallbackAffineInPlacePacked128) {
  LOOKBACK_REQUIRE_GPU();
  const auto s =
      stalled_scan<InstrumentedFallback, lookback::Affine>(true, Kind::Inclusive, 200000);
  if (timing_checked()) EXPECT_GT(s.fallbacks, 0u);
}
TEST(ScanStall, FallbackWide12InPlaceSplitLayout) {
  LOOKBACK_REQUIRE_GPU();
  const auto s = stalled_scan<InstrumentedFallback, lt::Wide12>(true, Kind::Inclusive, 200000);
  if (timing_checked()) EXPECT_GT(s.fallbacks, 0u);
}
TEST(ScanStall, FallbackWide12OutOfPlaceSplitLayout) {
  LOOKBACK_REQUIRE_GPU();
  const auto s = stalled_scan<InstrumentedFallback, lt::Wide12>(false, Kind::Exclusive, 200000);
  if (timing_checked()) {
    EXPECT_GT(s.fallbacks, 0u);
    EXPECT_GT(s.fallback_wins, 0u);
  }
}
TEST(ScanStall, FallbackF64OutOfPlace) {
  LOOKBACK_REQUIRE_GPU();
  const auto s = stalled_scan<InstrumentedFallback, double>(false, Kind::Exclusive, 200000);
  if (timing_checked()) EXPECT_GT(s.fallbacks, 0u);
}
// Short stalls: owners and fallbacks race (CAS lost, in-place validation
// discarding a reduction); the results must stay exact. That they raced at
// all needs fallbacks taken (whether a CAS was lost is the GPU's timing:
// printed, not asserted).
TEST(ScanStall, FallbackRacesWithOwnersInPlace) {
  LOOKBACK_REQUIRE_GPU();
  lookback::LookbackStats all{};
  for (std::uint32_t ns : {20000u, 50000u, 80000u}) {
    const auto s = stalled_scan<InstrumentedFallback, std::uint32_t>(true, Kind::Inclusive, ns);
    std::printf("stall %u ns: %llu fallbacks, %llu won their CAS\n", ns, s.fallbacks,
                s.fallback_wins);
    all += s;
  }
  if (timing_checked()) EXPECT_GT(all.fallbacks, 0u);
}
TEST(ScanStall, CoarsenedWaits) {
  LOOKBACK_REQUIRE_GPU();
  const auto s = stalled_scan<lookback::Instrumented<lookback::Coarsened>, std::uint32_t>(
      false, Kind::Inclusive, 50000);
  EXPECT_GT(s.spin_rounds, 0u);
  EXPECT_EQ(s.fallbacks, 0u);
}
TEST(ScanStall, PipelinedWaits) {
  LOOKBACK_REQUIRE_GPU();
  // A stalled tile's block holds its other tile too; exclusive, in place.
  const auto s = stalled_scan<lookback::Instrumented<lookback::Pipelined>, std::uint32_t>(
      true, Kind::Exclusive, 50000);
  EXPECT_GT(s.spin_rounds, 0u);
  EXPECT_EQ(s.fallbacks, 0u);
}
TEST(ScanStall, WarpLookbackWaits) {
  LOOKBACK_REQUIRE_GPU();
  const auto s = stalled_scan<lookback::Instrumented<lookback::WarpLookback>, double>(
      true, Kind::Exclusive, 50000);
  EXPECT_GT(s.spin_rounds, 0u);
}

// A fallback on tile 0 of an exclusive scan with an init: tile 0's PREFIX is
// init op a_0 (its owner publishes that), so a waiting tile that reduces
// tile 0 itself must fold the init in too. Tile 0 is starved (it waits
// before publishing until the other blocks are done, at most 2 ms), so the
// tiles after it fall back on it. (The model's values carry no init.)
TEST(ScanStall, FallbackOnTileZeroKeepsTheExclusiveInit) {
  LOOKBACK_REQUIRE_GPU();
  using T = std::uint32_t;
  const std::int64_t n = 8 * lookback::detail::tile_items<InstrumentedFallback, T>() + 3;
  const std::vector<T> in = lt::make_input<T>(n, 5);
  const T init = 1000;
  std::vector<T> want(in.size());
  T run = init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    want[i] = run;
    run += in[i];
  }
  lt::DeviceBuffer<T> d_in(in.size()), d_out(in.size());
  lt::DeviceBuffer<std::uint32_t> done(1);
  ASSERT_TRUE(d_in && d_out && done);
  LOOKBACK_CUDA_OK(cudaMemcpy(d_in.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  LOOKBACK_CUDA_OK(cudaMemset(done.get(), 0, sizeof(std::uint32_t)));
  lookback::ScanPlan<T, InstrumentedFallback> plan;
  ASSERT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  lookback::Options options;
  options.perturb.starve_tile = 0;
  options.perturb.starve_ns = 2000000;
  options.perturb.starve_done = done.get();
  options.perturb.starve_until_done = 0xffffffffu;  // wait the whole 2 ms
  ASSERT_EQ(plan.ExclusiveScan(d_in.get(), d_out.get(), lookback::Sum{}, init, n, 0, options),
            cudaSuccess)
      << lookback::last_error_message();
  std::vector<T> got(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), d_out.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(
      lt::equal_exactly(want, got, lookback::detail::tile_items<InstrumentedFallback, T>()));
  lookback::LookbackStats stats{};
  ASSERT_EQ(plan.read_stats(stats), cudaSuccess);
  if (timing_checked()) EXPECT_GT(stats.fallbacks, 0u) << "nothing fell back on tile 0";
}
