// Persistent blocks that hold two tiles (Protocol::tiles_per_block == 2, the
// `pipelined` and `fallback` variants): the model runs fewer blocks than
// tiles, each block publishes its newer tile's aggregate before it looks back
// for the older one, and the last draw and the finished-blocks counter count blocks. These tests
// pin the program's shape (every tile scanned once, no wait while an aggregate is unpublished, the
// pipelined order reachable) and that the usual flaws, put on the persistent program, are still
// caught.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>

#include "lookback/model/explorer.hpp"
#include "lookback/model/protocol_model.hpp"
#include "lookback/model/verdict.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace {

using namespace lookback::model;
using namespace lookback::protocol;

constexpr Protocol kPipelined = production("pipelined");
constexpr Protocol kFallback = production("fallback");
constexpr Protocol kFallbackInPlace = production("fallback-inplace");

Instance instance(int tiles, int blocks, Layout layout = Layout::Packed, int launches = 1) {
  Instance i;
  i.tiles = tiles;
  i.blocks = blocks;
  i.layout = layout;
  i.launches = launches;
  return i;
}

ExploreResult run(const Protocol& p, const Instance& i, Progress progress = Progress::Obe,
                  std::function<void(const ExecutionGraph&)> on_execution = {}) {
  ExploreOptions opt;
  opt.progress = progress;
  opt.on_execution = std::move(on_execution);
  return explore(build_protocol_system(p, i), opt);
}

bool violates(const ExploreResult& r, Property p) {
  return r.violations.count(p) > 0;
}

Protocol with_flaw(Flaw f) {
  Protocol p = kPipelined;
  p.flaw = f;
  return p;
}

TEST(PersistentBlocks, PipelinedAndFallbacksArePersistentAndOthersAreNot) {
  EXPECT_TRUE(persistent(kPipelined));
  EXPECT_TRUE(persistent(kFallback));
  EXPECT_TRUE(persistent(kFallbackInPlace));
  EXPECT_FALSE(persistent(production("warp-lookback")));
  EXPECT_FALSE(persistent(production("coarsened")));
  EXPECT_FALSE(persistent(production("fenced-lookback")));
  // Blocks default to half the tiles, at least two; other variants run one
  // per tile.
  EXPECT_EQ(blocks_for(kPipelined, instance(6, 0)), 3);
  EXPECT_EQ(blocks_for(kPipelined, instance(3, 0)), 2);
  EXPECT_EQ(blocks_for(kPipelined, instance(1, 0)), 1);
  EXPECT_EQ(blocks_for(kPipelined, instance(5, 4)), 4);
  EXPECT_EQ(blocks_for(production("warp-lookback"), instance(5, 0)), 5);
  // The last finisher is the last block, not the last tile.
  EXPECT_EQ(last_finisher(kPipelined, 6, 3), 2);
  EXPECT_EQ(last_finisher(production("warp-lookback"), 6, 6), 5);
  EXPECT_EQ(last_finisher(with_flaw(Flaw::CountTilesNotBlocks), 6, 3), 5);
  // The last draw: one per tile and one more per persistent block.
  EXPECT_EQ(last_draw(kPipelined, 6, 3), 8);
  EXPECT_EQ(last_draw(production("warp-lookback"), 6, 6), 5);
  EXPECT_EQ(last_draw(with_flaw(Flaw::CountTilesNotBlocks), 6, 3), 5);
}

TEST(PersistentBlocks, SystemHasOneThreadPerBlock) {
  const System s = build_protocol_system(kPipelined, instance(5, 2));
  ASSERT_EQ(s.threads.size(), 2u);
  EXPECT_EQ(s.symmetry_class[0], s.symmetry_class[1]);  // ticket ids: interchangeable
  // Two launches: the first has half the tiles (2) and so at most 2 blocks.
  const System reuse = build_protocol_system(kPipelined, instance(4, 3, Layout::Packed, 2));
  EXPECT_EQ(reuse.threads.size(), 2u + 3u);
}

TEST(PersistentBlocks, ProductionPassesAcrossShapes) {
  for (Layout layout : {Layout::Packed, Layout::Split}) {
    for (auto [tiles, blocks] : {std::pair{4, 1}, {4, 2}, {5, 2}, {4, 3}, {3, 3}}) {
      const ExploreResult r = run(kPipelined, instance(tiles, blocks, layout));
      EXPECT_TRUE(r.passed()) << to_string(layout) << " " << tiles << " tiles, " << blocks
                              << " blocks: " << r.violations.begin()->second.message;
      EXPECT_GT(r.executions, 0u);
      EXPECT_EQ(r.stuck, 0u);
    }
    const ExploreResult reuse = run(kPipelined, instance(4, 2, layout, 2));
    EXPECT_TRUE(reuse.passed()) << to_string(layout) << " reuse";
  }
}

