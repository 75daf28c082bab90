// Checks the GPU test plumbing itself: a kernel runs and its result comes back.
#include <vector>

#include "gpu_test_util.hpp"

namespace {
__global__ void iota_kernel(unsigned* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 3u + 1u;
}
}  // namespace

TEST(GpuSmoke, KernelRunsAndWritesEveryElement) {
  LOOKBACK_REQUIRE_GPU();
  constexpr unsigned n = 1000;
  unsigned* d = nullptr;
  LOOKBACK_CUDA_OK(cudaMalloc(&d, n * sizeof(unsigned)));
  LOOKBACK_CUDA_OK(cudaMemset(d, 0xff, n * sizeof(unsigned)));
  iota_kernel<<<(n + 255) / 256, 256>>>(d, n);
  LOOKBACK_CUDA_OK(cudaGetLastError());
  std::vector<unsigned> h(n);
  LOOKBACK_CUDA_OK(cudaMemcpy(h.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  LOOKBACK_CUDA_OK(cudaFree(d));
  for (unsigned i = 0; i < n; ++i)
    ASSERT_EQ(h[i], i * 3u + 1u) << "at " << i;
}
