// Persistent temp storage (ScanPlan, Reset::Epoch): many launches of
// different sizes, kinds and placements on one plan must each be exact
// (stale descriptors of earlier launches read as INVALID), also across
// epoch wraps (a protocol with a 2-bit epoch wraps every 4 launches). Each
// layout: 64-bit packed (u32), 128-bit packed (f64, Affine), split (the
// 12-byte Wide12, and u32 / f64 with the split layout forced), whose tags,
// aggregates and inclusive values lie in separate arrays placed by the
// plan's capacity, the same for launches of every size. A plan's (and the
// stateless API's) scan captured into a CUDA graph and replayed; a stream of
// another GPU refused, also while it is being captured.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lt::Kind;
using lt::TwoBitEpoch;

namespace {

template <class Cfg>
struct ForcedSplit : Cfg {
  static constexpr lookback::protocol::Protocol split(lookback::protocol::Protocol p) {
    p.layout = lookback::protocol::Layout::Split;
    return p;
  }
  static constexpr lookback::protocol::Protocol protocol = split(Cfg::protocol);
  static constexpr lookback::protocol::Protocol protocol_in_place = split(Cfg::protocol_in_place);
};

template <class Cfg, class T>
void many_launches() {
  // Tile edges of the configuration that runs the largest size (a
  // SizeAdaptive's large half), and for a SizeAdaptive those of its small
  // half and the switch itself.
  const std::int64_t tile = lt::tile_items_for<Cfg, T>(std::int64_t{1} << 40);
  std::vector<std::int64_t> sizes = {
      (1 << 21) + 9, 5,       3 * tile + 1, (1 << 21) - 7, 1,       tile, (1 << 21) + 9,
      2 * tile - 1,  1 << 20, 33,           (1 << 21),     tile + 1};
  std::int64_t cap = (1 << 21) + 16;
  if constexpr (lookback::is_size_adaptive_v<Cfg>) {
    const std::int64_t small_tile = lt::tile_items_for<Cfg, T>(1);
    const std::int64_t share = Cfg::template max_small_items<T>();
    // The large half at a second tile count too (share + 3 tiles + 5).
    sizes.insert(sizes.begin() + 3,
                 {small_tile, share + 1, 2 * small_tile - 1, share, share + 3 * tile + 5});
    cap = std::max(cap, share + 3 * tile + 16);
    // A third tier on this GPU (the default's middle tier; 8-byte values on
    // wide GPUs: pipelined below pipelined-wide): its own switch, and the
    // largest tier past it.
    std::vector<std::int64_t> bounds;
    lt::tier_bounds<Cfg, T>(bounds);
    if (bounds.size() >= 3) {
      const std::int64_t middle = bounds[1];
      // The middle tier's own tile edges, and the largest tier's above it.
      const std::int64_t middle_tile = lt::tile_items_for<Cfg, T>(share + 1);
      const std::int64_t middle_edge = (share / middle_tile + 1) * middle_tile;
      const std::int64_t large_edge = (middle / tile + 1) * tile;
      sizes.insert(sizes.begin() + 6,
                   {middle + 1, middle_edge, middle, large_edge + 1, middle_edge + 1,
                    middle + tile + 3, large_edge, middle_edge - 1});
      cap = std::max(cap, middle + tile + 16);
    }
  }
  lookback::ScanPlan<T, Cfg> plan;
  ASSERT_EQ(plan.init(cap), cudaSuccess) << lookback::last_error_message();
  lt::DeviceBuffer<T> a(cap + 4), b(cap + 4);
  ASSERT_TRUE(a && b);
  int launch = 0;
  for (int round = 0; round < 2; ++round) {
    for (std::int64_t n : sizes) {
      const Kind kind = (launch % 3 == 1) ? Kind::Exclusive : Kind::Inclusive;
      const bool in_place = launch % 2 == 1;
      const std::vector<T> in = lt::make_input<T>(n, 1000 + launch);
      const std::vector<T> want = lt::reference_scan(in, kind);
      // Misaligned by one item (the scalar path) on launches 2 and 3 of every
      // 4: out of place and in place.
      T* d_in = a.get() + ((launch / 2) % 2);
      T* d_out = in_place ? d_in : b.get();
      LOOKBACK_CUDA_OK(cudaMemcpy(d_in, in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
      ASSERT_EQ(lt::plan_scan(plan, d_in, d_out, n, kind), cudaSuccess)
          << lookback::last_error_message();
      std::vector<T> got(in.size());
      LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
      ASSERT_TRUE(lt::equal_exactly(want, got, lt::tile_items_for<Cfg, T>(n)))
          << "launch " << launch << ", n = " << n << ", " << lt::name(kind)
          << (in_place ? ", in place" : "");
      ++launch;
    }
  }
}

// Skips the test (GTEST_SKIP, with the count) on a machine with fewer than two GPUs.
#define LOOKBACK_REQUIRE_TWO_GPUS()                                         \
  do {                                                                      \
    LOOKBACK_REQUIRE_GPU();                                                 \
    int lookback_devices = 0;                                               \
    LOOKBACK_CUDA_OK(cudaGetDeviceCount(&lookback_devices));                \
    if (lookback_devices < 2)                                               \
      GTEST_SKIP() << "needs two CUDA devices, found " << lookback_devices; \
  } while (0)

// One size per tier of the u32 default (switches at 2 and 16 MiB, the same
// on every GPU): small tiles, 224 x 44, pipelined.
std::vector<std::int64_t> one_size_per_u32_tier() {
  return {1000, (1 << 20) + 5, (1 << 23) + 5};
}

// A plan's storage lives on the device of its init(): a scan on another
// device is refused (cudaErrorInvalidDevice, nothing launched) by every tier
// of the default plan, and the plan still scans on its own device. Needs two
// GPUs (the refusal itself is checked without any: scan_validation_test).
TEST(ScanPlan, RefusesADeviceOtherThanItsInit) {
  LOOKBACK_REQUIRE_TWO_GPUS();
  using T = std::uint32_t;
  const std::vector<std::int64_t> sizes = one_size_per_u32_tier();
  const std::int64_t capacity = sizes.back();
  const std::vector<T> in = lt::make_input<T>(capacity, 31);
  LOOKBACK_CUDA_OK(cudaSetDevice(0));
  lookback::ScanPlan<T> plan;
  ASSERT_EQ(plan.init(capacity), cudaSuccess) << lookback::last_error_message();
  EXPECT_EQ(plan.small_plan().device(), 0);
  auto scan_on = [&](int device, std::int64_t n, std::vector<T>& got) {
    LOOKBACK_CUDA_OK(cudaSetDevice(device));
    lt::DeviceBuffer<T> a(n), b(n);
    ASSERT_TRUE(a && b);
    LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    LOOKBACK_CUDA_OK(cudaMemset(b.get(), 0, n * sizeof(T)));
    const cudaError_t e = plan.InclusiveSum(a.get(), b.get(), n);
    got.assign(n, 1);
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
    if (device == 0) {
      ASSERT_EQ(e, cudaSuccess) << lookback::last_error_message();
    } else {
      EXPECT_EQ(e, cudaErrorInvalidDevice) << n;
      EXPECT_NE(std::string(lookback::last_error_message())
                    .find("initialised on device 0 used "
                          "on device 1"),
                std::string::npos)
          << lookback::last_error_message();
    }
  };
  for (const std::int64_t n : sizes) {
    std::vector<T> got;
    scan_on(1, n, got);
    EXPECT_TRUE(std::all_of(got.begin(), got.end(), [](T v) { return v == 0; }))
        << "a refused scan launched, n = " << n;
    scan_on(0, n, got);
    const std::vector<T> head(in.begin(), in.begin() + n);
    EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(head, Kind::Inclusive), got,
                                  lt::tile_items_for<lookback::DefaultConfig<T>, T>(n)))
        << n;
  }
  LOOKBACK_CUDA_OK(cudaSetDevice(0));
}

// What a capture takes: no synchronization (check_errors), so no watchdog
// either (it needs check_errors).
lookback::Options unchecked_options() {
  lookback::Options o;
  o.watchdog_rounds = 0;
  o.check_errors = false;
  return o;
}

// A call that synchronizes its stream, whatever the build's default Options
// (check_errors follows LOOKBACK_DEFAULT_WATCHDOG_ROUNDS).
lookback::Options checked_options() {
  lookback::Options o;
  o.check_errors = true;
  return o;
}

// CUDA runs a kernel on its stream's device, so a scan given a stream of
// another GPU would run there on this one's pointers (an illegal address,
// which ends the context). A plan on its own (the current) device and the
// stateless API refuse such a stream (cudaErrorInvalidDevice, every tier of
// the default), no CUDA call fails and nothing is written; the plan and the
// temp storage then scan on a stream of their device. A plan's init() and
// statistics calls refuse it too. Needs two GPUs.
TEST(ScanPlan, RefusesAStreamOfAnotherDevice) {
  LOOKBACK_REQUIRE_TWO_GPUS();
  using T = std::uint32_t;
  const std::vector<std::int64_t> sizes = one_size_per_u32_tier();
  const std::int64_t capacity = sizes.back();
  const std::vector<T> in = lt::make_input<T>(capacity, 37);
  LOOKBACK_CUDA_OK(cudaSetDevice(1));
  cudaStream_t other = nullptr;
  LOOKBACK_CUDA_OK(cudaStreamCreate(&other));
  cudaStream_t capturing = nullptr;  // of device 1 too, captured below
  LOOKBACK_CUDA_OK(cudaStreamCreateWithFlags(&capturing, cudaStreamNonBlocking));
  LOOKBACK_CUDA_OK(cudaSetDevice(0));
  cudaStream_t own = nullptr;
  LOOKBACK_CUDA_OK(cudaStreamCreate(&own));
  lookback::ScanPlan<T> plan;
  ASSERT_EQ(plan.init(capacity), cudaSuccess) << lookback::last_error_message();
  std::size_t temp_bytes = 0;
  ASSERT_EQ(lookback::DeviceScan::InclusiveSum(nullptr, temp_bytes, static_cast<const T*>(nullptr),
                                               static_cast<T*>(nullptr), capacity),
            cudaSuccess);
  lt::DeviceBuffer<unsigned char> temp(temp_bytes);
  lt::DeviceBuffer<T> a(capacity), b(capacity);
  ASSERT_TRUE(temp && a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), capacity * sizeof(T), cudaMemcpyHostToDevice));
  const std::string names = "`stream` belongs to device 1, the current device is 0";
  auto refused = [&](cudaError_t e) {
    EXPECT_EQ(e, cudaErrorInvalidDevice);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_NE(std::string(lookback::last_error_message()).find(names), std::string::npos)
        << lookback::last_error_message();
  };
  // The same on a stream being captured (a graph would run the kernel on
  // device 1 at every replay): refused, and the capture goes on and ends
  // with nothing in it.
  auto refused_in_a_capture = [&](auto call) {
    LOOKBACK_CUDA_OK(cudaStreamBeginCapture(capturing, cudaStreamCaptureModeThreadLocal));
    refused(call(capturing));
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    EXPECT_EQ(cudaStreamIsCapturing(capturing, &status), cudaSuccess);
    EXPECT_EQ(status, cudaStreamCaptureStatusActive) << "the refusal ended the capture";
    cudaGraph_t graph = nullptr;
    LOOKBACK_CUDA_OK(cudaStreamEndCapture(capturing, &graph));
    std::size_t nodes = 1;
    LOOKBACK_CUDA_OK(cudaGraphGetNodes(graph, nullptr, &nodes));
    EXPECT_EQ(nodes, 0u) << "a refused call enqueued work";
    LOOKBACK_CUDA_OK(cudaGraphDestroy(graph));
  };
  const lookback::Options unchecked = unchecked_options();
  // init() would zero the storage on the other GPU's stream: refused, and the
  // plan keeps what it held; the statistics calls the same.
  refused(plan.init(capacity / 2, other));
  refused_in_a_capture([&](cudaStream_t s) { return plan.init(capacity / 2, s); });
  EXPECT_EQ(plan.capacity(), capacity);
  lookback::ScanPlan<T, lookback::Instrumented<lookback::Pipelined>> counted;
  ASSERT_EQ(counted.init(1000), cudaSuccess) << lookback::last_error_message();
  lookback::LookbackStats stats{};
  refused(counted.read_stats(stats, other));
  refused(counted.reset_stats(other));
  refused_in_a_capture([&](cudaStream_t s) { return counted.reset_stats(s); });
  EXPECT_EQ(counted.read_stats(stats, own), cudaSuccess) << lookback::last_error_message();
  for (const std::int64_t n : sizes) {
    for (const bool stateless : {false, true}) {
      SCOPED_TRACE(std::string(stateless ? "DeviceScan" : "ScanPlan") +
                   ", n = " + std::to_string(n));
      LOOKBACK_CUDA_OK(cudaMemset(b.get(), 0, n * sizeof(T)));
      auto scan = [&](cudaStream_t s, const lookback::Options& o = {}) {
        std::size_t bytes = temp_bytes;
        return stateless ? lookback::DeviceScan::InclusiveSum(temp.get(), bytes, a.get(), b.get(),
                                                              n, s, o)
                         : plan.InclusiveSum(a.get(), b.get(), n, s, o);
      };
      refused(scan(other));
      refused_in_a_capture([&](cudaStream_t s) { return scan(s, unchecked); });
      refused_in_a_capture([&](cudaStream_t s) { return scan(s, checked_options()); });
      LOOKBACK_CUDA_OK(cudaSetDevice(1));
      LOOKBACK_CUDA_OK(cudaStreamSynchronize(other));
      LOOKBACK_CUDA_OK(cudaSetDevice(0));
      LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
      std::vector<T> got(n, 1);
      LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
      EXPECT_TRUE(std::all_of(got.begin(), got.end(), [](T v) { return v == 0; }))
          << "a refused scan wrote its output";
      ASSERT_EQ(scan(own), cudaSuccess) << lookback::last_error_message();
      LOOKBACK_CUDA_OK(cudaStreamSynchronize(own));
      LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
      const std::vector<T> head(in.begin(), in.begin() + n);
      EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(head, Kind::Inclusive), got,
                                    lt::tile_items_for<lookback::DefaultConfig<T>, T>(n)));
    }
  }
  LOOKBACK_CUDA_OK(cudaStreamDestroy(own));
  LOOKBACK_CUDA_OK(cudaSetDevice(1));
  LOOKBACK_CUDA_OK(cudaStreamDestroy(other));
  LOOKBACK_CUDA_OK(cudaStreamDestroy(capturing));
  LOOKBACK_CUDA_OK(cudaSetDevice(0));
}

