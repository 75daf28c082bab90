// Helpers for GPU tests: skip cleanly (with the reason) when no CUDA device
// can be used, and turn CUDA errors into test failures with their message.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

namespace lookback::testing {

// Empty string when a device is usable, otherwise why not.
inline std::string gpu_unavailable_reason() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error for later calls
    return std::string("no usable CUDA device: ") + cudaGetErrorName(err) + ": " +
           cudaGetErrorString(err);
  }
  if (count == 0) return "no CUDA device present";
  return {};
}

}  // namespace lookback::testing

// First statement of every GPU test.
#define LOOKBACK_REQUIRE_GPU()                                                         \
  do {                                                                                 \
    const std::string lookback_reason = ::lookback::testing::gpu_unavailable_reason(); \
    if (!lookback_reason.empty()) GTEST_SKIP() << lookback_reason;                     \
  } while (0)

// Fails the test with the CUDA error's name and message.
#define LOOKBACK_CUDA_OK(expr)                                                              \
  do {                                                                                      \
    const cudaError_t lookback_err = (expr);                                                \
    ASSERT_EQ(lookback_err, cudaSuccess) << #expr << ": " << cudaGetErrorName(lookback_err) \
                                         << ": " << cudaGetErrorString(lookback_err);       \
  } while (0)
