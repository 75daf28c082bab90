// Argument validation of DeviceScan and ScanPlan. Every check runs before
// any CUDA call, so these tests need no GPU (label `cpu`): the pointers
// below are never dereferenced.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>

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
bool mentions(const char* what) {
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

// The configuration the API takes when none is named: Pipelined for 4- and
// 8-byte values, Coarsened for the rest (config.hpp). Their tiles differ in
// size, so the temp-storage query tells which one a call used.
static_assert(std::is_same_v<lookback::DefaultConfig<float>, lookback::Pipelined>);
static_assert(std::is_same_v<lookback::DefaultConfig<double>, lookback::Pipelined>);
static_assert(std::is_same_v<lookback::DefaultConfig<std::uint16_t>, lookback::Coarsened>);
static_assert(std::is_same_v<lookback::DefaultConfig<std::uint8_t>, lookback::Coarsened>);
static_assert(std::is_same_v<lookback::ScanPlan<std::uint32_t>,
                             lookback::ScanPlan<std::uint32_t, lookback::Pipelined>>);

template <class Config, class T>
std::size_t query_bytes(std::int64_t n) {
  std::size_t bytes = 0;
  const cudaError_t e =
      DeviceScan::InclusiveSum<Config, T>(nullptr, bytes, fake<const T>(kIn), fake<T>(kOut), n);
  EXPECT_EQ(e, cudaSuccess) << last_error_message();
  return bytes;
}

TEST(ScanValidation, DefaultConfigurationIsPipelinedFor4And8ByteValues) {
  constexpr std::int64_t n = std::int64_t{1} << 26;
  ASSERT_NE((query_bytes<lookback::Pipelined, int>(n)), (query_bytes<lookback::Coarsened, int>(n)));
  EXPECT_EQ((query_bytes<void, int>(n)), (query_bytes<lookback::Pipelined, int>(n)));
  EXPECT_EQ((query_bytes<void, std::uint64_t>(n)),
            (query_bytes<lookback::Pipelined, std::uint64_t>(n)));
  ASSERT_NE((query_bytes<lookback::Pipelined, std::uint64_t>(n)),
            (query_bytes<lookback::Coarsened, std::uint64_t>(n)));
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

TEST(ScanValidation, MisalignedForTheType) {
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kTemp), bytes, fake<const int>(kIn + 2),
                                     fake<int>(kOut), 1000),
            cudaErrorMisalignedAddress);
  EXPECT_TRUE(mentions("d_in is not aligned")) << last_error_message();
  EXPECT_EQ(DeviceScan::InclusiveSum(fake<void>(kTemp), bytes, fake<const int>(kIn),
                                     fake<int>(kOut + 1), 1000),
            cudaErrorMisalignedAddress);
}

// A configuration built without the scalar path rejects pointers that are
// not 16-byte aligned (the default configurations take the scalar path).
TEST(ScanValidation, NoScalarPathNeedsVectorAlignment) {
  using VectorOnly = lookback::ScanConfig<lookback::Variant::Coarsened, lookback::CoarsenedPolicy,
                                          false, false, /*scalar_path=*/false>;
  std::size_t bytes = 1 << 20;
  EXPECT_EQ(DeviceScan::InclusiveSum<VectorOnly>(fake<void>(kTemp), bytes, fake<const int>(kIn + 4),
                                                 fake<int>(kOut), 1000),
            cudaErrorMisalignedAddress);
  EXPECT_TRUE(mentions("16-byte aligned")) << last_error_message();
}

TEST(ScanValidation, PlanUsedBeforeInit) {
  lookback::ScanPlan<float> plan;
  EXPECT_EQ(plan.InclusiveSum(fake<const float>(kIn), fake<float>(kOut), 10),
            cudaErrorInvalidValue);
  EXPECT_TRUE(mentions("before a successful init")) << last_error_message();
  EXPECT_EQ(plan.init(-1), cudaErrorInvalidValue);
}

}  // namespace
