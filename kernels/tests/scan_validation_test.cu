// Argument validation of DeviceScan and ScanPlan. Every check runs before
// any CUDA call, so these tests need no GPU (label `cpu`): the pointers
// below are never dereferenced.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "lookback/device_scan.cuh"

namespace {

using lookback::DeviceScan;
using lookback::last_error_message;

template <class T>
T* fake(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}
// Explicit T (so nullptr arguments need no cast).
cudaError_t inclusive_int(void* t, std::size_t& b, const int* in, int* out, std::int64_t n) {
  return DeviceScan::InclusiveSum<lookback::Coarsened, int>(t, b, in, out, n);
}
cudaError_t exclusive_int(void* t, std::size_t& b, const int* in, int* out, std::int64_t n) {
  return DeviceScan::ExclusiveSum<lookback::Coarsened, int>(t, b, in, out, n);
}
bool mentions(const std::string& what) {
  return std::string(last_error_message()).find(what) != std::string::npos;
}

constexpr std::uintptr_t kIn = 0x10000000;
constexpr std::uintptr_t kOut = 0x20000000;
constexpr std::uintptr_t kTemp = 0x30000000;

TEST(ScanValidation, SizeQueryNeedsNoDevice) {
  std::size_t small = 0, large = 0;
  ASSERT_EQ(DeviceScan::InclusiveSum(nullptr, small, fake<const int>(kIn), fake<int>(kOut), 1000),
            cudaSuccess);
  ASSERT_EQ(
      DeviceScan::InclusiveSum(nullptr, large, fake<const int>(kIn), fake<int>(kOut), 1 << 24),
      cudaSuccess);
  EXPECT_GT(small, 0u);
  EXPECT_GT(large, small);
  EXPECT_STREQ(last_error_message(), "");
}

// The configuration the API takes when none is named (config.hpp):
// warp-lookback with small tiles up to default_max_small_bytes of input (2 MiB
// of 4-byte values, 8 MiB of 8-byte, 1 MiB of 2-byte, 128 KiB of 1-byte ones);
// above that a middle tier (warp-lookback's 224 x 44 tiles up to 16 MiB of
// 4-byte and 2.5 MiB of 2-byte values, coarsened up to 4 MiB of 1-byte ones,
// 14 MiB on wide GPUs) and pipelined beyond, for 8-byte values pipelined;
// Coarsened for values of other sizes. The tiers' tiles differ in size, so
// the temp-storage query tells which one a call used. 8-byte values:
// pipelined's shape is picked by the GPU (PipelinedByDevice, a
// DeviceAdaptive; device_memory_test), and on wide GPUs by size: Pipelined up
// to 26 MiB of floating-point values and 96 MiB of others, PipelinedWide
// above (scan_device_adaptive_test).
template <std::size_t kBytes>
using MiddleTier = std::conditional_t<kBytes == 1, lookback::Coarsened, lookback::WarpLookback>;
template <std::size_t kBytes, bool kWideGpu = false>
using Middle =
    lookback::SizeAdaptive<MiddleTier<kBytes>, lookback::Pipelined,
                           kBytes == 1 ? (kWideGpu ? std::int64_t{14} << 20 : std::int64_t{4} << 20)
                           : kBytes == 2 ? std::int64_t{5} << 19
                                         : std::int64_t{16} << 20>;
template <std::size_t kBytes>
using MiddleByDevice = std::conditional_t<
    kBytes == 1, lookback::DeviceAdaptive<Middle<1>, Middle<1, true>, lookback::kWideGBpsPerSm>,
    Middle<kBytes>>;
template <bool kFloatingPoint>
using EightByteLarge = lookback::DeviceAdaptive<
    lookback::Pipelined,
    lookback::SizeAdaptive<lookback::Pipelined, lookback::PipelinedWide,
                           kFloatingPoint ? std::int64_t{26} << 20 : std::int64_t{96} << 20>,
    lookback::kWideGBpsPerSm>;
template <std::size_t kBytes, bool kFloatingPoint = false>
using DefaultAdaptive = lookback::SizeAdaptive<
    lookback::WarpLookbackSmall,
    std::conditional_t<kBytes == 8, EightByteLarge<kFloatingPoint>, MiddleByDevice<kBytes>>,
    lookback::default_max_small_bytes(kBytes)>;
static_assert(lookback::default_max_small_bytes(4) == std::int64_t{2} << 20 &&
              lookback::default_max_small_bytes(8) == std::int64_t{8} << 20 &&
              lookback::default_max_small_bytes(2) == std::int64_t{1} << 20 &&
              lookback::default_max_small_bytes(1) == std::int64_t{128} << 10);
static_assert(lookback::default_max_middle_bytes(4) == std::int64_t{16} << 20 &&
              lookback::default_max_middle_bytes(2) == std::int64_t{5} << 19 &&
              lookback::default_max_middle_bytes(1) == std::int64_t{4} << 20 &&
              lookback::default_max_middle_bytes(4, true) == std::int64_t{16} << 20 &&
              lookback::default_max_middle_bytes(2, true) == std::int64_t{5} << 19 &&
              lookback::default_max_middle_bytes(1, true) == std::int64_t{14} << 20);
static_assert(std::is_same_v<lookback::DefaultConfig<float>, DefaultAdaptive<4>>);
static_assert(std::is_same_v<lookback::DefaultConfig<double>, DefaultAdaptive<8, true>>);
static_assert(std::is_same_v<lookback::DefaultConfig<std::int64_t>, DefaultAdaptive<8>>);
static_assert(std::is_same_v<lookback::DefaultConfig<std::uint16_t>, DefaultAdaptive<2>>);
static_assert(std::is_same_v<lookback::DefaultConfig<std::uint8_t>, DefaultAdaptive<1>>);
// A 12-byte value: DefaultConfig gives it Coarsened.
struct Sum12 {
  std::uint32_t v[3];
  friend LOOKBACK_HD Sum12 operator+(const Sum12& l, const Sum12& r) {
    return Sum12{{l.v[0] + r.v[0], l.v[1] + r.v[1], l.v[2] + r.v[2]}};
  }
};
static_assert(sizeof(Sum12) == 12);
static_assert(std::is_same_v<lookback::DefaultConfig<Sum12>, lookback::Coarsened>);
static_assert(std::is_same_v<lookback::ScanPlan<std::uint32_t>,
                             lookback::ScanPlan<std::uint32_t, DefaultAdaptive<4>>>);
static_assert(DefaultAdaptive<4>::picks_small<std::uint32_t>(std::int64_t{1} << 19) &&
              !DefaultAdaptive<4>::picks_small<std::uint32_t>((std::int64_t{1} << 19) + 1) &&
              Middle<4>::picks_small<std::uint32_t>(std::int64_t{1} << 22) &&
              !Middle<4>::picks_small<std::uint32_t>((std::int64_t{1} << 22) + 1) &&
              Middle<2>::picks_small<std::uint16_t>(std::int64_t{5} << 18) &&
              !Middle<2>::picks_small<std::uint16_t>((std::int64_t{5} << 18) + 1) &&
              Middle<1>::picks_small<std::uint8_t>(std::int64_t{1} << 22) &&
              !Middle<1>::picks_small<std::uint8_t>((std::int64_t{1} << 22) + 1) &&
              Middle<1, true>::picks_small<std::uint8_t>(std::int64_t{14} << 20) &&
              !Middle<1, true>::picks_small<std::uint8_t>((std::int64_t{14} << 20) + 1) &&
              DefaultAdaptive<8, true>::picks_small<double>(std::int64_t{1} << 20) &&
              !DefaultAdaptive<8, true>::picks_small<double>((std::int64_t{1} << 20) + 1) &&
              DefaultAdaptive<2>::picks_small<std::uint16_t>(std::int64_t{1} << 19) &&
              !DefaultAdaptive<2>::picks_small<std::uint16_t>((std::int64_t{1} << 19) + 1) &&
              DefaultAdaptive<1>::picks_small<std::uint8_t>(std::int64_t{1} << 17) &&
              !DefaultAdaptive<1>::picks_small<std::uint8_t>((std::int64_t{1} << 17) + 1) &&
              DefaultAdaptive<4>::picks_small<float>(-1));
// Deterministic reaches every tier; of a DefaultConfig it is the
// deterministic default, with its own switches (config.hpp): 4-byte values
// small tiles to 1.75 MiB, 224 x 44 to 9 MiB, the same paced at 6000 GB/s to
// 16 MiB, then pipelined; 8-byte values small tiles to 2 MiB, 224 x 20 to 6
// MiB, the same paced at 4000 GB/s to 16 MiB, then pipelined, on wide GPUs
// the wide shape (for floating point at once: the paced tier ends at 16
// MiB, where its wide switch is; for other values from 96 MiB).
// Other configurations keep their tiers.
template <class C>
using Det = lookback::ScanConfig<C::variant, typename C::policy, true>;
static_assert(
    std::is_same_v<lookback::Deterministic<DefaultAdaptive<4>>,
                   lookback::SizeAdaptive<
                       Det<lookback::WarpLookbackSmall>,
                       lookback::SizeAdaptive<
                           Det<lookback::WarpLookback>,
                           lookback::SizeAdaptive<Det<lookback::PacedWarpLookback<6000>>,
                                                  Det<lookback::Pipelined>, std::int64_t{16} << 20>,
                           std::int64_t{9} << 20>,
                       std::int64_t{7} << 18>>);
template <bool kFloatingPoint>
using DetEightByte = lookback::SizeAdaptive<
    Det<lookback::WarpLookbackSmall>,
    lookback::SizeAdaptive<
        Det<lookback::WarpLookback>,
        lookback::SizeAdaptive<
            Det<lookback::PacedWarpLookback<4000>>,
            lookback::DeviceAdaptive<
                Det<lookback::Pipelined>,
                std::conditional_t<
                    kFloatingPoint, Det<lookback::PipelinedWide>,
                    lookback::SizeAdaptive<Det<lookback::Pipelined>, Det<lookback::PipelinedWide>,
                                           std::int64_t{96} << 20>>,
                lookback::kWideGBpsPerSm>,
            std::int64_t{16} << 20>,
        std::int64_t{6} << 20>,
    std::int64_t{2} << 20>;
static_assert(
    std::is_same_v<lookback::Deterministic<DefaultAdaptive<8, true>>, DetEightByte<true>> &&
    std::is_same_v<lookback::Deterministic<DefaultAdaptive<8>>, DetEightByte<false>> &&
    std::is_same_v<lookback::DeterministicDefaultConfig<double>, DetEightByte<true>>);
// The same whatever flags the default carried first, and only once.
static_assert(
    std::is_same_v<lookback::Deterministic<lookback::Instrumented<DefaultAdaptive<4>>>,
                   lookback::Instrumented<lookback::Deterministic<DefaultAdaptive<4>>>> &&
    std::is_same_v<lookback::Deterministic<lookback::Deterministic<DefaultAdaptive<8, true>>>,
                   DetEightByte<true>>);
// 1- and 2-byte values: the default's tiers, each folding left; a
// configuration other than a default likewise.
static_assert(
    std::is_same_v<lookback::Deterministic<DefaultAdaptive<2>>,
                   lookback::SizeAdaptive<
                       Det<lookback::WarpLookbackSmall>,
                       lookback::SizeAdaptive<Det<lookback::WarpLookback>, Det<lookback::Pipelined>,
                                              std::int64_t{5} << 19>,
                       std::int64_t{1} << 20>> &&
    std::is_same_v<lookback::Deterministic<Middle<4>>,
                   lookback::SizeAdaptive<Det<lookback::WarpLookback>, Det<lookback::Pipelined>,
                                          std::int64_t{16} << 20>>);
// Instrumented reaches every tier of every default and sets no other flag.
static_assert(lookback::Instrumented<DefaultAdaptive<4>>::instrumented &&
              lookback::Instrumented<DefaultAdaptive<4>>::large::small::instrumented &&
              lookback::Instrumented<DefaultAdaptive<4>>::large::large::instrumented &&
              lookback::Instrumented<DefaultAdaptive<1>>::large::base::small::instrumented &&
              lookback::Instrumented<DefaultAdaptive<1>>::large::wide::small::instrumented &&
              lookback::Instrumented<DefaultAdaptive<8>>::large::wide::small::instrumented &&
              lookback::Instrumented<DefaultAdaptive<8>>::large::wide::large::instrumented &&
              !lookback::Instrumented<DefaultAdaptive<4>>::deterministic);

// What a configuration runs on T (runs_on_t): the deterministic default on
// integers under an exact operator (Sum, Min, Max, Xor) runs the default,
// instrumented as asked; under an operator of the user's own, on floating
// point and on types not declared exact (Affine, whose non-commutative fold
// keeps the deterministic kernels' order tested) it runs as itself, and so
// does every deterministic configuration named otherwise.
template <class C, class T, class Op = lookback::Sum>
constexpr bool runs_default =
    std::is_same_v<lookback::runs_on_t<C, T, Op>, lookback::DefaultConfig<T>>;
template <class T>
using DetDefault = lookback::Deterministic<lookback::DefaultConfig<T>>;
struct SaturatingAdd {  // an operator of the user's own (not declared exact)
  template <class T>
  constexpr T operator()(T a, T b) const {
    return a > std::numeric_limits<T>::max() - b ? std::numeric_limits<T>::max() : a + b;
  }
};
static_assert(runs_default<DetDefault<std::uint32_t>, std::uint32_t> &&
              runs_default<DetDefault<std::int32_t>, std::int32_t> &&
              runs_default<DetDefault<std::uint64_t>, std::uint64_t> &&
              runs_default<DetDefault<std::int64_t>, std::int64_t> &&
              runs_default<DetDefault<std::uint16_t>, std::uint16_t> &&
              runs_default<DetDefault<std::uint8_t>, std::uint8_t> &&
              runs_default<lookback::DeterministicDefaultConfig<std::uint64_t>, std::uint64_t> &&
              runs_default<DetDefault<std::uint32_t>, std::uint32_t, lookback::Max> &&
              runs_default<DetDefault<std::int64_t>, std::int64_t, lookback::Min> &&
              runs_default<DetDefault<std::uint64_t>, std::uint64_t, lookback::Xor>);
static_assert(!runs_default<DetDefault<std::uint32_t>, std::uint32_t, SaturatingAdd> &&
              !runs_default<DetDefault<float>, float> &&
              !runs_default<DetDefault<double>, double, lookback::Max> &&
              !lookback::exact_operator<lookback::Affine, lookback::ComposeAffine>::value);
static_assert(std::is_same_v<lookback::runs_on_t<lookback::Instrumented<DetDefault<std::uint64_t>>,
                                                 std::uint64_t>,
                             lookback::Instrumented<lookback::DefaultConfig<std::uint64_t>>> &&
              std::is_same_v<lookback::runs_on_t<DetDefault<float>, float>, DetDefault<float>> &&
              std::is_same_v<lookback::runs_on_t<DetDefault<lookback::Affine>, lookback::Affine,
                                                 lookback::ComposeAffine>,
                             DetDefault<lookback::Affine>> &&
              std::is_same_v<lookback::runs_on_t<Det<lookback::Pipelined>, std::uint64_t>,
                             Det<lookback::Pipelined>> &&
              std::is_same_v<lookback::runs_on_t<lookback::Deterministic<Middle<4>>, std::uint32_t>,
                             lookback::Deterministic<Middle<4>>>);
// Another value type's deterministic default is a named configuration here:
// f64's (16 MiB wide switch) on u64 (whose own is 96 MiB) runs as itself.
static_assert(
    !std::is_same_v<DetDefault<double>, DetDefault<std::uint64_t>> &&
    std::is_same_v<lookback::runs_on_t<DetDefault<double>, std::uint64_t>, DetDefault<double>>);
// A plan's halves are the default's.
static_assert(
    std::is_same_v<
        decltype(std::declval<lookback::ScanPlan<std::uint64_t, DetDefault<std::uint64_t>>&>()
                     .small_plan()),
        const lookback::ScanPlan<std::uint64_t, lookback::WarpLookbackSmall>&> &&
    std::is_same_v<
        decltype(std::declval<lookback::ScanPlan<float, DetDefault<float>>&>().small_plan()),
        const lookback::ScanPlan<float, Det<lookback::WarpLookbackSmall>>&>);

template <class Config, class T>
std::size_t query_bytes(std::int64_t n) {
  std::size_t bytes = 0;
  const cudaError_t e =
      DeviceScan::InclusiveSum<Config, T>(nullptr, bytes, fake<const T>(kIn), fake<T>(kOut), n);
  EXPECT_EQ(e, cudaSuccess) << last_error_message();
  return bytes;
}

// The default's tiers: small tiles; the middle tier, except for 8-byte values;
// pipelined.
enum class Tier { Small, Middle, Large };
const char* name(Tier t) {
  return t == Tier::Small ? "small tiles" : t == Tier::Middle ? "middle tier" : "pipelined";
}

// What a default query for n returns if `tier` runs n on GPUs below (or,
// wide_gpu, from) kWideGBpsPerSm: that tier's storage for n, and at least
// every smaller tier's for its whole share (stateless_scan). The small tiles
// (4096 items of 1, 2 and 4 bytes, 2048 of 8) are smaller than the other
// tiers', and pipelined's (8192 items of 1, 2 and 4 bytes) smaller than the
// middle tier's (224 x 44's 9856; coarsened's 16384 of 1 byte). 8-byte
// values: Pipelined's 3072-item tiles for n need more than PipelinedWide's
// 3840 for n and than Pipelined's for the share below the wide GPUs'
// switch, so either GPU's query comes to Pipelined's.
template <class T>
std::size_t default_bytes_if(Tier tier, std::int64_t n, bool wide_gpu) {
  constexpr std::size_t kBytes = sizeof(T);
  const std::int64_t small_share =
      lookback::default_max_small_bytes(kBytes) / static_cast<std::int64_t>(kBytes);
  if (tier == Tier::Small) return query_bytes<lookback::WarpLookbackSmall, T>(n);
  const std::size_t below = query_bytes<lookback::WarpLookbackSmall, T>(small_share);
  if (tier == Tier::Middle) return std::max(below, query_bytes<MiddleTier<kBytes>, T>(n));
  std::size_t large = query_bytes<lookback::Pipelined, T>(n);
  if constexpr (kBytes == 8) {
    large = std::max(large, query_bytes<lookback::PipelinedWide, T>(n));
  } else {
    const std::int64_t middle_share =
        lookback::default_max_middle_bytes(kBytes, wide_gpu) / static_cast<std::int64_t>(kBytes);
    large = std::max(large, query_bytes<MiddleTier<kBytes>, T>(middle_share));
  }
  return std::max(below, large);
}

// A query answers for GPUs of both kinds (DeviceAdaptive): the more of what
// `tier` needs on GPUs below kWideGBpsPerSm and `wide_tier` (by default the
// same) on the others.
template <class T>
std::size_t default_query_if(Tier tier, Tier wide_tier, std::int64_t n) {
  return std::max(default_bytes_if<T>(tier, n, false), default_bytes_if<T>(wide_tier, n, true));
}

// Descriptors come in groups of 32 tiles, so not every n tells the tiers
// apart: each case first checks that another tier on GPUs below the
// threshold would have given another size. One pair never differs: the u8
// small tiles' share (2^17 items) is 32 tiles, one group, and the middle
// tier's query covers it with one group too, so at u8 sizes up to 2^17 only
// pipelined is told apart. Where the wide GPUs' tier differs (u8 from 4 to
// 14 MiB), the query cannot tell which they run: the GPU tests do
// (scan_default_test, scan_plan_test).
template <class T>
void expect_default_picks(std::int64_t n, Tier tier, std::optional<Tier> wide_tier = {}) {
  const Tier wide = wide_tier.value_or(tier);
  const std::size_t want = default_query_if<T>(tier, wide, n);
  for (const Tier other : {Tier::Small, Tier::Middle, Tier::Large})
    if (other != tier && (other != Tier::Middle || sizeof(T) != 8) &&
        !(sizeof(T) == 1 && tier == Tier::Small && other == Tier::Middle))
      ASSERT_NE(default_query_if<T>(other, wide_tier ? wide : other, n), want)
          << "n = " << n << " does not tell " << name(tier) << " from " << name(other);
  EXPECT_EQ((query_bytes<void, T>(n)), want)
      << "n = " << n << ", " << sizeof(T) << "-byte values, " << name(tier);
}

TEST(ScanValidation, DefaultConfigurationPicksTheTierOfTheSize) {
  for (std::int64_t n : {1000, 32 * 4096})
    expect_default_picks<int>(n, Tier::Small);
  // Just above the first switch the three differ by the shares a query
  // covers: 2^19 + 1 items take 128 descriptors on 224 x 44 (its 54 tiles
  // and the small tiles' share), 160 on the small tiles (129 tiles) and 448
  // on pipelined (224 x 44's share of 426 tiles); at 2^22, 448 against
  // pipelined's 512.
  for (std::int64_t n : {(std::int64_t{1} << 19) + 1, std::int64_t{1} << 20, std::int64_t{1} << 22})
    expect_default_picks<int>(n, Tier::Middle);
  for (std::int64_t n : {(std::int64_t{1} << 22) + 1, std::int64_t{1} << 26})
    expect_default_picks<int>(n, Tier::Large);
  for (std::int64_t n : {1000, 32 * 2048})
    expect_default_picks<std::uint64_t>(n, Tier::Small);
  for (std::int64_t n : {(1 << 20) + 1, 1 << 26})
    expect_default_picks<std::uint64_t>(n, Tier::Large);
  // Near a switch two tiers' storage can be the same: pipelined's query
  // covers the middle tier's whole share (u16: 133 224 x 44 tiles, five
  // groups of 32 descriptors), so the largest u16 size that tells the middle
  // tier from pipelined fills four groups: 128 tiles of 9856.
  for (std::int64_t n : {1000, 32 * 4096})
    expect_default_picks<std::uint16_t>(n, Tier::Small);
  for (std::int64_t n : {(1 << 19) + 1, 1 << 20, 128 * 9856})
    expect_default_picks<std::uint16_t>(n, Tier::Middle);
  for (std::int64_t n : {(5 << 18) + 1, 1 << 26})
    expect_default_picks<std::uint16_t>(n, Tier::Large);
  for (std::int64_t n : {1000, 32 * 4096})
    expect_default_picks<std::uint8_t>(n, Tier::Small);
  for (std::int64_t n : {(1 << 17) + 1, 1 << 19, 1 << 21, 1 << 22})
    expect_default_picks<std::uint8_t>(n, Tier::Middle);
  // From 4 to 14 MiB wide GPUs stay on coarsened: the query is pipelined's
  // (8192-item tiles against coarsened's 16384), which covers both.
  for (std::int64_t n : {(1 << 22) + 1, 1 << 23, 14 << 20}) {
    expect_default_picks<std::uint8_t>(n, Tier::Large, Tier::Middle);
    EXPECT_EQ((default_query_if<std::uint8_t>(Tier::Large, Tier::Middle, n)),
              (default_bytes_if<std::uint8_t>(Tier::Large, n, false)))
        << "n = " << n;
  }
  for (std::int64_t n : {(14 << 20) + 1, 1 << 26})
    expect_default_picks<std::uint8_t>(n, Tier::Large);
  ASSERT_NE((query_bytes<lookback::Coarsened, Sum12>(1 << 26)),
            (query_bytes<lookback::Pipelined, Sum12>(1 << 26)));
  EXPECT_EQ((query_bytes<void, Sum12>(1 << 26)),
            (query_bytes<lookback::Coarsened, Sum12>(1 << 26)));
}

// Storage queried for a small scan does not do for a large one, which the
// other half runs: an error, not a launch.
TEST(ScanValidation, DefaultConfigurationChecksStorageOfTheHalfItRuns) {
  std::size_t bytes = query_bytes<void, int>(1000);
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                     fake<int>(kOut), 1 << 24),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("temp storage too small")) << last_error_message();
}

