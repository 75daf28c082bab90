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
  // Starvation: in every launch of two or more tiles one random tile (not the
  // last) waits before publishing its aggregate until every other block has
  // finished, bounded by perturb.starve_ns (the harness picks the tile and
  // points the kernel at a per-launch counter of finished blocks). Only a
  // wait-free variant survives it: such a knob is fallback_only.
  bool starve = false;
  // Reversed dispatch: tile = num_tiles - 1 - blockIdx.x for variants whose
  // tile id is blockIdx.x, as if the hardware dispatched blocks last-first
  // (any order is allowed: OBE). A ticket is drawn in arrival order, so for a
  // ticket variant the dispatch order changes nothing and the map is identity.
  bool reverse_dispatch = false;
  // Grids larger than the kernel's resident blocks (occupancy calculator, all
  // SMs): tile counts drawn in (resident, 2 * resident + 64], as far as the
  // buffers allow, instead of up to max_tiles.
  bool beyond_residency = false;
  // Runs on the fallback family only (every other variant needs its
  // predecessors to make progress, by design).
  bool fallback_only = false;

  bool needs_scratch() const { return memory_stress || perturb.prestress_rounds != 0; }
  bool hogs() const { return hog_blocks_per_sm > 0; }
  bool applies_to(bool fallback_family) const { return !fallback_only || fallback_family; }
};

// The knobs, in the order the mutant kill matrix tries them: "none" first
// (no perturbation), then one mechanism at a time, then all of those
// together ("chaos"), then the targeted knobs, each aimed at one schedule
// that a class of flaws needs (fallback-race, starved-tile,
// dispatch-reversed). Every knob is safe for the correct variants it applies
// to: tile maps of ticket variants only permute inside windows of 32 tiles,
// every stall and hog is bounded, and starvation runs only on the wait-free
// fallback family.
std::vector<Knob> default_knobs();

// The knob named `name` among default_knobs() (nullptr if none).
const Knob* find_knob(const std::vector<Knob>& knobs, const std::string& name);

// Knob names as one comma-separated list (usage and error messages).
std::string knob_names(const std::vector<Knob>& knobs);

// One line per parameter of a knob, "key=value" (for the report).
std::string describe_parameters(const Knob& k);

}  // namespace lookback::stress
