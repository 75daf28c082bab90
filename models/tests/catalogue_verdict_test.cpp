// Every catalogue entry checked by the model at small bounds: production
// variants pass every property, each mutant is killed by the property it was
// built to violate. Plus the progress-model facts the design promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "lookback/model/verdict.hpp"

namespace {

using namespace lookback::model;
using namespace lookback::protocol;

// Persistent variants need 4 tiles: the reuse check's first launch then has
// 2 tiles on 2 blocks. So does a left fold: its second pass needs a
// look-back past a whole window (2 predecessors) to reach tile 0.
Settings small(const Protocol& p) {
  Settings s;
  s.tiles = persistent(p) || p.fold == Fold::LeftFold ? 4 : 3;
  return s;
}

class CatalogueVerdict : public ::testing::TestWithParam<NamedVariant> {};

TEST_P(CatalogueVerdict, MeetsItsExpectation) {
  const NamedVariant& v = GetParam();
  const CheckRun r = check_variant(v, small(v.protocol));
  ASSERT_TRUE(r.complete());
  const auto violated = r.violated();
  if (v.kind == Kind::Production) {
    EXPECT_TRUE(violated.empty()) << v.name << " violates " << to_string(violated.front());
  } else {
    EXPECT_NE(std::find(violated.begin(), violated.end(), v.expected), violated.end())
        << v.name << " is not killed by " << to_string(v.expected);
    const Violation* ce = r.counterexample(v.expected);
    ASSERT_NE(ce, nullptr);
    EXPECT_FALSE(ce->message.empty());
    EXPECT_GT(ce->graph.size(), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(All, CatalogueVerdict, ::testing::ValuesIn(kCatalogue),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

bool terminates(const NamedVariant& variant, Progress p, TileIdSource id) {
  Settings s;
  s.tiles = 3;
  s.launches = 1;
  s.layout = Layout::Packed;
  s.progress = p;
  s.tile_id = id;
  const auto v = check_variant(variant, s).violated();
  return std::find(v.begin(), v.end(), Property::Termination) == v.end();
}
bool terminates(const char* variant, Progress p, TileIdSource id) {
  return terminates(*find_variant(variant), p, id);
}

TEST(ProgressFacts, BlockIdxLookbackTerminatesUnderHsaButNotObe) {
  EXPECT_TRUE(terminates("warp-lookback", Progress::Hsa, TileIdSource::BlockIdx));
  EXPECT_FALSE(terminates("warp-lookback", Progress::Obe, TileIdSource::BlockIdx));
}

TEST(ProgressFacts, TicketLookbackTerminatesUnderObeButNotHsa) {
  EXPECT_TRUE(terminates("warp-lookback", Progress::Obe, TileIdSource::Ticket));
  EXPECT_FALSE(terminates("warp-lookback", Progress::Hsa, TileIdSource::Ticket));
}

// The fallback protocol on one-tile blocks (what the catalogue's persistent
// `fallback` is without its second tile), tile ids from `id`.
bool one_tile_fallback_terminates(Progress progress, TileIdSource id) {
  NamedVariant v = *find_variant("fallback");
  v.protocol.tiles_per_block = 1;
  return terminates(v, progress, id);
}

TEST(ProgressFacts, OnlyTheFallbackTerminatesUnderUnfair) {
  EXPECT_TRUE(terminates("fallback", Progress::Unfair, TileIdSource::Ticket));
  // Its blocks are persistent, so they draw tickets; on one-tile blocks the
  // same protocol terminates with blockIdx tile ids too.
  EXPECT_THROW(terminates("fallback", Progress::Unfair, TileIdSource::BlockIdx),
               std::invalid_argument);
  EXPECT_TRUE(one_tile_fallback_terminates(Progress::Unfair, TileIdSource::BlockIdx));
  EXPECT_TRUE(one_tile_fallback_terminates(Progress::Unfair, TileIdSource::Ticket));
  EXPECT_FALSE(terminates("warp-lookback", Progress::Unfair, TileIdSource::Ticket));
  EXPECT_FALSE(terminates("coarsened", Progress::Unfair, TileIdSource::Ticket));
  EXPECT_FALSE(terminates("pipelined", Progress::Unfair, TileIdSource::Ticket));
  EXPECT_FALSE(terminates("fallback-unbounded-spin", Progress::Unfair, TileIdSource::Ticket));
}

TEST(ProgressFacts, EveryoneTerminatesUnderFairScheduling) {
  for (TileIdSource id : {TileIdSource::Ticket, TileIdSource::BlockIdx}) {
    EXPECT_TRUE(terminates("warp-lookback", Progress::Fair, id));
    EXPECT_TRUE(one_tile_fallback_terminates(Progress::Fair, id));
  }
  EXPECT_TRUE(terminates("fallback", Progress::Fair, TileIdSource::Ticket));
  EXPECT_TRUE(terminates("pipelined", Progress::Fair, TileIdSource::Ticket));
}

TEST(ProgressFacts, OccupancyBoundWithBlockIdxDeadlocksEvenWhenFair) {
  // Two resident slots taken by blocks 1 and 2 waiting on block 0, which
  // cannot start: the classic occupancy deadlock.
  Settings s;
  s.tiles = 3;
  s.launches = 1;
  s.layout = Layout::Packed;
  s.progress = Progress::Fair;
  s.tile_id = TileIdSource::BlockIdx;
  s.resident = 2;
  const auto v = check_variant(*find_variant("warp-lookback"), s).violated();
  EXPECT_NE(std::find(v.begin(), v.end(), Property::Termination), v.end());
  s.tile_id = TileIdSource::Ticket;
  EXPECT_TRUE(check_variant(*find_variant("warp-lookback"), s).violated().empty());
}

TEST(Verdicts, SymmetryReductionChangesCountsNotVerdicts) {
  for (const char* name : {"warp-lookback", "stop-at-aggregate", "fallback-plain-store"}) {
    const NamedVariant v = *find_variant(name);
    Settings s;
    s.tiles = 3;
    s.launches = 1;
    s.layout = v.protocol.layout == Layout::Split ? Layout::Split : Layout::Packed;
    const auto with = check_variant(v, s);
    Protocol p = v.protocol;
    System sys = build_protocol_system(p, with.runs[0].instance);
    ExploreOptions o;
    o.progress = v.claims;
    o.symmetry = false;
    const auto without = explore(sys, o);
    std::vector<Property> plain;
    for (const auto& [prop, viol] : without.violations)
      plain.push_back(prop);
    EXPECT_EQ(with.violated(), plain) << name;
    EXPECT_LE(with.runs[0].result.graphs, without.graphs) << name;
  }
}

// A protocol whose epochs do not fit the tag (protocol::epoch_fits_tag) is
// refused, as the kernels refuse to compile it.
TEST(ModelInput, AnEpochWiderThanTheTagIsRefused) {
  Protocol p = find_variant("warp-lookback")->protocol;
  const Instance two_launches{.tiles = 3, .launches = 2};
  p.epoch_bits = kEpochBits + 1;
  EXPECT_THROW(build_protocol_system(p, two_launches), std::invalid_argument);
  p.epoch_bits = 0;
  EXPECT_THROW(build_protocol_system(p, two_launches), std::invalid_argument);
  p.epoch_bits = kEpochBits;
  EXPECT_NO_THROW(build_protocol_system(p, two_launches));
}

}  // namespace
