// Errors: every API call returns a cudaError_t, and a failing call leaves a
// readable message for lookback::last_error_message() (per host thread;
// cleared by the next successful call).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace lookback {

namespace detail {
inline std::string& error_slot() {
  static thread_local std::string message;
  return message;
}
inline cudaError_t fail(cudaError_t e, const std::string& message) {
  error_slot() = "lookback: " + message;
  return e;
}

// Whether an error says the binary holds no code the device can run (built
// for other architectures, or PTX newer than the driver compiles).
inline bool is_image_error(cudaError_t e) {
  return e == cudaErrorNoKernelImageForDevice || e == cudaErrorUnsupportedPtxVersion;
}

// What to add to such an error, for a device of compute capability
// major.minor: which architecture it is and what to build for it (a new
// GPU's bring-up meets this first when its binaries were built for sm_90
// alone). Empty for any other error.
inline std::string arch_hint(cudaError_t e, int major, int minor) {
  if (!is_image_error(e)) return {};
  const std::string arch = std::to_string(major * 10 + minor);
  if (major < 9) return " (the device is sm_" + arch + "; lookback's kernels need sm_90 or newer)";
  if (e == cudaErrorUnsupportedPtxVersion)
    return " (the device is sm_" + arch +
           "; the binary's PTX is newer than this driver compiles: update the driver, or build "
           "SASS for it: nvcc -arch=sm_" +
           arch + ", CMake CUDA_ARCHITECTURES " + arch + "-real)";
  return " (the device is sm_" + arch + ", which this binary holds no code for: build for it, " +
         "nvcc -arch=sm_" + arch + " or CMake CUDA_ARCHITECTURES " + arch +
         ", or with PTX the driver compiles (nvcc -arch=compute_90, CMake 90 rather than "
         "90-real); the tuning is sm_90's)";
}

// arch_hint for the current device (asked only for an image error).
inline std::string device_arch_hint(cudaError_t e) {
  if (!is_image_error(e)) return {};
  int dev = 0, major = 0, minor = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess)
    return {};
  return arch_hint(e, major, minor);
}

inline cudaError_t fail_cuda(cudaError_t e, const char* what) {
  return fail(e, std::string(what) + " failed: " + cudaGetErrorName(e) + ": " +
                     cudaGetErrorString(e) + device_arch_hint(e));
}
inline cudaError_t succeed() {
  error_slot().clear();
  return cudaSuccess;
}
}  // namespace detail

// Message of the last failed lookback call on this thread ("" after a success).
inline const char* last_error_message() {
  return detail::error_slot().c_str();
}

}  // namespace lookback
