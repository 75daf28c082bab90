// EXPERIMENT (measurement only): does pacing the first wave
// (TilePolicy::kFirstWavePaceGBps) hide the deterministic mode's left-fold
// chain where the grid is about one wave? Paced tiles load in ticket order,
// so the chain of PREFIXes can follow the loads instead of starting after
// all of them. Deterministic kernels paced at several rates against the
// default, the deterministic default and their unpaced selves, f32 and f64
// inclusive sums, quarter steps 2^20 .. 2^23 and 2^24.
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
template <Variant V, class P, int kGBps, bool kDet = true>
using Paced = Bench<V, PacedFirstWave<P, kGBps>, kDet>;
using lookback::CoarsenedPolicy;
using lookback::PipelinedPolicy;
using lookback::PipelinedWidePolicy;
using lookback::WarpLookbackPolicy;
}  // namespace

void explore_protocol_groups(const Settings& s) {
  std::vector<std::int64_t> sizes = quarter_steps(s, 20, 23);
  for (const std::int64_t n : powers_of_two(s, {24}))
    sizes.push_back(n);
  run_op<Case<float, OpKind::Sum, false>, float, false, BDefaultFor<float>, BDefaultDetFor<float>,
         BWarpDet, Paced<Variant::WarpLookback, WarpLookbackPolicy, 2500>,
         Paced<Variant::WarpLookback, WarpLookbackPolicy, 4000>,
         Paced<Variant::WarpLookback, WarpLookbackPolicy, 6000>,
         Paced<Variant::WarpLookback, WarpLookbackPolicy, 4000, false>, BCoarseDet,
         Paced<Variant::Coarsened, CoarsenedPolicy, 4000>, BPipelinedDet,
         Paced<Variant::Pipelined, PipelinedPolicy, 4000>>(
      s, "det_pace_f32", sizes,
      {"default", "default-det", "warp-det", "EXPT warp-det p2500", "EXPT warp-det p4000",
       "EXPT warp-det p6000", "EXPT warp p4000", "coarsened-det", "EXPT coarsened-det p4000",
       "pipelined-det", "EXPT pipelined-det p4000"});
  run_op<Case<double, OpKind::Sum, false>, double, false, BDefaultFor<double>,
         BDefaultDetFor<double>, BWarpDet, Paced<Variant::WarpLookback, WarpLookbackPolicy, 4000>,
         BPipelinedDet, Paced<Variant::Pipelined, PipelinedPolicy, 2500>,
         Paced<Variant::Pipelined, PipelinedPolicy, 4000>,
         Paced<Variant::Pipelined, PipelinedPolicy, 6000>, BPipelinedWideDet,
         Paced<Variant::Pipelined, PipelinedWidePolicy, 4000>,
         Paced<Variant::Pipelined, PipelinedPolicy, 4000, false>>(
      s, "det_pace_f64", sizes,
      {"default", "default-det", "warp-det", "EXPT warp-det p4000", "pipelined-det",
       "EXPT pipelined-det p2500", "EXPT pipelined-det p4000", "EXPT pipelined-det p6000",
       "wide-det", "EXPT wide-det p4000", "EXPT pipelined p4000"});
}
void main_suite(const Settings&) {}
void tuning_suite(const Settings&) {}
void stats_suite(const Settings&) {}
void trace_suite(const Settings&) {}
void explore_shape_groups(const Settings&) {}
void explore_input_groups(const Settings&) {}

}  // namespace lookback_bench
