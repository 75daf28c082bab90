// Scans on a green context's stream (CUDA's SM partitions: a context that
// holds a share of the GPU's SMs, e.g. an inference server's): every variant
// exact there, on the share's SMs only, the deterministic mode bitwise the
// whole device's. The library sizes its persistent grids and L2 prefetch
// window from the whole device's SMs on such a stream too (sizing them from
// the share was measured to buy nothing:
// bench/results/h200/green-context/stream-sms/), so a launch there holds
// more blocks than the share runs at once; sizes around both grids are
// scanned. The green context is made through the
// driver's entry points (the runtime has no green-context API in CUDA 13),
// so the binary does not link libcuda and still skips cleanly on a machine
// without a driver.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

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
// process's exit does). `unavailable` says why there is none; `broken`:
// the driver has green contexts but making one failed (a test failure, not
// a skip: a GPU run that skipped these would pass having tested nothing).
struct Partition {
  CUgreenCtx green = nullptr;
  CUstream stream = nullptr;
  unsigned sms = 0;
  std::string unavailable;
  bool broken = false;

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
                                     resolve("cuGreenCtxStreamCreate", 12050, stream_create)}) {
    if (!missing.empty()) {
      p.unavailable = missing;
      return p;
    }
  }
  auto failed = [&p](const char* what, CUresult r) {
    p.unavailable = std::string(what) + " failed (CUresult " + std::to_string(r) + ")";
    // Refusals a setup may give (MPS, MIG, a virtual GPU) skip; others fail.
    p.broken = r != CUDA_ERROR_NOT_SUPPORTED && r != CUDA_ERROR_NOT_PERMITTED &&
               r != CUDA_ERROR_INVALID_RESOURCE_TYPE &&
               r != CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION;
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

#define REQUIRE_PARTITION()                                                                \
  LOOKBACK_REQUIRE_GPU();                                                                  \
  if (partition().broken) GTEST_FAIL() << "no green context: " << partition().unavailable; \
  if (!partition().unavailable.empty())                                                    \
    GTEST_SKIP() << "no green context on this device: " << partition().unavailable;        \
  ASSERT_GT(partition().sms, 0u)

// n u32 items scanned with Cfg on `stream` (a plan), against the CPU. The
// test build's default Options have the watchdog on and read the device's
// error flag after the scan (LOOKBACK_TEST_DEFINITIONS, kernels/CMakeLists.txt):
// a hang is an error, not a stuck test.
template <class Cfg>
void expect_exact_on(cudaStream_t stream, std::int64_t n, Kind kind,
                     const lookback::Options& options = {}) {
  using T = std::uint32_t;
  const std::vector<T>& in = lt::cached_input<T>(n);
  const std::vector<T>& want = lt::cached_reference<T>(n, kind);
  lt::DeviceBuffer<T> a(in.size()), b(in.size());
  ASSERT_TRUE(a && b);
  // The copies go on `stream`: it neither waits for the primary context's
  // legacy stream nor is waited for by it.
  LOOKBACK_CUDA_OK(
      cudaMemcpyAsync(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice, stream));
  LOOKBACK_CUDA_OK(cudaMemsetAsync(b.get(), 0xA5, n * sizeof(T), stream));
  lookback::ScanPlan<T, Cfg> plan;
  ASSERT_EQ(plan.init(n, stream), cudaSuccess) << lookback::last_error_message();
  const cudaError_t e = kind == Kind::Inclusive
                            ? plan.InclusiveSum(a.get(), b.get(), n, stream, options)
                            : plan.ExclusiveSum(a.get(), b.get(), n, stream, options);
  ASSERT_EQ(e, cudaSuccess) << lookback::last_error_message();
  std::vector<T> got(in.size());
  LOOKBACK_CUDA_OK(
      cudaMemcpyAsync(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  LOOKBACK_CUDA_OK(cudaStreamSynchronize(stream));
  EXPECT_TRUE(lt::equal_exactly(want, got, lt::tile_items_for<Cfg, T>(n)))
      << "n = " << n << ", " << lt::name(kind);
}

// Sizes around the blocks the share holds at once and around the grid a
// persistent launch runs (the whole device's), partial last tiles, and a
// few rounds of the share's blocks.
template <class Cfg>
void expect_exact_around_the_share(cudaStream_t stream) {
  SCOPED_TRACE(lookback::to_string(Cfg::variant));
  const std::int64_t tile = lookback::detail::tile_items<Cfg, std::uint32_t>();
  const std::int64_t whole = lt::resident_blocks<Cfg, Cfg::protocol>();
  ASSERT_GT(whole, 0);
  ASSERT_EQ(whole % lt::device_sms(), 0);
  const std::int64_t share = whole / lt::device_sms() * partition().sms;
  for (const std::int64_t n : {std::int64_t{1000}, share * tile - 1, whole * tile + tile / 2,
                               3 * whole * tile + 5, std::int64_t{9} << 20})
    for (const Kind kind : {Kind::Inclusive, Kind::Exclusive})
      expect_exact_on<Cfg>(stream, n, kind);
}

// The scans ran on the share: a traced persistent launch's tiles come from
// at most the share's SMs (its grid is the whole device's, so the blocks the
// share cannot hold wait and draw later tickets).
TEST(GreenContext, ATracedLaunchRunsOnTheSharesSms) {
  REQUIRE_PARTITION();
  ASSERT_LT(static_cast<int>(partition().sms), lt::device_sms());
  using Cfg = lookback::Instrumented<lookback::Pipelined>;
  using T = std::uint32_t;
  const cudaStream_t stream = partition().runtime_stream();
  const std::int64_t grid = lt::resident_blocks<Cfg, Cfg::protocol>();
  ASSERT_GT(grid, 0);
  const std::int64_t n = 3 * grid * lookback::detail::tile_items<Cfg, T>() + 7;
  const auto tiles = static_cast<std::size_t>(lookback::detail::tiles_for<Cfg, T>(n));
  lt::DeviceBuffer<lookback::device::TileStamps> stamps(tiles);
  ASSERT_TRUE(stamps);
  LOOKBACK_CUDA_OK(
      cudaMemsetAsync(stamps.get(), 0, tiles * sizeof(lookback::device::TileStamps), stream));
  lookback::Options o;
  o.trace = {stamps.get(), static_cast<std::uint32_t>(tiles)};
  expect_exact_on<Cfg>(stream, n, Kind::Inclusive, o);
  if (HasFatalFailure()) return;
  std::vector<lookback::device::TileStamps> stamped(tiles);
  LOOKBACK_CUDA_OK(cudaMemcpyAsync(stamped.data(), stamps.get(), tiles * sizeof(stamped[0]),
                                   cudaMemcpyDeviceToHost, stream));
  LOOKBACK_CUDA_OK(cudaStreamSynchronize(stream));
  std::set<std::uint32_t> sms;
  for (const auto& t : stamped) {
    EXPECT_NE(t.ns[0], 0u) << "a tile without stamps";
    sms.insert(t.sm);
  }
  EXPECT_LE(sms.size(), partition().sms) << "tiles ran on more SMs than the share holds";
  EXPECT_GT(sms.size(), 1u);
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
    // A fresh poison under each run: the share's must write every output.
    LOOKBACK_CUDA_OK(cudaMemsetAsync(b.get(), 0xA5, n * sizeof(T), stream));
    lookback::ScanPlan<T, Cfg> plan;
    ASSERT_EQ(plan.init(n, stream), cudaSuccess) << lookback::last_error_message();
    ASSERT_EQ(plan.InclusiveSum(a.get(), b.get(), n, stream), cudaSuccess)
        << lookback::last_error_message();
    std::vector<T>& got = stream == cudaStream_t{} ? whole : share;
    LOOKBACK_CUDA_OK(
        cudaMemcpyAsync(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost, stream));
    LOOKBACK_CUDA_OK(cudaStreamSynchronize(stream));
  }
  // Right as well as alike (scan_determinism_test's bound for f32: the CPU's
  // left-to-right float sum is itself off by that much at millions of items).
  EXPECT_TRUE(lt::close_relative(in, lt::reference_scan(in, Kind::Inclusive), whole,
                                 Kind::Inclusive, 2e-3));
  EXPECT_TRUE(lt::equal_exactly(whole, share, lt::tile_items_for<Cfg, T>(n)));
}

}  // namespace
