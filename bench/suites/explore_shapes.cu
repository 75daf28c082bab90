// --suite explore, tile shapes and tiers: each variant's tile shape for 4-
// and 8-byte values, small tiles for small inputs, 8-byte persistent shapes
// for GPUs of more bandwidth per SM, and the default configuration's
// switches next to its tiers.

#include <cstdint>
#include <vector>

#include "harness/cases.cuh"
#include "harness/configs.cuh"
#include "harness/run_op.cuh"
#include "harness/settings.hpp"
#include "suites/suites.hpp"

namespace lookback_bench {

void explore_shape_groups(const Settings& s) {
  using lookback::TilePolicy;
  using C = lookback::Variant;
  const auto large = powers_of_two(s, {20, 22, 24, 26, 28, 30});
  const auto warp_sizes = powers_of_two(s, {10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30});
  // warp-lookback's tile shape (2026-11-26 afternoon): CUB's 4-byte shape,
  // 128 x 24 (its policy until then), against larger tiles on 224-thread
  // blocks; * marks today's WarpLookbackPolicy (policy.hpp has the sweep).
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Bench<C::WarpLookback, TilePolicy<128, 96, 6, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 160, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, lookback::WarpLookbackPolicy>,
         Bench<C::WarpLookback, TilePolicy<224, 192, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 208, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<192, 224, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<256, 176, 3, 3000, 0, false, 1024>>>(
      s, "explore_warp", warp_sizes,
      {"w128x24/6 d3000", "w224x40/3 d3000", "w224x44/3 d3000*", "w224x48/3 d3000",
       "w224x52/3 d3000", "w192x56/3 d3000", "w256x44/3 d3000"});
  // The same on 8-byte values: 128 x 12 (96 bytes a thread, the 4-byte
  // shape's, until 2026-11-26) against CUB's sm_90 shape for 8-byte sums,
  // 224 x 12 (tuning_scan.cuh: 224 x 24 nominal 4-byte items, scaled by
  // 4 / sizeof(T)), and larger tiles around today's 224 x 20.
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Bench<C::WarpLookback, TilePolicy<128, 96, 6, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, lookback::WarpLookbackPolicy>,
         Bench<C::WarpLookback, TilePolicy<224, 96, 5, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 176, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 144, 3, 3000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<224, 160, 3, 4000, 0, false, 1024>>,
         Bench<C::WarpLookback, TilePolicy<192, 176, 3, 3000, 0, false, 1024>>>(
      s, "explore_warp_u64", warp_sizes,
      {"w128x12/6 d3000", "w224x20/3 d3000*", "w224x12/5 d3000", "w224x22/3 d3000",
       "w224x18/3 d3000", "w224x20/3 d4000", "w192x22/3 d3000"});
  // One-tile blocks (coarsened): spin back-off, and pipelined's 128-thread
  // shape without the persistence.
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Bench<C::Coarsened, lookback::CoarsenedPolicy>,
         Bench<C::Coarsened, TilePolicy<256, 128, 4, 3000, 648, false, 1024, 128>>,
         Bench<C::Coarsened, TilePolicy<256, 128, 4, 1245, 648, false, 512, 128>>,
         Bench<C::Coarsened, TilePolicy<128, 96, 4, 3000, 0, false, 1024, 160>>,
         Bench<C::Coarsened, TilePolicy<128, 96, 6, 3000, 0, false, 1024, 160>>>(
      s, "explore_coarse", large,
      {"c256x(32+32)/4 d3000*", "c256x(32+32)/4 d3000s648", "c256x(32+32)/4 d1245s648",
       "c128x(24+40)/4 d3000", "c128x(24+40)/6 d3000"});
  // Small n: smaller tiles on persistent blocks (fixed cost per tile:
  // ticket, local scan, look-back round trip).
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false,
         Bench<C::Pipelined, TilePolicy<128, 96, 4, 0, 0, false, 0, 160>>,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Pipelined, TilePolicy<128, 32, 8, 0, 0, false, 0, 32>>,
         Bench<C::Pipelined, TilePolicy<128, 16, 8, 0, 0, false, 0, 16>>,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Coarsened, TilePolicy<256, 32, 4, 0, 0, false, 0, 32>>>(
      s, "explore_small", powers_of_two(s, {14, 16, 18, 19, 20, 21, 22}),
      {"p128x(24+40)/4*", "p128x(8+24)/4", "p128x(8+8)/8", "p128x(4+4)/8", "f128x(8+24)/4",
       "c256x(8+8)/4"});
  // 8-byte values: Pipelined's 3072-item tiles as 128 x (4 + 20) items (its
  // shape until 2026-11-26) and 8 + 16, smaller tiles, 192- and 256-thread
  // blocks, and Coarsened's; * marks today's policies (policy.hpp).
  const auto u64_sizes = powers_of_two(s, {13, 14, 16, 18, 20, 21, 22, 24, 26, 28, 30});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>,
         Bench<C::Pipelined, TilePolicy<128, 64, 4, 0, 0, false, 0, 128>>,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 112>>,
         Bench<C::Pipelined, TilePolicy<128, 16, 8, 0, 0, false, 0, 48>>,
         Bench<C::Pipelined, TilePolicy<192, 32, 3, 0, 0, false, 0, 96>>,
         Bench<C::Pipelined, TilePolicy<256, 32, 2, 0, 0, false, 0, 80>>,
         Bench<C::Pipelined, TilePolicy<256, 48, 2, 0, 0, false, 0, 64>>,
         Bench<C::Coarsened, lookback::CoarsenedPolicy>,
         Bench<C::Coarsened, TilePolicy<256, 64, 4, 0, 0, false, 0, 64>>>(
      s, "explore_u64", u64_sizes,
      {"p128x(4+20)/4", "p128x(8+16)/4", "p128x(4+12)/4", "p128x(4+14)/4", "p128x(2+6)/8",
       "p192x(4+12)/3*", "p256x(4+10)/2", "p256x(6+8)/2", "c256x(16+16)/4*", "c256x(8+8)/4"});
  // The fallback with the same shapes, out of place and in place (it keeps
  // 128 x (4 + 20): FallbackPolicy).
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Fallback, TilePolicy<192, 32, 3, 0, 0, false, 0, 96>>,
         Bench<C::Fallback, TilePolicy<256, 32, 2, 0, 0, false, 0, 80>>>(
      s, "explore_u64_fallback", u64_sizes,
      {"f128x(4+20)/4*", "f128x(4+12)/4", "f192x(4+12)/3", "f256x(4+10)/2"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, true,
         Bench<C::Pipelined, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>,
         Bench<C::Pipelined, TilePolicy<256, 32, 2, 0, 0, false, 0, 80>>,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 160>>,
         Bench<C::Fallback, TilePolicy<128, 32, 4, 0, 0, false, 0, 96>>,
         Bench<C::Fallback, TilePolicy<192, 32, 3, 0, 0, false, 0, 96>>,
         Bench<C::Fallback, TilePolicy<256, 32, 2, 0, 0, false, 0, 80>>>(
      s, "explore_u64_inplace", u64_sizes,
      {"p128x(4+20)/4", "p256x(4+10)/2", "f128x(4+20)/4*", "f128x(4+12)/4", "f192x(4+12)/3",
       "f256x(4+10)/2"});
  // Warp-lookback shapes for small inputs (2026-11-27): CUB's 128 x 96 bytes
  // / 6 and smaller tiles against WarpLookback's 224 x 44 (warp-lookback*,
  // then the default's small half); 1- and 2-byte values capped at 24 or 16
  // items. w256 x 64B/4 became WarpLookbackSmallPolicy, so its row is BWarpSmall.
  std::vector<std::int64_t> small_tier_sizes;
  for (std::int64_t k :
       {8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 4096, 8192})
    if (k * 128 >= (std::int64_t{1} << s.min_log) && k * 128 <= (std::int64_t{1} << s.max_log))
      small_tier_sizes.push_back(k * 128);
  using W96x128 = Bench<C::WarpLookback, SmallWarpShape<128, 96, 6, 24>>;
  using W64x128 = Bench<C::WarpLookback, SmallWarpShape<128, 64, 8, 16>>;
  const std::vector<const char*> small_tier_names = {"warp-lookback*", "w128 x 96B/6",
                                                     "w128 x 64B/8", "w256 x 64B/4", "3-tier"};
  // The default of the time with w128 x 96B/6 below it up to 512 KiB (a
  // nested SizeAdaptive; 4 MiB was then the default's switch).
  using Tier3 = lookback::SizeAdaptive<lookback::SizeAdaptive<W96x128, BWarp, 512 << 10>,
                                       BPipelined, 4 << 20>;
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, W96x128, W64x128,
         BWarpSmall, Tier3>(s, "explore_small_warp", small_tier_sizes, small_tier_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, W96x128, W64x128,
         BWarpSmall, Tier3>(s, "explore_small_warp_u64", small_tier_sizes, small_tier_names);
  run_op<Case<std::uint16_t, OpKind::Sum, false>, std::uint16_t, false, BWarp, W96x128, W64x128,
         BWarpSmall>(s, "explore_small_warp_u16", small_tier_sizes, small_tier_names);
  run_op<Case<std::uint8_t, OpKind::Sum, false>, std::uint8_t, false, BWarp, W96x128, W64x128,
         BWarpSmall>(s, "explore_small_warp_u8", small_tier_sizes, small_tier_names);
  // The default configuration (config.hpp): warp-lookback with small tiles
  // up to default_max_small_bytes of input, then a middle tier up to
  // default_max_middle_bytes (224 x 44 tiles for 4-byte values since
  // 2026-11-28 and 2-byte ones since 11-29, coarsened for 1-byte ones since
  // 11-29; none for 8-byte ones), pipelined above. Sizes around the
  // switches and below them; "default" should track the fastest of its
  // tiers. Up to 2^24 items (bring-up runs them all; u8's middle tier on
  // wide GPUs reaches 14 x 2^20).
  std::vector<std::int64_t> switch_sizes;
  for (std::int64_t k : {8,     128,   512,   1024,  1536,  2048,  3072,  4096,   5120,
                         6144,  7168,  8192,  10240, 12288, 14336, 16384, 20480,  24576,
                         28672, 32768, 40960, 49152, 65536, 81920, 98304, 114688, 131072})
    if (k * 128 >= (std::int64_t{1} << s.min_log) && k * 128 <= (std::int64_t{1} << s.max_log))
      switch_sizes.push_back(k * 128);
  const std::vector<const char*> default_names = {"warp-lookback", "warp-lookback small",
                                                  "pipelined", "default"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, BWarpSmall,
         BPipelined, BDefaultFor<std::uint32_t>>(s, "explore_default", switch_sizes, default_names);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, BWarpSmall,
         BPipelined, BDefaultFor<std::uint64_t>>(s, "explore_default_u64", switch_sizes,
                                                 default_names);
  // 1- and 2-byte values: coarsened was their default until 2026-11-27.
  run_op<Case<std::uint16_t, OpKind::Sum, false>, std::uint16_t, false, BWarp, BWarpSmall, BCoarse,
         BPipelined, BDefaultFor<std::uint16_t>>(
      s, "explore_default_u16", switch_sizes,
      {"warp-lookback", "warp-lookback small", "coarsened", "pipelined", "default"});
  run_op<Case<std::uint8_t, OpKind::Sum, false>, std::uint8_t, false, BWarp, BWarpSmall, BCoarse,
         BPipelined, BDefaultFor<std::uint8_t>>(
      s, "explore_default_u8", switch_sizes,
      {"warp-lookback", "warp-lookback small", "coarsened", "pipelined", "default"});
  // 8-byte persistent shapes for a GPU of more bandwidth per SM (H200,
  // 2026-11-28): the tuning suite found pipelined's 128 x (10 + 20) / 4
  // 2-6 points ahead of the chosen 192 x (4 + 12) / 4 there, the reverse of
  // the H100. Neighbours of it, and the same shapes for the fallback.
  // Staged bytes stay within the 48 KiB of static shared memory two stages
  // may take.
  const auto wide_sizes = powers_of_two(s, {20, 22, 24, 26, 28, 30});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BDefaultFor<std::uint64_t>,
         BPipelined, Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 96, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 176>>,
         Neighbour<C::Pipelined, TilePolicy<128, 96, 4, 0, 0, false, 0, 144>>,
         Neighbour<C::Pipelined, TilePolicy<192, 48, 4, 0, 0, false, 0, 96>>,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 3, 0, 0, false, 0, 160>>, BFallback,
         Neighbour<C::Fallback, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Fallback, TilePolicy<128, 64, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Fallback, TilePolicy<128, 48, 4, 0, 0, false, 0, 176>>>(
      s, "explore_u64_shapes", wide_sizes,
      {"default", "pipelined 192x(4+12)/4*", "p128x(10+20)/4", "p128x(12+20)/4", "p128x(10+22)/4",
       "p128x(12+18)/4", "p192x(6+12)/4", "p128x(10+20)/3", "fallback 128x(4+20)/4*",
       "f128x(10+20)/4", "f128x(8+20)/4", "f128x(6+22)/4"});
  run_op<Case<double, OpKind::Sum, false>, double, false, BDefaultFor<double>, BPipelined,
         Neighbour<C::Pipelined, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>,
         Neighbour<C::Pipelined, TilePolicy<128, 96, 4, 0, 0, false, 0, 160>>, BFallback,
         Neighbour<C::Fallback, TilePolicy<128, 80, 4, 0, 0, false, 0, 160>>>(
      s, "explore_f64_shapes", wide_sizes,
      {"default", "pipelined 192x(4+12)/4*", "p128x(10+20)/4", "p128x(12+20)/4",
       "fallback 128x(4+20)/4*", "f128x(10+20)/4"});
  // Where the wide 8-byte shape starts to pay (2026-11-29): on an H200 the
  // bring-up run (bench/bringup.sh) found pipelined's own shape up to 1.5 us
  // ahead of the wide one the default then ran there at most sizes from
  // 1.25 x 2^20 to 2^23 u64 items, though explore_u64_shapes had the wide one
  // ahead at 2^22 and from 2^24; since that evening the default switches
  // between them by size (default_wide_switch_bytes). Sizes from 2^20 to 2^25
  // in quarter steps of each power, the default's tiers and warp-lookback.
  const auto wide_switch_sizes = quarter_steps(s, 20, 25);
  const std::vector<const char*> wide_switch_names = {"warp-lookback", "pipelined",
                                                      "pipelined-wide", "default"};
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, BPipelined,
         BPipelinedWide, BDefaultFor<std::uint64_t>>(s, "explore_wide_switch", wide_switch_sizes,
                                                     wide_switch_names);
  run_op<Case<double, OpKind::Sum, false>, double, false, BWarp, BPipelined, BPipelinedWide,
         BDefaultFor<double>>(s, "explore_wide_switch_f64", wide_switch_sizes, wide_switch_names);
}

}  // namespace lookback_bench
