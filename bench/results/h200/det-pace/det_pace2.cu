// EXPERIMENT (measurement only), second call: the paced deterministic
// warp-lookback tier at more rates, and a candidate deterministic default
// for 4-byte values that runs it from 9 MiB to 16 MiB (2.25 x 2^20 to 2^22
// f32 items) instead of the unpaced 224 x 44 tier and coarsened.
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
using lookback::SizeAdaptive;
using lookback::Variant;
template <Variant V, class P, int kGBps, bool kDet = true>
using Paced = Bench<V, PacedFirstWave<P, kGBps>, kDet>;
using lookback::CoarsenedPolicy;
using lookback::PipelinedPolicy;
using lookback::PipelinedWidePolicy;
using lookback::WarpLookbackPolicy;
using WarpDetP6000 = Paced<Variant::WarpLookback, WarpLookbackPolicy, 6000>;
using Candidate = SizeAdaptive<
    BWarpSmallDet,
    SizeAdaptive<BWarpDet, SizeAdaptive<WarpDetP6000, BPipelinedDet, 16ll << 20>, 9ll << 20>,
    7ll << 18>;
}  // namespace

void explore_protocol_groups(const Settings& s) {
  std::vector<std::int64_t> sizes = quarter_steps(s, 19, 23);
  for (const std::int64_t n : powers_of_two(s, {24}))
    sizes.push_back(n);
  run_op<Case<float, OpKind::Sum, false>, float, false, BDefaultFor<float>, BDefaultDetFor<float>,
         Candidate, BWarpDet, Paced<Variant::WarpLookback, WarpLookbackPolicy, 5000>, WarpDetP6000,
         Paced<Variant::WarpLookback, WarpLookbackPolicy, 8000>,
         Paced<Variant::Coarsened, CoarsenedPolicy, 6000>, BPipelinedDet>(
      s, "det_pace2_f32", sizes,
      {"default", "default-det", "EXPT candidate det", "warp-det", "EXPT warp-det p5000",
       "EXPT warp-det p6000", "EXPT warp-det p8000", "EXPT coarsened-det p6000", "pipelined-det"});
  run_op<Case<double, OpKind::Sum, false>, double, false, BDefaultFor<double>,
         BDefaultDetFor<double>, Paced<Variant::WarpLookback, WarpLookbackPolicy, 4000>,
         Paced<Variant::Pipelined, PipelinedWidePolicy, 4000>,
         Paced<Variant::Pipelined, PipelinedPolicy, 6000>>(
      s, "det_pace2_f64", sizes,
      {"default", "default-det", "EXPT warp-det p4000", "EXPT wide-det p4000",
       "EXPT pipelined-det p6000"});
}
void main_suite(const Settings&) {}
void tuning_suite(const Settings&) {}
void stats_suite(const Settings&) {}
void trace_suite(const Settings&) {}
void explore_shape_groups(const Settings&) {}
void explore_input_groups(const Settings&) {}

}  // namespace lookback_bench
