// lookback_bench: times each lookback variant, cub::DeviceScan and
// cudaMemcpyAsync (device to device) in one process.
//
//   lookback_bench [--csv FILE] [--min-log 10] [--max-log 30] [--quick]
//                  [--suite main|tuning|stats|explore|trace|all] [--group NAME]
//                  [--trace-dir DIR]
//
// --group NAME runs only the operation group of that name (the "== NAME =="
// headings of the output, e.g. explore_warp_u64) within the suite.
//
// Method: the lookback variants run through ScanPlan (Reset::Epoch: one
// launch per scan, no memset); every timed launch reads and writes another
// slice of input/output pools of at least 256 MiB each (more than the 50 MB
// L2), so no run finds its data in L2; CUDA events around every launch;
// warm-up launches first; the median of the repetitions is reported. GB/s
// counts one read and one write per element. Every implementation's output
// is compared bitwise with CUB's on the GPU at every size (inputs are small
// integers, so float sums are exact), and CUB's with the CPU reference up to
// 2^22 items. Operations named *_inplace scan each output slice over itself
// (d_in == d_out), where the fallback runs its in-place protocol.
#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_transform.cuh>
#include <cuda/std/functional>

#include "floor_kernels.cuh"

#include "lookback/device_scan.cuh"
#include "lookback/ops.hpp"
#include "lookback/reference/scan.hpp"
#include "lookback/splitmix.hpp"
#include "lookback/trace_summary.hpp"

namespace {

#define CHECK_CUDA(expr)                                                      \
  do {                                                                        \
    const cudaError_t e_ = (expr);                                            \
    if (e_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #expr, \
                   cudaGetErrorName(e_), lookback::last_error_message());     \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

using lookback::splitmix64;

// Integers use all bits (sums wrap); floats are integers in [-4, 4], so every
// association of their sums is exact and outputs can be compared bitwise.
template <class T>
__global__ void fill(T* p, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t r = splitmix64(seed + static_cast<std::uint64_t>(i));
    if constexpr (std::is_floating_point_v<T>) {
      p[i] = static_cast<T>(static_cast<int>(r % 9) - 4);
    } else {
      p[i] = static_cast<T>(r);
    }
  }
}

template <class T>
__global__ void count_mismatches(const T* a, const T* b, std::int64_t n, unsigned long long* bad) {
  unsigned long long local = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    using Bits = std::conditional_t<
        sizeof(T) == 8, std::uint64_t,
        std::conditional_t<sizeof(T) == 4, std::uint32_t,
                           std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint8_t>>>;
    static_assert(sizeof(T) == sizeof(Bits));
    Bits x, y;
    memcpy(&x, &a[i], sizeof(T));
    memcpy(&y, &b[i], sizeof(T));
    if (x != y) ++local;
  }
  if (local) atomicAdd(bad, local);
}

struct Row {
  std::string op;
  std::int64_t n;
  std::string impl;
  double median_us;
  double min_us;
  double gbps;
  double pct_copy;
  double vs_cub;  // CUB time / this time (> 1: faster than CUB)
  std::string check;
};

struct Settings {
  std::string csv;
  int min_log = 10;
  int max_log = 30;
  bool quick = false;
  std::string suite = "main";
  std::string group;      // empty: every group of the suite
  std::string trace_dir;  // --suite trace: per-tile stamps go here (empty: none)
};

std::vector<Row> g_rows;
FILE* g_csv = nullptr;
int g_groups_run = 0;  // operation groups run_op ran (--group picks one)

// A row of the CSV (its header: main()) and of the failure count.
void record(const Row& r) {
  if (g_csv) {
    std::fprintf(g_csv, "%s,%lld,%s,%.3f,%.3f,%.2f,%.2f,%.4f,%s\n", r.op.c_str(),
                 static_cast<long long>(r.n), r.impl.c_str(), r.median_us, r.min_us, r.gbps,
                 r.pct_copy, r.vs_cub, r.check.c_str());
    std::fflush(g_csv);
  }
  g_rows.push_back(r);
}

void emit(const Row& r) {
  std::printf("%-14s %11lld  %-22s %10.2f %9.1f %7.1f%% %7.2fx  %s\n", r.op.c_str(),
              static_cast<long long>(r.n), r.impl.c_str(), r.median_us, r.gbps, r.pct_copy,
              r.vs_cub, r.check.c_str());
  std::fflush(stdout);
  record(r);
}

// Times `launch(slice)` (enqueues one operation on `stream` using rotating
// slice `slice`): warm-up, then median and minimum of the repetitions.
struct Timing {
  double median_us, min_us;
};
Timing time_it(const std::function<void(int)>& launch, int slices, cudaStream_t stream,
               bool quick) {
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    launch(i % slices);
  CHECK_CUDA(cudaEventRecord(a, stream));
  launch(3 % slices);
  CHECK_CUDA(cudaEventRecord(b, stream));
  CHECK_CUDA(cudaEventSynchronize(b));
  float est_ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&est_ms, a, b));
  const double budget_ms = quick ? 20.0 : 60.0;
  int reps = static_cast<int>(budget_ms / std::max(est_ms, 0.002f));
  reps = std::clamp(reps, quick ? 7 : 15, quick ? 50 : 300);
  std::vector<cudaEvent_t> ev(2 * reps);
  for (auto& e : ev)
    CHECK_CUDA(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r) {
    CHECK_CUDA(cudaEventRecord(ev[2 * r], stream));
    launch((r + 4) % slices);
    CHECK_CUDA(cudaEventRecord(ev[2 * r + 1], stream));
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<double> t(reps);
  for (int r = 0; r < reps; ++r) {
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]));
    t[r] = ms * 1000.0;
  }
  for (auto& e : ev)
    CHECK_CUDA(cudaEventDestroy(e));
  CHECK_CUDA(cudaEventDestroy(a));
  CHECK_CUDA(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return {t[reps / 2], t[0]};
}

// Rotating input/output pools for one value type.
template <class T>
struct Pools {
  T* in = nullptr;
  T* out = nullptr;
  T* expected = nullptr;
  std::size_t pool_items = 0;
  // Slices start this many items past a 256-byte boundary (0: aligned; 1:
  // misaligned for the 16-byte vector path).
  std::int64_t offset = 0;

  explicit Pools(std::int64_t max_n, std::int64_t offset_items = 0) : offset(offset_items) {
    const std::size_t min_bytes = std::size_t{256} << 20;
    pool_items = std::max<std::size_t>(static_cast<std::size_t>(max_n) + 64, min_bytes / sizeof(T));
    CHECK_CUDA(cudaMalloc(&in, pool_items * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&out, pool_items * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&expected, static_cast<std::size_t>(max_n) * sizeof(T) + 256));
    fill<<<1024, 256>>>(in, static_cast<std::int64_t>(pool_items), 12345);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  ~Pools() {
    cudaFree(in);
    cudaFree(out);
    cudaFree(expected);
  }
  // Slices of n items (and the offset), 256-byte aligned.
  std::size_t stride(std::int64_t n) const {
    const std::size_t bytes =
        (static_cast<std::size_t>(n + offset) * sizeof(T) + 255) & ~std::size_t{255};
    return bytes / sizeof(T);
  }
  int slices(std::int64_t n) const {
    return static_cast<int>(std::max<std::size_t>(1, pool_items / stride(n)));
  }
  T* in_slice(std::int64_t n, int s) const { return in + stride(n) * s + offset; }
  T* out_slice(std::int64_t n, int s) const { return out + stride(n) * s + offset; }
};

// Runs count(d) (a kernel that adds to the zeroed device counter d) and
// returns the count.
template <class Count>
unsigned long long device_count(const Count& count) {
  unsigned long long* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, sizeof *d));
  CHECK_CUDA(cudaMemset(d, 0, sizeof *d));
  count(d);
  CHECK_CUDA(cudaGetLastError());
  unsigned long long h = 0;
  CHECK_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d));
  return h;
}

template <class T>
unsigned long long mismatches(const T* a, const T* b, std::int64_t n) {
  return device_count([&](unsigned long long* d) { count_mismatches<<<1024, 256>>>(a, b, n, d); });
}