// CUB's usage, query once for the largest n: a query above the switch also
// covers the small half's largest scan. Here that needs more than the large
// half's own storage: pipelined's tiles (8192 u32 items) are smaller than
// warp-lookback's (9856), and descriptors come in groups of 32 (300,000 items:
// 37 pipelined tiles, 64 descriptors; 300,001: 31 warp-lookback tiles, 32).
TEST(ScanValidation, AdaptiveQueryAboveTheSwitchCoversTheSmallHalf) {
  constexpr std::int64_t share = 300000;
  using SmallTilesFirst =
      lookback::SizeAdaptive<lookback::Pipelined, lookback::WarpLookback, share * 4>;
  const std::size_t small_largest = query_bytes<lookback::Pipelined, int>(share);
  ASSERT_LT((query_bytes<lookback::WarpLookback, int>(share + 1)), small_largest);
  EXPECT_EQ((query_bytes<SmallTilesFirst, int>(share + 1)), small_largest);
  EXPECT_EQ((query_bytes<SmallTilesFirst, int>(share)), small_largest);
  EXPECT_EQ((query_bytes<SmallTilesFirst, int>(1 << 24)),
            (query_bytes<lookback::WarpLookback, int>(1 << 24)));
}

// A plan of a SizeAdaptive holds the small half's storage up to its share and
// the large half's beyond: the default's for u32, each tier's up to its share.
TEST(ScanValidation, AdaptivePlanStorageIsEveryTierItReaches) {
  using Plan = lookback::ScanPlan<std::uint32_t>;
  using Small = lookback::ScanPlan<std::uint32_t, lookback::WarpLookbackSmall>;
  using Warp = lookback::ScanPlan<std::uint32_t, lookback::WarpLookback>;
  using Pipe = lookback::ScanPlan<std::uint32_t, lookback::Pipelined>;
  constexpr std::int64_t small_share = 1 << 19, middle_share = 1 << 22;
  EXPECT_EQ(Plan::storage_bytes(1000), Small::storage_bytes(1000));
  EXPECT_EQ(Plan::storage_bytes(small_share), Small::storage_bytes(small_share));
  EXPECT_EQ(Plan::storage_bytes(1 << 21),
            Small::storage_bytes(small_share) + Warp::storage_bytes(1 << 21));
  EXPECT_EQ(Plan::storage_bytes(1 << 24), Small::storage_bytes(small_share) +
                                              Warp::storage_bytes(middle_share) +
                                              Pipe::storage_bytes(1 << 24));
}

