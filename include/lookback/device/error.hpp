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
inline cudaError_t fail_cuda(cudaError_t e, const char* what) {
  return fail(e,
              std::string(what) + " failed: " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
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