// Captured scans run unchecked (a checked call synchronizes, which a capture
// cannot), so without a watchdog: a replay that has not finished within a
// minute ends the process, and with it the kernel, instead of spinning on.
void wait_or_exit(cudaStream_t stream) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  cudaError_t e = cudaErrorNotReady;
  while ((e = cudaStreamQuery(stream)) == cudaErrorNotReady) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "a replayed scan ran for more than 60 s: stopping the process\n");
      std::_Exit(1);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  ASSERT_EQ(e, cudaSuccess) << cudaGetErrorName(e);
}

// `scan(stream, in, out, options)` captured into a graph once and the graph
// launched `replays` times, with new input each time: each replay must be
// the exact scan of what the input holds then. A plan's launches carry no
// per-launch state from the host (the epoch and ticket live in its storage:
// launch_state.cuh), so one captured launch is a new scan every time. A
// checked call and a plan's init() on the capturing stream are refused
// first, and the capture goes on.
template <class Cfg, class T, class Scan>
void replays_a_captured_scan(std::int64_t n, int replays, Scan scan) {
  lt::DeviceBuffer<T> a(n), b(n);
  ASSERT_TRUE(a && b);
  cudaStream_t stream = nullptr;
  LOOKBACK_CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const lookback::Options unchecked = unchecked_options();
  const lookback::Options checked = checked_options();
  LOOKBACK_CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  EXPECT_EQ(scan(stream, a.get(), b.get(), checked), cudaErrorInvalidValue);
  EXPECT_NE(std::string(lookback::last_error_message()).find("being captured"), std::string::npos)
      << lookback::last_error_message();
  lookback::ScanPlan<T, Cfg> fresh;  // init() synchronizes too
  EXPECT_EQ(fresh.init(n, stream), cudaErrorInvalidValue);
  EXPECT_FALSE(fresh.initialised());
  const cudaError_t captured = scan(stream, a.get(), b.get(), unchecked);
  cudaGraph_t graph = nullptr;
  LOOKBACK_CUDA_OK(cudaStreamEndCapture(stream, &graph));
  ASSERT_EQ(captured, cudaSuccess) << lookback::last_error_message();
  cudaGraphExec_t exec = nullptr;
  LOOKBACK_CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  std::vector<T> got(n);
  for (int r = 0; r < replays; ++r) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", replay " + std::to_string(r));
    const std::vector<T> in = lt::make_input<T>(n, 1000 + r);
    // On the replay's stream: a non-blocking stream is not ordered after the
    // legacy stream's cudaMemset or a pageable cudaMemcpy's DMA.
    LOOKBACK_CUDA_OK(
        cudaMemcpyAsync(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice, stream));
    LOOKBACK_CUDA_OK(cudaMemsetAsync(b.get(), 0, n * sizeof(T), stream));
    LOOKBACK_CUDA_OK(cudaGraphLaunch(exec, stream));
    ASSERT_NO_FATAL_FAILURE(wait_or_exit(stream));
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
    ASSERT_TRUE(lt::equal_exactly(lt::reference_scan(in, Kind::Inclusive), got,
                                  lt::tile_items_for<Cfg, T>(n)));
  }
  LOOKBACK_CUDA_OK(cudaGraphExecDestroy(exec));
  LOOKBACK_CUDA_OK(cudaGraphDestroy(graph));
  LOOKBACK_CUDA_OK(cudaStreamDestroy(stream));
}