// The deterministic default on integers sizes, and so runs, the default's
// tiers: at 2^19 items the default still runs its small tiles where the
// deterministic one has switched to 224 x 44 (above 7 x 2^16 items), which
// f32's deterministic default, left as itself, shows; likewise 8-byte values
// at 2^20 (the deterministic default's 224 x 20 from 2^18 + 1 items).
template <class T>
void expect_sized_as_default(std::int64_t n, bool as_default) {
  SCOPED_TRACE(testing::Message() << sizeof(T) << "-byte values, n = " << n);
  using Cfg = DetDefault<T>;
  const std::size_t det = query_bytes<Cfg, T>(n), plain = query_bytes<void, T>(n);
  const std::size_t det_plan = lookback::ScanPlan<T, Cfg>::storage_bytes(n);
  const std::size_t plain_plan = lookback::ScanPlan<T>::storage_bytes(n);
  if (as_default) {
    EXPECT_EQ(det, plain);
    EXPECT_EQ(det_plan, plain_plan);
  } else {  // the size tells the two apart (a query covers smaller tiers' shares: may not)
    EXPECT_TRUE(det != plain || det_plan != plain_plan) << det << " " << det_plan;
  }
}
TEST(ScanValidation, DeterministicDefaultOnIntegersIsTheDefault) {
  for (const std::int64_t n : {std::int64_t{1} << 19, std::int64_t{1} << 22}) {
    expect_sized_as_default<float>(n, false);
    expect_sized_as_default<std::uint32_t>(n, true);
    expect_sized_as_default<std::int32_t>(n, true);
  }
  for (const std::int64_t n : {std::int64_t{1} << 20, std::int64_t{3} << 19}) {
    expect_sized_as_default<double>(n, false);
    expect_sized_as_default<std::uint64_t>(n, true);
    expect_sized_as_default<std::int64_t>(n, true);
  }
}

