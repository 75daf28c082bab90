// How the benchmark times one operation: CUDA events around every launch,
// warm-up launches first, then the median and minimum of the repetitions
// (as many as fit in about 60 ms, 15 to 300; --quick: 20 ms, 7 to 50).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "harness/check.cuh"

namespace lookback_bench {

struct Timing {
  double median_us, min_us;
};

// Times `launch(slice)` (enqueues one operation on `stream` using rotating
// slice `slice`, of `slices`).
inline Timing time_it(const std::function<void(int)>& launch, int slices, cudaStream_t stream,
                      bool quick) {
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    launch(i % slices);
  CHECK_CUDA(cudaEventRecord(a, stream));
  launch(3 % slices);
  CHECK_CUDA(cudaEventRecord(b, stream));
  CHECK_CUDA(cudaEventSynchronize(b));
  float est_ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&est_ms, a, b));
  const double budget_ms = quick ? 20.0 : 60.0;
  int reps = static_cast<int>(budget_ms / std::max(est_ms, 0.002f));
  reps = std::clamp(reps, quick ? 7 : 15, quick ? 50 : 300);
  std::vector<cudaEvent_t> ev(2 * reps);
  for (auto& e : ev)
    CHECK_CUDA(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r) {
    CHECK_CUDA(cudaEventRecord(ev[2 * r], stream));
    launch((r + 4) % slices);
    CHECK_CUDA(cudaEventRecord(ev[2 * r + 1], stream));
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<double> t(reps);
  for (int r = 0; r < reps; ++r) {
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]));
    t[r] = ms * 1000.0;
  }
  for (auto& e : ev)
    CHECK_CUDA(cudaEventDestroy(e));
  CHECK_CUDA(cudaEventDestroy(a));
  CHECK_CUDA(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return {t[reps / 2], t[0]};
}

}  // namespace lookback_bench