// A plan's scan in a graph: nine replays wrap a 2-bit epoch twice, on a
// persistent (Pipelined) and a one-tile (WarpLookback) kernel; the default
// plan at one size of each of its tiers.
template <class Cfg>
void plan_in_a_graph(const std::vector<std::int64_t>& sizes, int replays) {
  using T = std::uint32_t;
  lookback::ScanPlan<T, Cfg> plan;
  ASSERT_EQ(plan.init(*std::max_element(sizes.begin(), sizes.end())), cudaSuccess)
      << lookback::last_error_message();
  for (const std::int64_t n : sizes) {
    replays_a_captured_scan<Cfg, T>(
        n, replays, [&](cudaStream_t s, const T* in, T* out, const lookback::Options& o) {
          return plan.InclusiveSum(in, out, n, s, o);
        });
  }
}

TEST(ScanPlan, ReplaysInAGraphAcrossEpochWraps) {
  LOOKBACK_REQUIRE_GPU();
  plan_in_a_graph<TwoBitEpoch<lookback::Pipelined>>({(1 << 20) + 5, 3000}, 9);
  plan_in_a_graph<TwoBitEpoch<lookback::WarpLookback>>({(1 << 20) + 5, 3000}, 9);
}

TEST(ScanPlan, DefaultPlanReplaysInAGraphOnEveryTier) {
  LOOKBACK_REQUIRE_GPU();
  plan_in_a_graph<lookback::DefaultConfig<std::uint32_t>>(one_size_per_u32_tier(), 3);
}

