// What a scan kernel receives. Host and device code include this.
#pragma once

#include <cstdint>

#include "lookback/device/temp_storage.hpp"

namespace lookback::device {

template <class T, class Op>
struct KernelParams {
  const T* in;
  T* out;
  std::int64_t num_items;
  std::uint32_t num_tiles;
  Header* header;
  void* descriptors;
  T init;  // exclusive scans: the value left of element 0
  Op op;
  std::uint32_t watchdog;     // wait-loop bound, 0 = unbounded
  std::uint32_t stall_ns;     // instrumented kernels: injected stall
  std::uint32_t stall_every;  //   ... of every stall_every-th tile
};

}  // namespace lookback::device
