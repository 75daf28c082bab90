// The benchmark's checks: CHECK_CUDA (a failed CUDA call prints where and
// why, with the library's last message, and exits 1), the inputs every
// group scans, and on-GPU comparisons of outputs.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "lookback/device_scan.cuh"
#include "lookback/splitmix.hpp"

#define CHECK_CUDA(expr)                                                      \
  do {                                                                        \
    const cudaError_t e_ = (expr);                                            \
    if (e_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #expr, \
                   cudaGetErrorName(e_), lookback::last_error_message());     \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

namespace lookback_bench {

// Integers use all bits (sums wrap), or with small_values are 0 .. 8 (as
// many values as the floats get, for telling the data's effect from the
// type's); floats are integers in [-4, 4], so every association of their
// sums is exact and outputs can be compared bitwise.
template <class T>
__global__ void fill(T* p, std::int64_t n, std::uint64_t seed, bool small_values = false) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t r = lookback::splitmix64(seed + static_cast<std::uint64_t>(i));
    if constexpr (std::is_floating_point_v<T>) {
      p[i] = static_cast<T>(static_cast<int>(r % 9) - 4);
    } else {
      p[i] = static_cast<T>(small_values ? r % 9 : r);
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

// Items of a and b that differ bitwise.
template <class T>
unsigned long long mismatches(const T* a, const T* b, std::int64_t n) {
  return device_count([&](unsigned long long* d) { count_mismatches<<<1024, 256>>>(a, b, n, d); });
}

}  // namespace lookback_bench
