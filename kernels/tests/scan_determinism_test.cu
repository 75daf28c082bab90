// Floating point: real-valued inputs within a bound relative to the sum of
// absolute values, and (Deterministic<...>) bitwise identical outputs across
// 20 runs, and across runs with and without forced fallbacks.
#include <cstdio>

#include "lookback/device/protocol_change.hpp"
#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lt::Kind;

namespace {

template <class T>
double bound_for() {
  return sizeof(T) == 4 ? 2e-3 : 1e-11;
}

template <class Cfg, class T>
void accurate_and_deterministic(Kind kind, int runs, std::int64_t n = (1 << 22) + 77) {
  const std::vector<T> in = lt::make_real_input<T>(n, 42);
  const std::vector<T> want = lt::reference_scan(in, kind);
  lt::DeviceBuffer<T> d_in(in.size()), d_out(in.size());
  ASSERT_TRUE(d_in && d_out);
  LOOKBACK_CUDA_OK(cudaMemcpy(d_in.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  ASSERT_EQ(lt::device_scan<Cfg>(nullptr, bytes, d_in.get(), d_out.get(), n, kind), cudaSuccess);
  lt::DeviceBuffer<unsigned char> temp(bytes);
  std::vector<T> first(in.size()), got(in.size());
  for (int r = 0; r < runs; ++r) {
    // A poison of its own under every run: a run that wrote nothing would
    // otherwise show the last one's bits.
    LOOKBACK_CUDA_OK(cudaMemset(d_out.get(), 0x40 + r, n * sizeof(T)));
    ASSERT_EQ(lt::device_scan<Cfg>(temp.get(), bytes, d_in.get(), d_out.get(), n, kind),
              cudaSuccess)
        << lookback::last_error_message();
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), d_out.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
    if (r == 0) {
      first = got;
      ASSERT_TRUE(lt::close_relative(in, want, got, kind, bound_for<T>()));
    } else if (Cfg::deterministic) {
      ASSERT_TRUE(lt::equal_exactly(first, got, lt::tile_items_for<Cfg, T>(n)))
          << "run " << r << " differs from run 0";
    }
  }
}

}  // namespace

#define LOOKBACK_DETERMINISM_TESTS(Name, Cfg)                                              \
  TEST(ScanFloat, Name##AccurateF32) {                                                     \
    LOOKBACK_REQUIRE_GPU();                                                                \
    accurate_and_deterministic<Cfg, float>(Kind::Inclusive, 1);                            \
    accurate_and_deterministic<Cfg, float>(Kind::Exclusive, 1);                            \
  }                                                                                        \
  TEST(ScanFloat, Name##AccurateF64) {                                                     \
    LOOKBACK_REQUIRE_GPU();                                                                \
    accurate_and_deterministic<Cfg, double>(Kind::Inclusive, 1);                           \
    accurate_and_deterministic<Cfg, double>(Kind::Exclusive, 1);                           \
  }                                                                                        \
  TEST(ScanDeterministic, Name##F32Bitwise20Runs) {                                        \
    LOOKBACK_REQUIRE_GPU();                                                                \
    accurate_and_deterministic<lookback::Deterministic<Cfg>, float>(Kind::Inclusive, 20);  \
    accurate_and_deterministic<lookback::Deterministic<Cfg>, float>(Kind::Exclusive, 20);  \
  }                                                                                        \
  TEST(ScanDeterministic, Name##F64Bitwise20Runs) {                                        \
    LOOKBACK_REQUIRE_GPU();                                                                \
    accurate_and_deterministic<lookback::Deterministic<Cfg>, double>(Kind::Inclusive, 20); \
    accurate_and_deterministic<lookback::Deterministic<Cfg>, double>(Kind::Exclusive, 20); \
  }

LOOKBACK_DETERMINISM_TESTS(WarpLookback, lookback::WarpLookback)
LOOKBACK_DETERMINISM_TESTS(Coarsened, lookback::Coarsened)
LOOKBACK_DETERMINISM_TESTS(Pipelined, lookback::Pipelined)
LOOKBACK_DETERMINISM_TESTS(Fallback, lookback::Fallback)

namespace {

// The deterministic default (Deterministic<DefaultConfig<T>>, with switches
// of its own): at the last n of each tier this GPU runs and the next,
// accurate and the same bits in three runs, and exact on integer-valued
// input (every partial sum representable: a lost or doubled tile shows,
// which the real-valued bound could miss once a tile's aggregate is below it).
template <class T>
void deterministic_default_on_every_tier() {
  using Cfg = lookback::Deterministic<lookback::DefaultConfig<T>>;
  static_assert(Cfg::deterministic && lookback::is_size_adaptive_v<Cfg>);
  std::vector<std::int64_t> bounds;
  lt::tier_bounds<Cfg, T>(bounds);
  ASSERT_GE(bounds.size(), 3u) << "small tiles, warp-lookback and at least one tier above";
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i)
    for (const std::int64_t n : {bounds[i], bounds[i] + 1})
      for (const Kind kind : {Kind::Inclusive, Kind::Exclusive}) {
        SCOPED_TRACE(testing::Message() << "n = " << n << ", " << lt::name(kind));
        accurate_and_deterministic<Cfg, T>(kind, 3, n);
        lt::run_matrix_case<Cfg, T>(n, kind, lt::Placement::OutOfPlace);
        if (::testing::Test::HasFatalFailure() || ::testing::Test::HasNonfatalFailure()) return;
      }
}

}  // namespace