// The stateless API in a graph: the storage is cleared by a captured memset
// before each replay's launch (Reset::HostMemset).
TEST(DeviceScan, ReplaysInAGraph) {
  LOOKBACK_REQUIRE_GPU();
  using T = std::uint32_t;
  for (const std::int64_t n : one_size_per_u32_tier()) {
    std::size_t bytes = 0;
    ASSERT_EQ(lookback::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const T*>(nullptr),
                                                 static_cast<T*>(nullptr), n),
              cudaSuccess);
    lt::DeviceBuffer<unsigned char> temp(bytes);
    ASSERT_TRUE(temp);
    replays_a_captured_scan<lookback::DefaultConfig<T>, T>(
        n, 3, [&](cudaStream_t s, const T* in, T* out, const lookback::Options& o) {
          std::size_t b = bytes;
          return lookback::DeviceScan::InclusiveSum(temp.get(), b, in, out, n, s, o);
        });
  }
}

// A capture that an earlier call invalidated (here a synchronization, which
// a capture cannot hold) takes no scan: refused with CUDA's own code and a
// message that puts the blame on the earlier call, checked or not.
TEST(ScanPlan, RefusesAnInvalidatedCapture) {
  LOOKBACK_REQUIRE_GPU();
  using T = std::uint32_t;
  const std::int64_t n = 5000;
  lookback::ScanPlan<T> plan;
  ASSERT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  lt::DeviceBuffer<T> a(n), b(n);
  ASSERT_TRUE(a && b);
  cudaStream_t stream = nullptr;
  LOOKBACK_CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  LOOKBACK_CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  EXPECT_NE(cudaStreamSynchronize(stream), cudaSuccess);
  (void)cudaGetLastError();  // the synchronization's own error, not sticky
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  LOOKBACK_CUDA_OK(cudaStreamIsCapturing(stream, &status));
  EXPECT_EQ(status, cudaStreamCaptureStatusInvalidated);
  const lookback::Options unchecked = unchecked_options();
  for (const lookback::Options& o : {unchecked, checked_options()}) {
    EXPECT_EQ(plan.InclusiveSum(a.get(), b.get(), n, stream, o), cudaErrorStreamCaptureInvalidated);
    EXPECT_NE(std::string(lookback::last_error_message()).find("invalidated by an earlier call"),
              std::string::npos)
        << lookback::last_error_message();
  }
  cudaGraph_t graph = nullptr;
  // CUDA 13 returns cudaErrorStreamCaptureInvalidated (measured; its docs
  // name no code for this) and no graph (documented).
  EXPECT_NE(cudaStreamEndCapture(stream, &graph), cudaSuccess);
  EXPECT_EQ(graph, nullptr);
  (void)cudaGetLastError();
  // The stream and the plan work on after the capture ended.
  LOOKBACK_CUDA_OK(cudaMemsetAsync(a.get(), 1, n * sizeof(T), stream));  // 0x01010101 each
  EXPECT_EQ(plan.InclusiveSum(a.get(), b.get(), n, stream), cudaSuccess)
      << lookback::last_error_message();
  LOOKBACK_CUDA_OK(cudaStreamSynchronize(stream));
  T last = 0;
  LOOKBACK_CUDA_OK(cudaMemcpy(&last, b.get() + (n - 1), sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_EQ(last, static_cast<T>(n) * T{0x01010101u});
  LOOKBACK_CUDA_OK(cudaStreamDestroy(stream));
}

}  // namespace

#define LOOKBACK_PLAN_TESTS(Name, Cfg)                      \
  TEST(ScanPlan, Name##U32) {                               \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, std::uint32_t>();                    \
  }                                                         \
  TEST(ScanPlan, Name##F64) {                               \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, double>();                           \
  }                                                         \
  TEST(ScanPlan, Name##Affine) {                            \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, lookback::Affine>();                 \
  }                                                         \
  TEST(ScanPlan, Name##U32EpochWraps) {                     \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<TwoBitEpoch<Cfg>, std::uint32_t>();       \
  }                                                         \
  TEST(ScanPlan, Name##AffineEpochWraps) {                  \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<TwoBitEpoch<Cfg>, lookback::Affine>();    \
  }                                                         \
  TEST(ScanPlan, Name##Wide12Split) {                       \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, lt::Wide12>();                       \
  }                                                         \
  TEST(ScanPlan, Name##Wide12SplitEpochWraps) {             \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<TwoBitEpoch<Cfg>, lt::Wide12>();          \
  }                                                         \
  TEST(ScanPlan, Name##U32ForcedSplit) {                    \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<ForcedSplit<Cfg>, std::uint32_t>();       \
  }                                                         \
  TEST(ScanPlan, Name##F64ForcedSplitEpochWraps) {          \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<TwoBitEpoch<ForcedSplit<Cfg>>, double>(); \
  }                                                         \
  TEST(ScanPlan, Name##U16) {                               \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, std::uint16_t>();                    \
  }                                                         \
  TEST(ScanPlan, Name##U8) {                                \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, std::uint8_t>();                     \
  }

// U16 and U8: 1- and 2-byte values, aligned and misaligned (the scalar
// path), in place and out of place, inclusive and exclusive. Until 2026-11-27 the scalar path of
// coarsened, pipelined and fallback did not compile for them (over the agent's 64 chunks a thread;
// policy.hpp).
LOOKBACK_PLAN_TESTS(WarpLookback, lookback::WarpLookback)
LOOKBACK_PLAN_TESTS(WarpLookbackSmall, lookback::WarpLookbackSmall)
LOOKBACK_PLAN_TESTS(Coarsened, lookback::Coarsened)
LOOKBACK_PLAN_TESTS(Pipelined, lookback::Pipelined)
LOOKBACK_PLAN_TESTS(Fallback, lookback::Fallback)

// The default configuration of 1-, 2-, 4- and 8-byte values (a
// SizeAdaptive): the sizes above run on every tier this GPU runs
// (warp-lookback with small tiles up to 2^19 u32, 2^20 f64, 2^19 u16 and 2^17
// u8 items; the middle tier up to 2^22 u32 and 1.25 x 2^20 u16 (224 x 44)
// and 2^22 u8 items (coarsened; 14 x 2^20 on wide GPUs); pipelined above,
// for f64 on wide GPUs pipelined-wide above 3.25 x 2^20 items), one plan, in
// place and not, misaligned and not.
TEST(ScanPlan, DefaultU32) {
  LOOKBACK_REQUIRE_GPU();
  many_launches<lookback::DefaultConfig<std::uint32_t>, std::uint32_t>();
}
TEST(ScanPlan, DefaultF64) {
  LOOKBACK_REQUIRE_GPU();
  many_launches<lookback::DefaultConfig<double>, double>();
}
TEST(ScanPlan, DefaultU16) {
  LOOKBACK_REQUIRE_GPU();
  many_launches<lookback::DefaultConfig<std::uint16_t>, std::uint16_t>();
}
TEST(ScanPlan, DefaultU8) {
  LOOKBACK_REQUIRE_GPU();
  many_launches<lookback::DefaultConfig<std::uint8_t>, std::uint8_t>();
}

// Which tier ran: an instrumented plan counts look-back windows in the
// storage of the tier that ran (small tiles, the middle tier, pipelined; on
// wide GPUs the u8 middle tier reaches further). The stateless query cannot
// always tell the tiers apart (u8 below 2^17 items, and which tier wide GPUs
// run: scan_validation_test); a plan's statistics can. (8-byte values:
// scan_device_adaptive_test, by storage.)

// The look-back windows each tier of a plan counted, in tier_bounds' order
// (a DeviceAdaptive plan: the half it picked).
template <class T, class C>
void tier_windows(const lookback::ScanPlan<T, C>& plan, std::vector<std::uint64_t>& windows) {
  if constexpr (lookback::is_size_adaptive_v<C>) {
    tier_windows(plan.small_plan(), windows);
    tier_windows(plan.large_plan(), windows);
  } else if constexpr (lookback::is_device_adaptive_v<C>) {
    if (plan.picked_wide())
      tier_windows(plan.wide_plan(), windows);
    else
      tier_windows(plan.base_plan(), windows);
  } else {
    lookback::LookbackStats st{};
    EXPECT_EQ(plan.read_stats(st), cudaSuccess) << lookback::last_error_message();
    windows.push_back(st.windows);
  }
}

template <class T>
void default_runs_the_tier_that_the_size_picks() {
  using Cfg = lookback::Instrumented<lookback::DefaultConfig<T>>;
  std::vector<std::int64_t> bounds;
  lt::tier_bounds<Cfg, T>(bounds);
  ASSERT_GE(bounds.size(), 2u);
  // u32: 128 small tiles, 426 of 224 x 44, 513 pipelined.
  const std::int64_t cap = bounds[bounds.size() - 2] + 1;
  std::printf("[ info ] %zu-byte values, %zu tiers on this GPU; switches at", sizeof(T),
              bounds.size());
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i)
    std::printf(" %lld", static_cast<long long>(bounds[i]));
  std::printf(" items\n");
  lookback::ScanPlan<T, Cfg> plan;
  ASSERT_EQ(plan.init(cap), cudaSuccess) << lookback::last_error_message();
  lt::DeviceBuffer<T> a(cap), b(cap);
  ASSERT_TRUE(a && b);
  const std::vector<T> in = lt::make_input<T>(cap, 7);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), cap * sizeof(T), cudaMemcpyHostToDevice));
  std::vector<std::int64_t> sizes;
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i)
    sizes.insert(sizes.end(), {bounds[i], bounds[i] + 1});
  for (const std::int64_t n : sizes) {
    ASSERT_EQ(plan.reset_stats(), cudaSuccess);
    ASSERT_EQ(plan.InclusiveSum(a.get(), b.get(), n), cudaSuccess)
        << lookback::last_error_message();
    std::vector<T> got(n);
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
    const std::vector<T> part(in.begin(), in.begin() + n);
    EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(part, Kind::Inclusive), got,
                                  lt::tile_items_for<Cfg, T>(n)));
    const std::size_t tier = std::lower_bound(bounds.begin(), bounds.end(), n) - bounds.begin();
    std::vector<std::uint64_t> windows;
    tier_windows(plan, windows);
    ASSERT_EQ(windows.size(), bounds.size());
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < windows.size(); ++i) {
      EXPECT_EQ(windows[i] > 0, i == tier) << "n = " << n << ", tier " << i;
      sum += windows[i];
    }
    lookback::LookbackStats total{};
    ASSERT_EQ(plan.read_stats(total), cudaSuccess);
    EXPECT_EQ(total.windows, sum) << "n = " << n;
  }
  // Beyond the capacity: an error from the adaptive plan, not from a tier.
  EXPECT_EQ(plan.InclusiveSum(a.get(), b.get(), cap + 1), cudaErrorInvalidValue);
  EXPECT_NE(std::string(lookback::last_error_message()).find("capacity " + std::to_string(cap)),
            std::string::npos)
      << lookback::last_error_message();
}

