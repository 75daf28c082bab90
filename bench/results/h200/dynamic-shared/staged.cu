// EXPERIMENT (measurement only): does staging more bytes per tile than the
// 48 KB of static shared memory allow (dynamic shared memory, kernel.diff)
// bring the persistent kernel nearer the copy on the H200 at large n?
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
// Pipelined with Threads x (Items + Staged) items of every type, MinBlocks.
template <int Threads, int Items, int Staged, int MinBlocks>
struct Shape : lookback::PipelinedPolicy {
  template <class T>
  static constexpr int block_threads() {
    return Threads;
  }
  template <class T>
  static constexpr int min_blocks() {
    return MinBlocks;
  }
  template <class T>
  static constexpr int items() {
    return Items;
  }
  template <class T>
  static constexpr int staged_items() {
    return Staged;
  }
};
template <class P>
using P_ = Bench<Variant::Pipelined, P, false>;
}  // namespace

void explore_protocol_groups(const Settings& s) {
  const auto sizes = powers_of_two(s, {24, 26, 27, 28, 29, 30});
  run_op<Case<std::uint32_t, OpKind::Sum, false>, std::uint32_t, false, BDefaultFor<std::uint32_t>,
         P_<Shape<128, 24, 40, 4>>, P_<Shape<128, 24, 56, 3>>, P_<Shape<128, 24, 72, 3>>,
         P_<Shape<128, 24, 104, 2>>, P_<Shape<256, 24, 40, 2>>>(
      s, "staged_u32", sizes,
      {"default", "pipelined 128x(24+40)", "EXPT 128x(24+56)", "EXPT 128x(24+72)",
       "EXPT 128x(24+104)", "EXPT 256x(24+40)"});
  run_op<Case<std::uint64_t, OpKind::Sum, false>, std::uint64_t, false, BDefaultFor<std::uint64_t>,
         P_<Shape<128, 10, 20, 4>>, P_<Shape<128, 10, 30, 3>>, P_<Shape<128, 10, 40, 2>>,
         P_<Shape<128, 10, 52, 2>>, P_<Shape<192, 4, 24, 3>>>(
      s, "staged_u64", sizes,
      {"default", "wide 128x(10+20)", "EXPT 128x(10+30)", "EXPT 128x(10+40)", "EXPT 128x(10+52)",
       "EXPT 192x(4+24)"});
}
void main_suite(const Settings&) {}
void tuning_suite(const Settings&) {}
void stats_suite(const Settings&) {}
void trace_suite(const Settings&) {}
void explore_shape_groups(const Settings&) {}
void explore_input_groups(const Settings&) {}

}  // namespace lookback_bench
