// Checking named catalogue entries: which instances to explore and what the
// verdict is (a production variant passes; a mutant is killed when the
// property it was built to violate is among those violated).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lookback/model/explorer.hpp"
#include "lookback/model/protocol_model.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace lookback::model {

struct Settings {
  std::optional<int> tiles, window, launches, resident, blocks;
  // Instance::wrap_launch of the two-launch runs under the epoch reset;
  // default: both, one run each, where the epoch has >= 2 bits.
  std::optional<int> wrap_launch;
  std::optional<protocol::Layout> layout;
  std::optional<MemoryModel> model;
  std::optional<protocol::Progress> progress;
  std::optional<protocol::TileIdSource> tile_id;
  // Protocol::held_windows of a left-fold variant (--held-windows).
  std::optional<int> held_windows;
  bool stop_at_first = false;
  std::uint64_t max_graphs = 0;
  int jobs = 1;  // ExploreOptions::jobs
  std::function<void(const std::string& what, std::uint64_t graphs, std::uint64_t executions)>
      on_progress;
};

// One explored instance of one variant.
struct InstanceRun {
  Instance instance;
  protocol::Protocol protocol;
  MemoryModel model;
  protocol::Progress progress;
  System system;
  ExploreResult result;
};

struct CheckRun {
  protocol::NamedVariant variant;
  std::vector<InstanceRun> runs;
  // Properties violated in any run, in enum order.
  std::vector<protocol::Property> violated() const;
  // The shortest counterexample for `p` over all runs (nullptr if none).
  const Violation* counterexample(protocol::Property p, const InstanceRun** where = nullptr) const;
  // Production: nothing violated in a complete search. Mutant: its expected
  // property violated (a violation found is found, complete or not).
  bool as_expected() const;
  // Nothing violated, but the search was cut short (--max-graphs): neither a
  // pass nor a kill.
  bool inconclusive() const;
  std::uint64_t executions() const;
  std::uint64_t graphs() const;
  double seconds() const;
  bool complete() const;
};

// Default bounds used by --all and when no flag overrides them.
inline constexpr int kDefaultTiles = 4;
inline constexpr int kDefaultWindow = 2;
inline constexpr int kDefaultReuseTiles = 3;  // per check with two launches
// Fallback mutants on the split layout or in place: 3 tiles, where each is
// killed in about a second (at 4 some take over 10 s; --tiles 4 runs them).
// A fallback's value-word store follows its validation fence, so which store
// a reader takes is not interchangeable (models/src/interchangeable.hpp) and
// these layouts grow fastest: the one-tile in-place fallback on the split
// layout at 4 tiles had 1,221,436 executions and 24.9M graphs.
inline constexpr int kDefaultFallbackTiles = 3;
// Persistent variants (two tiles per block) run half as many blocks as tiles
// (protocol_model.hpp, Instance::blocks): 6 tiles on 3 blocks, so every block
// may hold two tiles at once (pipelined: 23,214 executions packed, where
// its publishes are relaxed; 22,206 and 2.9M graphs split);
// the reuse check 4 tiles on 2 blocks, so the first launch has 2 tiles on 2
// blocks and a block can finish while the other has not drawn its last
// ticket (what count-tiles-not-blocks gets wrong).
inline constexpr int kDefaultPersistentTiles = 6;
inline constexpr int kDefaultPersistentReuseTiles = 4;
// A persistent fallback (the `fallback` variants): 5 tiles on 2 blocks, so
// every block holds two tiles at once and a look-back of tile 4 may fall back
// on tiles of both blocks, each of which may be held by a block that stopped
// (fallback-inplace, the largest default run: 272,042 executions, 5.1M graphs).
// 6 tiles on 3 blocks ran past 5.5M executions without finishing; 5 tiles on
// 3 blocks takes 36 s packed and minutes in place.
inline constexpr int kDefaultPersistentFallbackTiles = 5;

int default_tiles(const protocol::Protocol& p, protocol::Kind kind, protocol::Layout layout,
                  int launches);

// v's protocol with the fields `s` overrides (tile_id, held_windows); an
// override that does not apply (held windows of a tree look-back) is
// std::invalid_argument.
protocol::Protocol overridden_protocol(const protocol::NamedVariant& v, const Settings& s);

// The runs check_variant explores for `v` under `s`, each instance's system
// built but not explored. Every instance is checked here, so a flag that does
// not suit one of them fails before anything runs: std::invalid_argument
// naming the variant and the run. Settings::wrap_launch applies to the
// two-launch runs under the epoch reset, and a variant with none refuses it;
// with `wrap_launch_where_it_fits` (--all) it applies only to runs with a
// choice (wrap_launches: an epoch of >= 2 bits) and nothing refuses it.
std::vector<InstanceRun> plan_variant(const protocol::NamedVariant& v, const Settings& s,
                                      bool wrap_launch_where_it_fits = false);
// Explores runs planned by plan_variant.
CheckRun explore_variant(const protocol::NamedVariant& v, std::vector<InstanceRun> runs,
                         const Settings& s);
// plan_variant, then explore_variant.
CheckRun check_variant(const protocol::NamedVariant& v, const Settings& s);

}  // namespace lookback::model