// A half of a SizeAdaptive may be a SizeAdaptive: three tiers, each call on
// the configuration its n picks, and a plan of three storages. The sizes are
// chosen so that each tier's query differs from the other two's (descriptors
// come in groups of 32 tiles; a query above a switch also covers the smaller
// tiers' shares).
TEST(ScanValidation, NestedAdaptivePicksOneOfThreeTiers) {
  using Small = lookback::WarpLookbackSmall;
  using Warp = lookback::WarpLookback;
  using Pipe = lookback::Pipelined;
  using Tiers = lookback::SizeAdaptive<lookback::SizeAdaptive<Small, Warp, 1 << 20>, Pipe, 1 << 23>;
  static_assert(lookback::detail::max_items<Tiers, int>() ==
                lookback::detail::max_items<Pipe, int>());
  constexpr std::int64_t small_share = 1 << 18, middle_share = 1 << 21;
  // Smallest tier: 64 small tiles (2 groups); 224 x 44 would take 27 (1).
  const std::int64_t n1 = small_share;
  ASSERT_NE((query_bytes<Small, int>(n1)), (query_bytes<Warp, int>(n1)));
  EXPECT_EQ((query_bytes<Tiers, int>(n1)), (query_bytes<Small, int>(n1)));
  // Middle tier: 213 tiles of 224 x 44 (7 groups), against 512 small tiles
  // (16) and 256 pipelined ones (8).
  const std::int64_t n2 = middle_share;
  const std::size_t middle =
      std::max(query_bytes<Warp, int>(n2), query_bytes<Small, int>(small_share));
  ASSERT_NE(middle, (query_bytes<Small, int>(n2)));
  ASSERT_NE(middle, (query_bytes<Pipe, int>(n2)));
  EXPECT_EQ((query_bytes<Tiers, int>(n2)), middle);
  // Largest tier: pipelined's 8192 tiles, against 224 x 44's 6809.
  const std::int64_t n3 = 1 << 26;
  ASSERT_NE((query_bytes<Pipe, int>(n3)), (query_bytes<Warp, int>(n3)));
  EXPECT_EQ((query_bytes<Tiers, int>(n3)), (query_bytes<Pipe, int>(n3)));
  using Plan = lookback::ScanPlan<int, Tiers>;
  const std::size_t three = lookback::ScanPlan<int, Small>::storage_bytes(small_share) +
                            lookback::ScanPlan<int, Warp>::storage_bytes(middle_share) +
                            lookback::ScanPlan<int, Pipe>::storage_bytes(n3);
  EXPECT_EQ(Plan::storage_bytes(n3), three);
  Plan plan;
  EXPECT_FALSE(plan.initialised());
  EXPECT_EQ(plan.InclusiveSum(fake<const int>(kIn), fake<int>(kOut), 10), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("before a successful init()")) << last_error_message();
}

