#include "stress/knobs.hpp"

#include <sstream>

namespace lookback::stress {

namespace {
constexpr std::uint32_t kPercent = 65536 / 100;  // chance units per percent

Knob none() {
  return {"none", "no perturbation: the scans as a user runs them, back to back"};
}
Knob delays() {
  Knob k{"delays", "random sleeps at every protocol point (25% of tiles per point)"};
  k.perturb.delay_chance = 25 * kPercent;
  using device::PerturbPoint;
  k.perturb.max_delay_ns(PerturbPoint::BeforeAggregate) = 4000;
  k.perturb.max_delay_ns(PerturbPoint::InLookback) = 500;  // per look-back window read
  k.perturb.max_delay_ns(PerturbPoint::BeforePrefix) = 4000;
  // Fallback only: between reducing a predecessor and publishing it.
  k.perturb.max_delay_ns(PerturbPoint::BeforeFallbackPublish) = 4000;
  // Deterministic entries, before re-reading a passed window: they hold 4
  // passed windows, so only look-backs that pass more re-read (rare but for
  // stalls).
  k.perturb.max_delay_ns(PerturbPoint::InSecondPass) = 2000;
  return k;
}
Knob reversed() {
  Knob k{"tiles-reversed", "tile ids reversed inside every window of 32 drawn ids"};
  k.perturb.tile_map = device::TileMap::Reversed;
  k.perturb.map_window = 32;
  return k;
}
Knob shuffled() {
  Knob k{"tiles-shuffled", "tile ids shuffled (seeded affine permutation) inside windows of 32"};
  k.perturb.tile_map = device::TileMap::Shuffled;
  k.perturb.map_window = 32;
  return k;
}
Knob blocking() {
  Knob k{"blocking", "12.5% of tiles stall 30 us before publishing (the blocking simulation)"};
  k.perturb.stall_ns = 30000;
  k.perturb.stall_chance = 8192;
  return k;
}
Knob hogs() {
  Knob k{"occupancy-hogs", "1024-thread blocks on another stream occupy one slot per SM for 40 us"};
  k.hog_blocks_per_sm = 1;
  k.hog_ns = 40000;
  return k;
}
Knob memory() {
  Knob k{"memory-stress", "blocks on another stream hammer scratch lines (st/ld) during the scan"};
  k.hog_blocks_per_sm = 1;
  k.hog_ns = 40000;
  k.memory_stress = true;
  return k;
}
Knob descriptor_readers() {
  Knob k{"descriptor-readers",
         "blocks on another stream keep reading the scan's descriptors with L1-caching loads"};
  k.hog_blocks_per_sm = 1;
  k.hog_ns = 40000;
  k.descriptor_readers = true;
  return k;
}
Knob prestress() {
  Knob k{"pre-stress", "every scanning thread does 64 random scratch st/ld before taking a tile"};
  k.perturb.prestress_rounds = 64;
  return k;
}
Knob concurrent() {
  Knob k{"concurrent", "a second scan of the same variant runs at once on another stream"};
  k.concurrent = true;
  return k;
}
Knob chaos() {
  Knob k{"chaos", "all of the above at once"};
  k.perturb = delays().perturb;
  k.perturb.tile_map = device::TileMap::Shuffled;
  k.perturb.map_window = 32;
  k.perturb.stall_ns = 30000;
  k.perturb.stall_chance = 8192;
  k.perturb.prestress_rounds = 64;
  k.hog_blocks_per_sm = 1;
  k.hog_ns = 40000;
  k.memory_stress = true;
  k.descriptor_readers = true;
  k.concurrent = true;
  return k;
}
// fallback-plain-store publishes with a plain store; it does harm only when
// that store lands after the owner's PREFIX (the status moves back to
// AGGREGATE). That needs the owner to resume and publish both statuses
// between the moment a waiter gives up on it (after its spin bound) and the
// moment the waiter's fallback publishes: long random owner stalls before
// AGGREGATE, and a long random delay between the fallback's reduction and
// its publish. The correct fallback's CAS then fails and adopts the owner's
// word; the validating in-place one discards its reduction.
Knob fallback_race() {
  Knob k{"fallback-race",
         "25% of tiles sleep up to 150 us before AGGREGATE; a fallback sleeps up to 100 us "
         "between reducing a predecessor and publishing it (25%)"};
  k.perturb.delay_chance = 25 * kPercent;
  k.perturb.max_delay_ns(device::PerturbPoint::BeforeAggregate) = 150000;
  k.perturb.max_delay_ns(device::PerturbPoint::BeforeFallbackPublish) = 100000;
  return k;
}
// fallback-unbounded-spin waits on a stalled predecessor like a plain
// look-back: a tile whose block does not run until everyone else is done
// makes its successors wait until their watchdog trips, while the correct
// fallback reduces the tile itself and finishes.
Knob starved() {
  Knob k{"starved-tile",
         "one tile per launch waits before publishing until all other blocks have finished "
         "(at most 1 s); fallback family only"};
  k.starve = true;
  k.perturb.starve_ns = 1'000'000'000;
  k.fallback_only = true;
  return k;
}
// blockidx-tile-id waits on tiles of blocks that are not yet resident when
// the dispatch order differs from blockIdx order and the grid exceeds the
// resident blocks: the first wave of blocks then holds only high tiles.
Knob dispatch_reversed() {
  Knob k{"dispatch-reversed",
         "blocks dispatched last-first (tile = tiles-1-blockIdx for blockIdx variants; tickets "
         "unaffected), grids beyond the resident blocks, occupancy hogs"};
  k.reverse_dispatch = true;
  k.beyond_residency = true;
  k.hog_blocks_per_sm = 1;
  k.hog_ns = 40000;
  return k;
}
}  // namespace

std::vector<Knob> default_knobs() {
  return {none(),      delays(),
          reversed(),  shuffled(),
          blocking(),  hogs(),
          memory(),    descriptor_readers(),
          prestress(), concurrent(),
          chaos(),     fallback_race(),
          starved(),   dispatch_reversed()};
}

const Knob* find_knob(const std::vector<Knob>& knobs, const std::string& name) {
  for (const auto& k : knobs)
    if (k.name == name) return &k;
  return nullptr;
}

std::string knob_names(const std::vector<Knob>& knobs) {
  std::string out;
  for (const auto& k : knobs)
    out += (out.empty() ? "" : ", ") + k.name;
  return out;
}

std::string describe_parameters(const Knob& k) {
  std::ostringstream os;
  const auto& p = k.perturb;
  const char* maps[] = {"identity", "reversed", "shuffled"};
  os << "delay_chance=" << p.delay_chance << "/65536 delay_ns=";
  for (int point = 0; point < device::kPerturbPoints; ++point)
    os << (point ? "," : "") << p.delay_ns[point];
  os << " stall_ns=" << p.stall_ns << " stall_chance=" << p.stall_chance
     << "/65536 stall_every=" << p.stall_every << " tile_map=" << maps[static_cast<int>(p.tile_map)]
     << " map_window=" << p.map_window << " prestress_rounds=" << p.prestress_rounds
     << " hog_blocks_per_sm=" << k.hog_blocks_per_sm << " hog_ns=" << k.hog_ns
     << " memory_stress=" << (k.memory_stress ? 1 : 0)
     << " descriptor_readers=" << (k.descriptor_readers ? 1 : 0)
     << " concurrent=" << (k.concurrent ? 1 : 0) << " max_tiles=" << k.max_tiles
     << " starve=" << (k.starve ? 1 : 0) << " starve_ns=" << p.starve_ns
     << " reverse_dispatch=" << (k.reverse_dispatch ? 1 : 0)
     << " beyond_residency=" << (k.beyond_residency ? 1 : 0)
     << " fallback_only=" << (k.fallback_only ? 1 : 0);
  return os.str();
}

}  // namespace lookback::stress