TEST(ScanPlan, DefaultRunsTheTierThatTheSizePicksU32) {
  LOOKBACK_REQUIRE_GPU();
  default_runs_the_tier_that_the_size_picks<std::uint32_t>();
}
TEST(ScanPlan, DefaultRunsTheTierThatTheSizePicksU16) {
  LOOKBACK_REQUIRE_GPU();
  default_runs_the_tier_that_the_size_picks<std::uint16_t>();
}
TEST(ScanPlan, DefaultRunsTheTierThatTheSizePicksU8) {
  LOOKBACK_REQUIRE_GPU();
  default_runs_the_tier_that_the_size_picks<std::uint8_t>();
}

// Up to the small half's share the large half holds no storage; up to the
// middle tier's, the largest tier none.
TEST(ScanPlan, DefaultPlanHoldsNoStorageForTiersBeyondItsCapacity) {
  LOOKBACK_REQUIRE_GPU();
  lookback::ScanPlan<std::uint32_t> plan;
  const std::int64_t share =
      lookback::DefaultConfig<std::uint32_t>::max_small_items<std::uint32_t>();
  ASSERT_EQ(plan.init(share), cudaSuccess) << lookback::last_error_message();
  EXPECT_EQ(plan.large_plan().bytes(), 0u);
  EXPECT_EQ(plan.bytes(), plan.small_plan().bytes());
  // Up to the middle tier's share (u32) the largest tier holds none either.
  const std::int64_t middle =
      lookback::DefaultConfig<std::uint32_t>::large::max_small_items<std::uint32_t>();
  ASSERT_EQ(plan.init(middle), cudaSuccess) << lookback::last_error_message();
  EXPECT_GT(plan.large_plan().small_plan().bytes(), 0u);
  EXPECT_EQ(plan.large_plan().large_plan().bytes(), 0u);
  ASSERT_EQ(plan.init(middle + 1), cudaSuccess) << lookback::last_error_message();
  EXPECT_GT(plan.large_plan().large_plan().bytes(), 0u);
  EXPECT_EQ(plan.bytes(), plan.small_plan().bytes() + plan.large_plan().small_plan().bytes() +
                              plan.large_plan().large_plan().bytes());
  ASSERT_EQ(plan.init(1000), cudaSuccess) << lookback::last_error_message();
  EXPECT_EQ(plan.large_plan().bytes(), 0u);
  EXPECT_EQ(plan.capacity(), 1000);
}

