// The stress knobs: each a named way to push a scan towards the schedules
// that hurt. A knob is data (a Perturbation for the instrumented kernel plus
// what the host runs beside the scan), so the report can print every
// parameter it ran with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lookback/device/perturb.hpp"

namespace lookback::stress {

struct Knob {
  std::string name;
  std::string description;
  // In-kernel perturbations; the harness draws a fresh seed per launch and
  // points the pre-stress at its scratch buffer.
  device::Perturbation perturb{};
  // Occupancy hogs: before each scan, blocks of 1024 threads on another
  // stream take `hog_blocks_per_sm` slots on every SM and spin (bounded by
  // hog_ns of wall time), so fewer scan blocks are resident at once.
  int hog_blocks_per_sm = 0;
  std::uint32_t hog_ns = 0;
  // Memory stress: the hogs hammer scratch lines with stores and loads
  // instead of idling.
  bool memory_stress = false;
  // Descriptor readers: the hogs keep reading the scan's temp storage
  // (header and descriptors) with L1-caching loads, so every SM's L1 holds
  // descriptor lines the scan then reads: a reader that does not acquire can
  // take a stale value word from there.
  bool descriptor_readers = false;
  // A second scan of the same variant runs concurrently on another stream
  // (its own buffers and temp storage; its launches count and are checked).
  bool concurrent = false;
  // Largest tile count a launch draws (sizes are random up to it).
  std::uint32_t max_tiles = 512;

  bool needs_scratch() const { return memory_stress || perturb.prestress_rounds != 0; }
  bool hogs() const { return hog_blocks_per_sm > 0; }
};

// The knobs, in the order the mutant kill matrix tries them: "none" first
// (no perturbation), then one mechanism at a time, then all together.
// Every knob is safe for a correct ticket-ordered variant: tile maps only
// permute inside windows of 32 tiles, and every stall and hog is bounded.
std::vector<Knob> default_knobs();

// One line per parameter of a knob, "key=value" (for the report).
std::string describe_parameters(const Knob& k);

}  // namespace lookback::stress
