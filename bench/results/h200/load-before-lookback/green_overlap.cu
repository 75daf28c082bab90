// EXPERIMENT (measurement only): the persistent kernel's order (Policy::kOverlap
// of a patched agent_striped.cuh) on a stream of green contexts of 16 and 32
// SMs and on the primary context. Plans of pipelined u32 and wide u64 sums,
// checked exactly against the CPU (watchdog on), then timed (median of 21
// after 3 warm-ups, CUDA events), each row twice in alternating order.
#include <cuda.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "lookback/device_scan.cuh"

namespace {
#define CU_OK(x)                                                                             \
  do {                                                                                       \
    const CUresult r_ = (x);                                                                 \
    if (r_ != CUDA_SUCCESS) {                                                                \
      std::fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #x, static_cast<int>(r_)); \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)
#define RT_OK(x)                                                                               \
  do {                                                                                         \
    const cudaError_t e_ = (x);                                                                \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_), \
                   lookback::last_error_message());                                            \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)
struct Where {
  std::string name;
  cudaStream_t stream;
};
Where green_stream(CUdevice dev, unsigned want) {
  CUdevResource all{}, part{}, rest{};
  CU_OK(cuDeviceGetDevResource(dev, &all, CU_DEV_RESOURCE_TYPE_SM));
  unsigned groups = 1;
  CU_OK(cuDevSmResourceSplitByCount(&part, &groups, &all, &rest, 0, want));
  CUdevResourceDesc desc{};
  CU_OK(cuDevResourceGenerateDesc(&desc, &part, 1));
  CUgreenCtx g{};
  CU_OK(cuGreenCtxCreate(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
  CUstream s{};
  CU_OK(cuGreenCtxStreamCreate(&s, g, CU_STREAM_NON_BLOCKING, 0));
  return {"green" + std::to_string(part.sm.smCount), reinterpret_cast<cudaStream_t>(s)};
}
lookback::Options opts(bool checked) {
  lookback::Options o;
  o.watchdog_rounds = checked ? 4000000u : 0u;
  o.check_errors = checked;
  return o;
}
float median_us(cudaStream_t s, const std::function<void()>& call) {
  cudaEvent_t a, b;
  RT_OK(cudaEventCreate(&a));
  RT_OK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    call();
  std::vector<float> t;
  for (int i = 0; i < 21; ++i) {
    RT_OK(cudaEventRecord(a, s));
    call();
    RT_OK(cudaEventRecord(b, s));
    RT_OK(cudaEventSynchronize(b));
    float ms = 0;
    RT_OK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1000.f);
  }
  RT_OK(cudaEventDestroy(a));
  RT_OK(cudaEventDestroy(b));
  std::nth_element(t.begin(), t.begin() + 10, t.end());
  return t[10];
}
template <class Base, int K>
struct Ov : Base {
  static constexpr int kOverlap = K;
};
template <class P>
using Cfg = lookback::ScanConfig<lookback::Variant::Pipelined, P, false, false, false>;
int failures = 0;

template <class T, class P>
void row(const char* name, const Where& w, const T* in, T* out, std::int64_t n,
         const std::vector<T>& ref, float copy_us) {
  cudaStream_t s = w.stream;
  lookback::ScanPlan<T, Cfg<P>> plan;
  RT_OK(plan.init(n, s));
  RT_OK(cudaMemsetAsync(out, 0xff, n * sizeof(T), s));
  RT_OK(plan.InclusiveSum(in, out, n, s, opts(true)));
  std::vector<T> got(n);
  RT_OK(cudaMemcpyAsync(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost, s));
  RT_OK(cudaStreamSynchronize(s));
  const bool ok = std::equal(ref.begin(), ref.begin() + n, got.begin());
  if (!ok) ++failures;
  const float us = median_us(s, [&] { RT_OK(plan.InclusiveSum(in, out, n, s, opts(false))); });
  std::printf("%-8s %-16s 2^%-2d %s %9.2f us  copy %9.2f  %.3fx\n", w.name.c_str(), name,
              __builtin_ctzll(static_cast<unsigned long long>(n)), ok ? "ok  " : "FAIL", us,
              copy_us, us / copy_us);
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> counts;
  for (int i = 1; i < argc; ++i)
    counts.push_back(static_cast<unsigned>(std::atoi(argv[i])));
  if (counts.empty()) counts = {16, 32};
  RT_OK(cudaSetDevice(0));
  RT_OK(cudaFree(nullptr));
  CU_OK(cuInit(0));
  CUdevice dev{};
  CU_OK(cuDeviceGet(&dev, 0));
  std::vector<Where> places;
  cudaStream_t primary{};
  RT_OK(cudaStreamCreateWithFlags(&primary, cudaStreamNonBlocking));
  places.push_back({"primary", primary});
  for (unsigned c : counts)
    places.push_back(green_stream(dev, c));

  const std::int64_t most = std::int64_t{1} << 26;
  std::vector<std::uint32_t> h32(most), r32(most);
  std::vector<std::uint64_t> h64(most), r64(most);
  std::uint64_t x = 88172645463325252ull;
  std::uint32_t a32 = 0;
  std::uint64_t a64 = 0;
  for (std::int64_t i = 0; i < most; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    h32[i] = static_cast<std::uint32_t>(x % 1000);
    h64[i] = x >> 20;
    r32[i] = a32 += h32[i];
    r64[i] = a64 += h64[i];
  }
  std::uint32_t *i32, *o32;
  std::uint64_t *i64, *o64;
  RT_OK(cudaMalloc(&i32, most * 4));
  RT_OK(cudaMalloc(&o32, most * 4));
  RT_OK(cudaMalloc(&i64, most * 8));
  RT_OK(cudaMalloc(&o64, most * 8));
  RT_OK(cudaMemcpy(i32, h32.data(), most * 4, cudaMemcpyHostToDevice));
  RT_OK(cudaMemcpy(i64, h64.data(), most * 8, cudaMemcpyHostToDevice));
  using Pp = lookback::PipelinedPolicy;
  using Pw = lookback::PipelinedWidePolicy;
  for (const int lg : {22, 24, 26}) {
    const std::int64_t n = std::int64_t{1} << lg;
    for (const Where& w : places) {
      cudaStream_t s = w.stream;
      const float c32 = median_us(
          s, [&] { RT_OK(cudaMemcpyAsync(o32, i32, n * 4, cudaMemcpyDeviceToDevice, s)); });
      const float c64 = median_us(
          s, [&] { RT_OK(cudaMemcpyAsync(o64, i64, n * 8, cudaMemcpyDeviceToDevice, s)); });
      for (int rep = 0; rep < 2; ++rep) {
        row<std::uint32_t, Pp>("u32 pipelined", w, i32, o32, n, r32, c32);
        row<std::uint32_t, Ov<Pp, 1>>("u32 ov1", w, i32, o32, n, r32, c32);
        row<std::uint32_t, Ov<Pp, 2>>("u32 ov2", w, i32, o32, n, r32, c32);
        row<std::uint64_t, Pw>("u64 wide", w, i64, o64, n, r64, c64);
        row<std::uint64_t, Ov<Pw, 1>>("u64 wide ov1", w, i64, o64, n, r64, c64);
        row<std::uint64_t, Ov<Pw, 2>>("u64 wide ov2", w, i64, o64, n, r64, c64);
      }
    }
  }
  std::printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
