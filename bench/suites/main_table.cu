// --suite main: the table of issue 7. Every production variant next to
// cub::DeviceScan and the copy, for u32 inclusive and exclusive sums, u64,
// f32 and f64 sums (with coarsened's and pipelined's deterministic mode),
// u32 max, and u32 and u64 sums in place.

#include <cstdint>
#include <vector>

#include "harness/cases.cuh"
#include "harness/configs.cuh"
#include "harness/run_op.cuh"
#include "harness/settings.hpp"
#include "suites/suites.hpp"

namespace lookback_bench {

void main_suite(const Settings& s) {
  const auto ns = sizes(s, true);
  const std::vector<const char*> four = {"warp-lookback", "coarsened", "pipelined", "fallback"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "u32_incl_sum", ns, four);
  run_op<Case<std::uint32_t, OpKind::Sum, true>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "u32_excl_sum", ns, four);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "u64_incl_sum", ns, four);
  // Deterministic mode next to the defaults it is compared with: coarsened
  // and pipelined (the default configuration's kernel for large inputs).
  const std::vector<const char*> with_det = {"warp-lookback", "coarsened",     "pipelined",
                                             "fallback",      "coarsened-det", "pipelined-det"};
  run_op<Case<float, OpKind::Sum, false>, float, false, BWarp, BCoarse, BPipelined, BFallback,
         BCoarseDet, BPipelinedDet>(s, "f32_incl_sum", ns, with_det);
  run_op<Case<double, OpKind::Sum, false>, double, false, BWarp, BCoarse, BPipelined, BFallback,
         BCoarseDet, BPipelinedDet>(s, "f64_incl_sum", ns, with_det);
  run_op<Case<std::uint32_t, OpKind::Max, false>, std::uint32_t, false, BWarp, BCoarse, BPipelined,
         BFallback>(s, "u32_incl_max", ns, four);
  // In place only the fallback's protocol differs (fallback-inplace: strong
  // output stores and fallback reads, an output fence, validation);
  // pipelined is its reference.
  const std::vector<const char*> two = {"pipelined", "fallback"};
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, true, BPipelined, BFallback>(
      s, "u32_incl_sum_inplace", ns, two);
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, true, BPipelined, BFallback>(
      s, "u64_incl_sum_inplace", ns, two);
}

}  // namespace lookback_bench
