// Host-side tests of the stress harness (no GPU needed): the tile maps are
// bijections that stay inside their windows, the knobs are what the report
// says they are, every catalogue entry has a kernel, and the report writers
// put every number where it belongs.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <vector>

#include "lookback/device/perturb.cuh"
#include "lookback/protocol/catalogue.hpp"
#include "stress/entries.hpp"
#include "stress/knobs.hpp"
#include "stress/report.hpp"

namespace {

using lookback::device::perturb_tile;
using lookback::device::Perturbation;
using lookback::device::TileMap;
using namespace lookback::stress;

std::vector<std::uint32_t> mapped(const Perturbation& q, std::uint32_t tiles) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t t = 0; t < tiles; ++t)
    out.push_back(perturb_tile(q, t, tiles));
  return out;
}

TEST(TileMap, EveryMapIsABijectionThatKeepsTilesInTheirWindow) {
  for (TileMap map : {TileMap::Identity, TileMap::Reversed, TileMap::Shuffled}) {
    for (std::uint32_t window : {0u, 1u, 7u, 32u}) {
      for (std::uint32_t tiles : {1u, 2u, 31u, 32u, 33u, 100u, 1025u}) {
        for (std::uint32_t seed : {0u, 1u, 0xdeadbeefu}) {
          Perturbation q;
          q.tile_map = map;
          q.map_window = window;
          q.seed = seed;
          const auto m = mapped(q, tiles);
          std::vector<std::uint32_t> sorted = m;
          std::sort(sorted.begin(), sorted.end());
          for (std::uint32_t t = 0; t < tiles; ++t) {
            ASSERT_EQ(sorted[t], t) << "not a bijection: map " << static_cast<int>(map)
                                    << " window " << window << " tiles " << tiles;
            if (window != 0) ASSERT_EQ(m[t] / window, t / window) << "tile left its window";
          }
        }
      }
    }
  }
}

TEST(TileMap, ReversedAndShuffledActuallyMoveTiles) {
  Perturbation q;
  q.map_window = 32;
  q.tile_map = TileMap::Reversed;
  EXPECT_EQ(perturb_tile(q, 0, 64), 31u);
  EXPECT_EQ(perturb_tile(q, 32, 40), 39u);  // the last, partial window: 8 tiles
  q.tile_map = TileMap::Shuffled;
  int moved = 0;
  for (std::uint32_t seed = 0; seed < 16; ++seed) {
    q.seed = seed;
    const auto m = mapped(q, 64);
    for (std::uint32_t t = 0; t < 64; ++t)
      moved += m[t] != t;
  }
  EXPECT_GT(moved, 16 * 64 / 2);  // a shuffle that mostly moves things
  q.tile_map = TileMap::Identity;
  EXPECT_EQ(perturb_tile(q, 5, 64), 5u);
  q.tile_map = TileMap::Reversed;
  EXPECT_EQ(perturb_tile(q, 70, 64), 70u)
      << "an overflowing ticket is left for the kernel to report";
}

TEST(Perturb, HashSpreadsAdjacentTiles) {
  std::set<std::uint32_t> low16;
  for (std::uint32_t t = 0; t < 1000; ++t)
    low16.insert(lookback::device::perturb_hash(1, t, 0) & 0xffffu);
  EXPECT_GT(low16.size(), 980u);
}

TEST(Knobs, NoneFirstChaosLastNamesUniqueAndSafeForCorrectVariants) {
  const auto knobs = default_knobs();
  ASSERT_GE(knobs.size(), 9u);
  EXPECT_EQ(knobs.front().name, "none");
  EXPECT_FALSE(knobs.front().perturb.any());
  EXPECT_EQ(knobs.front().hog_blocks_per_sm, 0);
  EXPECT_FALSE(knobs.front().concurrent);
  EXPECT_EQ(knobs.back().name, "chaos");
  std::set<std::string> names;
  for (const auto& k : knobs) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_FALSE(k.description.empty());
    // A whole-grid permutation would deadlock a ticket-ordered variant when
    // the grid exceeds the resident blocks: never in a default knob.
    if (k.perturb.tile_map != TileMap::Identity) {
      EXPECT_GT(k.perturb.map_window, 0u) << k.name;
      EXPECT_LE(k.perturb.map_window, 32u) << k.name;
    }
    EXPECT_LE(k.perturb.stall_ns, 1'000'000u)
        << k.name << ": stalls must stay short of the watchdog";
  }
  // Every mechanism the issue lists is exercised by some knob.
  auto some = [&](auto pred) { return std::any_of(knobs.begin(), knobs.end(), pred); };
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.delay_chance > 0; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.tile_map == TileMap::Reversed; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.tile_map == TileMap::Shuffled; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.stall_ns > 0; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.hog_blocks_per_sm > 0 && !k.memory_stress; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.memory_stress; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.descriptor_readers; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.prestress_rounds > 0; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.concurrent; }));
}

