// EXPERIMENT (measurement only): does the deterministic mode's gap at
// one-wave sizes shrink with larger tiles (fewer ops on the left fold's
// chain of PREFIXes)? Deterministic kernels of larger tiles against the
// default, the deterministic default and its tiers, f64 and f32, quarter
// steps 2^20 .. 2^23 and 2^24.
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
// Pipelined 8-byte tiles of Threads x (Items + Staged), MinBlocks per SM;
// 4-byte values as PipelinedPolicy but Threads4 threads.
template <int Threads, int Items, int Staged, int MinBlocks>
struct PipedF64 : lookback::PipelinedPolicy {
  template <class T>
  static constexpr int block_threads() {
    return sizeof(T) == 8 ? Threads : lookback::PipelinedPolicy::block_threads<T>();
  }
  template <class T>
  static constexpr int min_blocks() {
    return sizeof(T) == 8 ? MinBlocks : lookback::PipelinedPolicy::min_blocks<T>();
  }
  template <class T>
  static constexpr int items() {
    return sizeof(T) == 8 ? Items : lookback::PipelinedPolicy::items<T>();
  }
  template <class T>
  static constexpr int staged_items() {
    return sizeof(T) == 8 ? Staged : lookback::PipelinedPolicy::staged_items<T>();
  }
};
template <int Threads, int MinBlocks>
struct PipedF32 : lookback::PipelinedPolicy {
  template <class T>
  static constexpr int block_threads() {
    return Threads;
  }
  template <class T>
  static constexpr int min_blocks() {
    return MinBlocks;
  }
};
template <class P>
using PDet = Bench<Variant::Pipelined, P, true>;
template <class P>
using PDef = Bench<Variant::Pipelined, P, false>;
using F64_256 = PipedF64<256, 4, 12, 3>;    // 4096
using F64_384 = PipedF64<384, 4, 12, 2>;    // 6144
using F64_W256 = PipedF64<256, 10, 20, 2>;  // 7680
using F32_256 = PipedF32<256, 2>;           // 16384
}  // namespace

void explore_protocol_groups(const Settings& s) {
  std::vector<std::int64_t> sizes = quarter_steps(s, 20, 23);
  for (const std::int64_t n : powers_of_two(s, {24}))
    sizes.push_back(n);
  run_op<Case<double, OpKind::Sum, false>, double, false, BDefaultFor<double>,
         BDefaultDetFor<double>, BPipelinedDet, BPipelinedWideDet, PDet<F64_256>, PDet<F64_384>,
         PDet<F64_W256>, PDef<F64_384>>(
      s, "det_tiles_f64", sizes,
      {"default", "default-det", "pipelined-det 3072", "wide-det 3840", "EXPT det 256x16",
       "EXPT det 384x16", "EXPT det 256x30", "EXPT 384x16"});
  run_op<Case<float, OpKind::Sum, false>, float, false, BDefaultFor<float>, BDefaultDetFor<float>,
         BWarpDet, BCoarseDet, BPipelinedDet, PDet<F32_256>, PDef<F32_256>>(
      s, "det_tiles_f32", sizes,
      {"default", "default-det", "warp-det 9856", "coarsened-det", "pipelined-det 8192",
       "EXPT det 256x64", "EXPT 256x64"});
}
void main_suite(const Settings&) {}
void tuning_suite(const Settings&) {}
void stats_suite(const Settings&) {}
void trace_suite(const Settings&) {}
void explore_shape_groups(const Settings&) {}
void explore_input_groups(const Settings&) {}

}  // namespace lookback_bench