// Items of out that break the inclusive sum of in within their tile
// (lookback_bench::check_local_scan): 0 iff every tile is its own scan.
unsigned long long local_scan_breaks(const std::uint32_t* in, const std::uint32_t* out,
                                     std::int64_t n, std::int64_t tile_items) {
  return device_count([&](unsigned long long* d) {
    lookback_bench::check_local_scan<<<1024, 256>>>(in, out, n, tile_items, d);
  });
}

enum class OpKind { Sum, Max };

// A lookback implementation to time: a named ScanPlan type.
template <class T, class Cfg>
struct LookbackImpl {
  const char* name;
};

template <class T, OpKind kOp, bool kExclusive>
struct Case {
  const char* op_name;
  using Op = std::conditional_t<kOp == OpKind::Sum, lookback::Sum, lookback::Max>;

  static cudaError_t cub_scan(void* temp, std::size_t& bytes, const T* in, T* out, std::int64_t n,
                              cudaStream_t s) {
    const int ni = static_cast<int>(n);
    if constexpr (kExclusive) {
      if constexpr (kOp == OpKind::Sum) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, ni, s);
      } else {
        return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, Op{},
                                              lookback::identity_of<T>(Op{}), ni, s);
      }
    } else {
      if constexpr (kOp == OpKind::Sum) {
        return cub::DeviceScan::InclusiveSum(temp, bytes, in, out, ni, s);
      } else {
        return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, Op{}, ni, s);
      }
    }
  }
  template <class Plan>
  static cudaError_t plan_scan(Plan& plan, const T* in, T* out, std::int64_t n, cudaStream_t s) {
    if constexpr (kExclusive) {
      return plan.ExclusiveScan(in, out, Op{}, lookback::identity_of<T>(Op{}), n, s);
    } else {
      return plan.InclusiveScan(in, out, Op{}, n, s);
    }
  }
  static std::vector<T> reference(const std::vector<T>& in) {
    if constexpr (kExclusive) {
      return lookback::reference::exclusive_scan(in, lookback::identity_of<T>(Op{}), Op{});
    } else {
      return lookback::reference::inclusive_scan(in, Op{});
    }
  }
};

// 2^l for each listed l within [min_log, max_log] (the sweeps' own sizes).
std::vector<std::int64_t> powers_of_two(const Settings& s, std::initializer_list<int> logs) {
  std::vector<std::int64_t> v;
  for (int l : logs)
    if (l >= s.min_log && l <= s.max_log) v.push_back(std::int64_t{1} << l);
  return v;
}

std::vector<std::int64_t> sizes(const Settings& s, bool odd) {
  std::vector<std::int64_t> v;
  for (int l = s.min_log; l <= s.max_log; ++l) {
    if (s.quick && l < 26 && l % 2 == 1 && l != 25) continue;
    v.push_back(std::int64_t{1} << l);
    if (odd && (l == 20 || l == 24)) v.push_back((std::int64_t{1} << l) + 1234567 % (1 << (l - 4)));
  }
  return v;
}

// Rows a group times besides the scans (after copy and CUB at each size):
// given n, the pools, the stream and the copy's and CUB's times.
template <class T>
using ExtraRows = std::function<void(std::int64_t, const Pools<T>&, cudaStream_t, Timing, Timing)>;

