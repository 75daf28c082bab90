// The API example of device_scan.cuh (and of bench/README.md), compiled and
// run as a test so that it stays true.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gpu_test_util.hpp"
#include "lookback/device_scan.cuh"

namespace {
cudaError_t example(const std::uint32_t* d_in, std::uint32_t* d_out, std::int64_t n,
                    cudaStream_t stream) {
  // --- example ---
  std::size_t bytes = 0;  // 1. how much temp storage?
  cudaError_t e = lookback::DeviceScan::InclusiveSum(nullptr, bytes, d_in, d_out, n, stream);
  void* d_temp = nullptr;  // (if it stayed null, the call below would be a query again)
  if (e == cudaSuccess) e = cudaMalloc(&d_temp, bytes);
  if (e == cudaSuccess)  // 2. scan (one memset + one kernel)
    e = lookback::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n, stream);
  cudaFree(d_temp);
  lookback::ScanPlan<std::uint32_t, lookback::Fallback> plan;  // persistent storage:
  if (e == cudaSuccess) e = plan.init(n, stream);  // zeroed once, then one launch per scan
  if (e == cudaSuccess) e = plan.ExclusiveScan(d_out, d_out, lookback::Max{}, 0u, n, stream);
  if (e != cudaSuccess)  // the library's calls say why; CUDA's own, only the code
    std::fprintf(stderr, "%s: %s\n", cudaGetErrorName(e), lookback::last_error_message());
  // --- end of example ---
  return e;
}
}  // namespace

TEST(ScanExample, ReadmeExampleRuns) {
  LOOKBACK_REQUIRE_GPU();
  const std::int64_t n = 100000;
  std::vector<std::uint32_t> in(n);
  for (std::int64_t i = 0; i < n; ++i)
    in[i] = static_cast<std::uint32_t>(i % 7);
  std::uint32_t *d_in = nullptr, *d_out = nullptr;
  LOOKBACK_CUDA_OK(cudaMalloc(&d_in, n * 4));
  LOOKBACK_CUDA_OK(cudaMalloc(&d_out, n * 4));
  LOOKBACK_CUDA_OK(cudaMemcpy(d_in, in.data(), n * 4, cudaMemcpyHostToDevice));
  ASSERT_EQ(example(d_in, d_out, n, 0), cudaSuccess) << lookback::last_error_message();
  std::vector<std::uint32_t> got(n);
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
  // Running max of the exclusive prefix sums: the prefix sums themselves
  // (they never decrease), shifted by one.
  std::uint32_t inclusive = 0;  // in[0] + ... + in[i-1] when checking element i
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(got[i], inclusive) << "at " << i;
    inclusive += in[i];
  }
  cudaFree(d_in);
  cudaFree(d_out);
}