// Every execution: each tile is loaded, published and stored by exactly one
// block, and no block reads a predecessor's descriptor while it holds a tile
// whose aggregate it has not published. Some execution shows the pipelined
// order: a block publishes a newer tile's aggregate before the PREFIX of the
// older tile it holds.
TEST(PersistentBlocks, EveryTileOnceAndNoWaitWithAnUnpublishedAggregate) {
  constexpr int kTiles = 5;
  std::mutex mu;
  std::uint64_t executions = 0, pipelined = 0;
  std::vector<std::string> problems;
  const ExploreResult r =
      run(kPipelined, instance(kTiles, 2), Progress::Obe, [&](const ExecutionGraph& g) {
        std::map<int, int> loads, stores;
        bool saw_pipelined = false;
        std::vector<std::string> bad;
        for (int t = 0; t < g.threads(); ++t) {
          std::vector<int> pending;     // loaded, aggregate not yet published
          std::vector<int> unresolved;  // aggregate published, PREFIX not yet
          for (int id : g.thread_events(t)) {
            const Event& e = g.event(id);
            switch (e.step) {
              case Step::LoadInput:
                ++loads[e.tile];
                pending.push_back(e.tile);
                break;
              case Step::PublishAggregate:
                std::erase(pending, e.tile);
                if (!unresolved.empty()) saw_pipelined = true;
                unresolved.push_back(e.tile);
                break;
              case Step::PublishPrefix:
                std::erase(pending, e.tile);
                std::erase(unresolved, e.tile);
                break;
              case Step::LookbackStatus:
                if (!pending.empty())
                  bad.push_back("a block reads desc[" + std::to_string(e.tile) + "] holding tile " +
                                std::to_string(pending.front()) + " unpublished");
                break;
              case Step::StoreOutput:
                ++stores[e.tile];
                break;
              default:
                break;
            }
          }
        }
        for (int k = 0; k < kTiles; ++k)
          if (loads[k] != 1 || stores[k] != 1)
            bad.push_back("tile " + std::to_string(k) + " loaded " + std::to_string(loads[k]) +
                          "x, stored " + std::to_string(stores[k]) + "x");
        std::lock_guard lock(mu);
        ++executions;
        pipelined += saw_pipelined ? 1 : 0;
        problems.insert(problems.end(), bad.begin(), bad.end());
      });
  EXPECT_TRUE(r.passed());
  EXPECT_GT(executions, 0u);
  EXPECT_GT(pipelined, 0u) << "no execution publishes a newer aggregate before an older PREFIX";
  EXPECT_TRUE(problems.empty()) << problems.front();
}

TEST(PersistentBlocks, FlawsOnThePersistentProgramAreCaught) {
  EXPECT_TRUE(
      violates(run(with_flaw(Flaw::StopAtAggregate), instance(4, 2)), Property::CorrectPrefix));
  EXPECT_TRUE(violates(run(with_flaw(Flaw::PrefixBeforeLookback), instance(4, 2)),
                       Property::CorrectPrefix));
  EXPECT_TRUE(violates(run(with_flaw(Flaw::Tile0PublishesAggregate), instance(4, 2)),
                       Property::Termination));
  Protocol relaxed = kPipelined;
  relaxed.publish_order = Order::Relaxed;
  EXPECT_TRUE(violates(run(relaxed, instance(4, 2, Layout::Split)), Property::NoDataRace));
  Protocol no_reset = kPipelined;
  no_reset.reset = Reset::None;
  EXPECT_TRUE(violates(run(no_reset, instance(4, 2, Layout::Packed, 2)), Property::CorrectPrefix));
}

// The pipelined variant publishes packed words relaxed (the word carries its
// value) and keeps the release where a tag orders a value word: both layouts
// pass, and relaxing the split tag too is the data race the ordering mutants
// show.
TEST(PersistentBlocks, RelaxedPublishIsSafeOnlyWhereTheWordCarriesItsValue) {
  ASSERT_TRUE(kPipelined.relaxed_packed_publish);
  EXPECT_TRUE(run(kPipelined, instance(4, 2, Layout::Packed)).passed());
  EXPECT_TRUE(run(kPipelined, instance(4, 2, Layout::Packed, 2)).passed());
  EXPECT_TRUE(run(kPipelined, instance(4, 2, Layout::Split)).passed());
  Protocol split_relaxed = kPipelined;
  split_relaxed.publish_order = Order::Relaxed;
  EXPECT_TRUE(run(split_relaxed, instance(4, 2, Layout::Packed)).passed());
  EXPECT_TRUE(violates(run(split_relaxed, instance(4, 2, Layout::Split)), Property::NoDataRace));
}

