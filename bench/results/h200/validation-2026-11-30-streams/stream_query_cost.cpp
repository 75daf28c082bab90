// Host cost of the stream checks a scan makes on a stream other than the
// legacy default: cudaGetDevice + cudaStreamGetDevice, and cudaStreamIsCapturing.
#include <cuda_runtime_api.h>
#include <chrono>
#include <cstdio>
int main() {
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess) return 1;
  const int N = 1000000;
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    int sum = 0;
    for (int i = 0; i < N; ++i) {
      int c = -1, d = -1;
      cudaGetDevice(&c);
      cudaStreamGetDevice(s, &d);
      sum += c + d;
    }
    auto t1 = std::chrono::steady_clock::now();
    for (int i = 0; i < N; ++i) {
      cudaStreamCaptureStatus st;
      cudaStreamIsCapturing(s, &st);
      sum += st;
    }
    auto t2 = std::chrono::steady_clock::now();
    std::printf("getDevice+streamGetDevice %.1f ns/call, isCapturing %.1f ns/call (%d)\n",
                std::chrono::duration<double, std::nano>(t1 - t0).count() / N,
                std::chrono::duration<double, std::nano>(t2 - t1).count() / N, sum);
  }
}
