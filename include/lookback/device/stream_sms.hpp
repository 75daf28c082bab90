// Whether a stream's kernels run on a share of the GPU's SMs: a green
// context's (CUDA's SM partitions, e.g. an inference server's). Persistent
// grids, the L2 prefetch window and the paced first wave are sized from the
// SMs a launch may use (dispatch.cuh, resident_blocks): sized from the whole
// device, a 16-SM partition of an H200 got a persistent grid of 132 SMs'
// blocks (the surplus blocks start only when the resident ones leave, to
// find no tile) and no L2 prefetch for the tiles 132 SMs' first wave would
// have taken (bench/results/h200/green-context/).
//
// The driver's cuStreamGetCtx_v2 names a stream's green context, and for the
// special streams that of the context current to the thread, when a green
// one was made current (cuCtxFromGreenCtx); like cuStreamGetCtx it leaves a
// stream capture alone (stream_device.hpp). cuGreenCtxGetDevResource gives the share's SMs; it
// is asked only for a green context's stream: it took about 0.5 us a call on
// an H200, as did cuCtxGetDevResource, which would have served every stream
// (bench/results/h200/green-context/stream-sms/).
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <string>

#include "lookback/device/error.hpp"
#include "lookback/device/stream_device.hpp"

namespace lookback::detail {

// SMs of the green context `stream` runs on, or 0 when it runs on an
// ordinary context (the whole device's SMs). A special stream on a thread
// with no current context: 0 (the runtime will make the device's primary
// context current for the launch).
inline cudaError_t stream_green_sm_count(cudaStream_t stream, unsigned& sms) {
  sms = 0;
  const DriverStreamQueries& q = driver_stream_queries();
  if (!q.missing.empty())
    return fail(cudaErrorNotSupported, "cannot ask for the stream's green context: " + q.missing);
  // The special streams belong to the current context; asked as the legacy
  // stream, which stands for it in every build (the driver refuses the
  // per-thread handle while a green context is current, and 0 means that
  // handle where per-thread default streams are compiled in).
  const bool special =
      stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
  if (special) stream = cudaStreamLegacy;
  CUcontext context = nullptr;
  CUgreenCtx green = nullptr;
  CUresult r = q.stream_green_context(stream, &context, &green);
  if (r == CUDA_ERROR_INVALID_CONTEXT && special) return cudaSuccess;
  CUdevResource resource{};
  if (r == CUDA_SUCCESS && green != nullptr)
    r = q.green_resource(green, &resource, CU_DEV_RESOURCE_TYPE_SM);
  if (r != CUDA_SUCCESS)
    return fail(runtime_error_of(r),
                "asking the driver for the stream's green context failed (CUresult " +
                    std::to_string(static_cast<int>(r)) + ")");
  if (green != nullptr && resource.sm.smCount == 0)
    return fail(cudaErrorInvalidResourceHandle, "the driver says the green context holds no SM");
  sms = green != nullptr ? resource.sm.smCount : 0u;
  return cudaSuccess;
}

}  // namespace lookback::detail
