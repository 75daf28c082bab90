// --suite tuning: the sweep around the chosen policies (policy.hpp). The
// chosen ones (marked *) are named by their policy type: a TilePolicy
// spelled out with the same shape keeps full_warps_in_partial_tile's
// default, which coarsened and the 4-byte fallback do not (different
// kernels since 2026-11-27). The others are Neighbour<V, Shape>s, with the
// chosen policy's L2 prefetch distance (until 2026-11-28 they ran without
// it, and the persistent groups' * rows were spelled-out shapes without it
// too).

#include <cstdint>
#include <vector>

#include "harness/cases.cuh"
#include "harness/configs.cuh"
#include "harness/run_op.cuh"
#include "harness/settings.hpp"
#include "suites/suites.hpp"

namespace lookback_bench {

void tuning_suite(const Settings& s) {
  using lookback::TilePolicy;
  using C = lookback::Variant;
  const auto ns = powers_of_two(s, {16, 20, 22, 24, 26, 28, 30});
  // Persistent two-tile blocks (the pipelined variant): register + staged
  // bytes per thread, blocks per SM.
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Neighbour<C::Pipelined, TilePolicy<128, 64, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>, BPipelined,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 176>>>(
      s, "tune_persistent", ns,
      {"p128x(16+40)/4", "p128x(20+40)/4", "p128x(24+40)/4*", "p128x(20+44)/4"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 64, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 64, 4, 0, 0, false, 0, 128>>,
         Neighbour<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>, BPipelined>(
      s, "tune_persistent_u64", ns,
      {"p128x(10+20)/4", "p128x(8+20)/4", "p128x(8+16)/4", "p128x(4+20)/4", "p192x(4+12)/4*"});
  // Staged bytes per thread (shared memory, cp.async) on top of 128 register
  // bytes.
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024>>,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024, 64>>,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 2000, 0, false, 1024, 128>>, BCoarse,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 4000, 0, false, 1024, 128>>,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 0, 0, false, 1024, 128>>,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024, 160>>>(
      s, "tune_coarse", ns,
      {"c256x32/4 d3000", "c256x(32+16)/4 d3000", "c256x(32+32)/4 d2000", "c256x(32+32)/4 d3000*",
       "c256x(32+32)/4 d4000", "c256x(32+32)/4 d0", "c256x(32+40)/4 d3000"});
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Neighbour<C::WarpLookback, TilePolicy<128, 96, 6, 3000, 0, false, 1024>>, BWarp,
         Neighbour<C::Fallback, TilePolicy<128, 80, 4, 0, 0, false, 0, 176>>, BFallback>(
      s, "tune_other", ns,
      {"w128x24/6 d3000", "w224x44/3 d3000*", "f128x(20+44)/4", "f128x(24+40)/4*"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024>>, BCoarse,
         Neighbour<C::Coarsened, TilePolicy<256, 128, 4, 3000, 0, false, 1024, 160>>,
         Neighbour<C::Fallback, TilePolicy<128, 64, 4, 0, 0, false, 0, 128>>, BFallback>(
      s, "tune_u64", ns,
      {"c256x16/4 d3000", "c256x(16+16)/4 d3000*", "c256x(16+20)/4 d3000", "f128x(8+16)/4",
       "f128x(4+20)/4*"});
}

}  // namespace lookback_bench
