// Values of 5..8 bytes (u64, i64, double, Affine) use the 16-byte packed
// descriptor (tag and value in one .b128 word, atomic128.cuh) in every
// variant whose layout is chosen by size, when dev::kPacked128Available
// (these scans reproduced the wrong results of a look-back load that ptxas
// had split in two: descriptor.cuh, Packed128Descriptor::tag); variants that
// force the split layout keep it. The static_asserts pin the choice; the GPU tests run scans
// that exercise the 16-byte word's accesses: relaxed publishes with acquire
// look-back reads (every production variant since 2026-11-27, when the
// one-tile ones dropped the release), relaxed accesses with fence.sc
// (fenced-lookback), and the fallback's monotone atom.cas.b128 under forced
// stalls, in place and out of place. (The per-variant matrices in
// scan_{warp_lookback,coarsened,fallback}_test cover i64/u64/f64/Affine
// correctness at every size and placement.)
#include <cstddef>
#include <type_traits>
#include <utility>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/dispatch.cuh"
#include "lookback/protocol/catalogue.hpp"
#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lt::Kind;

namespace {

namespace dev = lookback::device;
namespace proto = lookback::protocol;
using lookback::Affine;

template <proto::Protocol P, class T>
constexpr bool kPacked128 = std::is_same_v<dev::Descriptor<P, T>, dev::Packed128Descriptor<P, T>>;
template <proto::Protocol P, class T>
constexpr bool kPacked64 = std::is_same_v<dev::Descriptor<P, T>, dev::PackedDescriptor<P, T>>;
template <proto::Protocol P, class T>
constexpr bool kSplit = std::is_same_v<dev::Descriptor<P, T>, dev::SplitDescriptor<P, T>>;
// The layout a by-size variant gives 5..8-byte values.
template <proto::Protocol P, class T>
constexpr bool kWide8 = dev::kPacked128Available ? kPacked128<P, T> : kSplit<P, T>;

// Every protocol a configuration runs: out of place and in place, with the
// stateless API's Reset::HostMemset and the plan's Reset::Epoch.
template <class Cfg, class T>
constexpr bool all_packed128() {
  using lookback::with_reset;
  constexpr proto::Protocol a = Cfg::protocol, b = Cfg::protocol_in_place;
  constexpr proto::Protocol c = with_reset(a, proto::Reset::HostMemset);
  constexpr proto::Protocol d = with_reset(b, proto::Reset::HostMemset);
  return kWide8<a, T> && kWide8<b, T> && kWide8<c, T> && kWide8<d, T>;
}
template <class Cfg>
constexpr bool eight_byte_types_packed128() {
  return all_packed128<Cfg, std::uint64_t>() && all_packed128<Cfg, std::int64_t>() &&
         all_packed128<Cfg, double>() && all_packed128<Cfg, Affine>();
}
static_assert(eight_byte_types_packed128<lookback::WarpLookback>());
static_assert(eight_byte_types_packed128<lookback::Coarsened>());
static_assert(eight_byte_types_packed128<lookback::Fallback>());
static_assert(eight_byte_types_packed128<lookback::Deterministic<lookback::Coarsened>>());
static_assert(eight_byte_types_packed128<lookback::Deterministic<lookback::Fallback>>());

// Every catalogue entry: by-size entries pack 8-byte values in 16 bytes and
// 4-byte values in 8; entries that force the split layout stay split.
struct Wide12 {
  std::uint32_t x, y, z;
};
template <std::size_t I>
constexpr bool entry_layout_ok() {
  constexpr proto::Protocol p = proto::kCatalogue[I].protocol;
  if constexpr (p.layout == proto::Layout::Split) {
    return kSplit<p, std::uint32_t> && kSplit<p, double> && kSplit<p, std::uint64_t>;
  } else {
    return kPacked64<p, std::uint32_t> && kPacked64<p, float> && kWide8<p, double> &&
           kWide8<p, std::uint64_t> && kWide8<p, std::int64_t> && kWide8<p, Affine> &&
           kSplit<p, Wide12>;
  }
}
template <std::size_t... I>
constexpr bool all_entries_ok(std::index_sequence<I...>) {
  return (entry_layout_ok<I>() && ...);
}
static_assert(all_entries_ok(std::make_index_sequence<proto::kCatalogue.size()>{}));
static_assert(kSplit<proto::find_variant("no-release-no-acquire")->protocol, std::uint64_t>);
static_assert(!dev::kPacked128Available ||
              dev::descriptor_shape<proto::production("fallback"), double>() ==
                  dev::DescriptorShape{16, dev::kPackedWordStride, 0, 0});
static_assert(dev::descriptor_shape<proto::production("fallback"), std::uint32_t>() ==
              dev::DescriptorShape{8, dev::kPackedWordStride, 0, 0});

// ---------------------------------------------------------------------------
// A scan through scan_with_protocol (any catalogue protocol, HostMemset).
template <class Cfg, proto::Protocol P, class T>
void protocol_scan(std::int64_t n, Kind kind, bool in_place) {
  constexpr proto::Protocol kP = lookback::with_reset(P, proto::Reset::HostMemset);
  const std::vector<T> in = lt::make_input<T>(n, 4242 + n);
  const std::vector<T> want = lt::reference_scan(in, kind);
  lt::DeviceBuffer<T> a(in.size()), b(in.size());
  ASSERT_TRUE(a && b);
  T* d_out = in_place ? a.get() : b.get();
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  using Op = lt::op_for<T>;
  std::size_t bytes = 0;
  const auto scan = [&](void* temp) {
    return kind == Kind::Inclusive
               ? lookback::detail::scan_with_protocol<Cfg, kP, false>(
                     temp, bytes, a.get(), d_out, n, Op{}, T{}, 0, lookback::Options{})
               : lookback::detail::scan_with_protocol<Cfg, kP, true>(temp, bytes, a.get(), d_out, n,
                                                                     Op{}, lt::init_for<T>(), 0,
                                                                     lookback::Options{});
  };
  ASSERT_EQ(scan(nullptr), cudaSuccess) << lookback::last_error_message();
  lt::DeviceBuffer<unsigned char> temp(bytes);
  ASSERT_TRUE(temp);
  ASSERT_EQ(scan(temp.get()), cudaSuccess) << lookback::last_error_message();
  std::vector<T> got(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lt::equal_exactly(want, got, lookback::detail::tile_items<Cfg, T>()))
      << lt::name(kind) << (in_place ? ", in place" : "") << ", n = " << n;
}

constexpr proto::Protocol kFenced = proto::production("fenced-lookback");
static_assert(kFenced.publish_order == proto::Order::Relaxed &&
              kFenced.lookback_order == proto::Order::Relaxed);

template <class T>
void fenced_lookback_scans() {
  using Cfg = lookback::Coarsened;
  const std::int64_t tile = lookback::detail::tile_items<Cfg, T>();
  for (std::int64_t n : {std::int64_t{1}, tile + 1, 37 * tile + 5, std::int64_t{(1 << 22) + 3}}) {
    protocol_scan<Cfg, kFenced, T>(n, Kind::Inclusive, false);
    protocol_scan<Cfg, kFenced, T>(n, Kind::Exclusive, true);
  }
}

TEST(Packed128, FencedLookbackU64) {
  LOOKBACK_REQUIRE_GPU();
  fenced_lookback_scans<std::uint64_t>();
}
TEST(Packed128, FencedLookbackF64) {
  LOOKBACK_REQUIRE_GPU();
  fenced_lookback_scans<double>();
}

// ---------------------------------------------------------------------------
// Forced stalls (instrumented kernels, as scan_stall_test.cu): every second
// tile sleeps before publishing, so waiting tiles spin on 16-byte words and
// the fallback publishes with atom.cas.b128 (racing the owners: long stalls
// win the CAS, short ones lose it or are discarded by in-place validation).
template <class Cfg, class T>
lookback::LookbackStats stalled(bool in_place, Kind kind, std::uint32_t stall_ns) {
  lookback::LookbackStats stats{};
  const std::int64_t n = (1 << 21) + 5;
  const std::vector<T> in = lt::make_input<T>(n, 77 + stall_ns);
  const std::vector<T> want = lt::reference_scan(in, kind);
  lt::DeviceBuffer<T> a(in.size()), b(in.size());
  EXPECT_TRUE(a && b);
  if (!a || !b) return stats;
  T* d_out = in_place ? a.get() : b.get();
  EXPECT_EQ(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  lookback::ScanPlan<T, Cfg> plan;
  EXPECT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  lookback::Options options;
  options.perturb.stall_ns = stall_ns;
  options.perturb.stall_every = 2;
  EXPECT_EQ(lt::plan_scan(plan, a.get(), d_out, n, kind, options), cudaSuccess)
      << lookback::last_error_message();
  std::vector<T> got(in.size());
  EXPECT_EQ(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(lt::equal_exactly(want, got, lookback::detail::tile_items<Cfg, T>()))
      << lt::name(kind) << (in_place ? ", in place" : "") << ", stall " << stall_ns << " ns";
  EXPECT_EQ(plan.read_stats(stats), cudaSuccess);
  return stats;
}

using InstrumentedFallback = lookback::Instrumented<lookback::Fallback>;

// The counts depend on the stalls outlasting the waits, which under
// compute-sanitizer they do not (timing_checked); the results are checked
// either way (stalled).
bool timing_checked() {
  return lt::timing_checked("fallback and wait counts");
}

template <class T>
void fallback_takes_fallbacks() {
  const auto out = stalled<InstrumentedFallback, T>(false, Kind::Inclusive, 200000);
  const auto in = stalled<InstrumentedFallback, T>(true, Kind::Exclusive, 200000);
  lookback::LookbackStats racing{};  // short stalls: owners and fallbacks race
  for (std::uint32_t ns : {20000u, 50000u})
    racing += stalled<InstrumentedFallback, T>(true, Kind::Inclusive, ns);
  if (!timing_checked()) return;
  EXPECT_GT(out.fallbacks, 0u);
  EXPECT_GT(out.fallback_wins, 0u);
  EXPECT_GT(in.fallbacks, 0u);
  EXPECT_GT(racing.fallbacks, 0u);
}

TEST(Packed128, FallbackStallU64) {
  LOOKBACK_REQUIRE_GPU();
  fallback_takes_fallbacks<std::uint64_t>();
}
TEST(Packed128, FallbackStallI64) {
  LOOKBACK_REQUIRE_GPU();
  fallback_takes_fallbacks<std::int64_t>();
}
TEST(Packed128, FallbackStallF64) {
  LOOKBACK_REQUIRE_GPU();
  fallback_takes_fallbacks<double>();
}
TEST(Packed128, FallbackStallAffine) {
  LOOKBACK_REQUIRE_GPU();
  fallback_takes_fallbacks<Affine>();
}
TEST(Packed128, CoarsenedWaitsU64) {
  LOOKBACK_REQUIRE_GPU();
  const auto s = stalled<lookback::Instrumented<lookback::Coarsened>, std::uint64_t>(
      true, Kind::Exclusive, 50000);
  EXPECT_EQ(s.fallbacks, 0u);  // coarsened has no fallback, whatever the timing
  if (timing_checked()) EXPECT_GT(s.spin_rounds, 0u);
}
TEST(Packed128, WarpLookbackWaitsI64) {
  LOOKBACK_REQUIRE_GPU();
  const auto s = stalled<lookback::Instrumented<lookback::WarpLookback>, std::int64_t>(
      false, Kind::Inclusive, 50000);
  if (timing_checked()) EXPECT_GT(s.spin_rounds, 0u);
}

}  // namespace
