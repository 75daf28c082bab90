// Scans on a green context's stream (CUDA's SM partitions: a context that
// holds a share of the GPU's SMs). The library sizes a persistent grid, the
// L2 prefetch window and the paced first wave from the SMs the stream may
// use (stream_sms.hpp), not the whole device's: the grid a traced launch
// runs is the share's, and every variant stays exact there. The green
// context is made through the driver's entry points (the runtime has no
// green-context API in CUDA 13), so the binary does not link libcuda and
// still skips cleanly on a machine without a driver.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "lookback/device/stream_sms.hpp"
#include "resident_blocks.hpp"
#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lt::Kind;

namespace {

// The share asked for; the driver rounds it up to its granularity (8 SMs on
// an H200), so tests read the count back.
constexpr unsigned kShareAsked = 16;

template <class F>
std::string resolve(const char* symbol, int version, F& fn) {
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, reinterpret_cast<void**>(&fn),
                                                         version, cudaEnableDefault, &found);
  if (e == cudaSuccess && found == cudaDriverEntryPointSuccess && fn != nullptr) return {};
  return std::string("the driver gives no ") + symbol;
}

// A green context of about kShareAsked SMs of device 0 and a stream on it,
// made once per process (creating contexts is slow) and never destroyed (the
// process's exit does). `unavailable` says why there is none.
struct Partition {
  CUgreenCtx green = nullptr;
  CUstream stream = nullptr;
  unsigned sms = 0;
  std::string unavailable;
  PFN_cuCtxFromGreenCtx_v12040 context_of = nullptr;
  PFN_cuCtxGetCurrent_v4000 get_current = nullptr;
  PFN_cuCtxSetCurrent_v4000 set_current = nullptr;

  cudaStream_t runtime_stream() const { return reinterpret_cast<cudaStream_t>(stream); }
};

Partition make_partition() {
  Partition p;
  PFN_cuDeviceGet_v2000 device_get = nullptr;
  PFN_cuDeviceGetDevResource_v12040 device_resource = nullptr;
  PFN_cuDevSmResourceSplitByCount_v12040 split = nullptr;
  PFN_cuDevResourceGenerateDesc_v12040 describe = nullptr;
  PFN_cuGreenCtxCreate_v12040 create = nullptr;
  PFN_cuGreenCtxStreamCreate_v12050 stream_create = nullptr;
  for (const std::string& missing : {resolve("cuDeviceGet", 2000, device_get),
                                     resolve("cuDeviceGetDevResource", 12040, device_resource),
                                     resolve("cuDevSmResourceSplitByCount", 12040, split),
                                     resolve("cuDevResourceGenerateDesc", 12040, describe),
                                     resolve("cuGreenCtxCreate", 12040, create),
                                     resolve("cuGreenCtxStreamCreate", 12050, stream_create),
                                     resolve("cuCtxFromGreenCtx", 12040, p.context_of),
                                     resolve("cuCtxGetCurrent", 4000, p.get_current),
                                     resolve("cuCtxSetCurrent", 4000, p.set_current)}) {
    if (!missing.empty()) {
      p.unavailable = missing;
      return p;
    }
  }
  auto failed = [&p](const char* what, CUresult r) {
    p.unavailable = std::string(what) + " failed (CUresult " + std::to_string(r) + ")";
  };
  CUdevice dev = 0;
  CUdevResource all{}, part{}, rest{};
  unsigned groups = 1;
  CUdevResourceDesc desc{};
  if (const CUresult r = device_get(&dev, 0); r != CUDA_SUCCESS) return failed("cuDeviceGet", r), p;
  if (const CUresult r = device_resource(dev, &all, CU_DEV_RESOURCE_TYPE_SM); r != CUDA_SUCCESS)
    return failed("cuDeviceGetDevResource", r), p;
  if (all.sm.smCount < 2 * kShareAsked) {
    p.unavailable = "the device has " + std::to_string(all.sm.smCount) +
                    " SMs, too few to split off " + std::to_string(kShareAsked);
    return p;
  }
  if (const CUresult r = split(&part, &groups, &all, &rest, 0, kShareAsked); r != CUDA_SUCCESS)
    return failed("cuDevSmResourceSplitByCount", r), p;
  if (const CUresult r = describe(&desc, &part, 1); r != CUDA_SUCCESS)
    return failed("cuDevResourceGenerateDesc", r), p;
  if (const CUresult r = create(&p.green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM);
      r != CUDA_SUCCESS)
    return failed("cuGreenCtxCreate", r), p;
  if (const CUresult r = stream_create(&p.stream, p.green, CU_STREAM_NON_BLOCKING, 0);
      r != CUDA_SUCCESS)
    return failed("cuGreenCtxStreamCreate", r), p;
  p.sms = part.sm.smCount;
  return p;
}

const Partition& partition() {
  static const Partition p = make_partition();
  return p;
}

#define REQUIRE_PARTITION()                                                         \
  LOOKBACK_REQUIRE_GPU();                                                           \
  if (!partition().unavailable.empty())                                             \
    GTEST_SKIP() << "no green context on this device: " << partition().unavailable; \
  ASSERT_GT(partition().sms, 0u)