TEST(ScanValidation, ZeroItemsIsANoOp) {
  std::size_t bytes = 0;
  ASSERT_EQ(exclusive_int(nullptr, bytes, nullptr, nullptr, 0), cudaSuccess);
  EXPECT_EQ(exclusive_int(fake<void>(kTemp), bytes, nullptr, nullptr, 0), cudaSuccess);
}

TEST(ScanValidation, NegativeCount) {
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(
      DeviceScan::InclusiveSum(fake<void>(kTemp), bytes, fake<const int>(kIn), fake<int>(kOut), -1),
      cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("negative")) << last_error_message();
  std::size_t query = 0;
  EXPECT_EQ(DeviceScan::InclusiveSum(nullptr, query, fake<const int>(kIn), fake<int>(kOut), -5),
            cudaErrorInvalidValue);
}

TEST(ScanValidation, CountBeyondTheSupportedMaximum) {
  // Without a configuration: DefaultConfig<std::uint32_t>.
  const std::int64_t max =
      lookback::detail::max_items<lookback::DefaultConfig<std::uint32_t>, std::uint32_t>();
  std::size_t bytes = 0;
  EXPECT_EQ(DeviceScan::InclusiveSum(nullptr, bytes, fake<const std::uint32_t>(kIn),
                                     fake<std::uint32_t>(kOut), max + 1),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("exceeds")) << last_error_message();
  EXPECT_EQ(DeviceScan::InclusiveSum(nullptr, bytes, fake<const std::uint32_t>(kIn),
                                     fake<std::uint32_t>(kOut), max),
            cudaSuccess);
}

TEST(ScanValidation, NullPointers) {
  std::size_t bytes = 0;
  ASSERT_EQ(inclusive_int(nullptr, bytes, nullptr, fake<int>(kOut), 10),
            cudaSuccess);  // size query only
  EXPECT_EQ(inclusive_int(fake<void>(kTemp), bytes, nullptr, fake<int>(kOut), 10),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_in is null")) << last_error_message();
  EXPECT_EQ(inclusive_int(fake<void>(kTemp), bytes, fake<const int>(kIn), nullptr, 10),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_out is null")) << last_error_message();
}

TEST(ScanValidation, TempStorageTooSmall) {
  std::size_t bytes = 0;
  ASSERT_EQ(DeviceScan::ExclusiveScan(nullptr, bytes, fake<const double>(kIn), fake<double>(kOut),
                                      lookback::Max{}, 0.0, 1 << 20),
            cudaSuccess);
  std::size_t less = bytes - 1;
  EXPECT_EQ(DeviceScan::ExclusiveScan(fake<void>(kTemp), less, fake<const double>(kIn),
                                      fake<double>(kOut), lookback::Max{}, 0.0, 1 << 20),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("temp storage too small")) << last_error_message();
}

TEST(ScanValidation, PartialOverlap) {
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                     fake<int>(kIn + 4 * 100), 1000),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("overlap")) << last_error_message();
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kTemp), bytes, fake<const int>(kIn + 4 * 100),
                                     fake<int>(kIn), 1000),
            cudaErrorInvalidValue);
}