// Runs one operation over all sizes: copy, CUB, then every lookback plan.
// In place (kInPlace): CUB and the plans scan each output slice over itself
// (the values drift from launch to launch, which the timing does not mind);
// the checks first copy slice 0's input into its output. The copy row stays
// the out-of-place copy, the reference line.
template <class C, class T, bool kInPlace, class... Cfgs>
void run_op(const Settings& settings, const char* op_name, const std::vector<std::int64_t>& ns,
            const std::vector<const char*>& impl_names, std::int64_t offset_items = 0,
            const ExtraRows<T>& extra_rows = {}) {
  if (!settings.group.empty() && settings.group != op_name) return;
  ++g_groups_run;
  std::printf("\n== %s ==\n%-14s %11s  %-22s %10s %9s %8s %8s  %s\n", op_name, "op", "n", "impl",
              "median_us", "GB/s", "%copy", "vsCUB", "check");
  const std::int64_t max_n = *std::max_element(ns.begin(), ns.end());
  Pools<T> pools(max_n, offset_items);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  std::size_t cub_bytes = 0;
  CHECK_CUDA(C::cub_scan(nullptr, cub_bytes, pools.in, pools.out, max_n, stream));
  void* cub_temp = nullptr;
  CHECK_CUDA(cudaMalloc(&cub_temp, cub_bytes + 256));

  auto plans = std::make_tuple(lookback::ScanPlan<T, Cfgs>()...);
  std::apply([&](auto&... p) { ([&] { CHECK_CUDA(p.init(max_n, stream)); }(), ...); }, plans);
  CHECK_CUDA(cudaStreamSynchronize(stream));

  for (std::int64_t n : ns) {
    const int slices = pools.slices(n);
    const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
    // Copy.
    const Timing copy = time_it(
        [&](int s) {
          CHECK_CUDA(cudaMemcpyAsync(pools.out_slice(n, s), pools.in_slice(n, s), n * sizeof(T),
                                     cudaMemcpyDeviceToDevice, stream));
        },
        slices, stream, settings.quick);
    // CUB, and its output as the expected result for slice 0.
    std::size_t b = cub_bytes;
    CHECK_CUDA(C::cub_scan(cub_temp, b, pools.in_slice(n, 0), pools.expected, n, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::string cub_check = "gpu";
    if (n <= (std::int64_t{1} << 22)) {
      std::vector<T> h_in(n), h_out(n);
      CHECK_CUDA(
          cudaMemcpy(h_in.data(), pools.in_slice(n, 0), n * sizeof(T), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(h_out.data(), pools.expected, n * sizeof(T), cudaMemcpyDeviceToHost));
      const std::vector<T> want = C::reference(h_in);
      cub_check =
          std::memcmp(want.data(), h_out.data(), n * sizeof(T)) == 0 ? "cpu-ok" : "CPU-FAIL";
    }
    // The input a timed launch of slice s reads.
    const auto source = [&](int s) -> const T* {
      return kInPlace ? pools.out_slice(n, s) : pools.in_slice(n, s);
    };
    const Timing cub = time_it(
        [&](int s) {
          std::size_t bb = cub_bytes;
          CHECK_CUDA(C::cub_scan(cub_temp, bb, source(s), pools.out_slice(n, s), n, stream));
        },
        slices, stream, settings.quick);
    // Slice 0 of a checked launch: its input, in its output slice if in place.
    const auto checked_input = [&]() -> const T* {
      if constexpr (kInPlace) {
        CHECK_CUDA(cudaMemcpyAsync(pools.out_slice(n, 0), pools.in_slice(n, 0), n * sizeof(T),
                                   cudaMemcpyDeviceToDevice, stream));
      }
      return source(0);
    };
    if constexpr (kInPlace) {  // CUB in place against its out-of-place result
      std::size_t bb = cub_bytes;
      CHECK_CUDA(C::cub_scan(cub_temp, bb, checked_input(), pools.out_slice(n, 0), n, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      const unsigned long long bad = mismatches(pools.out_slice(n, 0), pools.expected, n);
      cub_check += bad == 0 ? "/inplace-ok" : "/INPLACE-FAIL(" + std::to_string(bad) + ")";
    }
    emit({op_name, n, "copy", copy.median_us, copy.min_us, bytes / copy.median_us / 1e3, 100.0,
          cub.median_us / copy.median_us, "-"});
    emit({op_name, n, "cub", cub.median_us, cub.min_us, bytes / cub.median_us / 1e3,
          100.0 * copy.median_us / cub.median_us, 1.0, cub_check});
    if (extra_rows) extra_rows(n, pools, stream, copy, cub);
    // Lookback variants.
    std::size_t idx = 0;
    std::apply(
        [&](auto&... plan) {
          (
              [&](auto& p) {
                const char* name = impl_names[idx++];
                CHECK_CUDA(C::plan_scan(p, checked_input(), pools.out_slice(n, 0), n, stream));
                CHECK_CUDA(cudaStreamSynchronize(stream));
                const unsigned long long bad = mismatches(pools.out_slice(n, 0), pools.expected, n);
                const Timing t = time_it(
                    [&](int s) {
                      CHECK_CUDA(C::plan_scan(p, source(s), pools.out_slice(n, s), n, stream));
                    },
                    slices, stream, settings.quick);
                // Re-check after the timed runs (many epochs on one plan).
                CHECK_CUDA(C::plan_scan(p, checked_input(), pools.out_slice(n, 0), n, stream));
                CHECK_CUDA(cudaStreamSynchronize(stream));
                const unsigned long long bad2 =
                    mismatches(pools.out_slice(n, 0), pools.expected, n);
                emit({op_name, n, name, t.median_us, t.min_us, bytes / t.median_us / 1e3,
                      100.0 * copy.median_us / t.median_us, cub.median_us / t.median_us,
                      bad + bad2 == 0 ? "ok" : "FAIL(" + std::to_string(bad + bad2) + ")"});
              }(plan),
              ...);
        },
        plans);
  }
  CHECK_CUDA(cudaFree(cub_temp));
  CHECK_CUDA(cudaStreamDestroy(stream));
}

// Benchmark configurations: vector path only (no scalar path compiled; the
// pools are aligned unless run_op is given an offset).
template <lookback::Variant V, class Policy = lookback::detail::default_policy_t<V>,
          bool kDet = false>
using Bench = lookback::ScanConfig<V, Policy, kDet, false, false>;
using BWarp = Bench<lookback::Variant::WarpLookback>;
using BCoarse = Bench<lookback::Variant::Coarsened>;
using BFallback = Bench<lookback::Variant::Fallback>;
using BCoarseDet = Bench<lookback::Variant::Coarsened, lookback::CoarsenedPolicy, true>;
using BPipelined = Bench<lookback::Variant::Pipelined>;
using BWarpSmall = Bench<lookback::Variant::WarpLookback, lookback::WarpLookbackSmallPolicy>;
using BPipelinedWide = Bench<lookback::Variant::Pipelined, lookback::PipelinedWidePolicy>;
// DefaultConfig<T> as the benchmark's configurations: every whole
// configuration in it without the scalar path.
template <class C>
struct WithoutScalarPath {
  using type = lookback::ScanConfig<C::variant, typename C::policy, C::deterministic,
                                    C::instrumented, false>;
};
template <class T>
using BDefaultFor = lookback::detail::map_configs_t<lookback::DefaultConfig<T>, WithoutScalarPath>;
// Its tiers are the rows' own kernels (one instantiation each).
static_assert(std::is_same_v<BDefaultFor<std::uint32_t>::small, BWarpSmall> &&
              std::is_same_v<BDefaultFor<std::uint32_t>::large::small, BWarp> &&
              std::is_same_v<BDefaultFor<std::uint32_t>::large::large, BPipelined> &&
              std::is_same_v<BDefaultFor<std::uint16_t>::large::small, BWarp> &&
              std::is_same_v<BDefaultFor<std::uint8_t>::large::small, BCoarse> &&
              std::is_same_v<BDefaultFor<std::uint64_t>::large::wide, BPipelinedWide>);

// A warp-lookback shape for exploration: Threads x Bytes per thread, the
// library's look-back delay from 1024 tiles, at most kMaxItems items a
// thread (1- and 2-byte values).
template <int Threads, int Bytes, int MinBlocks, int kMaxItems>
struct SmallWarpShape : lookback::TilePolicy<Threads, Bytes, MinBlocks, 3000, 0, false, 1024> {
  template <class T>
  static constexpr int items() {
    constexpr int i = Bytes / static_cast<int>(sizeof(T));
    return i > kMaxItems ? kMaxItems : i < 1 ? 1 : i;
  }
};

// Policy with another L2 prefetch distance (TilePolicy::kL2PrefetchBytes).
template <class Policy, int kBytes>
struct L2Prefetch : Policy {
  static constexpr int kL2PrefetchBytes = kBytes;
};

void main_suite(const Settings& s) {
  const auto ns = sizes(s, true);
  const std::vector<const char*> four = {"warp-lookback", "coarsened", "pipelined", "fallback"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "u32_incl_sum", ns, four);
  run_op<Case<std::uint32_t, OpKind::Sum, true>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "u32_excl_sum", ns, four);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "u64_incl_sum", ns, four);
  run_op<Case<float, OpKind::Sum, false>, float, false, BWarp, BCoarse, BPipelined, BFallback,
         BCoarseDet>(s, "f32_incl_sum", ns,
                     {"warp-lookback", "coarsened", "pipelined", "fallback", "coarsened-det"});
  run_op<Case<double, OpKind::Sum, false>, double, false, BWarp, BCoarse, BPipelined, BFallback>(
      s, "f64_incl_sum", ns, four);
  run_op<Case<std::uint32_t, OpKind::Max, false>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "u32_incl_max", ns, four);
  // In place only the fallback's protocol differs (fallback-inplace: strong
  // output stores and fallback reads, an output fence, validation);
  // pipelined is its reference.
  const std::vector<const char*> two = {"pipelined", "fallback"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, true, BPipelined, BFallback>(
      s, "u32_incl_sum_inplace", ns, two);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, true, BPipelined, BFallback>(
      s, "u64_incl_sum_inplace", ns, two);
}

// Tuning sweep around the chosen policies (policy.hpp). The chosen ones
// (marked *) are named by their policy type: a TilePolicy spelled out with
// the same shape keeps full_warps_in_partial_tile's default, which coarsened
// and the 4-byte fallback do not (different kernels since 2026-11-27). The
// others, Neighbour<V, Shape>, get the chosen policy's L2 prefetch distance
// (l2_prefetch.cuh), so that shapes are compared with the prefetch the
// library runs them with (until 2026-11-28 they ran without it, and the
// persistent groups' * rows were spelled-out shapes without it too).
template <lookback::Variant V, class Shape>
using Neighbour =
    Bench<V, L2Prefetch<Shape, lookback::detail::default_policy_t<V>::kL2PrefetchBytes>>;
void tuning_suite(const Settings& s) {
  using lookback::TilePolicy;
  using C = lookback::Variant;
  const auto ns = powers_of_two(s, {16, 20, 22, 24, 26, 28, 30});
  // Persistent two-tile blocks (the pipelined variant): register + staged
  // bytes per thread, blocks per SM.
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Neighbour<C::Pipelined, TilePolicy<128, 64, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>, BPipelined,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 176>>>(
      s, "tune_persistent", ns,
      {"p128x(16+40)/4", "p128x(20+40)/4", "p128x(24+40)/4*", "p128x(20+44)/4"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 64, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 64, 4, 0, 0, false, 0, 128>>,
         Neighbour<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>, BPipelined>(
      s, "tune_persistent_u64", ns,
      {"p128x(10+20)/4", "p128x(8+20)/4", "p128x(8+16)/4", "p128x(4+20)/4", "p192x(4+12)/4*"});
  // Staged bytes per thread (shared memory, cp.async) on top of 128 register
  // bytes.
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024>>,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024, 64>>,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 2000, 0, false, 1024, 128>>, BCoarse,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 4000, 0, false, 1024, 128>>,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 0, 0, false, 1024, 128>>,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024, 160>>>(
      s, "tune_coarse", ns,
      {"c256x32/4 d3000", "c256x(32+16)/4 d3000", "c256x(32+32)/4 d2000", "c256x(32+32)/4 d3000*",
       "c256x(32+32)/4 d4000", "c256x(32+32)/4 d0", "c256x(32+40)/4 d3000"});
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Neighbour<C::WarpLookback, TilePolicy<128, 96, 6, 3000, 0, false, 1024>>, BWarp,
         Neighbour<C::Fallback, TilePolicy<128, 80, 4, 0, 0, false, 0, 176>>, BFallback>(
      s, "tune_other", ns,
      {"w128x24/6 d3000", "w224x44/3 d3000*", "f128x(20+44)/4", "f128x(24+40)/4*"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024>>, BCoarse,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024, 160>>,
         Neighbour<C::Fallback, TilePolicy<128, 64, 4, 0, 0, false, 0, 128>>, BFallback>(
      s, "tune_u64", ns,
      {"c256x16/4 d3000", "c256x(16+16)/4 d3000*", "c256x(16+20)/4 d3000", "f128x(8+16)/4",
       "f128x(4+20)/4*"});
}

// Exploration (--suite explore): the open questions of the moment; earlier
// sweeps are in git history next to their logs under bench/results/.
// Measurement-only protocol changes (NOT verified variants: no catalogue
// entry): Base with Change applied to both of its protocols.
template <class Base, class Change>
struct ExptProtocol : Base {
  static constexpr lookback::protocol::Protocol protocol = Change{}(Base::protocol);
  static constexpr lookback::protocol::Protocol protocol_in_place =
      Change{}(Base::protocol_in_place);
};
// What the per-tile bookkeeping costs: where tile ids come from, how the
// storage is reset.
template <lookback::protocol::TileIdSource kTileId, lookback::protocol::Reset kReset>
struct BookkeepingChange {
  constexpr lookback::protocol::Protocol operator()(lookback::protocol::Protocol p) const {
    p.tile_id = kTileId;
    p.reset = kReset;
    return p;
  }
};
template <class Base, lookback::protocol::TileIdSource kTileId, lookback::protocol::Reset kReset>
using ExptBookkeeping = ExptProtocol<Base, BookkeepingChange<kTileId, kReset>>;
// Other look-back orders: packed publishes relaxed (as every production
// protocol's since 2026-11-27 evening) or not, and the look-back reads' order.
template <bool kRelaxedPublish, lookback::protocol::Order kLookbackOrder>
struct OrdersChange {
  constexpr lookback::protocol::Protocol operator()(lookback::protocol::Protocol p) const {
    p.relaxed_packed_publish = kRelaxedPublish;
    p.lookback_order = kLookbackOrder;
    return p;
  }
};
template <class Base, bool kRelaxedPublish, lookback::protocol::Order kLookbackOrder>
using ExptOrders = ExptProtocol<Base, OrdersChange<kRelaxedPublish, kLookbackOrder>>;

// Copies of our own next to cudaMemcpyAsync (explore_copy_floor): the floor
// under a one-launch scan at small n. Each row's output is compared with its
// input; % of copy and the ratio to CUB as for the scans.
ExtraRows<std::uint32_t> copy_floor_rows(const Settings& settings) {
  unsigned* d_counter = nullptr;  // the ladder's ticket counter
  CHECK_CUDA(cudaMalloc(&d_counter, sizeof(unsigned)));
  const std::shared_ptr<unsigned> counter(d_counter, [](unsigned* p) { cudaFree(p); });
  int dev = 0, sms = 0, per_sm = 0;
  CHECK_CUDA(cudaGetDevice(&dev));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, lookback_bench::copy_grid_stride, 256, 0));
  const unsigned resident = static_cast<unsigned>(sms * per_sm);
  return [&settings, counter, resident](std::int64_t n, const Pools<std::uint32_t>& pools,
                                        cudaStream_t stream, Timing copy, Timing cub) {
    using namespace lookback_bench;
    const std::int64_t n4 = n / 4;  // the group's sizes are multiples of 4
    const auto vin = [&](int s) { return reinterpret_cast<const uint4*>(pools.in_slice(n, s)); };
    const auto vout = [&](int s) { return reinterpret_cast<uint4*>(pools.out_slice(n, s)); };
    const auto grid_for = [&](std::int64_t vectors_per_block) {
      return static_cast<unsigned>((n4 + vectors_per_block - 1) / vectors_per_block);
    };
    // One checked launch on slice 0 (its output first filled with `fill`, so
    // that nothing an earlier row wrote passes), then the timed ones.
    // bad_items counts what is wrong in slice 0; `ok` labels a pass.
    const auto timed_row = [&](const char* name, const std::function<void(int)>& launch,
                               unsigned char fill,
                               const std::function<unsigned long long()>& bad_items,
                               const char* ok) {
      CHECK_CUDA(cudaMemsetAsync(pools.out_slice(n, 0), fill, n * sizeof(std::uint32_t), stream));
      launch(0);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaStreamSynchronize(stream));
      const unsigned long long bad = bad_items();
      const Timing t = time_it(launch, pools.slices(n), stream, settings.quick);
      const double bytes = 2.0 * static_cast<double>(n) * sizeof(std::uint32_t);
      emit({"explore_copy_floor", n, name, t.median_us, t.min_us, bytes / t.median_us / 1e3,
            100.0 * copy.median_us / t.median_us, cub.median_us / t.median_us,
            bad == 0 ? ok : "FAIL(" + std::to_string(bad) + ")"});
    };
    const auto row = [&](const char* name, const std::function<void(int)>& launch) {
      timed_row(
          name, launch, 0,
          [&] { return mismatches(pools.out_slice(n, 0), pools.in_slice(n, 0), n); }, "ok");
    };
    row("kcopy grid-stride", [&](int s) {
      const unsigned grid = std::min<unsigned>(resident, grid_for(256));
      copy_grid_stride<<<grid, 256, 0, stream>>>(vin(s), vout(s), n4);
    });
    row("kcopy tile 256x4",
        [&](int s) { copy_tile<1><<<grid_for(256), 256, 0, stream>>>(vin(s), vout(s), n4); });
    row("kcopy tile 256x16",
        [&](int s) { copy_tile<4><<<grid_for(256 * 4), 256, 0, stream>>>(vin(s), vout(s), n4); });
    row("kcopy tile 128x64",
        [&](int s) { copy_tile<16><<<grid_for(128 * 16), 128, 0, stream>>>(vin(s), vout(s), n4); });
    row("DeviceTransform", [&](int s) {
      CHECK_CUDA(cub::DeviceTransform::Transform(pools.in_slice(n, s), pools.out_slice(n, s), n,
                                                 ::cuda::std::identity{}, stream));
    });
    // The ladder on WarpLookbackSmall's 256 x 16 u32 tile (floor_kernels.cuh).
    constexpr int kLadderThreads = 256, kLadderItems = 16;
    constexpr std::int64_t kLadderTile = kLadderThreads * kLadderItems;
    const unsigned ladder_grid = static_cast<unsigned>((n + kLadderTile - 1) / kLadderTile);
    row("ladder cub-io copy", [&](int s) {
      tile_ladder<kLadderThreads, kLadderItems, false, false>
          <<<ladder_grid, kLadderThreads, 0, stream>>>(pools.in_slice(n, s), pools.out_slice(n, s),
                                                       n, nullptr);
    });
    const auto local_scan_row = [&](const char* name, const std::function<void(int)>& launch) {
      CHECK_CUDA(cudaMemsetAsync(counter.get(), 0, sizeof(unsigned), stream));
      // Filled with all ones, not the previous row's output: a tile this
      // launch skipped must fail.
      timed_row(
          name, launch, 0xff,
          [&] {
            return local_scan_breaks(pools.in_slice(n, 0), pools.out_slice(n, 0), n, kLadderTile);
          },
          "local-ok");
    };
    local_scan_row("ladder +local scan", [&](int s) {
      tile_ladder<kLadderThreads, kLadderItems, true, false>
          <<<ladder_grid, kLadderThreads, 0, stream>>>(pools.in_slice(n, s), pools.out_slice(n, s),
                                                       n, nullptr);
    });
    local_scan_row("ladder +ticket", [&](int s) {
      tile_ladder<kLadderThreads, kLadderItems, true, true>
          <<<ladder_grid, kLadderThreads, 0, stream>>>(pools.in_slice(n, s), pools.out_slice(n, s),
                                                       n, counter.get());
    });
    local_scan_row("ladder +ticket spec", [&](int s) {
      tile_ladder<kLadderThreads, kLadderItems, true, true, true>
          <<<ladder_grid, kLadderThreads, 0, stream>>>(pools.in_slice(n, s), pools.out_slice(n, s),
                                                       n, counter.get());
    });
  };
}

void explore_suite(const Settings& s) {
  using lookback::TilePolicy;
  using C = lookback::Variant;
  using lookback::protocol::Reset;
  using lookback::protocol::TileIdSource;
  const auto large = powers_of_two(s, {20, 22, 24, 26, 28, 30});
  const auto warp_sizes = powers_of_two(s, {10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30});
  // warp-lookback's tile shape (2026-11-26 afternoon): CUB's 4-byte shape,
  // 128 x 24 (its policy until then), against larger tiles on 224-thread
  // blocks; * marks today's WarpLookbackPolicy (policy.hpp has the sweep).
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Bench<C::WarpLookback, TilePolicy<128, 96, 6, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 160, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, lookback::WarpLookbackPolicy>,
         Bench<C::WarpLookback, TilePolicy<224, 192, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 208, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<192, 224, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<256, 176, 3, 3000, 0, false, 1024>>>(
      s, "explore_warp", warp_sizes,
      {"w128x24/6 d3000", "w224x40/3 d3000", "w224x44/3 d3000*", "w224x48/3 d3000",
       "w224x52/3 d3000", "w192x56/3 d3000", "w256x44/3 d3000"});
  // The same on 8-byte values: 128 x 12 (96 bytes a thread, the 4-byte
  // shape's, until 2026-11-26) against CUB's sm_90 shape for 8-byte sums,
  // 224 x 12 (tuning_scan.cuh: 224 x 24 nominal 4-byte items, scaled by
  // 4 / sizeof(T)), and larger tiles around today's 224 x 20.
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Bench<C::WarpLookback, TilePolicy<128, 96, 6, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, lookback::WarpLookbackPolicy>,
         Bench<C::WarpLookback, TilePolicy<224, 96, 5, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 176, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 144, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 160, 3, 4000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<192, 176, 3, 3000, 0, false, 1024>>>(
      s, "explore_warp_u64", warp_sizes,
      {"w128x12/6 d3000", "w224x20/3 d3000*", "w224x12/5 d3000", "w224x22/3 d3000",
       "w224x18/3 d3000", "w224x20/3 d4000", "w192x22/3 d3000"});
  // One-tile blocks (coarsened): spin back-off, and pipelined's 128-thread
  // shape without the persistence.
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Bench<C::Coarsened, lookback::CoarsenedPolicy>,
         Bench<C::Coarsened, TilePolicy<256, 128, 4, 3000, 648, false, 1024, 128>>,
         Bench<C::Coarsened, TilePolicy<256, 128, 4, 1245, 648, false, 512, 128>>,
         Bench<C::Coarsened, TilePolicy<128, 96, 4, 3000, 0, false, 1024, 160>>,
         Bench<C::Coarsened, TilePolicy<128, 96, 6, 3000, 0, false, 1024, 160>>>(
      s, "explore_coarse", large,
      {"c256x(32+32)/4 d3000*", "c256x(32+32)/4 d3000s648", "c256x(32+32)/4 d1245s648",
       "c128x(24+40)/4 d3000", "c128x(24+40)/6 d3000"});
  // Small n: smaller tiles on persistent blocks (fixed cost per tile:
  // ticket, local scan, look-back round trip).
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Bench<C::Pipelined, TilePolicy<128, 96, 4, 0, 0, false, 0, 160>>,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Pipelined, TilePolicy<128, 32, 8, 0, 0, false, 0, 32>>,
         Bench<C::Pipelined, TilePolicy<128, 16, 8, 0, 0, false, 0, 16>>,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Coarsened, TilePolicy<256, 32, 4, 0, 0, false, 0, 32>>>(
      s, "explore_small", powers_of_two(s, {14, 16, 18, 19, 20, 21, 22}),
      {"p128x(24+40)/4*", "p128x(8+24)/4", "p128x(8+8)/8", "p128x(4+4)/8", "f128x(8+24)/4",
       "c256x(8+8)/4"});
  // 8-byte values: Pipelined's 3072-item tiles as 128 x (4 + 20) items (its
  // shape until 2026-11-26) and 8 + 16, smaller tiles, 192- and 256-thread
  // blocks, and Coarsened's; * marks today's policies (policy.hpp).
  const auto u64_sizes = powers_of_two(s, {13, 14, 16, 18, 20, 21, 22, 24, 26, 28, 30});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>,
         Bench<C::Pipelined, TilePolicy<128, 64, 4, 0, 0, false, 0, 128>>,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 112>>,
         Bench<C::Pipelined, TilePolicy<128, 16, 8, 0, 0, false, 0, 48>>,
         Bench<C::Pipelined, TilePolicy<192, 32, 3, 0, 0, false, 0, 96>>,
         Bench<C::Pipelined, TilePolicy<256, 32, 2, 0, 0, false, 0, 80>>,
         Bench<C::Pipelined, TilePolicy<256, 48, 2, 0, 0, false, 0, 64>>,
         Bench<C::Coarsened, lookback::CoarsenedPolicy>,
         Bench<C::Coarsened, TilePolicy<256, 64, 4, 0, 0, false, 0, 64>>>(
      s, "explore_u64", u64_sizes,
      {"p128x(4+20)/4", "p128x(8+16)/4", "p128x(4+12)/4", "p128x(4+14)/4", "p128x(2+6)/8",
       "p192x(4+12)/3*", "p256x(4+10)/2", "p256x(6+8)/2", "c256x(16+16)/4*", "c256x(8+8)/4"});
  // The fallback with the same shapes, out of place and in place (it keeps
  // 128 x (4 + 20): FallbackPolicy).
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Fallback, TilePolicy<192, 32, 3, 0, 0, false, 0, 96>>,
         Bench<C::Fallback, TilePolicy<256, 32, 2, 0, 0, false, 0, 80>>>(
      s, "explore_u64_fallback", u64_sizes,
      {"f128x(4+20)/4*", "f128x(4+12)/4", "f192x(4+12)/3", "f256x(4+10)/2"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, true,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>,
         Bench<C::Pipelined, TilePolicy<256, 32, 2, 0, 0, false, 0, 80>>,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Fallback, TilePolicy<192, 32, 3, 0, 0, false, 0, 96>>,
         Bench<C::Fallback, TilePolicy<256, 32, 2, 0, 0, false, 0, 80>>>(
      s, "explore_u64_inplace", u64_sizes,
      {"p128x(4+20)/4", "p256x(4+10)/2", "f128x(4+20)/4*", "f128x(4+12)/4", "f192x(4+12)/3",
       "f256x(4+10)/2"});
  // Partial last tiles (2026-11-26 evening): n just past a power of two,
  // against the power itself, for every variant. The striped agent's partial
  // tile used to load with one DRAM round trip per staged vector in series.
  const auto partial_sizes = [&](int lo) {
    std::vector<std::int64_t> v;
    for (int l : {16, 20, 22, 24, 26, 28}) {
      if (l < lo || l < s.min_log || l > s.max_log) continue;
      const std::int64_t p = std::int64_t{1} << l;
      for (std::int64_t extra :
           {std::int64_t{0}, std::int64_t{1}, std::int64_t{4}, p / 64 + 1234567 % (p / 16)})
        v.push_back(p + extra);
    }
    return v;
  };
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_partial", partial_sizes(16),
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_partial_u64", partial_sizes(16),
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, true, BPipelined, BFallback>(
      s, "explore_partial_inplace", partial_sizes(20), {"pipelined", "fallback"});
  // A few tiles, full and partial (pipelined's tile is 8192 u32 items,
  // coarsened's 16384, warp-lookback's 9856).
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_tiny",
                    {1024, 4096, 8000, 8191, 8192, 8193, 9856, 16383, 16384, 16385, 24576, 24577},
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  // 1- and 2-byte sums, first timed 2026-11-27: every configuration at its
  // default shape (coarsened 32 + 32 items a thread; pipelined and fallback
  // 16 + 48; warp-lookback 44; policy.hpp). They chose these sizes'
  // DefaultConfig (config.hpp) of the time: warp-lookback up to 2^18 u16 /
  // 2^17 u8 items (2^19 both since 2026-11-27 evening), pipelined above;
  // coarsened was their default before.
  const auto narrow_sizes = powers_of_two(s, {10, 14, 16, 18, 20, 22, 24, 26, 28, 30});
  run_op<Case<std::uint16_t, OpKind::Sum, false>, std::uint16_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_u16", narrow_sizes,
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  run_op<Case<std::uint8_t, OpKind::Sum, false>, std::uint8_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_u8", narrow_sizes,
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  // The default configuration (config.hpp): warp-lookback with small tiles
  // up to default_max_small_bytes of input, then a middle tier up to
  // default_max_middle_bytes (224 x 44 tiles for 4-byte values since
  // 2026-11-28 and 2-byte ones since 11-29, coarsened for 1-byte ones since
  // 11-29; none for 8-byte ones), pipelined above. Sizes around the
  // switches and below them; "default" should track the fastest of its
  // tiers.
  std::vector<std::int64_t> switch_sizes;
  for (std::int64_t k :
       {8,     128,   512,   1024,  1536,  2048,  3072,  4096,  5120,  6144,  7168, 8192,
        10240, 12288, 14336, 16384, 20480, 24576, 28672, 32768, 40960, 49152, 65536})
    if (k * 128 >= (std::int64_t{1} << s.min_log) && k * 128 <= (std::int64_t{1} << s.max_log))
      switch_sizes.push_back(k * 128);
  const std::vector<const char*> default_names = {"warp-lookback", "warp-lookback small",
                                                  "pipelined", "default"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, BWarpSmall,
         BPipelined, BDefaultFor<std::uint32_t>>(s, "explore_default", switch_sizes, default_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, BWarpSmall,
         BPipelined, BDefaultFor<std::uint64_t>>(s, "explore_default_u64", switch_sizes,
                                                 default_names);
  // 1- and 2-byte values: coarsened was their default until 2026-11-27.
  run_op<Case<std::uint16_t, OpKind::Sum, false>, std::uint16_t, false, BWarp, BWarpSmall, BCoarse,
         BPipelined, BDefaultFor<std::uint16_t>>(
      s, "explore_default_u16", switch_sizes,
      {"warp-lookback", "warp-lookback small", "coarsened", "pipelined", "default"});
  run_op<Case<std::uint8_t, OpKind::Sum, false>, std::uint8_t, false, BWarp, BWarpSmall, BCoarse,
         BPipelined, BDefaultFor<std::uint8_t>>(
      s, "explore_default_u8", switch_sizes,
      {"warp-lookback", "warp-lookback small", "coarsened", "pipelined", "default"});
  // The floor under a one-launch scan at small n (2026-11-27, evening): how
  // close copies of our own come to cudaMemcpyAsync, next to the scans. From
  // 2^26 (night): whether one-tile blocks as such stop short of the copy
  // (warp-lookback and coarsened level off at 96.3% from 2^28).
  std::vector<std::int64_t> floor_sizes;
  for (int l = std::max(s.min_log, 10); l <= std::min(s.max_log, 30); ++l) {
    if (l > 24 && l % 2 == 1) continue;
    floor_sizes.push_back(std::int64_t{1} << l);
    if (l >= 16 && l <= 21) floor_sizes.push_back(std::int64_t{3} << (l - 1));
  }
  // EXPT rows: tile ids from blockIdx; the release publish the one-tile
  // protocols had until 2a20084 (its logs call the production rows of today
  // "EXPT-wsmall rlx-pub"); relaxed look-back reads on top of today's.
  using lookback::protocol::Order;
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarpSmall,
         ExptBookkeeping<BWarpSmall, TileIdSource::BlockIdx, Reset::Epoch>,
         ExptOrders<BWarpSmall, false, Order::Acquire>,
         ExptOrders<BWarpSmall, true, Order::Relaxed>, BPipelined, BDefaultFor<std::uint32_t>,
         BWarp, BCoarse>(
      s, "explore_copy_floor", floor_sizes,
      {"warp-lookback small", "EXPT-wsmall blockidx", "EXPT-wsmall release", "EXPT-wsmall rlx-rd",
       "pipelined", "default", "warp-lookback", "coarsened"},
      0, copy_floor_rows(s));
  // Relaxed packed publishes on the one-tile variants, at every size:
  // explore_copy_floor found them 0.4-1.2 us faster on the default's small
  // tiles from 2^13 to 2^20 items (2026-11-27, evening); since 2a20084 every
  // production protocol has them, and the EXPT rows are the release they
  // replaced (the logs of a45c457's build name the relaxed rows "rlx-pub").
  const auto rp_sizes = powers_of_two(s, {14, 16, 18, 20, 22, 24, 26, 28, 30});
  const std::vector<const char*> rp_names = {"warp-lookback small", "EXPT-wsmall release",
                                             "warp-lookback",       "EXPT-warp release",
                                             "coarsened",           "EXPT-coarse release"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarpSmall,
         ExptOrders<BWarpSmall, false, Order::Acquire>, BWarp,
         ExptOrders<BWarp, false, Order::Acquire>, BCoarse,
         ExptOrders<BCoarse, false, Order::Acquire>>(s, "explore_relaxed_publish", rp_sizes,
                                                     rp_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarpSmall,
         ExptOrders<BWarpSmall, false, Order::Acquire>, BWarp,
         ExptOrders<BWarp, false, Order::Acquire>, BCoarse,
         ExptOrders<BCoarse, false, Order::Acquire>>(s, "explore_relaxed_publish_u64", rp_sizes,
                                                     rp_names);
  // Warp-lookback shapes for small inputs (2026-11-27): CUB's 128 x 96 bytes
  // / 6 and smaller tiles against WarpLookback's 224 x 44 (warp-lookback*,
  // then the default's small half); 1- and 2-byte values capped at 24 or 16
  // items. w256 x 64B/4 became WarpLookbackSmallPolicy, so its row is BWarpSmall.
  std::vector<std::int64_t> small_tier_sizes;
  for (std::int64_t k :
       {8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 4096, 8192})
    if (k * 128 >= (std::int64_t{1} << s.min_log) && k * 128 <= (std::int64_t{1} << s.max_log))
      small_tier_sizes.push_back(k * 128);
  using W96x128 = Bench<C::WarpLookback, SmallWarpShape<128, 96, 6, 24>>;
  using W64x128 = Bench<C::WarpLookback, SmallWarpShape<128, 64, 8, 16>>;
  const std::vector<const char*> small_tier_names = {"warp-lookback*", "w128 x 96B/6",
                                                     "w128 x 64B/8", "w256 x 64B/4", "3-tier"};
  // The default of the time with w128 x 96B/6 below it up to 512 KiB (a
  // nested SizeAdaptive; 4 MiB was then the default's switch).
  using Tier3 = lookback::SizeAdaptive<lookback::SizeAdaptive<W96x128, BWarp, 512 << 10>,
                                       BPipelined, 4 << 20>;
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, W96x128, W64x128,
         BWarpSmall, Tier3>(s, "explore_small_warp", small_tier_sizes, small_tier_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, W96x128, W64x128,
         BWarpSmall, Tier3>(s, "explore_small_warp_u64", small_tier_sizes, small_tier_names);
  run_op<Case<std::uint16_t, OpKind::Sum, false>, std::uint16_t, false, BWarp, W96x128, W64x128,
         BWarpSmall>(s, "explore_small_warp_u16", small_tier_sizes, small_tier_names);
  run_op<Case<std::uint8_t, OpKind::Sum, false>, std::uint8_t, false, BWarp, W96x128, W64x128,
         BWarpSmall>(s, "explore_small_warp_u8", small_tier_sizes, small_tier_names);
  // The scalar path (pointers one item past a 16-byte boundary): since the
  // partial-tile change its kernels spill more (ptxas: pipelined u32 164
  // bytes, none before; bench/results/README.md, "Partial last tiles").
  using lookback::ScanConfig;
  using SCoarse = ScanConfig<C::Coarsened, lookback::CoarsenedPolicy, false, false, true>;
  using SPipelined = ScanConfig<C::Pipelined, lookback::PipelinedPolicy, false, false, true>;
  using SFallback = ScanConfig<C::Fallback, lookback::FallbackPolicy, false, false, true>;
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, SCoarse, SPipelined,
         SFallback>(s, "explore_misaligned", partial_sizes(16),
                    {"warp-lookback", "coarsened-scalar", "pipelined-scalar", "fallback-scalar"},
                    1);
  // What the per-tile bookkeeping of a one-launch scan costs: tile ids from
  // blockIdx, as CUB (EXPT blockidx; under the epoch reset a block still
  // draws from the launch word, for the epoch, so since 2026-11-26 this
  // saves only the tile id's dependence on the draw), and the epoch reset
  // itself (EXPT memset: the host clears the storage before every launch,
  // as the stateless API does; its memset is timed with the scan). Before
  // the launch word every block also read the epoch and counted itself
  // finished: that cost warp-lookback 3.5 points (bench/results/README.md).
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp,
         ExptBookkeeping<BWarp, TileIdSource::BlockIdx, Reset::Epoch>,
         ExptBookkeeping<BWarp, TileIdSource::Ticket, Reset::HostMemset>,
         ExptBookkeeping<BWarp, TileIdSource::BlockIdx, Reset::HostMemset>, BCoarse,
         ExptBookkeeping<BCoarse, TileIdSource::Ticket, Reset::HostMemset>, BPipelined, BFallback>(
      s, "explore_bookkeeping", large,
      {"warp-lookback", "EXPT-w blockidx", "EXPT-w memset", "EXPT-w blockidx+memset", "coarsened",
       "EXPT-c memset", "pipelined", "fallback"});
  // L2 prefetch of a later tile's input (2026-11-28): the thread that draws
  // a tile asks L2 for the input of the tile about B bytes further on
  // (TilePolicy::kL2PrefetchBytes: 1 MiB, coarsened 512 KiB; tiles of the
  // grid's first wave are not asked for). EXPT rows: none ("no-pf"), or
  // another distance ("pf2M": 2 MiB). policy.hpp has the sweep.
  const auto pf_sizes = powers_of_two(s, {20, 22, 24, 25, 26, 28, 30});
  using lookback::CoarsenedPolicy;
  using lookback::FallbackPolicy;
  using lookback::PipelinedPolicy;
  using lookback::WarpLookbackPolicy;
  constexpr int kKiB = 1 << 10;
  using NoPfWarp = Bench<C::WarpLookback, L2Prefetch<WarpLookbackPolicy, 0>>;
  using NoPfCoarse = Bench<C::Coarsened, L2Prefetch<CoarsenedPolicy, 0>>;
  using NoPfPipelined = Bench<C::Pipelined, L2Prefetch<PipelinedPolicy, 0>>;
  using NoPfFallback = Bench<C::Fallback, L2Prefetch<FallbackPolicy, 0>>;
  const std::vector<const char*> pf_names = {
      "warp-lookback", "EXPT-w no-pf", "EXPT-w pf2M",  "coarsened", "EXPT-c no-pf",
      "EXPT-c pf1M",   "pipelined",    "EXPT-p no-pf", "fallback",  "EXPT-f no-pf"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, NoPfWarp,
         Bench<C::WarpLookback, L2Prefetch<WarpLookbackPolicy, 2048 * kKiB>>, BCoarse, NoPfCoarse,
         Bench<C::Coarsened, L2Prefetch<CoarsenedPolicy, 1024 * kKiB>>, BPipelined, NoPfPipelined,
         BFallback, NoPfFallback>(s, "explore_prefetch", pf_sizes, pf_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, NoPfWarp,
         Bench<C::WarpLookback, L2Prefetch<WarpLookbackPolicy, 2048 * kKiB>>, BCoarse, NoPfCoarse,
         Bench<C::Coarsened, L2Prefetch<CoarsenedPolicy, 1024 * kKiB>>, BPipelined, NoPfPipelined,
         BFallback, NoPfFallback>(s, "explore_prefetch_u64", pf_sizes, pf_names);
  const std::vector<const char*> pf_inplace_names = {"pipelined", "EXPT-p no-pf", "fallback",
                                                     "EXPT-f no-pf", "EXPT-f pf2M"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, true, BPipelined, NoPfPipelined,
         BFallback, NoPfFallback, Bench<C::Fallback, L2Prefetch<FallbackPolicy, 2048 * kKiB>>>(
      s, "explore_prefetch_inplace", pf_sizes, pf_inplace_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, true, BPipelined, NoPfPipelined,
         BFallback, NoPfFallback, Bench<C::Fallback, L2Prefetch<FallbackPolicy, 2048 * kKiB>>>(
      s, "explore_prefetch_u64_inplace", pf_sizes, pf_inplace_names);
  // Pacing the first wave (2026-11-28, first_wave.cuh): the block of ticket
  // t < resident blocks waits t x tile bytes / pace before its loads, so the
  // first wave's tiles do not all finish their loads, look-backs and stores
  // at once (bench --suite trace showed waves of loads alone and stores
  // alone for 60 us on an H200). EXPT rows: pace in GB/s.
  const std::vector<const char*> pace_names = {
      "warp-lookback",   "EXPT-w pace2500", "EXPT-w pace4000", "EXPT-w pace6000", "coarsened",
      "EXPT-c pace2500", "EXPT-c pace4000", "EXPT-c pace6000", "pipelined",       "EXPT-p pace2500",
      "EXPT-p pace4000", "EXPT-p pace6000", "fallback",        "EXPT-f pace4000"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp,
         Bench<C::WarpLookback, lookback::PacedFirstWave<WarpLookbackPolicy, 2500>>,
         Bench<C::WarpLookback, lookback::PacedFirstWave<WarpLookbackPolicy, 4000>>,
         Bench<C::WarpLookback, lookback::PacedFirstWave<WarpLookbackPolicy, 6000>>, BCoarse,
         Bench<C::Coarsened, lookback::PacedFirstWave<CoarsenedPolicy, 2500>>,
         Bench<C::Coarsened, lookback::PacedFirstWave<CoarsenedPolicy, 4000>>,
         Bench<C::Coarsened, lookback::PacedFirstWave<CoarsenedPolicy, 6000>>, BPipelined,
         Bench<C::Pipelined, lookback::PacedFirstWave<PipelinedPolicy, 2500>>,
         Bench<C::Pipelined, lookback::PacedFirstWave<PipelinedPolicy, 4000>>,
         Bench<C::Pipelined, lookback::PacedFirstWave<PipelinedPolicy, 6000>>, BFallback,
         Bench<C::Fallback, lookback::PacedFirstWave<FallbackPolicy, 4000>>>(s, "explore_pace",
                                                                             pf_sizes, pace_names);
  // 8-byte persistent shapes for a GPU of more bandwidth per SM (H200,
  // 2026-11-28): the tuning suite found pipelined's 128 x (10 + 20) / 4
  // 2-6 points ahead of the chosen 192 x (4 + 12) / 4 there, the reverse of
  // the H100. Neighbours of it, and the same shapes for the fallback.
  // Staged bytes stay within the 48 KiB of static shared memory two stages
  // may take.
  const auto wide_sizes = powers_of_two(s, {20, 22, 24, 26, 28, 30});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BDefaultFor<std::uint64_t>,
         BPipelined, Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 96, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 176>>,
         Neighbour<C::Pipelined, TilePolicy<128, 96, 4, 0, 0, false, 0, 144>>,
         Neighbour<C::Pipelined, TilePolicy<192, 48, 4, 0, 0, false, 0, 96>>,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 3, 0, 0, false, 0, 160>>, BFallback,
         Neighbour<C::Fallback, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Fallback, TilePolicy<128, 64, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Fallback, TilePolicy<128, 48, 4, 0, 0, false, 0, 176>>>(
      s, "explore_u64_shapes", wide_sizes,
      {"default", "pipelined 192x(4+12)/4*", "p128x(10+20)/4", "p128x(12+20)/4", "p128x(10+22)/4",
       "p128x(12+18)/4", "p192x(6+12)/4", "p128x(10+20)/3", "fallback 128x(4+20)/4*",
       "f128x(10+20)/4", "f128x(8+20)/4", "f128x(6+22)/4"});
  run_op<Case<double, OpKind::Sum, false>, double, false, BDefaultFor<double>, BPipelined,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 96, 4, 0, 0, false, 0, 160>>, BFallback,
         Neighbour<C::Fallback, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>>(
      s, "explore_f64_shapes", wide_sizes,
      {"default", "pipelined 192x(4+12)/4*", "p128x(10+20)/4", "p128x(12+20)/4",
       "fallback 128x(4+20)/4*", "f128x(10+20)/4"});
}

// Look-back statistics from instrumented kernels, and forced stalls.
template <class Cfg>
void stats_one(const char* name, std::int64_t n, const char* perturbation,
               const lookback::device::Perturbation& perturb, Pools<std::uint32_t>& pools,
               cudaStream_t stream, bool quick) {
  lookback::ScanPlan<std::uint32_t, Cfg> plan;
  CHECK_CUDA(plan.init(n, stream));
  lookback::Options o;
  o.perturb = perturb;
  const int slices = pools.slices(n);
  const Timing t = time_it(
      [&](int sl) {
        CHECK_CUDA(plan.InclusiveSum(pools.in_slice(n, sl), pools.out_slice(n, sl), n, stream, o));
      },
      slices, stream, quick);
  CHECK_CUDA(plan.reset_stats(stream));
  CHECK_CUDA(plan.InclusiveSum(pools.in_slice(n, 0), pools.out_slice(n, 0), n, stream, o));
  lookback::LookbackStats st{};
  CHECK_CUDA(plan.read_stats(st, stream));
  const double tiles = static_cast<double>(lookback::detail::tiles_for<Cfg, std::uint32_t>(n));
  std::printf(
      "%-20s n=%-11lld %-22s %10.2f us  windows/tile %.3f  spins/tile %.3f  "
      "fallbacks %llu (won %llu)\n",
      name, static_cast<long long>(n), perturbation, t.median_us, st.windows / tiles,
      st.spin_rounds / tiles, st.fallbacks, st.fallback_wins);
  if (g_csv)
    std::fprintf(g_csv, "stats_%s,%lld,%s,%.3f,%.3f,%.4f,%.4f,%llu,%llu\n", name,
                 static_cast<long long>(n), perturbation, t.median_us, t.min_us, st.windows / tiles,
                 st.spin_rounds / tiles, st.fallbacks, st.fallback_wins);
}

void stats_suite(const Settings& s) {
  using lookback::device::Perturbation;
  using lookback::device::PerturbPoint;
  using IC = lookback::ScanConfig<lookback::Variant::Coarsened, lookback::CoarsenedPolicy, false,
                                  true, false>;
  using IF = lookback::ScanConfig<lookback::Variant::Fallback, lookback::FallbackPolicy, false,
                                  true, false>;
  using IW = lookback::ScanConfig<lookback::Variant::WarpLookback, lookback::WarpLookbackPolicy,
                                  false, true, false>;
  std::printf("\n== look-back statistics (instrumented kernels, u32 inclusive sum) ==\n");
  const std::int64_t big = std::int64_t{1} << std::min(s.max_log, 28);
  Pools<std::uint32_t> pools(big);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  using ICd = lookback::ScanConfig<lookback::Variant::Coarsened,
                                   lookback::TilePolicy<256, 128, 4, 0>, false, true, false>;
  using IP = lookback::ScanConfig<lookback::Variant::Pipelined, lookback::PipelinedPolicy, false,
                                  true, false>;
  const Perturbation none{};
  // Small inputs (2026-11-27, evening): how many windows and spin rounds the
  // default's first and last tiers take where the look-back, not the tile pipeline,
  // costs a scan 2.4-3.6 us over a copy (explore_copy_floor, with the release
  // publish the one-tile variants had until 2a20084; about 1.4-2.5 us since).
  using IWs = lookback::ScanConfig<lookback::Variant::WarpLookback,
                                   lookback::WarpLookbackSmallPolicy, false, true, false>;
  for (int l : {14, 16, 17, 18, 19, 20}) {
    stats_one<IWs>("warp-lookback-small", std::int64_t{1} << l, "-", none, pools, stream, s.quick);
    stats_one<IP>("pipelined", std::int64_t{1} << l, "-", none, pools, stream, s.quick);
  }
  for (std::int64_t n : {std::int64_t{1} << 20, std::int64_t{1} << 24, big}) {
    stats_one<ICd>("coarsened-nodelay", n, "-", none, pools, stream, s.quick);
    stats_one<IW>("warp-lookback", n, "-", none, pools, stream, s.quick);
    stats_one<IC>("coarsened", n, "-", none, pools, stream, s.quick);
    stats_one<IP>("pipelined", n, "-", none, pools, stream, s.quick);
    stats_one<IF>("fallback", n, "-", none, pools, stream, s.quick);
  }
  const std::int64_t n = std::int64_t{1} << 24;
  // The blocking simulation: every second tile sleeps before publishing its
  // AGGREGATE, so its successors wait (or, past the spin bound, fall back).
  // Stalls from 1 us (a tile's own time at 2^24 is about 13 us a block) to
  // 100 us (twice the unstalled scan).
  for (std::uint32_t stall : {1000u, 2000u, 5000u, 10000u, 20000u, 100000u}) {
    Perturbation q{};
    q.stall_ns = stall;
    q.stall_every = 2;
    const std::string label = "stall=" + std::to_string(stall) + "ns";
    stats_one<IC>("coarsened", n, label.c_str(), q, pools, stream, s.quick);
    stats_one<IP>("pipelined", n, label.c_str(), q, pools, stream, s.quick);
    stats_one<IF>("fallback", n, label.c_str(), q, pools, stream, s.quick);
  }
  // The same kind of sleeps, but where they block others (before AGGREGATE)
  // and where no tile waits for them (before PREFIX, the AGGREGATE already
  // out): half of the tiles, drawn by hash, sleep up to max_ns (uniform). The
  // second is the floor a scan with these sleeping tiles can reach; the gap
  // between the two is what waiting on sleepers costs.
  for (std::uint32_t max_ns : {40000u, 200000u}) {
    for (const PerturbPoint point : {PerturbPoint::BeforeAggregate, PerturbPoint::BeforePrefix}) {
      Perturbation q{};
      q.seed = 7;
      q.delay_chance = 32768;
      q.delay_ns[static_cast<int>(point)] = max_ns;
      const std::string label =
          std::string(point == PerturbPoint::BeforeAggregate ? "sleep<=" : "floor<=") +
          std::to_string(max_ns) + "ns";
      stats_one<IP>("pipelined", n, label.c_str(), q, pools, stream, s.quick);
      stats_one<IF>("fallback", n, label.c_str(), q, pools, stream, s.quick);
    }
  }
  CHECK_CUDA(cudaStreamDestroy(stream));
}

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

// Policy without the look-back delay (TilePolicy::kLookbackDelayNs).
template <class Policy>
struct NoDelay : Policy {
  static constexpr int kLookbackDelayNs = 0;
};

// Another look-back window (Protocol::window, at most 32: one warp's lanes).
template <int kWindow>
struct WindowChange {
  constexpr lookback::protocol::Protocol operator()(lookback::protocol::Protocol p) const {
    p.window = kWindow;
    return p;
  }
};

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

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--csv")
      s.csv = next();
    else if (a == "--min-log")
      s.min_log = std::atoi(next().c_str());
    else if (a == "--max-log")
      s.max_log = std::atoi(next().c_str());
    else if (a == "--quick")
      s.quick = true;
    else if (a == "--suite")
      s.suite = next();
    else if (a == "--group")
      s.group = next();
    else if (a == "--trace-dir")
      s.trace_dir = next();
    else {
      std::fprintf(stderr,
                   "usage: %s [--csv FILE] [--min-log L] [--max-log L] [--quick] "
                   "[--suite main|tuning|stats|explore|trace|all] [--group NAME] "
                   "[--trace-dir DIR]\n",
                   argv[0]);
      return 2;
    }
  }
  int dev = 0;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDevice(&dev));
  CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
  lookback::DeviceMemory mem;
  CHECK_CUDA(lookback::detail::query_device_memory(dev, mem));
  const double gbps_per_sm = lookback::dram_gbps_per_sm(mem);
  std::printf(
      "device: %s, %d SMs, L2 %d MB, sm_%d%d, DRAM %d MHz x %d bits = %.0f GB/s peak, %.1f GB/s "
      "per SM (8-byte default above the switch: %s)\n",
      prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, prop.major, prop.minor,
      mem.memory_clock_khz / 1000, mem.bus_width_bits, gbps_per_sm * mem.sms, gbps_per_sm,
      lookback::detail::picks_wide_here<lookback::PipelinedByDevice>() ? "pipelined-wide"
                                                                       : "pipelined");
  if (!s.csv.empty()) {
    g_csv = std::fopen(s.csv.c_str(), "w");
    if (!g_csv) {
      std::perror(s.csv.c_str());
      return 1;
    }
    std::fprintf(g_csv, "op,n,impl,median_us,min_us,gbps,pct_copy,speedup_vs_cub,check\n");
  }
  if (s.suite == "main" || s.suite == "all") main_suite(s);
  if (s.suite == "tuning" || s.suite == "all") tuning_suite(s);
  if (s.suite == "stats" || s.suite == "all") stats_suite(s);
  if (s.suite == "explore") explore_suite(s);
  if (s.suite == "trace") trace_suite(s);
  if (!s.group.empty() && g_groups_run == 0) {
    std::fprintf(stderr, "no operation group '%s' in suite '%s'\n", s.group.c_str(),
                 s.suite.c_str());
    if (g_csv) std::fclose(g_csv);
    return 2;
  }
  int failures = 0;
  for (const Row& r : g_rows)
    if (r.check.find("FAIL") != std::string::npos) ++failures;
  std::printf("\n%d result checks failed\n", failures);
  if (g_csv) std::fclose(g_csv);
  return failures ? 1 : 0;
}