TEST(ScanDeterministic, DefaultOnEveryTierF32) {
  LOOKBACK_REQUIRE_GPU();
  deterministic_default_on_every_tier<float>();
}
TEST(ScanDeterministic, DefaultOnEveryTierF64) {
  LOOKBACK_REQUIRE_GPU();
  deterministic_default_on_every_tier<double>();
}

namespace {

// The deterministic default on integers runs the default (runs_on_t): at
// the edges of each of the default's tiers, stateless (in place) exact
// against the reference, and an instrumented plan with the default's
// storage and the same bits as the default's plan, whose look-backs read no
// window a second time (only the left fold does; whether it would at these
// sizes depends on timing: the storage and the types are what tell).
template <class T>
void integer_deterministic_default_is_the_default() {
  using Det = lookback::Deterministic<lookback::DefaultConfig<T>>;
  using Ins = lookback::Instrumented<Det>;
  static_assert(std::is_same_v<lookback::runs_on_t<Ins, T>,
                               lookback::Instrumented<lookback::DefaultConfig<T>>>);
  std::vector<std::int64_t> bounds;
  lt::tier_bounds<lookback::DefaultConfig<T>, T>(bounds);
  ASSERT_GE(bounds.size(), 2u);
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i)
    for (const std::int64_t n : {bounds[i], bounds[i] + 1})
      for (const Kind kind : {Kind::Inclusive, Kind::Exclusive}) {
        SCOPED_TRACE(testing::Message() << "n = " << n << ", " << lt::name(kind));
        lt::run_matrix_case<Det, T>(n, kind, lt::Placement::Offset2InPlace);
        const std::vector<T>& in = lt::cached_input<T>(n);
        lt::DeviceBuffer<T> d_in(in.size()), d_det(in.size()), d_plain(in.size());
        ASSERT_TRUE(d_in && d_det && d_plain);
        LOOKBACK_CUDA_OK(cudaMemcpy(d_in.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
        LOOKBACK_CUDA_OK(cudaMemset(d_det.get(), 0xA5, n * sizeof(T)));
        LOOKBACK_CUDA_OK(cudaMemset(d_plain.get(), 0x5A, n * sizeof(T)));
        lookback::ScanPlan<T, Ins> det;
        lookback::ScanPlan<T> plain;
        ASSERT_EQ(det.init(n), cudaSuccess) << lookback::last_error_message();
        ASSERT_EQ(plain.init(n), cudaSuccess) << lookback::last_error_message();
        EXPECT_EQ(det.bytes(), plain.bytes());
        ASSERT_EQ(lt::plan_scan(det, d_in.get(), d_det.get(), n, kind), cudaSuccess)
            << lookback::last_error_message();
        ASSERT_EQ(lt::plan_scan(plain, d_in.get(), d_plain.get(), n, kind), cudaSuccess)
            << lookback::last_error_message();
        lookback::LookbackStats stats{};
        ASSERT_EQ(det.read_stats(stats), cudaSuccess) << lookback::last_error_message();
        EXPECT_GT(stats.windows, 0u) << "an instrumented look-back that read nothing";
        EXPECT_EQ(stats.reread_windows, 0u);
        std::vector<T> got_det(in.size()), got_plain(in.size());
        LOOKBACK_CUDA_OK(
            cudaMemcpy(got_det.data(), d_det.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
        LOOKBACK_CUDA_OK(
            cudaMemcpy(got_plain.data(), d_plain.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
        EXPECT_TRUE(got_det == got_plain) << "not the default's bits";
        EXPECT_TRUE(lt::equal_exactly(lt::cached_reference<T>(n, kind), got_det,
                                      lt::tile_items_for<Det, T>(n)));
        if (::testing::Test::HasFatalFailure() || ::testing::Test::HasNonfatalFailure()) return;
      }
}

}  // namespace

TEST(ScanDeterministic, IntegerDefaultIsTheDefaultU32) {
  LOOKBACK_REQUIRE_GPU();
  integer_deterministic_default_is_the_default<std::uint32_t>();
}
TEST(ScanDeterministic, IntegerDefaultIsTheDefaultU64) {
  LOOKBACK_REQUIRE_GPU();
  integer_deterministic_default_is_the_default<std::uint64_t>();
}

namespace {

// Base's protocol holding kHeld passed windows (Protocol::held_windows) and
// reading farther ones again in its second pass: not a catalogue entry, only
// what the catalogue's 4 are compared with.
using lookback::unverified::Holding;

// `Cfg`'s inclusive sum of `in` under `options` into `out`; its look-back
// statistics in `stats`.
template <class Cfg>
void deterministic_sum(const std::vector<float>& in, const lookback::Options& options,
                       lookback::LookbackStats& stats, std::vector<float>& out) {
  const auto n = static_cast<std::int64_t>(in.size());
  lt::DeviceBuffer<float> d_in(in.size()), d_out(in.size());
  ASSERT_TRUE(d_in && d_out);
  LOOKBACK_CUDA_OK(cudaMemcpy(d_in.get(), in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  LOOKBACK_CUDA_OK(cudaMemset(d_out.get(), 0x7f, n * sizeof(float)));
  lookback::ScanPlan<float, Cfg> plan;
  ASSERT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  ASSERT_EQ(plan.InclusiveSum(d_in.get(), d_out.get(), n, 0, options), cudaSuccess)
      << lookback::last_error_message();
  ASSERT_EQ(plan.read_stats(stats), cudaSuccess);
  out.resize(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(out.data(), d_out.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
}

}  // namespace

// The windows a look-back passed and held (the catalogue's 4) are folded
// from the values its first pass read; a look-back holding none reads them
// again, one holding 1 does both where it passes two or more. All fold the
// same aggregates left to right: the same bits, with stalls that make
// look-backs pass windows and without.
TEST(ScanDeterministic, HeldWindowsGiveTheBitsOfReadingAgain) {
  LOOKBACK_REQUIRE_GPU();
  using Held = lookback::Instrumented<lookback::Deterministic<lookback::Pipelined>>;
  using Again = Holding<Held, 0>;
  using One = Holding<Held, 1>;
  static_assert(Held::protocol.held_windows == 4);
  const std::vector<float> in = lt::make_real_input<float>((1 << 22) + 77, 11);
  const auto tiles = static_cast<unsigned long long>(
      (in.size() + lookback::detail::tile_items<Held, float>() - 1) /
      lookback::detail::tile_items<Held, float>());
  lookback::Options stall;
  stall.perturb.stall_ns = 20000;
  stall.perturb.stall_every = 3;
  lookback::LookbackStats held_stats{}, again_stats{}, one_stats{}, calm_stats{};
  std::vector<float> held, again, one, calm;
  ASSERT_NO_FATAL_FAILURE(deterministic_sum<Held>(in, stall, held_stats, held));
  ASSERT_NO_FATAL_FAILURE(deterministic_sum<Again>(in, stall, again_stats, again));
  ASSERT_NO_FATAL_FAILURE(deterministic_sum<One>(in, stall, one_stats, one));
  ASSERT_NO_FATAL_FAILURE(deterministic_sum<Held>(in, lookback::Options{}, calm_stats, calm));
  // More windows read than tiles that look back: some look-backs passed one,
  // which the one that holds none read again, and the one that holds one
  // read again where it passed two or more (a fold of held and re-read
  // windows).
  EXPECT_GT(held_stats.windows, tiles) << "no look-back passed a window";
  EXPECT_GT(again_stats.reread_windows, 0u) << "no window read again";
  EXPECT_GT(one_stats.reread_windows, 0u) << "no look-back passed two windows";
  const std::int64_t tile = lookback::detail::tile_items<Held, float>();
  EXPECT_TRUE(lt::equal_exactly(held, again, tile)) << "4 held against none";
  EXPECT_TRUE(lt::equal_exactly(held, one, tile)) << "4 held against 1";
  EXPECT_TRUE(lt::equal_exactly(held, calm, tile)) << "stalled against calm";
  // And the bits they agree on are the scan's (within the real-valued bound).
  EXPECT_TRUE(lt::close_relative(in, lt::reference_scan(in, Kind::Inclusive), calm, Kind::Inclusive,
                                 bound_for<float>()));
}

// Delays before the second pass reads a passed window again
// (PerturbPoint::InSecondPass) give that window's descriptors time to move up
// to PREFIX, so the fold restarts at one (a canonical fold too): the same
// bits as a calm run. The window next to the one holding the PREFIX has
// tiles whose own first window holds it, so with up to 20 us before every
// re-read some re-read finds a PREFIX; up to four seeds are tried until one
// does, each compared bitwise.
TEST(ScanDeterministic, SecondPassDelaysGiveTheSameBits) {
  LOOKBACK_REQUIRE_GPU();
  using Held = lookback::Instrumented<lookback::Deterministic<lookback::Pipelined>>;
  using Again = Holding<Held, 0>;
  const std::vector<float> in = lt::make_real_input<float>((1 << 22) + 77, 13);
  lookback::LookbackStats calm_stats{};
  std::vector<float> calm;
  ASSERT_NO_FATAL_FAILURE(deterministic_sum<Held>(in, lookback::Options{}, calm_stats, calm));
  unsigned long long rereads = 0, restarts = 0;
  for (std::uint32_t seed = 1; seed <= 4 && restarts == 0; ++seed) {
    lookback::Options delayed;
    delayed.perturb.seed = seed;
    delayed.perturb.stall_ns = 20000;
    delayed.perturb.stall_every = 3;
    delayed.perturb.delay_chance = 65536;  // every re-read
    delayed.perturb.max_delay_ns(lookback::device::PerturbPoint::InSecondPass) = 20000;
    lookback::LookbackStats stats{};
    std::vector<float> with_delays;
    ASSERT_NO_FATAL_FAILURE(deterministic_sum<Again>(in, delayed, stats, with_delays));
    std::printf("seed %u: %llu windows read again, %llu of them restarted the fold\n", seed,
                stats.reread_windows, stats.reread_restarts);
    EXPECT_TRUE(lt::equal_exactly(with_delays, calm, lookback::detail::tile_items<Held, float>()))
        << "delayed second passes (seed " << seed << ") against calm";
    rereads += stats.reread_windows;
    restarts += stats.reread_restarts;
  }
  EXPECT_GT(rereads, 0u) << "no look-back passed a window: no second pass was delayed";
  EXPECT_GT(restarts, 0u) << "no re-read met a PREFIX: the restart path went untested";
}

// The deterministic fallback gives the same bits whether or not waiting
// tiles reduce their stalled predecessors themselves.
TEST(ScanDeterministic, FallbackSameBitsWithForcedFallbacks) {
  LOOKBACK_REQUIRE_GPU();
  using Cfg = lookback::Instrumented<lookback::Deterministic<lookback::Fallback>>;
  const std::int64_t n = (1 << 22) + 77;
  const std::vector<float> in = lt::make_real_input<float>(n, 7);
  lt::DeviceBuffer<float> d_in(in.size()), d_out(in.size());
  ASSERT_TRUE(d_in && d_out);
  LOOKBACK_CUDA_OK(cudaMemcpy(d_in.get(), in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  lookback::ScanPlan<float, Cfg> plan;
  ASSERT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  std::vector<float> calm(in.size()), stalled(in.size());
  ASSERT_EQ(plan.InclusiveSum(d_in.get(), d_out.get(), n), cudaSuccess)
      << lookback::last_error_message();
  LOOKBACK_CUDA_OK(cudaMemcpy(calm.data(), d_out.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
  ASSERT_EQ(plan.reset_stats(), cudaSuccess);
  LOOKBACK_CUDA_OK(cudaMemset(d_out.get(), 0x7f, n * sizeof(float)));  // not calm's bits
  lookback::Options stall;
  stall.perturb.stall_ns = 200000;
  stall.perturb.stall_every = 2;
  ASSERT_EQ(plan.InclusiveSum(d_in.get(), d_out.get(), n, 0, stall), cudaSuccess)
      << lookback::last_error_message();
  LOOKBACK_CUDA_OK(
      cudaMemcpy(stalled.data(), d_out.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
  lookback::LookbackStats stats{};
  ASSERT_EQ(plan.read_stats(stats), cudaSuccess);
  EXPECT_GT(stats.fallbacks, 0u) << "no fallback was forced";
  EXPECT_TRUE(lt::equal_exactly(calm, stalled, lookback::detail::tile_items<Cfg, float>()));
}