// Holds the stream it runs on for about `cycles` clock cycles, and ends.
__global__ void hold_stream(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles)
    __nanosleep(1000);
}

// init() waits for its zeroing: when it returns, a scan on another stream
// finds the storage zeroed, though init's own stream was busy (without the
// wait, that scan ran before the zeroing, on whatever the allocation held:
// a stale ticket fails every block of an unchecked scan, which then returns
// cudaSuccess with nothing written).
TEST(ScanPlan, InitReturnsWithItsStorageZeroed) {
  LOOKBACK_REQUIRE_GPU();
  using T = std::uint32_t;
  const std::int64_t n = (1 << 20) + 17;
  const std::vector<T> in = lt::make_input<T>(n, 37);
  lt::DeviceBuffer<T> a(n), b(n);
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  cudaStream_t busy = nullptr, other = nullptr;
  LOOKBACK_CUDA_OK(cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking));
  LOOKBACK_CUDA_OK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  hold_stream<<<1, 1, 0, busy>>>(200'000'000);  // about 0.1 s
  LOOKBACK_CUDA_OK(cudaGetLastError());
  lookback::ScanPlan<T> plan;
  ASSERT_EQ(plan.init(n, busy), cudaSuccess) << lookback::last_error_message();
  EXPECT_EQ(cudaStreamQuery(busy), cudaSuccess) << "init() returned before its zeroing ran";
  ASSERT_EQ(plan.InclusiveSum(a.get(), b.get(), n, other), cudaSuccess)
      << lookback::last_error_message();
  LOOKBACK_CUDA_OK(cudaStreamSynchronize(other));
  std::vector<T> got(n);
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(in, Kind::Inclusive), got,
                                lt::tile_items_for<lookback::DefaultConfig<T>, T>(n)));
  LOOKBACK_CUDA_OK(cudaStreamDestroy(busy));
  LOOKBACK_CUDA_OK(cudaStreamDestroy(other));
}