// The fallback on persistent blocks needs no fairness at all: a block that
// stops for good may hold two tiles (one with its aggregate published, one
// not yet), and every look-back that meets either falls back past it. Both
// layouts, in place or not, several shapes; the wait-free check as well
// (no wait of a block may depend on another block).
TEST(PersistentBlocks, FallbackTerminatesWithNoFairnessWhileBlocksHoldTwoTiles) {
  ExploreOptions opt;
  opt.progress = Progress::Unfair;
  opt.check_wait_free = true;
  for (const Protocol& p : {kFallback, kFallbackInPlace})
    for (Layout layout : {Layout::Packed, Layout::Split})
      for (auto [tiles, blocks] : {std::pair{3, 1}, {4, 2}, {5, 2}}) {
        const ExploreResult r =
            explore(build_protocol_system(p, instance(tiles, blocks, layout)), opt);
        EXPECT_TRUE(r.passed()) << p.in_place << " " << to_string(layout) << " " << tiles
                                << " tiles, " << blocks
                                << " blocks: " << r.violations.begin()->second.message;
        EXPECT_EQ(r.stuck, 0u);
      }
  // Without its spin bound the same program hangs when a block stops.
  Protocol unbounded = kFallback;
  unbounded.spin_bound = 0;
  EXPECT_TRUE(violates(run(unbounded, instance(4, 2), Progress::Unfair), Property::Termination));
}

// Ticket tile ids need OBE: under HSA or with no fairness at all, a started
// block that holds a low tile may never run again.
TEST(PersistentBlocks, LiveUnderObeButNotHsaOrUnfair) {
  EXPECT_TRUE(run(kPipelined, instance(4, 2), Progress::Obe).passed());
  EXPECT_TRUE(run(kPipelined, instance(4, 2), Progress::Lobe).passed());
  EXPECT_TRUE(violates(run(kPipelined, instance(4, 2), Progress::Hsa), Property::Termination));
  EXPECT_TRUE(violates(run(kPipelined, instance(4, 2), Progress::Unfair), Property::Termination));
}

// The last draw and the finished counter must count blocks: counting tiles
// hands the launch word over at the last tile's draw, while blocks still
// draw past the last tile. With two blocks another block takes tile 0 again
// and both write its output; a block alone takes its own tile 0 again after
// the last tile's draw, and republishes tiles below their PREFIX.
TEST(PersistentBlocks, CountingTilesBreaksReuse) {
  const Protocol flawed = with_flaw(Flaw::CountTilesNotBlocks);
  const ExploreResult two = run(flawed, instance(4, 2, Layout::Packed, 2));
  EXPECT_TRUE(violates(two, Property::NoDataRace));
  EXPECT_TRUE(violates(run(flawed, instance(4, 1, Layout::Packed, 2)), Property::MonotoneStatus));
  EXPECT_TRUE(run(kPipelined, instance(4, 2, Layout::Packed, 2)).passed());
  EXPECT_TRUE(run(kPipelined, instance(4, 1, Layout::Packed, 2)).passed());
}

TEST(PersistentBlocks, RejectsWhatItCannotDescribe) {
  Protocol blockidx = kPipelined;
  blockidx.tile_id = TileIdSource::BlockIdx;
  EXPECT_THROW(build_protocol_system(blockidx, instance(4, 2)), std::invalid_argument);
  Protocol three = kPipelined;
  three.tiles_per_block = 3;
  EXPECT_THROW(build_protocol_system(three, instance(4, 2)), std::invalid_argument);
  EXPECT_THROW(build_protocol_system(kPipelined, instance(4, 5)), std::invalid_argument);
  EXPECT_THROW(build_protocol_system(production("warp-lookback"), instance(4, 2)),
               std::invalid_argument);
  EXPECT_NO_THROW(build_protocol_system(production("warp-lookback"), instance(4, 4)));
}

TEST(PersistentBlocks, DefaultBoundsGiveEveryBlockTwoTiles) {
  const CheckRun r = check_variant(*find_variant("count-tiles-not-blocks"), Settings{});
  ASSERT_FALSE(r.runs.empty());
  EXPECT_EQ(r.runs.front().instance.tiles, kDefaultPersistentReuseTiles);
  EXPECT_TRUE(r.as_expected());
  EXPECT_EQ(default_tiles(kPipelined, Kind::Production, Layout::Packed, 1),
            kDefaultPersistentTiles);
  // The persistent fallback: 5 tiles (on 2 blocks) for the production
  // variants; its mutants in place or on the split layout keep 3.
  EXPECT_EQ(default_tiles(kFallback, Kind::Production, Layout::Split, 1),
            kDefaultPersistentFallbackTiles);
  EXPECT_EQ(default_tiles(kFallbackInPlace, Kind::Production, Layout::Packed, 1),
            kDefaultPersistentFallbackTiles);
  EXPECT_EQ(default_tiles(kFallbackInPlace, Kind::Mutant, Layout::Packed, 1),
            kDefaultFallbackTiles);
  EXPECT_EQ(default_tiles(kFallback, Kind::Production, Layout::Packed, 2),
            kDefaultPersistentReuseTiles);
  const CheckRun f = check_variant(*find_variant("fallback"), Settings{});
  ASSERT_FALSE(f.runs.empty());
  EXPECT_EQ(f.runs.front().instance.tiles, kDefaultPersistentFallbackTiles);
  EXPECT_EQ(blocks_for(kFallback, f.runs.front().instance), 2);
}

}  // namespace