int device_sms() {
  int dev = 0, sms = 0;
  EXPECT_EQ(cudaGetDevice(&dev), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), cudaSuccess);
  return sms;
}

// The green context's SMs `stream` runs on, 0 for an ordinary context.
unsigned green_sms(cudaStream_t stream) {
  unsigned sms = 0;
  EXPECT_EQ(lookback::detail::stream_green_sm_count(stream, sms), cudaSuccess)
      << lookback::last_error_message();
  return sms;
}

TEST(StreamSms, StreamsOfThePrimaryContextAreNotGreen) {
  LOOKBACK_REQUIRE_GPU();
  EXPECT_EQ(green_sms(nullptr), 0u);
  EXPECT_EQ(green_sms(cudaStreamLegacy), 0u);
  EXPECT_EQ(green_sms(cudaStreamPerThread), 0u);
  cudaStream_t s = nullptr;
  LOOKBACK_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  EXPECT_EQ(green_sms(s), 0u);
  LOOKBACK_CUDA_OK(cudaStreamDestroy(s));
}

TEST(StreamSms, AGreenContextsStreamHasItsShare) {
  REQUIRE_PARTITION();
  EXPECT_EQ(green_sms(partition().runtime_stream()), partition().sms);
  EXPECT_LT(static_cast<int>(partition().sms), device_sms());
  EXPECT_GE(partition().sms, kShareAsked);
}

// The special streams stand for the thread's current context: a green one
// made current (cuCtxFromGreenCtx) gives its share. The primary context is
// current again afterwards, whatever the checks say.
TEST(StreamSms, TheSpecialStreamsOfACurrentGreenContextHaveItsShare) {
  REQUIRE_PARTITION();
  const Partition& p = partition();
  CUcontext before = nullptr, green = nullptr;
  ASSERT_EQ(p.get_current(&before), CUDA_SUCCESS);
  ASSERT_EQ(p.context_of(&green, p.green), CUDA_SUCCESS);
  ASSERT_EQ(p.set_current(green), CUDA_SUCCESS);
  unsigned of_null = 0, of_legacy = 0, of_per_thread = 0;
  const cudaError_t e_null = lookback::detail::stream_green_sm_count(nullptr, of_null);
  const cudaError_t e_legacy = lookback::detail::stream_green_sm_count(cudaStreamLegacy, of_legacy);
  const cudaError_t e_per_thread =
      lookback::detail::stream_green_sm_count(cudaStreamPerThread, of_per_thread);
  const std::string message = lookback::last_error_message();
  ASSERT_EQ(p.set_current(before), CUDA_SUCCESS);
  ASSERT_EQ(e_null, cudaSuccess) << message;
  ASSERT_EQ(e_legacy, cudaSuccess) << message;
  ASSERT_EQ(e_per_thread, cudaSuccess) << message;
  EXPECT_EQ(of_null, p.sms);
  EXPECT_EQ(of_legacy, p.sms);
  EXPECT_EQ(of_per_thread, p.sms);
  EXPECT_EQ(green_sms(nullptr), 0u);
}

// n u32 items scanned with Cfg on `stream` (a plan, checked with the
// watchdog on: a hang is an error), against the CPU.
template <class Cfg>
void expect_exact_on(cudaStream_t stream, std::int64_t n, Kind kind,
                     const lookback::Options& options = {}) {
  using T = std::uint32_t;
  const std::vector<T>& in = lt::cached_input<T>(n);
  const std::vector<T>& want = lt::cached_reference<T>(n, kind);
  lt::DeviceBuffer<T> a(in.size()), b(in.size());
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  LOOKBACK_CUDA_OK(cudaMemset(b.get(), 0xA5, n * sizeof(T)));
  lookback::ScanPlan<T, Cfg> plan;
  ASSERT_EQ(plan.init(n, stream), cudaSuccess) << lookback::last_error_message();
  lookback::Options o = options;
  o.check_errors = true;
  o.watchdog_rounds = 4000000u;
  const cudaError_t e = kind == Kind::Inclusive ? plan.InclusiveSum(a.get(), b.get(), n, stream, o)
                                                : plan.ExclusiveSum(a.get(), b.get(), n, stream, o);
  ASSERT_EQ(e, cudaSuccess) << lookback::last_error_message();
  std::vector<T> got(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lt::equal_exactly(want, got, lt::tile_items_for<Cfg, T>(n)))
      << "n = " << n << ", " << lt::name(kind);
}

// Sizes around the share's persistent grid (fewer tiles than its blocks, a
// few rounds of it, partial last tiles) and one past 132 SMs' grid.
template <class Cfg>
void expect_exact_around_the_share(cudaStream_t stream) {
  SCOPED_TRACE(lookback::to_string(Cfg::variant));
  const std::int64_t tile = lookback::detail::tile_items<Cfg, std::uint32_t>();
  const std::int64_t grid = lt::resident_blocks<Cfg, Cfg::protocol>(stream);
  ASSERT_GT(grid, 0);
  for (const std::int64_t n :
       {std::int64_t{1000}, grid * tile - 1, 3 * grid * tile + tile / 2, std::int64_t{9} << 20})
    for (const Kind kind : {Kind::Inclusive, Kind::Exclusive})
      expect_exact_on<Cfg>(stream, n, kind);
}

