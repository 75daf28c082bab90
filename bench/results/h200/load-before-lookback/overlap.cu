// EXPERIMENT (measurement only): persistent blocks issue the newer tile's
// loads before the older tile's look-back (Policy::kOverlap, a patched
// agent_striped.cuh), so loads are in flight while the block looks back.
#include <cstdint>
#include <vector>

#include "harness/cases.cuh"
#include "harness/configs.cuh"
#include "harness/run_op.cuh"
#include "harness/settings.hpp"
#include "suites/suites.hpp"

namespace lookback_bench {
namespace {
using lookback::Variant;
template <class Base, int K>
struct Ov : Base {
  static constexpr int kOverlap = K;
};
template <class P, bool kDet = false>
using P_ = Bench<Variant::Pipelined, P, kDet>;
using Pp = lookback::PipelinedPolicy;
using Pw = lookback::PipelinedWidePolicy;
}  // namespace

void explore_protocol_groups(const Settings& s) {
  const auto big = powers_of_two(s, {20, 22, 23, 24, 25, 26, 28, 30});
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BDefaultFor<std::uint32_t>,
         P_<Pp>, P_<Ov<Pp, 1>>, P_<Ov<Pp, 2>>>(s, "overlap_u32", big,
                                               {"default", "pipelined", "EXPT ov1", "EXPT ov2"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BDefaultFor<std::uint64_t>,
         P_<Pp>, P_<Ov<Pp, 1>>, P_<Pw>, P_<Ov<Pw, 1>>, P_<Ov<Pw, 2>>>(
      s, "overlap_u64", big,
      {"default", "pipelined", "EXPT ov1", "wide", "EXPT wide ov1", "EXPT wide ov2"});
  std::vector<std::int64_t> det = quarter_steps(s, 20, 23);
  for (const std::int64_t n : powers_of_two(s, {24, 26}))
    det.push_back(n);
  run_op<Case<double, OpKind::Sum, false>, double, false, BDefaultFor<double>,
         BDefaultDetFor<double>, P_<Pp, true>, P_<Ov<Pp, 1>, true>, P_<Pw, true>,
         P_<Ov<Pw, 1>, true>, P_<Ov<Pw, 2>, true>>(
      s, "overlap_det_f64", det,
      {"default", "default-det", "pipelined-det", "EXPT det ov1", "wide-det", "EXPT wide-det ov1",
       "EXPT wide-det ov2"});
  run_op<Case<float, OpKind::Sum, false>, float, false, BDefaultFor<float>, BDefaultDetFor<float>,
         P_<Pp, true>, P_<Ov<Pp, 1>, true>, P_<Ov<Pp, 2>, true>>(
      s, "overlap_det_f32", det,
      {"default", "default-det", "pipelined-det", "EXPT det ov1", "EXPT det ov2"});
}
void main_suite(const Settings&) {}
void tuning_suite(const Settings&) {}
void stats_suite(const Settings&) {}
void trace_suite(const Settings&) {}
void explore_shape_groups(const Settings&) {}
void explore_input_groups(const Settings&) {}

}  // namespace lookback_bench
