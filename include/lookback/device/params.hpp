// What a scan kernel receives. Host and device code include this.
#pragma once

#include <cstdint>

#include "lookback/device/l2_prefetch.cuh"
#include "lookback/device/perturb.hpp"
#include "lookback/device/temp_storage.hpp"

namespace lookback::device {

template <class T, class Op>
struct KernelParams {
  // May equal `out` (in place): no __restrict__, __ldg or .nc loads on it.
  const T* in;
  T* out;
  std::int64_t num_items;
  std::uint32_t num_tiles;
  Header* header;
  DescriptorStorage descriptors;  // region and capacity (temp_storage.hpp)
  T init;                         // exclusive scans: the value left of element 0
  Op op;
  std::uint32_t watchdog;  // wait-loop bound, 0 = unbounded
  Perturbation perturb;    // instrumented kernels only
  // Tiles whose input an agent that prefetches into L2 may ask for
  // (l2_prefetch.cuh); set by the launch.
  PrefetchWindow prefetch{};
};

}  // namespace lookback::device
