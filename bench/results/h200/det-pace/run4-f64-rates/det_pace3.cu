// EXPERIMENT (measurement only), fourth call: the deterministic default's
// paced 8-byte tier (224 x 20 warp-lookback, first wave paced at 4000 GB/s,
// 6-16 MiB) at other rates, and 224 x 24 tiles (larger tiles that still
// fit 48 KB of static shared memory on 224 threads), f64
// inclusive sums, quarter steps 2^20 .. 2^22: does another rate or a larger
// tile bring the deterministic default within 5% of the default at
// 1.75 x 2^20 to 2^22 items (+6-10% on the H200s so far)?
#include <cstdint>
#include <vector>

#include "harness/cases.cuh"
#include "harness/configs.cuh"
#include "harness/run_op.cuh"
#include "harness/settings.hpp"
#include "suites/suites.hpp"

namespace lookback_bench {
namespace {
using lookback::PacedFirstWave;
using lookback::Variant;
using lookback::WarpLookbackPolicy;
// 224 x 24 for 8-byte values (WarpLookbackPolicy: 20).
struct Warp24Policy : WarpLookbackPolicy {
  template <class T>
  static constexpr int items() {
    return sizeof(T) == 8 ? 24 : WarpLookbackPolicy::items<T>();
  }
};
template <class P, int kGBps>
using PacedDet = Bench<Variant::WarpLookback, PacedFirstWave<P, kGBps>, true>;
}  // namespace

void explore_protocol_groups(const Settings& s) {
  std::vector<std::int64_t> sizes = quarter_steps(s, 20, 22);
  run_op<Case<double, OpKind::Sum, false>, double, false, BDefaultFor<double>,
         BDefaultDetFor<double>, PacedDet<WarpLookbackPolicy, 2500>,
         PacedDet<WarpLookbackPolicy, 3000>, PacedDet<WarpLookbackPolicy, 4000>,
         PacedDet<WarpLookbackPolicy, 5000>, PacedDet<WarpLookbackPolicy, 6000>,
         PacedDet<Warp24Policy, 3000>, PacedDet<Warp24Policy, 4000>, PacedDet<Warp24Policy, 6000>,
         BPipelinedDet, BPipelinedWideDet>(
      s, "det_pace3_f64", sizes,
      {"default", "default-det", "EXPT warp-det p2500", "EXPT warp-det p3000",
       "EXPT warp-det p4000", "EXPT warp-det p5000", "EXPT warp-det p6000", "EXPT warp24-det p3000",
       "EXPT warp24-det p4000", "EXPT warp24-det p6000", "pipelined-det", "pipelined-wide-det"});
}
void main_suite(const Settings&) {}
void tuning_suite(const Settings&) {}
void stats_suite(const Settings&) {}
void trace_suite(const Settings&) {}
void explore_shape_groups(const Settings&) {}
void explore_input_groups(const Settings&) {}

}  // namespace lookback_bench