// Buffers that touch without sharing a byte are accepted: the call gets as
// far as the temp-storage check, which the short storage here fails.
TEST(ScanValidation, AdjacentBuffersAreNotAnOverlap) {
  std::size_t short_bytes = 64;
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kTemp), short_bytes, fake<const int>(kIn),
                                     fake<int>(kIn + 4 * 1000), 1000),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("temp storage too small")) << last_error_message();
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kIn + 4 * 1000), short_bytes, fake<const int>(kIn),
                                     fake<int>(kOut), 1000),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("temp storage too small")) << last_error_message();
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kOut - short_bytes), short_bytes,
                                     fake<const int>(kIn), fake<int>(kOut), 1000),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("temp storage too small")) << last_error_message();
}

// A range that would run past the top of the address space is refused, not
// wrapped round to 0 (where the overlap checks would miss it). A
// temp_storage_bytes of SIZE_MAX ("plenty") would also set a descriptor
// layout far beyond any allocation.
TEST(ScanValidation, RangesPastTheEndOfTheAddressSpace) {
  constexpr std::uintptr_t kTop = std::numeric_limits<std::uintptr_t>::max();
  constexpr std::int64_t n = 1000;
  std::size_t plenty = std::numeric_limits<std::size_t>::max();
  // The temp storage just below d_in: without the check, its end (start +
  // SIZE_MAX) wraps to its start - 1 and the overlap with d_in goes unseen.
  EXPECT_EQ(DeviceScan::InclusiveSum<lookback::Coarsened>(fake<void>(kIn - 4096), plenty,
                                                          fake<const int>(kIn), fake<int>(kOut), n),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_temp_storage + temp_storage_bytes (" + std::to_string(plenty) +
                       ") runs past the end of the address space"))
      << last_error_message();
  std::size_t bytes = 1 << 20;
  const std::uintptr_t near_top = (kTop - 4 * (n - 1)) & ~std::uintptr_t{3};  // 4-byte aligned
  EXPECT_EQ(DeviceScan::InclusiveSum<lookback::Coarsened>(
                fake<void>(kTemp), bytes, fake<const int>(near_top), fake<int>(kOut), n),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_in + num_items * sizeof(T) runs past the end")) << last_error_message();
  EXPECT_EQ(DeviceScan::InclusiveSum<lookback::Coarsened>(
                fake<void>(kTemp), bytes, fake<const int>(kIn), fake<int>(near_top), n),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_out + num_items * sizeof(T) runs past the end")) << last_error_message();
  // Sixteen items lower the input ends below the top, and the call gets as far as
  // the temp-storage check (the 64 bytes here are too few).
  std::size_t short_bytes = 64;
  EXPECT_EQ(
      DeviceScan::InclusiveSum<lookback::Coarsened>(
          fake<void>(kTemp), short_bytes, fake<const int>(near_top - 4 * 16), fake<int>(kOut), n),
      cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("temp storage too small")) << last_error_message();
  // The boundary: the end (p + bytes) must be an address.
  EXPECT_FALSE(lookback::detail::wraps_address_space(kTop - 16, 16));
  EXPECT_TRUE(lookback::detail::wraps_address_space(kTop - 15, 16));
  EXPECT_TRUE(lookback::detail::wraps_address_space(kTop - 16, 17));
}

// Temp storage that shares bytes with d_in or d_out: the scan would clear
// its descriptors over the input or store output over its descriptors.
template <class Cfg, class T>
void expect_temp_overlap_refused() {
  constexpr std::int64_t n = 1000;
  std::size_t bytes = 0;
  ASSERT_EQ(DeviceScan::InclusiveSum<Cfg>(nullptr, bytes, fake<const T>(kIn), fake<T>(kOut), n),
            cudaSuccess);
  for (const auto& [data, name] : {std::pair{kIn, "d_in"}, std::pair{kOut, "d_out"}}) {
    const std::uintptr_t end = data + n * sizeof(T);
    for (const std::uintptr_t temp : {data, end - 16, data - bytes + 16}) {
      EXPECT_EQ(DeviceScan::InclusiveSum<Cfg>(fake<void>(temp), bytes, fake<const T>(kIn),
                                              fake<T>(kOut), n),
                cudaErrorInvalidValue)
          << std::hex << temp;
      EXPECT_TRUE(mentions(std::string("d_temp_storage overlaps ") + name)) << last_error_message();
    }
  }
  // In place: one buffer, checked once.
  EXPECT_EQ(DeviceScan::InclusiveSum<Cfg>(fake<void>(kIn + 64), bytes, fake<const T>(kIn),
                                          fake<T>(kIn), n),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_temp_storage overlaps d_in")) << last_error_message();
}

TEST(ScanValidation, TempStorageOverlappingInputOrOutput) {
  expect_temp_overlap_refused<lookback::Coarsened, int>();
  expect_temp_overlap_refused<void, int>();  // the default: a SizeAdaptive
  // A DeviceAdaptive checks before it asks which device runs the scan.
  expect_temp_overlap_refused<lookback::PipelinedByDevice<std::uint64_t>, std::uint64_t>();
}

// A DeviceAdaptive takes the fewer items of its two halves, and checks its
// arguments before any device is asked (this machine may have none).
TEST(ScanValidation, DeviceAdaptiveChecksBeforeAskingTheDevice) {
  using Cfg = lookback::PipelinedByDevice<std::uint64_t>;
  using T = std::uint64_t;
  constexpr std::int64_t most = lookback::detail::max_items<Cfg, T>();
  static_assert(most == std::min(lookback::detail::max_items<typename Cfg::base, T>(),
                                 lookback::detail::max_items<typename Cfg::wide, T>()));
  static_assert(lookback::detail::max_items<typename Cfg::base, T>() !=
                    lookback::detail::max_items<typename Cfg::wide, T>(),
                "the halves' limits differ, so the smaller one is what is tested");
  std::size_t query = 0;
  EXPECT_EQ(DeviceScan::InclusiveSum<Cfg>(nullptr, query, fake<const T>(kIn), fake<T>(kOut), most),
            cudaSuccess);
  EXPECT_EQ(
      DeviceScan::InclusiveSum<Cfg>(nullptr, query, fake<const T>(kIn), fake<T>(kOut), most + 1),
      cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("exceeds the largest supported size")) << last_error_message();
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(DeviceScan::InclusiveSum<Cfg>(fake<void>(kTemp), bytes, fake<const T>(kIn),
                                          fake<T>(kOut), most + 1),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("exceeds the largest supported size")) << last_error_message();
  EXPECT_EQ(
      (DeviceScan::InclusiveSum<Cfg, T>(fake<void>(kTemp), bytes, nullptr, fake<T>(kOut), 10)),
      cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_in is null")) << last_error_message();
  EXPECT_EQ(DeviceScan::InclusiveSum<Cfg>(fake<void>(kTemp), bytes, fake<const T>(kIn),
                                          fake<T>(kIn + 8), 10),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("overlap partially")) << last_error_message();
  EXPECT_EQ(DeviceScan::InclusiveSum<Cfg>(fake<void>(kTemp), bytes, fake<const T>(kIn + 4),
                                          fake<T>(kOut), 10),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_in is not aligned")) << last_error_message();
  std::size_t little = 16;
  EXPECT_EQ(DeviceScan::InclusiveSum<Cfg>(fake<void>(kTemp), little, fake<const T>(kIn),
                                          fake<T>(kOut), 10),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("temp storage too small")) << last_error_message();
}

TEST(ScanValidation, MisalignedForTheType) {
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kTemp), bytes, fake<const int>(kIn + 2),
                                     fake<int>(kOut), 1000),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_in is not aligned")) << last_error_message();
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                     fake<int>(kOut + 1), 1000),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("d_out is not aligned")) << last_error_message();
}

// A configuration built without the scalar path rejects pointers that are
// not 16-byte aligned (the default configurations take the scalar path).
TEST(ScanValidation, NoScalarPathNeedsVectorAlignment) {
  using VectorOnly = lookback::ScanConfig<lookback::Variant::Coarsened, lookback::CoarsenedPolicy,
                                          false, false, /*scalar_path=*/false>;
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(DeviceScan::InclusiveSum<VectorOnly>(fake<void>(kTemp), bytes, fake<const int>(kIn + 4),
                                                 fake<int>(kOut), 1000),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("16-byte aligned")) << last_error_message();
  // Aligned pointers, but the vector path switched off: the configuration
  // is what is missing, not the alignment.
  lookback::Options scalar_only;
  scalar_only.allow_vector = false;
  EXPECT_EQ(DeviceScan::InclusiveSum<VectorOnly>(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                                 fake<int>(kOut), 1000, 0, scalar_only),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("allow_vector = false needs a configuration with a scalar path"))
      << last_error_message();
}

// A watchdog bound without check_errors: an expiry would return cudaSuccess
// on invalid output. Refused by every public entry point (the query
// answers: it runs nothing).
TEST(ScanValidation, WatchdogNeedsCheckedCalls) {
  lookback::Options unchecked;
  unchecked.watchdog_rounds = 1000;
  unchecked.check_errors = false;
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(
      DeviceScan::InclusiveSum<lookback::Coarsened>(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                                    fake<int>(kOut), 1000, 0, unchecked),
      cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("watchdog_rounds needs Options::check_errors")) << last_error_message();
  // The default (a SizeAdaptive), and a DeviceAdaptive before any device is
  // asked (this machine may have none).
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                     fake<int>(kOut), 1000, 0, unchecked),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("watchdog_rounds needs Options::check_errors")) << last_error_message();
  using ByDevice = lookback::PipelinedByDevice<std::uint64_t>;
  EXPECT_EQ(
      DeviceScan::ExclusiveSum<ByDevice>(fake<void>(kTemp), bytes, fake<const std::uint64_t>(kIn),
                                         fake<std::uint64_t>(kOut), 1000, 0, unchecked),
      cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("watchdog_rounds needs Options::check_errors")) << last_error_message();
  std::size_t query = 0;
  EXPECT_EQ(DeviceScan::InclusiveSum(nullptr, query, fake<const int>(kIn), fake<int>(kOut), 1000, 0,
                                     unchecked),
            cudaSuccess);
  EXPECT_GT(query, 0u);
  // Either alone is accepted (the call then fails on its short storage).
  for (const bool check : {false, true}) {
    lookback::Options o;
    o.watchdog_rounds = check ? 1000 : 0;
    o.check_errors = check;
    std::size_t short_bytes = 64;
    EXPECT_EQ(
        DeviceScan::InclusiveSum<lookback::Coarsened>(
            fake<void>(kTemp), short_bytes, fake<const int>(kIn), fake<int>(kOut), 1000, 0, o),
        cudaErrorInvalidValue);
    EXPECT_TRUE(mentions("temp storage too small")) << last_error_message();
  }
}

