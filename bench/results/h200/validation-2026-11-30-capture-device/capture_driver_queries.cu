// Whether the driver can name a capturing stream's device without ending the
// capture: cuStreamGetCtx (+ cuCtxGetDevice_v2), cuStreamGetCtx_v2 and
// cuStreamGetDevice on a stream being captured, in each capture mode, for a
// stream of the current device and of another one; and what a kernel captured
// on another device's stream does when the graph is launched. Also the host
// cost of each query on a stream that is not capturing.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <chrono>
#include <cstdio>
static const char* n(cudaError_t e) {
  return cudaGetErrorName(e);
}
using StreamGetCtx = CUresult (*)(CUstream, CUcontext*);
using StreamGetCtx2 = CUresult (*)(CUstream, CUcontext*, CUgreenCtx*);
using CtxGetDevice2 = CUresult (*)(CUdevice*, CUcontext);
using StreamGetDevice = CUresult (*)(CUstream, CUdevice*);
using GetErrorName = CUresult (*)(CUresult, const char**);
static StreamGetCtx stream_get_ctx;
static StreamGetCtx2 stream_get_ctx2;
static CtxGetDevice2 ctx_get_device2;
static StreamGetDevice stream_get_device;
static GetErrorName get_error_name;
static const char* rn(CUresult r) {
  const char* s = "?";
  if (get_error_name) get_error_name(r, &s);
  return s;
}
template <class F>
static void load(F& f, const char* sym, int version) {
  cudaDriverEntryPointQueryResult q{};
  cudaError_t e = cudaGetDriverEntryPointByVersion(sym, reinterpret_cast<void**>(&f), version,
                                                   cudaEnableDefault, &q);
  std::printf("load %-20s v%d: %s query %d ptr %p\n", sym, version, n(e), (int)q, (void*)f);
}
__global__ void write_one(int* p) {
  *p = 1;
}
static void capture_case(const char* name, cudaStreamCaptureMode mode, int stream_device,
                         int which) {
  cudaSetDevice(stream_device);
  cudaStream_t a;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaSetDevice(0);
  cudaError_t begin = cudaStreamBeginCapture(a, mode);
  CUresult r1 = CUDA_SUCCESS, r2 = CUDA_SUCCESS;
  CUcontext ctx = nullptr;
  CUgreenCtx green = nullptr;
  CUdevice dev = -1;
  const char* what = "";
  if (which == 0) {
    what = "cuStreamGetCtx+cuCtxGetDevice_v2";
    r1 = stream_get_ctx(a, &ctx);
    if (r1 == CUDA_SUCCESS) r2 = ctx_get_device2(&dev, ctx);
  } else if (which == 1) {
    what = "cuStreamGetCtx_v2+cuCtxGetDevice_v2";
    r1 = stream_get_ctx2(a, &ctx, &green);
    if (r1 == CUDA_SUCCESS && ctx) r2 = ctx_get_device2(&dev, ctx);
  } else {
    what = "cuStreamGetDevice";
    r1 = stream_get_device(a, &dev);
  }
  cudaStreamCaptureStatus st{};
  cudaError_t iscap = cudaStreamIsCapturing(a, &st);
  cudaGraph_t g = nullptr;
  cudaError_t end = cudaStreamEndCapture(a, &g);
  std::printf(
      "%-12s stream of dev %d %-36s begin %s | %s / %s dev %d | capturing %s (%d) | End %s | last "
      "%s\n",
      name, stream_device, what, n(begin), rn(r1), rn(r2), (int)dev, n(iscap), (int)st, n(end),
      n(cudaGetLastError()));
  if (g) cudaGraphDestroy(g);
  cudaStreamDestroy(a);
}
static void captured_launch_on_other_device() {
  // A kernel writing device 0's memory, captured on a stream of device 1 with
  // device 0 current: where does the node run?
  int* p = nullptr;
  cudaSetDevice(0);
  cudaMalloc(&p, sizeof(int));
  cudaMemset(p, 0, sizeof(int));
  cudaSetDevice(1);
  cudaStream_t a;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaSetDevice(0);
  cudaError_t begin = cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal);
  write_one<<<1, 1, 0, a>>>(p);
  cudaError_t launch = cudaGetLastError();
  cudaGraph_t g = nullptr;
  cudaError_t end = cudaStreamEndCapture(a, &g);
  cudaGraphExec_t x = nullptr;
  cudaError_t inst = cudaGraphInstantiate(&x, g, 0);
  cudaError_t glaunch = inst == cudaSuccess ? cudaGraphLaunch(x, a) : cudaErrorUnknown;
  cudaError_t sync = cudaStreamSynchronize(a);
  int v = -1;
  cudaError_t copy = cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost);
  std::printf(
      "captured launch on dev-1 stream, dev 0 memory: begin %s launch %s end %s inst %s "
      "graphlaunch %s sync %s copy %s value %d\n",
      n(begin), n(launch), n(end), n(inst), n(glaunch), n(sync), n(copy), v);
}
static void cost() {
  cudaSetDevice(0);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const int reps = 1000000;
  CUcontext ctx;
  CUdevice dev;
  int d;
  auto time = [&](const char* what, auto f) {
    for (int i = 0; i < 1000; ++i)
      f();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i)
      f();
    auto t1 = std::chrono::steady_clock::now();
    std::printf("cost %-36s %.1f ns\n", what,
                std::chrono::duration<double, std::nano>(t1 - t0).count() / reps);
  };
  time("cuStreamGetCtx", [&] { stream_get_ctx(s, &ctx); });
  time("cuStreamGetCtx+cuCtxGetDevice_v2", [&] {
    stream_get_ctx(s, &ctx);
    ctx_get_device2(&dev, ctx);
  });
  time("cuStreamGetDevice", [&] { stream_get_device(s, &dev); });
  time("cudaStreamGetDevice", [&] { cudaStreamGetDevice(s, &d); });
  time("cudaGetDevice", [&] { cudaGetDevice(&d); });
  cudaStreamCaptureStatus st;
  time("cudaStreamIsCapturing", [&] { cudaStreamIsCapturing(s, &st); });
  cudaStreamDestroy(s);
}
int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  int count = 0, drv = 0, rt = 0;
  cudaGetDeviceCount(&count);
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  std::printf("devices %d driver %d runtime %d\n", count, drv, rt);
  load(stream_get_ctx, "cuStreamGetCtx", 12000);
  load(stream_get_ctx2, "cuStreamGetCtx", 12050);
  load(ctx_get_device2, "cuCtxGetDevice", 13000);
  load(stream_get_device, "cuStreamGetDevice", 12080);
  load(get_error_name, "cuGetErrorName", 12000);
  if (!stream_get_ctx || !ctx_get_device2 || !stream_get_device || !get_error_name) return 1;
  for (auto [mode, mname] : {std::pair{cudaStreamCaptureModeGlobal, "Global"},
                             std::pair{cudaStreamCaptureModeThreadLocal, "ThreadLocal"},
                             std::pair{cudaStreamCaptureModeRelaxed, "Relaxed"}})
    for (int dev = 0; dev < count && dev < 2; ++dev)
      for (int which = 0; which < 3; ++which)
        if (which != 1 || stream_get_ctx2) capture_case(mname, mode, dev, which);
  cost();  // before the captured launch below, which ends the context
  if (count > 1) captured_launch_on_other_device();
}
