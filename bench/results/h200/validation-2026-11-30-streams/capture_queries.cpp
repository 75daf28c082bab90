// Which stream queries CUDA allows during a stream capture, and whether they
// invalidate it: cudaStreamGetDevice on the capturing stream and on another
// stream, in each capture mode, with and without a relaxed exchange.
#include <cuda_runtime_api.h>
#include <cstdio>
#include <thread>
static const char* n(cudaError_t e) {
  return cudaGetErrorName(e);
}
static void capture_case(const char* name, cudaStreamCaptureMode mode, bool query_capturing,
                         bool relaxed_exchange, bool other_thread) {
  cudaStream_t a, b;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  cudaError_t begin = cudaStreamBeginCapture(a, mode);
  cudaError_t q = cudaSuccess, iscap = cudaSuccess;
  int dev = -1;
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  auto body = [&] {
    cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
    if (relaxed_exchange) cudaThreadExchangeStreamCaptureMode(&m);
    q = cudaStreamGetDevice(query_capturing ? a : b, &dev);
    iscap = cudaStreamIsCapturing(query_capturing ? a : b, &st);
    if (relaxed_exchange) cudaThreadExchangeStreamCaptureMode(&m);
  };
  if (other_thread) {
    std::thread t(body);
    t.join();
  } else
    body();
  cudaGraph_t g = nullptr;
  cudaError_t end = cudaStreamEndCapture(a, &g);
  std::printf(
      "%-58s begin %s | GetDevice %s (dev %d) | IsCapturing %s (%d) | EndCapture %s | last %s\n",
      name, n(begin), n(q), dev, n(iscap), (int)st, n(end), n(cudaGetLastError()));
  if (g) cudaGraphDestroy(g);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}
int main() {
  int count = 0;
  cudaGetDeviceCount(&count);
  std::printf("devices %d\n", count);
  for (auto [mode, mname] : {std::pair{cudaStreamCaptureModeGlobal, "Global"},
                             std::pair{cudaStreamCaptureModeThreadLocal, "ThreadLocal"},
                             std::pair{cudaStreamCaptureModeRelaxed, "Relaxed"}}) {
    char buf[128];
    for (int relaxed = 0; relaxed < 2; ++relaxed) {
      std::snprintf(buf, sizeof buf, "%s: capturing stream%s", mname,
                    relaxed ? " +relaxed xchg" : "");
      capture_case(buf, mode, true, relaxed, false);
      std::snprintf(buf, sizeof buf, "%s: other stream, same thread%s", mname,
                    relaxed ? " +relaxed xchg" : "");
      capture_case(buf, mode, false, relaxed, false);
      std::snprintf(buf, sizeof buf, "%s: other stream, other thread%s", mname,
                    relaxed ? " +relaxed xchg" : "");
      capture_case(buf, mode, false, relaxed, true);
    }
  }
}