// Perturbations only exist in instrumented kernels: asking a production
// configuration for one is an error, not a silently calm scan.
TEST(ScanValidation, PerturbNeedsAnInstrumentedConfiguration) {
  lookback::Options o;
  o.perturb.stall_ns = 2000;
  o.perturb.stall_every = 2;
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(DeviceScan::InclusiveSum<lookback::Fallback>(
                fake<void>(kTemp), bytes, fake<const int>(kIn), fake<int>(kOut), 1000, 0, o),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("Options::perturb needs an instrumented configuration"))
      << last_error_message();
  o.perturb = {};
  o.perturb.tile_map = lookback::device::TileMap::Reversed;
  EXPECT_EQ(DeviceScan::InclusiveSum<lookback::Pipelined>(
                fake<void>(kTemp), bytes, fake<const int>(kIn), fake<int>(kOut), 1000, 0, o),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("Options::perturb")) << last_error_message();
  // A seed alone perturbs nothing.
  o.perturb = {};
  o.perturb.seed = 7;
  std::size_t short_bytes = 64;
  EXPECT_EQ(DeviceScan::InclusiveSum<lookback::Fallback>(
                fake<void>(kTemp), short_bytes, fake<const int>(kIn), fake<int>(kOut), 1000, 0, o),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("temp storage too small")) << last_error_message();
}

// Options::trace (a tile timeline): only instrumented kernels write one,
// and a buffer short of the scan's tiles is refused, not filled in part.
TEST(ScanValidation, TraceNeedsAnInstrumentedConfigurationAndRoomForEveryTile) {
  using Plain = lookback::Coarsened;
  using Traced = lookback::Instrumented<Plain>;
  constexpr std::int64_t n = 1 << 20;
  const auto tiles = static_cast<std::uint32_t>(lookback::detail::tiles_for<Traced, int>(n));
  ASSERT_GT(tiles, 1u);
  std::size_t bytes = 1 << 24;
  lookback::Options o;
  o.trace = {fake<lookback::device::TileStamps>(kTemp + (1 << 25)), tiles};
  EXPECT_EQ(DeviceScan::InclusiveSum<Plain>(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                            fake<int>(kOut), n, 0, o),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("instrumented configuration")) << last_error_message();
  o.trace.capacity = tiles - 1;
  EXPECT_EQ(DeviceScan::InclusiveSum<Traced>(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                             fake<int>(kOut), n, 0, o),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("holds " + std::to_string(tiles - 1) + " tiles, this scan has " +
                       std::to_string(tiles)))
      << last_error_message();
  o.trace = {nullptr, tiles};
  EXPECT_EQ(DeviceScan::InclusiveSum<Traced>(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                             fake<int>(kOut), n, 0, o),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("capacity but no buffer")) << last_error_message();
  // The size query does not look at it.
  std::size_t query = 0;
  EXPECT_EQ(DeviceScan::InclusiveSum<Plain>(nullptr, query, fake<const int>(kIn), fake<int>(kOut),
                                            n, 0, o),
            cudaSuccess);
}

template <class Plan>
void expect_use_before_init_fails() {
  Plan plan;
  EXPECT_EQ(plan.InclusiveSum(fake<const float>(kIn), fake<float>(kOut), 10),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("before a successful init")) << last_error_message();
  EXPECT_EQ(plan.init(-1), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("capacity -1")) << last_error_message();
}