TEST(Knobs, ParametersNameEveryField) {
  const Knob k = default_knobs().back();
  const std::string p = describe_parameters(k);
  for (const char* key :
       {"delay_chance=", "delay_ns=", "stall_ns=", "stall_chance=", "tile_map=shuffled",
        "map_window=32", "prestress_rounds=", "hog_blocks_per_sm=", "hog_ns=", "memory_stress=1",
        "descriptor_readers=1", "concurrent=1", "max_tiles="})
    EXPECT_NE(p.find(key), std::string::npos) << key << " missing from " << p;
}

TEST(Entries, EveryCatalogueEntryHasAKernelWithItsProtocolsShape) {
  const auto entries = all_entries();
  ASSERT_EQ(entries.size(), lookback::protocol::kCatalogue.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    const auto& v = lookback::protocol::kCatalogue[i];
    EXPECT_EQ(e.index, static_cast<int>(i));
    EXPECT_STREQ(e.name, v.name);
    EXPECT_EQ(e.in_place, v.protocol.in_place) << e.name;
    EXPECT_GT(e.tile_items, 0) << e.name;
    ASSERT_NE(e.run, nullptr);
    // Temp storage grows by one descriptor per tile (a size query: no GPU).
    const std::size_t one = e.temp_bytes(1), many = e.temp_bytes(100 * e.tile_items);
    EXPECT_GT(one, 0u) << e.name;
    EXPECT_GT(many, one) << e.name;
    EXPECT_EQ((many - one) % 99, 0u) << e.name;
  }
}

Report sample_report() {
  Report r;
  r.gpu = "Test GPU \"X\"";
  r.sm_count = 4;
  r.knobs = default_knobs();
  CellResult ok{"warp-lookback", "none", 1000, 0, 0, 0, 1.0, -1, ""};
  CellResult bad{
      "coarsened", "delays", 500, 2, 1, 0, 1.0, 0.25, "n=10 (1 tiles): 3 wrong elements"};
  r.correct = {ok, bad};
  MutantResult m;
  m.name = "stop-at-aggregate";
  m.expected_property = "correct-prefix";
  m.model_verdict = "killed: correct-prefix";
  m.gpu_killed = true;
  m.first_knob = "none";
  m.time_to_first_kill = 0.01;
  m.rate_failures = 30;
  m.rate_seconds = 3;
  r.mutants = {m};
  r.litmus = {{"MP", "r0=1 r1=0", true, 2'000'000, 7, 1.0}};
  return r;
}

TEST(Report, TotalsAndRatesAreComputedFromTheCells) {
  const Report r = sample_report();
  EXPECT_EQ(r.correct_launches(), 1500u);
  EXPECT_EQ(r.correct_failures(), 3u);
  EXPECT_DOUBLE_EQ(r.mutants[0].kills_per_second(), 10.0);
  EXPECT_NEAR(r.mutants[0].kill_within_60s(), 1.0, 1e-9);
  MutantResult never;
  EXPECT_EQ(never.kill_within_60s(), 0.0);
}

TEST(Report, MarkdownShowsTheFailuresTheMatrixAndTheLitmusRates) {
  std::ostringstream os;
  write_markdown(os, sample_report());
  const std::string md = os.str();
  EXPECT_NE(md.find("1500 launches, 3 failures"), std::string::npos) << md;
  EXPECT_NE(md.find("FAILURE coarsened under delays: n=10"), std::string::npos);
  EXPECT_NE(
      md.find(
          "| stop-at-aggregate | correct-prefix | killed: correct-prefix | **killed** | none |"),
      std::string::npos);
  EXPECT_NE(md.find("| MP | r0=1 r1=0 | allowed | 2000000 | 7 | 3.5 |"), std::string::npos) << md;
}

TEST(Report, JsonEscapesStringsAndCarriesEveryCell) {
  std::ostringstream os;
  write_json(os, sample_report());
  const std::string js = os.str();
  EXPECT_NE(js.find("\"gpu\":\"Test GPU \\\"X\\\"\""), std::string::npos) << js;
  EXPECT_NE(js.find("\"correct\":{\"launches\":1500,\"failures\":3"), std::string::npos);
  EXPECT_NE(js.find("\"wrong_launches\":2,\"watchdog_trips\":1"), std::string::npos);
  EXPECT_NE(js.find("\"kills_per_second\":10"), std::string::npos);
  EXPECT_EQ(std::count(js.begin(), js.end(), '{'), std::count(js.begin(), js.end(), '}'));
  EXPECT_EQ(std::count(js.begin(), js.end(), '['), std::count(js.begin(), js.end(), ']'));
}

}  // namespace
