// Litmus probes on the GPU (issue 6): run the small shapes the look-back
// protocol relies on (MP, SB, LB, MP with a fence on one side, on both sides,
// with release/acquire) many times between threads of different blocks at
// .gpu scope, under memory stress, and count how often the weak outcome shows.
//
// Host-only interface: no CUDA types here. Every function that touches the
// GPU runs on the current device and throws std::runtime_error (with the CUDA
// error's name and message, or the failed self-check) on any failure.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lookback::stress {

// Two threads, two locations x and y (initially 0), two registers r0 and r1.
//   MP                 T0: x=1; y=1            T1: r0=y; r1=x        weak: r0=1 r1=0
//   SB                 T0: x=1; r0=y           T1: y=1; r1=x         weak: r0=0 r1=0
//   LB                 T0: r0=x; y=1           T1: r1=y; x=1         weak: r0=1 r1=1
//   MPWriterFenceOnly  MP with fence.sc.gpu between T0's stores       weak: r0=1 r1=0
//   MPReaderFenceOnly  MP with fence.sc.gpu between T1's loads        weak: r0=1 r1=0
//   MPFenced           MP with fence.sc.gpu on both sides             weak: r0=1 r1=0
//   MPRelAcq           MP, y stored with release, loaded with acquire weak: r0=1 r1=0
// All other accesses are relaxed .gpu-scope atomics.
enum class LitmusShape {
  MP,
  SB,
  LB,
  MPWriterFenceOnly,
  MPReaderFenceOnly,
  MPFenced,
  MPRelAcq,
};

struct LitmusProbeConfig {
  std::uint64_t instances = 1'000'000;  // target; whole launches are run, so the
                                        // result may report slightly more
  int blocks = 0;                       // testing blocks per launch; 0: fill the GPU
  bool memory_stress = true;            // extra co-resident blocks hammer a scratch region
  std::uint32_t seed = 1;               // placement, pairing, delays and stress pattern
  double budget_seconds = 10;           // stop launching once exceeded (at least one launch)
};

struct LitmusProbeResult {
  LitmusShape shape = LitmusShape::MP;
  std::string name;          // to_string(shape)
  std::string weak_outcome;  // e.g. "r0=1 r1=0"
  bool weak_allowed_by_ptx = true;
  std::uint64_t instances = 0;              // instances actually run and classified
  std::array<std::uint64_t, 4> outcomes{};  // outcomes[r0 * 2 + r1]; sums to instances
  std::uint64_t weak = 0;                   // outcomes[weak_outcome_index(shape)]
  double per_million = 0;                   // weak per million instances
  double seconds = 0;                       // wall time of the probe
  int launches = 0;
  int testing_blocks = 0;  // per launch
  int stress_blocks = 0;   // per launch
};

const char* to_string(LitmusShape shape);
std::vector<LitmusShape> all_litmus_shapes();
// The weak outcome as text ("r0=1 r1=0") and as an index into outcomes.
const char* weak_outcome(LitmusShape shape);
int weak_outcome_index(LitmusShape shape);
// Whether the PTX memory model allows the weak outcome (relaxed MP/SB/LB and
// MP fenced on one side only: allowed; MP fenced on both sides or with
// release/acquire: forbidden, so any observation is a finding).
bool weak_allowed_by_ptx(LitmusShape shape);

// Runs one shape on the current device.
LitmusProbeResult run_litmus_probe(LitmusShape shape, const LitmusProbeConfig& config);

}  // namespace lookback::stress