TEST(ScanValidation, PlanUsedBeforeInit) {
  expect_use_before_init_fails<lookback::ScanPlan<float>>();  // SizeAdaptive
  expect_use_before_init_fails<lookback::ScanPlan<float, lookback::Pipelined>>();
}

// A plan scans at most the items of its init(): its storage holds the
// descriptors of that many tiles and no more. (The wiring: scan_plan_test.)
TEST(ScanValidation, PlanBeyondItsCapacity) {
  EXPECT_EQ(lookback::detail::check_plan_call(true, 1000, 1000), cudaSuccess);
  EXPECT_EQ(lookback::detail::check_plan_call(true, 0, 0), cudaSuccess);
  EXPECT_EQ(lookback::detail::check_plan_call(true, 1001, 1000), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("num_items = 1001 exceeds the plan's capacity 1000"))
      << last_error_message();
  EXPECT_EQ(lookback::detail::check_plan_call(false, 1, 1000), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("before a successful init()")) << last_error_message();
}

// A plan's storage belongs to the device of its init(); the check a call
// makes (with the current device) refuses any other.
TEST(ScanValidation, PlanOnAnotherDevice) {
  EXPECT_EQ(lookback::detail::check_plan_device(1, 1), cudaSuccess);
  EXPECT_EQ(lookback::detail::check_plan_device(0, 1), cudaErrorInvalidDevice);
  EXPECT_TRUE(mentions("initialised on device 0 used on device 1")) << last_error_message();
  EXPECT_EQ((lookback::ScanPlan<float, lookback::Pipelined>().device()), -1);  // before init()
}

// CUDA runs a kernel on its stream's device; a scan runs on the current one,
// so a stream of another device is refused (its pointers would be read by
// the other GPU). The two-GPU side: scan_plan_test.
TEST(ScanValidation, StreamOfAnotherDevice) {
  EXPECT_EQ(lookback::detail::check_stream_device(2, 2), cudaSuccess);
  EXPECT_EQ(lookback::detail::check_stream_device(1, 0), cudaErrorInvalidDevice);
  EXPECT_TRUE(mentions("`stream` belongs to device 1, the current device is 0"))
      << last_error_message();
  EXPECT_TRUE(mentions("make current the device that holds the data")) << last_error_message();
}

// A stream's device is asked through the driver (stream_device.hpp): with a
// CUDA 13 driver both entry points resolve; without one (CI has no driver)
// asking is a clear error, not a guess, and the handle is never touched.
TEST(ScanValidation, StreamDeviceQueriesNeedTheDriver) {
  int driver = 0;
  ASSERT_EQ(cudaDriverGetVersion(&driver), cudaSuccess);
  const auto& queries = lookback::detail::driver_stream_queries();
  if (driver >= 13000) {
    EXPECT_EQ(queries.missing, "");
    EXPECT_NE(queries.stream_context, nullptr);
    EXPECT_NE(queries.context_device, nullptr);
    return;
  }
  EXPECT_NE(queries.missing.find("the driver gives no "), std::string::npos) << queries.missing;
  int device = -7;
  const auto never_read = reinterpret_cast<cudaStream_t>(std::uintptr_t{0x1000});
  EXPECT_EQ(lookback::detail::stream_device(never_read, device), cudaErrorNotSupported);
  EXPECT_EQ(device, -7);
  EXPECT_TRUE(mentions("cannot ask the stream's device: the driver gives no "))
      << last_error_message();
}

// On a capturing stream: a call that synchronizes it (a checked scan, a
// plan's init() or read_stats()) would invalidate the capture, so it is
// refused; an unchecked scan is captured (the graph side: scan_plan_test).
TEST(ScanValidation, CheckedCallWhileCapturing) {
  using lookback::detail::check_capture;
  EXPECT_EQ(check_capture(cudaStreamCaptureStatusActive, false), cudaSuccess);
  EXPECT_EQ(check_capture(cudaStreamCaptureStatusActive, true), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("stream being captured")) << last_error_message();
  EXPECT_TRUE(mentions("check_errors = false")) << last_error_message();
  // A capture invalidated before the call: no call is taken, and the message
  // says why rather than blaming this call.
  for (const bool synchronizes : {false, true}) {
    EXPECT_EQ(check_capture(cudaStreamCaptureStatusInvalidated, synchronizes),
              cudaErrorStreamCaptureInvalidated);
    EXPECT_TRUE(mentions("invalidated by an earlier call")) << last_error_message();
    EXPECT_TRUE(mentions("cudaStreamEndCapture")) << last_error_message();
  }
}

// Look-back statistics are counted by instrumented kernels only; a
// production plan's would read as zeros.
TEST(ScanValidation, StatisticsNeedAnInstrumentedPlan) {
  lookback::LookbackStats stats{};
  lookback::ScanPlan<float, lookback::Pipelined> plain;
  EXPECT_EQ(plain.read_stats(stats), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("statistics need an instrumented configuration")) << last_error_message();
  EXPECT_EQ(plain.reset_stats(), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("statistics need an instrumented configuration")) << last_error_message();
  lookback::ScanPlan<float, lookback::DefaultConfig<float>> adaptive;
  EXPECT_EQ(adaptive.read_stats(stats), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("statistics need an instrumented configuration")) << last_error_message();
  lookback::ScanPlan<float, lookback::Instrumented<lookback::Pipelined>> instrumented;
  EXPECT_EQ(instrumented.read_stats(stats), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("not initialised")) << last_error_message();
}

// storage_bytes is a pure size: a count outside what the configuration takes
// is read as the nearer end (init() refuses it), with no overflow at the
// extremes.
template <class Cfg, class T>
void expect_storage_bytes_clamped() {
  using Plan = lookback::ScanPlan<T, Cfg>;
  constexpr std::int64_t most = lookback::detail::max_items<Cfg, T>();
  EXPECT_EQ(Plan::storage_bytes(-1), Plan::storage_bytes(0));
  EXPECT_EQ(Plan::storage_bytes(std::numeric_limits<std::int64_t>::min()), Plan::storage_bytes(0));
  EXPECT_EQ(Plan::storage_bytes(most + 1), Plan::storage_bytes(most));
  EXPECT_EQ(Plan::storage_bytes(std::numeric_limits<std::int64_t>::max()),
            Plan::storage_bytes(most));
  EXPECT_LT(Plan::storage_bytes(1 << 20), Plan::storage_bytes(most));
  Plan plan;
  EXPECT_EQ(plan.init(most + 1), cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("capacity " + std::to_string(most + 1))) << last_error_message();
}

TEST(ScanValidation, PlanStorageBytesOfAnyCount) {
  expect_storage_bytes_clamped<lookback::Pipelined, int>();
  expect_storage_bytes_clamped<lookback::DefaultConfig<int>, int>();  // three tiers
  expect_storage_bytes_clamped<lookback::DefaultConfig<double>, double>();
  expect_storage_bytes_clamped<lookback::PipelinedByDevice<std::uint64_t>, std::uint64_t>();
}

}  // namespace
