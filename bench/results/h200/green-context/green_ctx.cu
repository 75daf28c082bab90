// green_ctx: a MEASUREMENT (not built by CMake). Do the library's scans run,
// right and at what speed, on a stream of a green context, which holds a
// share of the GPU's SMs? The library sizes persistent grids, the L2
// prefetch window and the paced first wave by the whole device's SM count
// (cudaDevAttrMultiProcessorCount: dispatch.cuh, resident_blocks), which a
// green context does not change. For each SM count asked for, a green
// context (driver API) and a stream on it; the same scans on an ordinary
// stream of the primary context for comparison. Every result is checked
// (integers exactly against the CPU, f64 within a relative 1e-9 of a CPU
// sum, the deterministic f32 bitwise against the primary context's run)
// with the watchdog on (check_errors: a hang is an error), then timed
// without it: CUDA events, 3 warm-up calls, median of 21, beside a
// device-to-device cudaMemcpyAsync and cub::DeviceScan (checked too) on the
// same stream. The buffers are not rotated: from 2^24 u32 items they pass L2,
// below they may be read from it (alike for every row of a size).
//
//   nvcc -O3 -DNDEBUG --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr \
//     --extended-lambda -std=c++20 -Iinclude -cudart static \
//     bench/results/h200/green-context/green_ctx.cu -o green_ctx -L/usr/local/cuda/lib64/stubs
//     -lcuda
//   green_ctx [SM counts...]   (default: 16 66)
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <cub/device/device_scan.cuh>

#include "lookback/device_scan.cuh"

namespace {

#define CU_OK(x)                                                                      \
  do {                                                                                \
    const CUresult r_ = (x);                                                          \
    if (r_ != CUDA_SUCCESS) {                                                         \
      const char* s_ = nullptr;                                                       \
      cuGetErrorName(r_, &s_);                                                        \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_ ? s_ : "?"); \
      std::exit(2);                                                                   \
    }                                                                                 \
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
  unsigned sms;
};

// A green context of at least `want` SMs and a stream on it.
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
  return {"green " + std::to_string(part.sm.smCount) + " SMs", reinterpret_cast<cudaStream_t>(s),
          part.sm.smCount};
}

