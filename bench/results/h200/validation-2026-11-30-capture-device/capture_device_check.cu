// The library's own stream check (lookback::detail::validate_stream, which
// asks the stream's device through stream_device.hpp) on streams being
// captured: in each capture mode, on a stream of the current device and of
// another one, does it name the right device and leave the capture going?
// Also with the driver entry points resolved for the first time inside a
// capture (one process per mode: `capture_device_check first <mode>`), and
// the host cost of the check against the runtime's queries.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "lookback/device/dispatch.cuh"

static const char* n(cudaError_t e) {
  return cudaGetErrorName(e);
}

static cudaStreamCaptureMode mode_of(const char* name) {
  if (!std::strcmp(name, "Global")) return cudaStreamCaptureModeGlobal;
  if (!std::strcmp(name, "ThreadLocal")) return cudaStreamCaptureModeThreadLocal;
  return cudaStreamCaptureModeRelaxed;
}

// One capture on a stream of `stream_device` (device 0 current): the check,
// checked (`synchronizes`) or not, then the capture's state and its end.
static void check_in_capture(const char* mode, int stream_device, bool synchronizes) {
  cudaSetDevice(stream_device);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaSetDevice(0);
  const cudaError_t begin = cudaStreamBeginCapture(s, mode_of(mode));
  int dev = -1;
  const cudaError_t asked = lookback::detail::stream_device(s, dev);
  const cudaError_t checked = lookback::detail::validate_stream(s, synchronizes);
  const std::string message = lookback::last_error_message();
  cudaStreamCaptureStatus st{};
  const cudaError_t iscap = cudaStreamIsCapturing(s, &st);
  cudaGraph_t g = nullptr;
  const cudaError_t end = cudaStreamEndCapture(s, &g);
  std::printf(
      "%-11s stream of dev %d %-9s begin %s | stream_device %s (dev %d) | validate_stream %s | "
      "capturing %s (%d) | End %s | last %s | %s\n",
      mode, stream_device, synchronizes ? "checked" : "unchecked", n(begin), n(asked), dev,
      n(checked), n(iscap), (int)st, n(end), n(cudaGetLastError()), message.c_str());
  if (g) cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

static void cost() {
  cudaSetDevice(0);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const int reps = 1000000;
  int d;
  cudaStreamCaptureStatus st;
  auto time = [&](const char* what, auto f) {
    for (int i = 0; i < 1000; ++i)
      f();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i)
      f();
    const auto t1 = std::chrono::steady_clock::now();
    std::printf("cost %-44s %.1f ns\n", what,
                std::chrono::duration<double, std::nano>(t1 - t0).count() / reps);
  };
  time("validate_stream (non-blocking, not captured)",
       [&] { (void)lookback::detail::validate_stream(s, true); });
  time("validate_stream (legacy default stream)",
       [&] { (void)lookback::detail::validate_stream(nullptr, true); });
  time("stream_device", [&] { (void)lookback::detail::stream_device(s, d); });
  time("cudaStreamGetDevice", [&] { cudaStreamGetDevice(s, &d); });
  time("cudaGetDevice", [&] { cudaGetDevice(&d); });
  time("cudaStreamIsCapturing", [&] { cudaStreamIsCapturing(s, &st); });
  cudaStreamDestroy(s);
}

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  int count = 0, drv = 0, rt = 0;
  cudaGetDeviceCount(&count);
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  const int other = count > 1 ? 1 : 0;
  if (argc == 3 && !std::strcmp(argv[1], "first")) {
    // The first stream_device of this process, inside a capture.
    std::printf("first resolution inside a capture: ");
    check_in_capture(argv[2], other, false);
    return 0;
  }
  std::printf("devices %d driver %d runtime %d\n", count, drv, rt);
  for (const char* mode : {"Global", "ThreadLocal", "Relaxed"})
    for (int dev = 0; dev <= other; ++dev)
      for (const bool synchronizes : {false, true})
        check_in_capture(mode, dev, synchronizes);
  cost();
}
