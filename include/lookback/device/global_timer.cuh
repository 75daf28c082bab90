// The GPU's global timer, one clock for every SM (the per-SM cycle counters
// are not aligned with each other). It ticks every 32 ns on the H200s seen
// here; bench --suite trace prints the step it observed.
#pragma once

#include <cstdint>

namespace lookback::device {

// Nanoseconds since an arbitrary origin, the same on every SM.
__device__ inline std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

}  // namespace lookback::device