// A scan of more items than the plan's init() took is refused
// (cudaErrorInvalidValue, nothing launched: the output keeps its poison) by
// a plain plan and by every tier of the default one; up to the capacity it
// scans.
template <class Cfg, class T>
void refuses_scans_beyond_capacity(std::int64_t capacity) {
  lookback::ScanPlan<T, Cfg> plan;
  ASSERT_EQ(plan.init(capacity), cudaSuccess) << lookback::last_error_message();
  const std::int64_t n = capacity + 1;
  const std::vector<T> in = lt::make_input<T>(n, 43);
  lt::DeviceBuffer<T> a(n), b(n);
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  for (const Kind kind : {Kind::Inclusive, Kind::Exclusive}) {
    LOOKBACK_CUDA_OK(cudaMemset(b.get(), 0x5a, n * sizeof(T)));
    EXPECT_EQ(lt::plan_scan(plan, a.get(), b.get(), n, kind), cudaErrorInvalidValue);
    EXPECT_NE(std::string(lookback::last_error_message())
                  .find("num_items = " + std::to_string(n) + " exceeds the plan's capacity " +
                        std::to_string(capacity)),
              std::string::npos)
        << lookback::last_error_message();
    LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
    std::vector<unsigned char> bytes(n * sizeof(T));
    LOOKBACK_CUDA_OK(cudaMemcpy(bytes.data(), b.get(), bytes.size(), cudaMemcpyDeviceToHost));
    EXPECT_TRUE(std::all_of(bytes.begin(), bytes.end(), [](unsigned char c) { return c == 0x5a; }))
        << "a refused scan wrote its output";
    ASSERT_EQ(lt::plan_scan(plan, a.get(), b.get(), capacity, kind), cudaSuccess)
        << lookback::last_error_message();
    std::vector<T> got(capacity);
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), capacity * sizeof(T), cudaMemcpyDeviceToHost));
    const std::vector<T> head(in.begin(), in.begin() + capacity);
    EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(head, kind), got,
                                  lt::tile_items_for<Cfg, T>(capacity)))
        << lt::name(kind) << ", capacity " << capacity;
  }
}

