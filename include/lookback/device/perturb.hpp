// Schedule perturbations for instrumented kernels: how the stress harness
// (and the stall tests) push a scan into the interleavings that hurt. Plain
// data, shared by host and device; production kernels (not instrumented)
// compile every hook away.
//
//   delays      at each protocol point a tile may sleep a random time,
//               chosen by a hash of the seed (varied per launch), the
//               tile, the point and the round (which look-back window)
//   stall       every stall_every-th tile (t % stall_every == stall_every-1),
//               or a random stall_chance of them, sleeps stall_ns before
//               publishing its aggregate: the blocking simulation that forces
//               look-back waits and fallbacks
//   tile map    the tile id a block draws (ticket or blockIdx) is permuted
//               inside consecutive windows of map_window tiles: reversed or
//               shuffled. A window of at most the number of co-resident
//               blocks keeps ticket-ordered variants deadlock-free (every
//               tile's predecessors outside its window were drawn earlier);
//               map_window = 0 permutes the whole grid, which only a
//               wait-free (fallback) variant survives
//   pre-stress  before taking a tile, every thread of a block stores to and
//               loads from random lines of a scratch buffer
//   starvation  one chosen tile's block stops before publishing its aggregate
//               until every other block of the launch is done with
//               descriptors (a harness-owned counter, starve_done) or
//               starve_ns passed:
//               the decoupled-fallback paper's blocking simulation at its
//               harshest. Only a wait-free (fallback) variant finishes
//               without it; any other waits on that tile until its watchdog
//               trips, so the harness runs it on the fallback family only
#pragma once

#include <cstdint>

namespace lookback::device {

enum class TileMap : std::uint8_t { Identity, Reversed, Shuffled };

// Where a delay can be injected.
enum class PerturbPoint : std::uint8_t {
  BeforeAggregate,  // after the local reduction, before publishing AGGREGATE
  InLookback,       // between two reads of a look-back window
  BeforePrefix,     // after the look-back, before publishing PREFIX
  // Fallback only: after reducing a predecessor's input, before validating
  // and publishing it (widens the window in which the owner publishes, and
  // writes its output, behind the fallback's back).
  BeforeFallbackPublish,
  // Deterministic mode only: before its second pass reads a passed window
  // again (widens the time in which that window's descriptors move up to
  // PREFIX, so that the fold restarts there: WindowLookback::refold).
  InSecondPass,
};
inline constexpr int kPerturbPoints = 5;
inline constexpr std::uint32_t kNoTile = 0xffffffffu;

struct Perturbation {
  std::uint32_t seed = 0;  // vary per launch: every hash takes it
  // Random delays: at each point, with probability delay_chance / 65536, a
  // sleep of up to delay_ns[point] nanoseconds.
  std::uint32_t delay_ns[kPerturbPoints] = {};
  // delay_ns[point], indexed by the point's name.
  constexpr std::uint32_t& max_delay_ns(PerturbPoint point) {
    return delay_ns[static_cast<int>(point)];
  }
  constexpr std::uint32_t max_delay_ns(PerturbPoint point) const {
    return delay_ns[static_cast<int>(point)];
  }
  std::uint32_t delay_chance = 0;
  // Blocking simulation (before publishing the aggregate).
  std::uint32_t stall_ns = 0;
  std::uint32_t stall_every = 0;   // deterministic: tiles t % every == every - 1
  std::uint32_t stall_chance = 0;  // random: probability stall_chance / 65536
  TileMap tile_map = TileMap::Identity;
  std::uint32_t map_window = 0;  // 0: the whole grid
  // Pre-stress of the scanning threads.
  std::uint32_t* scratch = nullptr;
  std::uint32_t scratch_words = 0;
  std::uint32_t prestress_rounds = 0;
  // Starvation of one tile (kNoTile: none): it waits, before publishing its
  // aggregate, until *starve_done reaches starve_until_done (the launch's
  // other blocks are all done with descriptors) or starve_ns of wall time
  // passed. *starve_done is a counter the harness zeroes before the launch;
  // each block of the launch adds 1 after its last descriptor access
  // (perturb_count_done).
  std::uint32_t starve_tile = kNoTile;
  std::uint32_t starve_ns = 0;
  std::uint32_t* starve_done = nullptr;
  std::uint32_t starve_until_done = 0;

  constexpr bool any() const {
    return delay_chance != 0 || stall_ns != 0 || tile_map != TileMap::Identity ||
           prestress_rounds != 0 || (starve_tile != kNoTile && starve_ns != 0);
  }
};

}  // namespace lookback::device
