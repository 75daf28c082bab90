// The device a stream belongs to, asked in a way that leaves a stream capture
// alone. The runtime's cudaStreamGetDevice and the driver's cuStreamGetDevice
// fail on a stream being captured and invalidate the capture, in every
// capture mode; the driver's cuStreamGetCtx and cuCtxGetDevice_v2 do neither
// and name a capturing stream's device like any other's (two H200s, CUDA 13:
// bench/results/h200/validation-2026-11-30-capture-device/), in about two
// thirds of cudaStreamGetDevice's time. Only on a stream whose capture was
// invalidated does cuStreamGetCtx fail (CUDA_ERROR_STREAM_CAPTURE_INVALIDATED):
// validate_stream asks that first. They are reached through
// cudaGetDriverEntryPointByVersion, so nothing links libcuda; a CUDA 13
// runtime runs only on a CUDA 13 driver, which has both.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>  // PFN_cuStreamGetCtx_v9020, PFN_cuCtxGetDevice_v13000
#include <cuda_runtime_api.h>

#include <string>

#include "lookback/device/error.hpp"

#if CUDART_VERSION < 13000
#error "lookback needs the CUDA 13 toolkit (cuCtxGetDevice_v2 names a stream's device)"
#endif

namespace lookback::detail {

struct DriverStreamQueries {
  PFN_cuStreamGetCtx_v9020 stream_context = nullptr;
  PFN_cuCtxGetDevice_v13000 context_device = nullptr;
  std::string missing;  // why they could not be had ("" when both were)
};

// Resolved once per process.
inline const DriverStreamQueries& driver_stream_queries() {
  static const DriverStreamQueries queries = [] {
    DriverStreamQueries q;
    auto resolve = [&q](const char* symbol, int version, void** fn) {
      cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
      const cudaError_t e =
          cudaGetDriverEntryPointByVersion(symbol, fn, version, cudaEnableDefault, &found);
      if (e == cudaSuccess && found == cudaDriverEntryPointSuccess && *fn != nullptr) return;
      if (!q.missing.empty()) return;  // the first one says it
      q.missing = std::string("the driver gives no ") + symbol + " (version " +
                  std::to_string(version) + "): " +
                  (e != cudaSuccess ? cudaGetErrorName(e)
                   : found == cudaDriverEntryPointVersionNotSufficent
                       ? "the driver is older than that version"
                       : "no such symbol");
    };
    resolve("cuStreamGetCtx", 9020, reinterpret_cast<void**>(&q.stream_context));
    resolve("cuCtxGetDevice", 13000, reinterpret_cast<void**>(&q.context_device));
    return q;
  }();
  return queries;
}

// The runtime's code for the driver errors these two queries return.
inline cudaError_t runtime_error_of(CUresult r) {
  switch (r) {
    case CUDA_ERROR_DEINITIALIZED:
      return cudaErrorCudartUnloading;  // at process exit
    case CUDA_ERROR_NOT_INITIALIZED:
      return cudaErrorInitializationError;
    case CUDA_ERROR_INVALID_CONTEXT:
      return cudaErrorDeviceUninitialized;
    case CUDA_ERROR_INVALID_HANDLE:
      return cudaErrorInvalidResourceHandle;
    case CUDA_ERROR_NOT_SUPPORTED:
      return cudaErrorNotSupported;
    case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED:  // seen on H200s, though not documented
      return cudaErrorStreamCaptureInvalidated;
    default:
      return cudaErrorUnknown;
  }
}

// `stream` is a stream handle, not one of the special ones (0,
// cudaStreamLegacy, cudaStreamPerThread: those are the current device's).
inline cudaError_t stream_device(cudaStream_t stream, int& device) {
  const DriverStreamQueries& q = driver_stream_queries();
  if (!q.missing.empty())
    return fail(cudaErrorNotSupported, "cannot ask the stream's device: " + q.missing);
  CUcontext context = nullptr;
  CUdevice of_context = -1;
  CUresult r = q.stream_context(stream, &context);
  if (r == CUDA_SUCCESS) r = q.context_device(&of_context, context);
  if (r != CUDA_SUCCESS)
    return fail(runtime_error_of(r), "asking the driver the stream's device failed (CUresult " +
                                         std::to_string(static_cast<int>(r)) + ")");
  device = static_cast<int>(of_context);
  return cudaSuccess;
}

}  // namespace lookback::detail
