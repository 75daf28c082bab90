// What a scan kernel receives. Host and device code include this.
#pragma once

#include <cstdint>

#include "lookback/device/perturb.hpp"
#include "lookback/device/temp_storage.hpp"
#include "lookback/device/trace.hpp"

namespace lookback::device {

// The tiles whose input a launch's blocks may ask L2 for: [from, to).
// Tiles of the first wave (blocks resident at once x tiles a block holds)
// are left out, their own blocks load them at once; so is a partial last
// tile. The launch computes it (dispatch.cuh) into KernelParams.
struct PrefetchWindow {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
};
constexpr PrefetchWindow prefetch_window(std::uint32_t resident_blocks, int tiles_per_block,
                                         std::int64_t num_items, std::int64_t tile_items) {
  return {resident_blocks * static_cast<std::uint32_t>(tiles_per_block),
          static_cast<std::uint32_t>(num_items / tile_items)};
}

// Blocks of the first wave: those resident at once, each drawing its first
// tile (first_wave.cuh paces their loads).
constexpr std::uint32_t first_wave_blocks(PrefetchWindow window, int tiles_per_block) {
  return window.from / static_cast<std::uint32_t>(tiles_per_block);
}

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
  // Instrumented kernels only: where each tile's timeline goes (trace.hpp);
  // the launch clamps its capacity to num_tiles.
  TileTrace trace{};
};

}  // namespace lookback::device