TEST(ScanPlan, RefusesScansBeyondItsCapacity) {
  LOOKBACK_REQUIRE_GPU();
  refuses_scans_beyond_capacity<lookback::Fallback, std::uint32_t>(5000);
  for (const std::int64_t capacity : one_size_per_u32_tier())
    refuses_scans_beyond_capacity<lookback::DefaultConfig<std::uint32_t>, std::uint32_t>(capacity);
  // Past the f64 default's 8 MiB switch: its large half picks its shape by the GPU.
  refuses_scans_beyond_capacity<lookback::DefaultConfig<double>, double>((1 << 20) + 3);
}

// An init() that is refused (a negative capacity, or one past what the
// configuration takes) leaves the plan as it was: its storage, capacity and
// scans.
TEST(ScanPlan, ARefusedInitLeavesThePlanAsItWas) {
  LOOKBACK_REQUIRE_GPU();
  using T = std::uint32_t;
  const std::int64_t n = (1 << 20) + 17;
  lookback::ScanPlan<T> plan;
  ASSERT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  const std::size_t bytes = plan.bytes();
  const void* small_storage = plan.small_plan().storage();
  const std::int64_t most = lookback::detail::max_items<lookback::DefaultConfig<T>, T>();
  for (const std::int64_t bad : {std::int64_t{-1}, most + 1}) {
    EXPECT_EQ(plan.init(bad), cudaErrorInvalidValue) << bad;
    EXPECT_NE(std::string(lookback::last_error_message()).find("capacity " + std::to_string(bad)),
              std::string::npos)
        << lookback::last_error_message();
    EXPECT_EQ(plan.capacity(), n);
    EXPECT_EQ(plan.bytes(), bytes);
    EXPECT_EQ(plan.small_plan().storage(), small_storage);
  }
  const std::vector<T> in = lt::make_input<T>(n, 29);
  lt::DeviceBuffer<T> a(n), b(n);
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  ASSERT_EQ(plan.ExclusiveSum(a.get(), b.get(), n), cudaSuccess) << lookback::last_error_message();
  std::vector<T> got(n);
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(in, Kind::Exclusive), got,
                                lt::tile_items_for<lookback::DefaultConfig<T>, T>(n)));
}
