// shapes: a MEASUREMENT (not built by CMake). Is one of the library's
// existing configurations faster than the default's choice on a green
// context of few SMs (README.md here)? Each variant's ScanPlan, u32 and f64
// inclusive sums at 2^22, 2^24 and 2^26 items, on the primary context and on
// green contexts of the SM counts given; checked once with the watchdog on
// (within 1e-6 relative: the inputs are integers and halves, exact), then
// timed without it (events, 3 warm-up calls, median of 21) beside a
// device-to-device copy on the same stream. Built as green_ctx.cu is.
//   shapes 16 32
#include <cuda.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>
#include "lookback/device_scan.cuh"
#define CU_OK(x)                               \
  do {                                         \
    if ((x) != CUDA_SUCCESS) {                 \
      std::fprintf(stderr, "%s failed\n", #x); \
      std::exit(2);                            \
    }                                          \
  } while (0)
#define RT_OK(x)                                                    \
  do {                                                              \
    cudaError_t e_ = (x);                                           \
    if (e_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s: %s %s\n", #x, cudaGetErrorName(e_), \
                   lookback::last_error_message());                 \
      std::exit(2);                                                 \
    }                                                               \
  } while (0)
static float median_us(cudaStream_t s, const std::function<void()>& call) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i)
    call();
  std::vector<float> t;
  for (int i = 0; i < 21; ++i) {
    cudaEventRecord(a, s);
    call();
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms * 1000);
  }
  std::nth_element(t.begin(), t.begin() + 10, t.end());
  return t[10];
}
template <class Cfg, class T>
static void row(const char* name, cudaStream_t s, const T* in, T* out, std::int64_t n,
                const std::vector<T>& ref, float copy) {
  lookback::ScanPlan<T, Cfg> plan;
  RT_OK(plan.init(n, s));
  lookback::Options chk;
  chk.watchdog_rounds = 4000000u;
  chk.check_errors = true;
  RT_OK(plan.InclusiveSum(in, out, n, s, chk));
  std::vector<T> got(n);
  RT_OK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (std::int64_t i = 0; i < n && ok; ++i) {
    double d = double(got[i]) - double(ref[i]);
    ok = d < 1e-6 * (1 + std::abs(double(ref[i]))) && d > -1e-6 * (1 + std::abs(double(ref[i])));
  }
  lookback::Options fast;
  fast.watchdog_rounds = 0;
  fast.check_errors = false;
  float us = median_us(s, [&] { RT_OK(plan.InclusiveSum(in, out, n, s, fast)); });
  std::printf("  %-16s %s %9.2f us  %5.2fx copy\n", name, ok ? "ok  " : "FAIL", us, us / copy);
}
int main(int argc, char** argv) {
  RT_OK(cudaSetDevice(0));
  RT_OK(cudaFree(nullptr));
  CU_OK(cuInit(0));
  CUdevice dev;
  CU_OK(cuDeviceGet(&dev, 0));
  std::vector<std::pair<std::string, cudaStream_t>> places;
  cudaStream_t p;
  RT_OK(cudaStreamCreateWithFlags(&p, cudaStreamNonBlocking));
  places.push_back({"primary 132", p});
  for (int i = 1; i < argc; ++i) {
    CUdevResource all{}, part{}, rest{};
    unsigned g = 1;
    CU_OK(cuDeviceGetDevResource(dev, &all, CU_DEV_RESOURCE_TYPE_SM));
    CU_OK(cuDevSmResourceSplitByCount(&part, &g, &all, &rest, 0, atoi(argv[i])));
    CUdevResourceDesc d;
    CU_OK(cuDevResourceGenerateDesc(&d, &part, 1));
    CUgreenCtx gc;
    CU_OK(cuGreenCtxCreate(&gc, d, dev, CU_GREEN_CTX_DEFAULT_STREAM));
    CUstream st;
    CU_OK(cuGreenCtxStreamCreate(&st, gc, CU_STREAM_NON_BLOCKING, 0));
    places.push_back(
        {"green " + std::to_string(part.sm.smCount), reinterpret_cast<cudaStream_t>(st)});
  }
  for (int lg : {22, 24, 26}) {
    const std::int64_t n = std::int64_t{1} << lg;
    std::vector<unsigned> h32(n), r32(n);
    std::vector<double> h64(n), r64(n);
    unsigned acc = 0;
    double accd = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      h32[i] = unsigned(i * 2654435761u) % 1000;
      acc += h32[i];
      r32[i] = acc;
      h64[i] = double(h32[i]) * 0.5;
      accd += h64[i];
      r64[i] = accd;
    }
    unsigned *i32, *o32;
    double *i64, *o64;
    RT_OK(cudaMalloc(&i32, n * 4));
    RT_OK(cudaMalloc(&o32, n * 4));
    RT_OK(cudaMalloc(&i64, n * 8));
    RT_OK(cudaMalloc(&o64, n * 8));
    RT_OK(cudaMemcpy(i32, h32.data(), n * 4, cudaMemcpyHostToDevice));
    RT_OK(cudaMemcpy(i64, h64.data(), n * 8, cudaMemcpyHostToDevice));
    for (auto& [name, s] : places) {
      float c32 = median_us(
          s, [&] { RT_OK(cudaMemcpyAsync(o32, i32, n * 4, cudaMemcpyDeviceToDevice, s)); });
      float c64 = median_us(
          s, [&] { RT_OK(cudaMemcpyAsync(o64, i64, n * 8, cudaMemcpyDeviceToDevice, s)); });
      std::printf("%s n=2^%d u32 (copy %.2f us)\n", name.c_str(), lg, c32);
      row<lookback::WarpLookback>("warp-lookback", s, i32, o32, n, r32, c32);
      row<lookback::Coarsened>("coarsened", s, i32, o32, n, r32, c32);
      row<lookback::Pipelined>("pipelined", s, i32, o32, n, r32, c32);
      row<lookback::Fallback>("fallback", s, i32, o32, n, r32, c32);
      std::printf("%s n=2^%d f64 (copy %.2f us)\n", name.c_str(), lg, c64);
      row<lookback::Coarsened>("coarsened", s, i64, o64, n, r64, c64);
      row<lookback::Pipelined>("pipelined", s, i64, o64, n, r64, c64);
      row<lookback::PipelinedWide>("pipelined-wide", s, i64, o64, n, r64, c64);
      row<lookback::Fallback>("fallback", s, i64, o64, n, r64, c64);
    }
    cudaFree(i32);
    cudaFree(o32);
    cudaFree(i64);
    cudaFree(o64);
  }
  return 0;
}
