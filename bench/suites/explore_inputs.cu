// --suite explore, inputs: partial last tiles, a few tiles, 1- and 2-byte
// values on every variant, and pointers off a 16-byte boundary (the scalar
// path).

#include <cstdint>
#include <vector>

#include "harness/cases.cuh"
#include "harness/configs.cuh"
#include "harness/run_op.cuh"
#include "harness/settings.hpp"
#include "suites/suites.hpp"

namespace lookback_bench {

namespace {

// n just past a power of two (1, 4 and an odd number of items past it),
// and the power itself, from 2^lo.
std::vector<std::int64_t> partial_sizes(const Settings& s, int lo) {
  std::vector<std::int64_t> v;
  for (int l : {16, 20, 22, 24, 26, 28}) {
    if (l < lo || l < s.min_log || l > s.max_log) continue;
    const std::int64_t p = std::int64_t{1} << l;
    for (std::int64_t extra :
         {std::int64_t{0}, std::int64_t{1}, std::int64_t{4}, p / 64 + 1234567 % (p / 16)})
      v.push_back(p + extra);
  }
  return v;
}

}  // namespace

void explore_input_groups(const Settings& s) {
  using C = lookback::Variant;
  // Partial last tiles (2026-11-26 evening): n just past a power of two,
  // against the power itself, for every variant. The striped agent's partial
  // tile used to load with one DRAM round trip per staged vector in series.
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_partial", partial_sizes(s, 16),
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_partial_u64", partial_sizes(s, 16),
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, true, BPipelined, BFallback>(
      s, "explore_partial_inplace", partial_sizes(s, 20), {"pipelined", "fallback"});
  // A few tiles, full and partial (pipelined's tile is 8192 u32 items,
  // coarsened's 16384, warp-lookback's 9856).
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_tiny",
                    {1024, 4096, 8000, 8191, 8192, 8193, 9856, 16383, 16384, 16385, 24576, 24577},
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  // 1- and 2-byte sums, first timed 2026-11-27: every configuration at its
  // default shape (coarsened 32 + 32 items a thread; pipelined and fallback
  // 16 + 48; warp-lookback 44; policy.hpp). They chose these sizes'
  // DefaultConfig (config.hpp) of the time: warp-lookback up to 2^18 u16 /
  // 2^17 u8 items (2^19 both since 2026-11-27 evening), pipelined above;
  // coarsened was their default before.
  const auto narrow_sizes = powers_of_two(s, {10, 14, 16, 18, 20, 22, 24, 26, 28, 30});
  run_op<Case<std::uint16_t, OpKind::Sum, false>, std::uint16_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_u16", narrow_sizes,
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  run_op<Case<std::uint8_t, OpKind::Sum, false>, std::uint8_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "explore_u8", narrow_sizes,
                    {"warp-lookback", "coarsened", "pipelined", "fallback"});
  // The scalar path (pointers one item past a 16-byte boundary): since the
  // partial-tile change its kernels spill more (ptxas: pipelined u32 164
  // bytes, none before; bench/results/README.md, "Partial last tiles").
  using lookback::ScanConfig;
  using SCoarse = ScanConfig<C::Coarsened, lookback::CoarsenedPolicy, false, false, true>;
  using SPipelined = ScanConfig<C::Pipelined, lookback::PipelinedPolicy, false, false, true>;
  using SFallback = ScanConfig<C::Fallback, lookback::FallbackPolicy, false, false, true>;
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, SCoarse, SPipelined,
         SFallback>(s, "explore_misaligned", partial_sizes(s, 16),
                    {"warp-lookback", "coarsened-scalar", "pipelined-scalar", "fallback-scalar"},
                    1);
}

}  // namespace lookback_bench
