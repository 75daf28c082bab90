// Which multiprocessor the calling thread runs on (%smid): the tile timeline
// records it (trace.cuh), the flag-latency probe places its pair by it
// (bench/explore/flag_latency.cu). PTX says %smid may change during a
// thread's life (preemption) and need not be contiguous; both users only
// record or compare it at one point.
#pragma once

#include <cstdint>

namespace lookback::device {

__device__ inline std::uint32_t sm_id() {
  std::uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

}  // namespace lookback::device
