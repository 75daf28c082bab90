// Runs one catalogue entry under one knob on the current GPU, checking every
// launch: the output against a CPU reference (on the device, by a check
// kernel), and the kernels' error flag (watchdog, ticket overflow). Host-only
// interface; the CUDA lives in harness.cu.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "stress/entry.hpp"
#include "stress/knobs.hpp"

namespace lookback::stress {

struct CellResult {
  std::string entry;
  std::string knob;
  std::uint64_t launches = 0;
  std::uint64_t wrong_launches = 0;  // some output element differed from the reference
  std::uint64_t watchdog_trips = 0;  // a wait loop gave up (DeviceError::WatchdogExpired)
  std::uint64_t other_errors = 0;    // any other device error code (e.g. ticket overflow)
  double seconds = 0;
  double first_failure_seconds = -1;  // since the cell started; -1: none
  std::string first_failure;          // what it was (launch size, element, values)
  // Launches that raised no device error but left a descriptor below the
  // status its owner published last: the status moved backwards
  // (EntryRunner::check_final).
  std::uint64_t status_regressions = 0;
  std::string note;  // e.g. why a knob could not do all it says

  // Failure events (a launch can show more than one kind).
  std::uint64_t failures() const {
    return wrong_launches + watchdog_trips + other_errors + status_regressions;
  }
  double failures_per_second() const {
    return seconds > 0 ? static_cast<double>(failures()) / seconds : 0;
  }
};

struct HarnessConfig {
  std::uint32_t seed = 1;
  std::uint32_t watchdog_rounds = 200000;  // every wait loop gives up after this many rounds
  // Buffer capacity (u32 elements): room for grids beyond the resident
  // blocks of every kernel (knob dispatch-reversed).
  std::int64_t max_items = std::int64_t{1} << 24;
};

// Tile counts a launch of `entry` may draw under `knob`: [lo, hi].
// `resident_blocks`: the kernel's blocks resident at once on the whole GPU
// (beyond_residency knobs draw grids larger than that, as far as `max_items`
// allows; `note` says so when it does not).
struct TileRange {
  std::int64_t lo = 1, hi = 1;
  std::string note;
};
TileRange tile_range(const Knob& knob, std::int64_t tile_items, std::int64_t max_items,
                     std::int64_t resident_blocks);

class Harness {
 public:
  explicit Harness(const HarnessConfig& config);  // throws std::runtime_error without a GPU
  ~Harness();
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  // Launches `entry` under `knob` until `seconds` pass or `max_launches` ran;
  // with stop_at_first_failure it returns after the batch that failed.
  CellResult run(const EntryRunner& entry, const Knob& knob, double seconds,
                 std::uint64_t max_launches, bool stop_at_first_failure);

  // GB/s (one read and one write per element) of `entry` at n items, median
  // of `reps` timed launches after a warm-up, no perturbation. Checked.
  double throughput(const EntryRunner& entry, std::int64_t n, int reps);

  std::string device_name() const;
  int sm_count() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Whether a CUDA device is usable here (false, with the reason, if not).
bool gpu_available(std::string* why);

}  // namespace lookback::stress
