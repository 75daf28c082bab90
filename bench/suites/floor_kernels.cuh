// Kernels for the benchmark's explore_copy_floor group (explore_protocol.cu;
// the non-template kernels are static, a copy per includer): copies of our
// own (what a kernel launched like the scans can do against
// cudaMemcpyAsync) and a ladder from a copy to a scan on WarpLookbackSmall's
// tile (the same CUB primitives), each step adding one of the scan's costs;
// none looks back.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

namespace lookback_bench {

// Grid-stride loop of 16-byte loads and stores (n4 vectors); the grid is
// what the device holds resident, as a streaming copy would size it.
static __global__ void copy_grid_stride(const uint4* __restrict__ in, uint4* __restrict__ out,
                                        std::int64_t n4) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n4;
       i += stride)
    out[i] = in[i];
}

// One tile per block, the shape of a scan's tile pipeline without the scan:
// every thread loads its kVectors 16-byte vectors (striped across the block,
// so each load instruction is coalesced), and only then stores them.
template <int kVectors>
__global__ void copy_tile(const uint4* __restrict__ in, uint4* __restrict__ out, std::int64_t n4) {
  const std::int64_t base =
      static_cast<std::int64_t>(blockIdx.x) * blockDim.x * kVectors + threadIdx.x;
  uint4 v[kVectors];
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x;
    if (i < n4) v[k] = in[i];
  }
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x;
    if (i < n4) out[i] = v[k];
  }
}

// One step of the ladder: a tile of kThreads x kItems u32 through CUB's
// warp-transposed loads and stores (as agent_cub.cuh), then optionally a
// block-wide inclusive sum of the tile alone (kScan: every tile's output is
// its own local scan, which check_local_scan verifies) and a tile id drawn
// from a counter (kTicket: one atomic round trip before the loads may start,
// as a ticketed scan's draw; *counter cycles through 0 .. gridDim.x - 1, one
// cycle a launch, so it must start below gridDim.x: the benchmark zeroes it
// before each row). kSpeculate: with the ticket, load tile blockIdx.x while
// the draw is in flight and load again only if the ticket names another tile
// (how often it does is what the row measures; safe only out of place, where
// nothing writes the input).
template <int kThreads, int kItems, bool kScan, bool kTicket, bool kSpeculate = false>
__global__ void __launch_bounds__(kThreads, 4)
    tile_ladder(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                std::int64_t n, unsigned* counter) {
  using Load = cub::BlockLoad<std::uint32_t, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<std::uint32_t, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<std::uint32_t, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  } sm;
  __shared__ unsigned tile_id;
  constexpr std::int64_t kTile = std::int64_t{kThreads} * kItems;
  const auto valid_in = [&](unsigned t) {
    const std::int64_t left = n - t * kTile;
    return static_cast<int>(left < kTile ? left : kTile);
  };
  std::uint32_t items[kItems];
  unsigned tile = blockIdx.x;
  if constexpr (kTicket && kSpeculate) {
    unsigned drawn = 0;
    if (threadIdx.x == 0) drawn = atomicInc(counter, gridDim.x - 1);
    Load(sm.load).Load(in + tile * kTile, items, valid_in(tile), 0u);
    if (threadIdx.x == 0) tile_id = drawn;
    __syncthreads();
    if (tile_id != tile) {
      tile = tile_id;
      Load(sm.load).Load(in + tile * kTile, items, valid_in(tile), 0u);
    }
  } else {
    if constexpr (kTicket) {
      if (threadIdx.x == 0) tile_id = atomicInc(counter, gridDim.x - 1);
      __syncthreads();
      tile = tile_id;
    }
    Load(sm.load).Load(in + tile * kTile, items, valid_in(tile), 0u);
  }
  const std::int64_t base = tile * kTile;
  const int valid = valid_in(tile);
  __syncthreads();
  if constexpr (kScan) {
    Scan(sm.scan).InclusiveSum(items, items);
    __syncthreads();
  }
  Store(sm.store).Store(out + base, items, valid);
}

// Counts items of out that break the inclusive sum of in within their tile
// of tile_items (the local scans of tile_ladder<..., true, ...>): out[i] must
// be in[i] at a tile's start and out[i - 1] + in[i] after it, so a wrong run
// counts at its edges; zero iff every tile is its own inclusive scan.
static __global__ void check_local_scan(const std::uint32_t* in, const std::uint32_t* out,
                                        std::int64_t n, std::int64_t tile_items,
                                        unsigned long long* bad) {
  unsigned long long local = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::uint32_t want = i % tile_items == 0 ? in[i] : out[i - 1] + in[i];
    if (out[i] != want) ++local;
  }
  if (local) atomicAdd(bad, local);
}

}  // namespace lookback_bench
