// one_size: an EXPERIMENT driver for profilers, not the library. It runs one
// variant's u32 inclusive sum at one size, `reps` times, and checks the last
// output, so that a profiler (ncu -k ... --launch-skip) picks a launch of
// exactly the size asked for: lookback_bench interleaves sizes and variants,
// which made its launches hard to select.
//
//   lookback_one_size <warp-lookback|coarsened|pipelined|fallback> <n> [reps=20]
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "lookback/device_scan.cuh"

namespace {

template <class Config>
int run(std::int64_t n, int reps) {
  using T = std::uint32_t;
  std::vector<T> host(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    host[i] = static_cast<T>(i % 7 + 1);
  T *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(T)));
  CHECK(cudaMalloc(&out, n * sizeof(T)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  lookback::ScanPlan<T, Config> plan;
  CHECK(plan.init(n));
  for (int r = 0; r < reps; ++r)
    CHECK(plan.InclusiveSum(in, out, n));
  CHECK(cudaDeviceSynchronize());
  std::vector<T> got(static_cast<std::size_t>(n));
  CHECK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
  T sum = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    sum += host[i];
    if (got[i] != sum) {
      std::fprintf(stderr, "wrong output at %lld\n", static_cast<long long>(i));
      return 1;
    }
  }
  std::printf("ok: %lld items, %d launches\n", static_cast<long long>(n), reps);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <warp-lookback|coarsened|pipelined|fallback> <n> [reps]\n",
                 argv[0]);
    return 2;
  }
  const std::string variant = argv[1];
  const std::int64_t n = std::atoll(argv[2]);
  const int reps = argc > 3 ? std::atoi(argv[3]) : 20;
  if (n < 1 || reps < 1) {
    std::fprintf(stderr, "n and reps must be positive\n");
    return 2;
  }
  if (variant == "warp-lookback") return run<lookback::WarpLookback>(n, reps);
  if (variant == "coarsened") return run<lookback::Coarsened>(n, reps);
  if (variant == "pipelined") return run<lookback::Pipelined>(n, reps);
  if (variant == "fallback") return run<lookback::Fallback>(n, reps);
  std::fprintf(stderr, "unknown variant %s\n", variant.c_str());
  return 2;
}
