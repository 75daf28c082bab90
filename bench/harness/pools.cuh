// Rotating input/output pools for one value type: every timed launch reads
// and writes another slice of pools of at least 256 MiB each (more than the
// H100's 50 MB of L2 and the H200's 60), so no launch finds its data in L2.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "harness/check.cuh"

namespace lookback_bench {

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
  Pools(const Pools&) = delete;
  Pools& operator=(const Pools&) = delete;
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

}  // namespace lookback_bench