lookback::Options checked() {
  lookback::Options o;
  o.watchdog_rounds = 4000000u;
  o.check_errors = true;
  return o;
}
lookback::Options timed() {
  lookback::Options o;
  o.watchdog_rounds = 0;
  o.check_errors = false;
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

int failures = 0;
void report(const char* what, const Where& w, std::int64_t n, bool ok, float us, float copy_us) {
  if (!ok) ++failures;
  std::printf("%-22s %-16s n=2^%-2d %s  %9.2f us  copy %9.2f us  %5.2fx copy\n", what,
              w.name.c_str(), static_cast<int>(std::log2(static_cast<double>(n))),
              ok ? "ok  " : "FAIL", us, copy_us, us / copy_us);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> counts;
  for (int i = 1; i < argc; ++i)
    counts.push_back(static_cast<unsigned>(std::atoi(argv[i])));
  if (counts.empty()) counts = {16, 66};
  RT_OK(cudaSetDevice(0));
  RT_OK(cudaFree(nullptr));  // the primary context, before the green ones
  CU_OK(cuInit(0));
  CUdevice dev{};
  CU_OK(cuDeviceGet(&dev, 0));
  int sms = 0;
  RT_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  std::vector<Where> places;
  cudaStream_t primary{};
  RT_OK(cudaStreamCreateWithFlags(&primary, cudaStreamNonBlocking));
  places.push_back(
      {"primary " + std::to_string(sms) + " SMs", primary, static_cast<unsigned>(sms)});
  for (unsigned c : counts)
    places.push_back(green_stream(dev, c));

  const std::int64_t most = std::int64_t{1} << 26;
  std::vector<std::uint32_t> h32(most);
  std::vector<double> h64(most);
  std::vector<float> hf(most);
  std::uint64_t x = 88172645463325252ull;
  for (std::int64_t i = 0; i < most; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    h32[i] = static_cast<std::uint32_t>(x % 1000);
    h64[i] = static_cast<double>(x % 1000003) * 1e-3;
    hf[i] = static_cast<float>(x % 10007) * 1e-2f;
  }
  std::uint32_t *d32in, *d32out;
  double *d64in, *d64out;
  float *dfin, *dfout;
  RT_OK(cudaMalloc(&d32in, most * 4));
  RT_OK(cudaMalloc(&d32out, most * 4));
  RT_OK(cudaMalloc(&d64in, most * 8));
  RT_OK(cudaMalloc(&d64out, most * 8));
  RT_OK(cudaMalloc(&dfin, most * 4));
  RT_OK(cudaMalloc(&dfout, most * 4));
  RT_OK(cudaMemcpy(d32in, h32.data(), most * 4, cudaMemcpyHostToDevice));
  RT_OK(cudaMemcpy(d64in, h64.data(), most * 8, cudaMemcpyHostToDevice));
  RT_OK(cudaMemcpy(dfin, hf.data(), most * 4, cudaMemcpyHostToDevice));
  std::size_t temp_bytes = std::size_t{64} << 20;
  void* temp;
  RT_OK(cudaMalloc(&temp, temp_bytes));

  std::vector<std::uint32_t> g32(most);
  std::vector<double> g64(most);
  std::vector<float> gf(most), det_primary(most);
  for (const int lg : {10, 16, 20, 24, 26}) {
    const std::int64_t n = std::int64_t{1} << lg;
    // CPU references.
    std::vector<std::uint32_t> r32(n), rmax(n);
    std::vector<double> r64(n);
    std::uint32_t acc = 0, mx = 0;
    double accd = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      acc += h32[i];
      r32[i] = acc;
      rmax[i] = mx;  // exclusive max, init 0
      mx = std::max(mx, h32[i]);
      accd += h64[i];
      r64[i] = accd;
    }
    for (const Where& w : places) {
      cudaStream_t s = w.stream;
      const float copy32 = median_us(
          s, [&] { RT_OK(cudaMemcpyAsync(d32out, d32in, n * 4, cudaMemcpyDeviceToDevice, s)); });
      const float copy64 = median_us(
          s, [&] { RT_OK(cudaMemcpyAsync(d64out, d64in, n * 8, cudaMemcpyDeviceToDevice, s)); });
      // Default u32 inclusive sum.
      {
        std::size_t need = 0;
        RT_OK(lookback::DeviceScan::InclusiveSum(nullptr, need, d32in, d32out, n, s));
        if (need > temp_bytes) return 3;
        RT_OK(cudaMemsetAsync(d32out, 0xff, n * 4, s));
        RT_OK(lookback::DeviceScan::InclusiveSum(temp, temp_bytes, d32in, d32out, n, s, checked()));
        RT_OK(cudaMemcpy(g32.data(), d32out, n * 4, cudaMemcpyDeviceToHost));
        const bool ok = std::equal(r32.begin(), r32.end(), g32.begin());
        const float us = median_us(s, [&] {
          RT_OK(lookback::DeviceScan::InclusiveSum(temp, temp_bytes, d32in, d32out, n, s, timed()));
        });
        report("default u32 sum", w, n, ok, us, copy32);
      }
      // CUB, for comparison.
      {
        std::size_t need = 0;
        RT_OK(cub::DeviceScan::InclusiveSum(nullptr, need, d32in, d32out, n, s));
        if (need > temp_bytes) return 3;
        RT_OK(cudaMemsetAsync(d32out, 0xff, n * 4, s));
        RT_OK(cub::DeviceScan::InclusiveSum(temp, need, d32in, d32out, n, s));
        RT_OK(cudaMemcpyAsync(g32.data(), d32out, n * 4, cudaMemcpyDeviceToHost, s));
        RT_OK(cudaStreamSynchronize(s));
        const bool ok = std::equal(r32.begin(), r32.end(), g32.begin());
        const float us = median_us(
            s, [&] { RT_OK(cub::DeviceScan::InclusiveSum(temp, need, d32in, d32out, n, s)); });
        report("cub u32 sum", w, n, ok, us, copy32);
      }
      {
        std::size_t need = 0;
        RT_OK(cub::DeviceScan::InclusiveSum(nullptr, need, d64in, d64out, n, s));
        if (need > temp_bytes) return 3;
        RT_OK(cub::DeviceScan::InclusiveSum(temp, need, d64in, d64out, n, s));
        RT_OK(cudaMemcpyAsync(g64.data(), d64out, n * 8, cudaMemcpyDeviceToHost, s));
        RT_OK(cudaStreamSynchronize(s));
        bool ok = true;
        for (std::int64_t i = 0; i < n && ok; ++i)
          ok = std::fabs(g64[i] - r64[i]) <= 1e-9 * std::max(1.0, std::fabs(r64[i]));
        const float us = median_us(
            s, [&] { RT_OK(cub::DeviceScan::InclusiveSum(temp, need, d64in, d64out, n, s)); });
        report("cub f64 sum", w, n, ok, us, copy64);
      }
      // Fallback u32 exclusive max.
      {
        RT_OK(cudaMemsetAsync(d32out, 0xff, n * 4, s));
        RT_OK(lookback::DeviceScan::ExclusiveScan<lookback::Fallback>(
            temp, temp_bytes, d32in, d32out, lookback::Max{}, 0u, n, s, checked()));
        RT_OK(cudaMemcpy(g32.data(), d32out, n * 4, cudaMemcpyDeviceToHost));
        const bool ok = std::equal(rmax.begin(), rmax.end(), g32.begin());
        const float us = median_us(s, [&] {
          RT_OK(lookback::DeviceScan::ExclusiveScan<lookback::Fallback>(
              temp, temp_bytes, d32in, d32out, lookback::Max{}, 0u, n, s, timed()));
        });
        report("fallback u32 excl max", w, n, ok, us, copy32);
      }
      // Default f64 inclusive sum.
      {
        RT_OK(cudaMemsetAsync(d64out, 0xff, n * 8, s));
        RT_OK(lookback::DeviceScan::InclusiveSum(temp, temp_bytes, d64in, d64out, n, s, checked()));
        RT_OK(cudaMemcpy(g64.data(), d64out, n * 8, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (std::int64_t i = 0; i < n && ok; ++i)
          ok = std::fabs(g64[i] - r64[i]) <= 1e-9 * std::max(1.0, std::fabs(r64[i]));
        const float us = median_us(s, [&] {
          RT_OK(lookback::DeviceScan::InclusiveSum(temp, temp_bytes, d64in, d64out, n, s, timed()));
        });
        report("default f64 sum", w, n, ok, us, copy64);
      }
      // Deterministic default f32: the same bits as on the primary context.
      {
        using Det = lookback::DeterministicDefaultConfig<float>;
        RT_OK(cudaMemsetAsync(dfout, 0xff, n * 4, s));
        RT_OK(lookback::DeviceScan::InclusiveSum<Det>(temp, temp_bytes, dfin, dfout, n, s,
                                                      checked()));
        RT_OK(cudaMemcpy(gf.data(), dfout, n * 4, cudaMemcpyDeviceToHost));
        if (&w == &places.front()) std::copy(gf.begin(), gf.begin() + n, det_primary.begin());
        const bool ok = std::memcmp(gf.data(), det_primary.data(), n * 4) == 0;
        const float us = median_us(s, [&] {
          RT_OK(lookback::DeviceScan::InclusiveSum<Det>(temp, temp_bytes, dfin, dfout, n, s,
                                                        timed()));
        });
        report("det f32 sum (bits)", w, n, ok, us, copy32);
      }
      // A plan of the pipelined (persistent) variant: one launch a call.
      {
        lookback::ScanPlan<std::uint32_t, lookback::Pipelined> plan;
        RT_OK(plan.init(n, s));
        RT_OK(cudaMemsetAsync(d32out, 0xff, n * 4, s));
        RT_OK(plan.InclusiveSum(d32in, d32out, n, s, checked()));
        RT_OK(cudaMemcpy(g32.data(), d32out, n * 4, cudaMemcpyDeviceToHost));
        const bool ok = std::equal(r32.begin(), r32.end(), g32.begin());
        const float us =
            median_us(s, [&] { RT_OK(plan.InclusiveSum(d32in, d32out, n, s, timed())); });
        report("plan pipelined u32", w, n, ok, us, copy32);
      }
    }
  }
  std::printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
