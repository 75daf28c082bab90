// Which GPUs the device-picked configurations (DeviceAdaptive, config.hpp)
// treat as wide, from the figures the CUDA runtime reports: no GPU needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "lookback/device/config.hpp"
#include "lookback/device/device_memory.hpp"
#include "lookback/device/dispatch.cuh"
#include "lookback/ops.hpp"

namespace {

using lookback::DeviceMemory;
using lookback::dram_gbps_per_sm;
// What the default's 8-byte large half compares: the same threshold for
// every 8-byte type.
using PipelinedByDevice = lookback::PipelinedByDevice<double>;

// cudaDevAttrMultiProcessorCount, MemoryClockRate (kHz), GlobalMemoryBusWidth.
// The H200's are what the runtime reported on the device tool's H200s
// (2026-11-28: a 6016-bit bus, not the data sheet's 6144); the H100s' are
// their data sheets'.
constexpr DeviceMemory kH100Sxm{132, 2619000, 5120};   // 3.35 TB/s HBM3
constexpr DeviceMemory kH200{132, 3201000, 6016};      // 4.8 TB/s HBM3e
constexpr DeviceMemory kH100Pcie{114, 1593000, 5120};  // 2.0 TB/s HBM2e

TEST(DeviceMemory, PeakBandwidthPerSm) {
  EXPECT_NEAR(dram_gbps_per_sm(kH100Sxm) * kH100Sxm.sms, 3352.3, 0.1);
  EXPECT_NEAR(dram_gbps_per_sm(kH100Sxm), 25.40, 0.01);
  EXPECT_NEAR(dram_gbps_per_sm(kH200) * kH200.sms, 4814.3, 0.1);
  EXPECT_NEAR(dram_gbps_per_sm(kH200), 36.47, 0.01);
  EXPECT_NEAR(dram_gbps_per_sm(kH100Pcie), 17.89, 0.01);
}

TEST(DeviceMemory, MissingFiguresGiveZero) {
  EXPECT_EQ(dram_gbps_per_sm(DeviceMemory{}), 0.0);
  EXPECT_EQ(dram_gbps_per_sm(DeviceMemory{0, 3201000, 6144}), 0.0);
  EXPECT_EQ(dram_gbps_per_sm(DeviceMemory{132, 0, 6144}), 0.0);
  EXPECT_EQ(dram_gbps_per_sm(DeviceMemory{132, 3201000, 0}), 0.0);
  EXPECT_FALSE(PipelinedByDevice::picks_wide(0.0));
}

// The H100s the policies were tuned on keep them; the H200 takes the wide
// 8-byte shape; the threshold itself is wide.
TEST(DeviceMemory, DefaultPicksWideOnTheH200Only) {
  EXPECT_FALSE(PipelinedByDevice::picks_wide(dram_gbps_per_sm(kH100Sxm)));
  EXPECT_FALSE(PipelinedByDevice::picks_wide(dram_gbps_per_sm(kH100Pcie)));
  EXPECT_TRUE(PipelinedByDevice::picks_wide(dram_gbps_per_sm(kH200)));
  EXPECT_TRUE(PipelinedByDevice::picks_wide(lookback::kWideGBpsPerSm));
  EXPECT_FALSE(PipelinedByDevice::picks_wide(lookback::kWideGBpsPerSm - 0.01));
}

// DefaultConfig: the device choice sits in the large half of 8- and 1-byte
// values only, keeps through Deterministic<> and Instrumented<>, and limits n to
// the fewer items of its halves. Its wide half is itself picked by size:
// Pipelined up to 26 MiB of floating-point values and 96 MiB of others,
// PipelinedWide above (config.hpp, default_wide_switch_bytes).
TEST(DeviceMemory, DefaultConfigComposition) {
  using D = lookback::DefaultConfig<double>;
  static_assert(lookback::is_size_adaptive_v<D>);
  static_assert(std::is_same_v<D::large, PipelinedByDevice>);
  static_assert(std::is_same_v<PipelinedByDevice::base, lookback::Pipelined> &&
                std::is_same_v<PipelinedByDevice::wide::small, lookback::Pipelined> &&
                std::is_same_v<PipelinedByDevice::wide::large, lookback::PipelinedWide>);
  using U = lookback::DefaultConfig<std::uint64_t>::large;
  using I = lookback::DefaultConfig<std::int64_t>::large;
  static_assert(std::is_same_v<U, I> && std::is_same_v<U::base, PipelinedByDevice::base> &&
                std::is_same_v<U::wide::large, PipelinedByDevice::wide::large>);
  static_assert(PipelinedByDevice::wide::max_small_bytes == std::int64_t{26} << 20 &&
                U::wide::max_small_bytes == std::int64_t{96} << 20);
  static_assert(PipelinedByDevice::wide::picks_small<double>(std::int64_t{13} << 18) &&
                !PipelinedByDevice::wide::picks_small<double>((std::int64_t{13} << 18) + 1) &&
                U::wide::picks_small<std::uint64_t>(std::int64_t{12} << 20) &&
                !U::wide::picks_small<std::uint64_t>((std::int64_t{12} << 20) + 1));
  // Affine maps (two floats) are not floating point: the integers' switch.
  static_assert(std::is_same_v<lookback::DefaultConfig<lookback::Affine>::large, U>);
  // 1-byte values: coarsened up to 4 MiB, on wide GPUs 14 MiB; 2- and 4-byte
  // values ask no device.
  using U8 = lookback::DefaultConfig<std::uint8_t>::large;
  static_assert(lookback::is_device_adaptive_v<U8> &&
                std::is_same_v<U8::base::small, lookback::Coarsened> &&
                std::is_same_v<U8::wide::small, lookback::Coarsened> &&
                std::is_same_v<U8::base::large, lookback::Pipelined> &&
                std::is_same_v<U8::wide::large, lookback::Pipelined> &&
                U8::base::max_small_bytes == std::int64_t{4} << 20 &&
                U8::wide::max_small_bytes == std::int64_t{14} << 20 &&
                U8::wide_gbps_per_sm == lookback::kWideGBpsPerSm);
  static_assert(lookback::is_size_adaptive_v<lookback::DefaultConfig<std::uint16_t>::large> &&
                lookback::is_size_adaptive_v<lookback::DefaultConfig<std::uint32_t>::large>);
  static_assert(
      std::is_same_v<lookback::DefaultConfig<std::uint32_t>::large::large, lookback::Pipelined>);
  // (Deterministic<D> has its own switches: the device choice three levels
  // down, above the paced tier.)
  using Det = lookback::Deterministic<D>::large::large::large;
  static_assert(lookback::is_device_adaptive_v<Det> && Det::deterministic &&
                Det::base::deterministic && Det::wide::deterministic);
  using Ins = lookback::Instrumented<D>::large;
  static_assert(Ins::instrumented && Ins::wide::instrumented && Ins::wide::large::instrumented &&
                !Ins::deterministic);
  constexpr std::int64_t most = lookback::detail::max_items<PipelinedByDevice, double>();
  EXPECT_EQ(most, std::min(lookback::detail::max_items<lookback::Pipelined, double>(),
                           lookback::detail::max_items<lookback::PipelinedWide, double>()));
  EXPECT_EQ(most, std::int64_t{0x7fffffff} * 3072);
}

// The deterministic default's switches (config.hpp), item by item at each
// edge: which tier n picks, on either kind of GPU, for f32, u32, f64 and u64
// (the configuration types: u32 and u64 sums run the default, runs_on_t, but
// u64's tiers are those of every other 8-byte type that is not floating
// point, and integers under an operator of the user's own run them).
template <class T>
std::string deterministic_tier(std::int64_t n, bool wide_gpu) {
  using C = lookback::Deterministic<lookback::DefaultConfig<T>>;
  if (C::template picks_small<T>(n)) return "small tiles";
  if (C::large::template picks_small<T>(n)) return "warp-lookback";
  if (C::large::large::template picks_small<T>(n)) return "paced warp-lookback";
  using Above = typename C::large::large::large;
  if constexpr (sizeof(T) == 4) {
    return "pipelined";
  } else {
    if (!Above::picks_wide(wide_gpu ? lookback::kWideGBpsPerSm : 0.0)) return "pipelined";
    if constexpr (lookback::is_size_adaptive_v<typename Above::wide>) {
      return Above::wide::template picks_small<T>(n) ? "pipelined" : "pipelined-wide";
    } else {
      return "pipelined-wide";  // floating point: from where the paced tier ends
    }
  }
}

TEST(DeviceMemory, DeterministicDefaultSwitchesAtTheirEdges) {
  struct Edge {
    std::int64_t last;  // the tier's last n
    const char* below;
    const char* above;
  };
  for (const bool wide : {false, true}) {
    SCOPED_TRACE(wide ? "wide GPU" : "other GPU");
    for (const Edge& e : {Edge{7 << 16, "small tiles", "warp-lookback"},
                          Edge{9 << 18, "warp-lookback", "paced warp-lookback"},
                          Edge{1 << 22, "paced warp-lookback", "pipelined"}}) {
      EXPECT_EQ(deterministic_tier<float>(e.last, wide), e.below) << e.last;
      EXPECT_EQ(deterministic_tier<float>(e.last + 1, wide), e.above) << e.last + 1;
      EXPECT_EQ(deterministic_tier<std::uint32_t>(e.last + 1, wide), e.above) << e.last + 1;
    }
    for (const Edge& e : {Edge{1 << 18, "small tiles", "warp-lookback"},
                          Edge{3 << 18, "warp-lookback", "paced warp-lookback"}}) {
      EXPECT_EQ(deterministic_tier<double>(e.last, wide), e.below) << e.last;
      EXPECT_EQ(deterministic_tier<double>(e.last + 1, wide), e.above) << e.last + 1;
      EXPECT_EQ(deterministic_tier<std::uint64_t>(e.last + 1, wide), e.above) << e.last + 1;
    }
    // The paced tier ends at 16 MiB; above it pipelined, on wide GPUs the
    // wide shape from 16 MiB of floating point and 96 MiB of integers.
    EXPECT_EQ(deterministic_tier<double>(std::int64_t{1} << 21, wide), "paced warp-lookback");
    EXPECT_EQ(deterministic_tier<std::uint64_t>(std::int64_t{1} << 21, wide),
              "paced warp-lookback");
    EXPECT_EQ(deterministic_tier<double>((std::int64_t{1} << 21) + 1, wide),
              wide ? "pipelined-wide" : "pipelined");
    EXPECT_EQ(deterministic_tier<std::uint64_t>((std::int64_t{1} << 21) + 1, wide), "pipelined");
    EXPECT_EQ(deterministic_tier<std::uint64_t>((std::int64_t{12} << 20) + 1, wide),
              wide ? "pipelined-wide" : "pipelined");
  }
  // The most items: its largest tier's, as the default's.
  EXPECT_EQ((lookback::detail::max_items<lookback::Deterministic<lookback::DefaultConfig<double>>,
                                         double>()),
            (lookback::detail::max_items<lookback::DefaultConfig<double>, double>()));
}

}  // namespace
