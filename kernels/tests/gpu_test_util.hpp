// Helpers for GPU tests: skip cleanly (with the reason) when no CUDA device
// can be used, fail when the binary holds no code for the one there, and
// turn CUDA errors into test failures with their message.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

#include "lookback/device/error.hpp"

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

#ifdef __CUDACC__
// An empty kernel: whether the binary holds code the device runs. A template
// so that the CUDA files of one binary that include this share one
// definition (a __global__ function cannot be inline).
template <int = 0>
__global__ void probe_kernel() {}

// Empty string when this binary holds code the current device can run;
// otherwise why not. A device the build did not target is a failure, not a
// skip: every GPU test skipped would pass a GPU run that tested nothing.
inline std::string gpu_unrunnable_reason() {
  cudaFuncAttributes attributes{};
  const cudaError_t err = cudaFuncGetAttributes(&attributes, probe_kernel<>);
  if (err == cudaSuccess) return {};
  cudaGetLastError();  // clear the error for later calls (a sticky one stays)
  const std::string what = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
  // (An invalid device function is blamed on the binary too: the probe is a
  // valid kernel.)
  if (::lookback::detail::is_image_error(err) || err == cudaErrorInvalidDeviceFunction)
    return "a CUDA device is present but this test binary cannot run on it: " + what +
           ::lookback::detail::device_arch_hint(err);
  return "the CUDA device cannot be used: " + what;  // e.g. an earlier test's sticky error
}
#endif

}  // namespace lookback::testing

// First statement of every GPU test: skips without a device and, in a CUDA
// translation unit, fails on a device this binary holds no code for. (A
// host-compiled test, e.g. proptests/gpu_scan_properties.cpp, holds no kernel
// to probe with; its first scan fails with the library's message, which says
// the same: error.hpp, arch_hint.) The two definitions differ, so the macro
// belongs in test bodies only, never in an inline function that host and
// CUDA files share.
#ifdef __CUDACC__
#define LOOKBACK_REQUIRE_GPU()                                                            \
  do {                                                                                    \
    const std::string lookback_reason = ::lookback::testing::gpu_unavailable_reason();    \
    if (!lookback_reason.empty()) GTEST_SKIP() << lookback_reason;                        \
    const std::string lookback_unrunnable = ::lookback::testing::gpu_unrunnable_reason(); \
    if (!lookback_unrunnable.empty()) GTEST_FAIL() << lookback_unrunnable;                \
  } while (0)
#else
#define LOOKBACK_REQUIRE_GPU()                                                         \
  do {                                                                                 \
    const std::string lookback_reason = ::lookback::testing::gpu_unavailable_reason(); \
    if (!lookback_reason.empty()) GTEST_SKIP() << lookback_reason;                     \
  } while (0)
#endif

// Fails the test with the CUDA error's name and message.
#define LOOKBACK_CUDA_OK(expr)                                                              \
  do {                                                                                      \
    const cudaError_t lookback_err = (expr);                                                \
    ASSERT_EQ(lookback_err, cudaSuccess) << #expr << ": " << cudaGetErrorName(lookback_err) \
                                         << ": " << cudaGetErrorString(lookback_err);       \
  } while (0)