TEST(GreenContext, PersistentGridIsTheSharesBlocks) {
  REQUIRE_PARTITION();
  using Cfg = lookback::Pipelined;
  const std::uint32_t whole = lt::resident_blocks<Cfg, Cfg::protocol>();
  const std::uint32_t share = lt::resident_blocks<Cfg, Cfg::protocol>(partition().runtime_stream());
  ASSERT_GT(share, 0u);
  ASSERT_EQ(whole % static_cast<std::uint32_t>(device_sms()), 0u);
  EXPECT_EQ(share, whole / static_cast<std::uint32_t>(device_sms()) * partition().sms);
}

// The grid a launch on the share runs, seen from the kernel: a traced
// persistent scan's tiles come from blocks below the share's grid, on at
// most the share's SMs (every block draws a tile when there are several
// rounds of them, unless a sanitizer slows the launch down).
TEST(GreenContext, ATracedLaunchRunsTheSharesGrid) {
  REQUIRE_PARTITION();
  using Cfg = lookback::Instrumented<lookback::Pipelined>;
  using T = std::uint32_t;
  const cudaStream_t stream = partition().runtime_stream();
  const std::uint32_t grid = lt::resident_blocks<Cfg, Cfg::protocol>(stream);
  ASSERT_GT(grid, 0u);
  const std::int64_t n = 6 * std::int64_t{grid} * lookback::detail::tile_items<Cfg, T>() + 7;
  const auto tiles = static_cast<std::size_t>(lookback::detail::tiles_for<Cfg, T>(n));
  lt::DeviceBuffer<lookback::device::TileStamps> stamps(tiles);
  ASSERT_TRUE(stamps);
  LOOKBACK_CUDA_OK(cudaMemset(stamps.get(), 0, tiles * sizeof(lookback::device::TileStamps)));
  lookback::Options o;
  o.trace = {stamps.get(), static_cast<std::uint32_t>(tiles)};
  expect_exact_on<Cfg>(stream, n, Kind::Inclusive, o);
  std::vector<lookback::device::TileStamps> got(tiles);
  LOOKBACK_CUDA_OK(
      cudaMemcpy(got.data(), stamps.get(), tiles * sizeof(got[0]), cudaMemcpyDeviceToHost));
  std::set<std::uint32_t> blocks, sms;
  for (const auto& t : got) {
    blocks.insert(t.block);
    sms.insert(t.sm);
  }
  ASSERT_FALSE(blocks.empty());
  EXPECT_LT(*blocks.rbegin(), grid) << "a block past the share's grid drew a tile";
  EXPECT_LE(sms.size(), partition().sms);
  if (lt::timing_checked("which blocks drew tiles")) EXPECT_EQ(blocks.size(), grid);
}

TEST(GreenContext, EveryVariantIsExactOnTheShare) {
  REQUIRE_PARTITION();
  const cudaStream_t stream = partition().runtime_stream();
  expect_exact_around_the_share<lookback::WarpLookback>(stream);
  expect_exact_around_the_share<lookback::Coarsened>(stream);
  expect_exact_around_the_share<lookback::Pipelined>(stream);
  expect_exact_around_the_share<lookback::Fallback>(stream);
  for (const std::int64_t n : {std::int64_t{1} << 16, (std::int64_t{1} << 22) + 5})
    for (const Kind kind : {Kind::Inclusive, Kind::Exclusive})
      expect_exact_on<lookback::DefaultConfig<std::uint32_t>>(stream, n, kind);
}

// The deterministic mode's result does not depend on the grid: bitwise the
// same on the share as on the whole device.
TEST(GreenContext, DeterministicFloatsAreBitwiseTheWholeDevices) {
  REQUIRE_PARTITION();
  using T = float;
  using Cfg = lookback::Deterministic<lookback::DefaultConfig<T>>;
  const std::int64_t n = (std::int64_t{3} << 20) + 11;
  const std::vector<T> in = lt::make_real_input<T>(n, 7);
  lt::DeviceBuffer<T> a(in.size()), b(in.size());
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  std::vector<T> whole(in.size()), share(in.size());
  for (const cudaStream_t stream : {cudaStream_t{}, partition().runtime_stream()}) {
    lookback::ScanPlan<T, Cfg> plan;
    ASSERT_EQ(plan.init(n, stream), cudaSuccess) << lookback::last_error_message();
    ASSERT_EQ(plan.InclusiveSum(a.get(), b.get(), n, stream), cudaSuccess)
        << lookback::last_error_message();
    std::vector<T>& got = stream == cudaStream_t{} ? whole : share;
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  }
  EXPECT_TRUE(lt::equal_exactly(whole, share, lt::tile_items_for<Cfg, T>(n)));
}

}  // namespace
