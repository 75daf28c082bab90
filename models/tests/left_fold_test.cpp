// Deterministic mode in the model (protocol::Fold::LeftFold): values track
// their bracketing, a left-fold look-back folds the windows it passed in a
// second pass (from the values it held, or reading them again), and
// Property::LeftFold catches a fold bracketed otherwise.
#include <gtest/gtest.h>

#include <string>

#include "lookback/model/explorer.hpp"
#include "lookback/model/protocol_model.hpp"
#include "lookback/model/value.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace {

using namespace lookback::model;
using namespace lookback::protocol;

TEST(LeftFoldValues, OnlyOneTileAtATimeOnTheRightKeepsTheLeftFold) {
  const Interval a0 = Interval::tile(0, 0), a1 = Interval::tile(1, 0), a2 = Interval::tile(2, 0);
  const Interval left = fold(fold(a0, a1), a2);  // (a0 op a1) op a2
  EXPECT_TRUE(same_tiles(left, Interval::range(0, 2, 0)));
  EXPECT_FALSE(left.regrouped);
  const Interval right = fold(a0, fold(a1, a2));  // a0 op (a1 op a2)
  EXPECT_TRUE(same_tiles(right, Interval::range(0, 2, 0)));
  EXPECT_TRUE(right.regrouped);
  EXPECT_NE(left, right);  // distinct values: the explorer keeps both executions apart
  EXPECT_TRUE(fold(right, Interval::tile(3, 0)).regrouped);             // once regrouped, always
  EXPECT_FALSE(fold(Interval::empty(), left).regrouped);                // nothing in front
  EXPECT_EQ(fold(a0, Interval::tile(2, 0)).kind, Interval::Kind::Bad);  // a gap stays a gap
  // A tree's join does not track bracketing at all.
  EXPECT_FALSE(join(a0, join(a1, a2)).regrouped);
  EXPECT_EQ(to_string(right), "[0..2 regrouped]");
  EXPECT_EQ(to_string(left), "[0..2]");
}

TEST(LeftFoldCatalogue, EveryKernelHasADeterministicEntryThatIsItsLeftFold) {
  for (const char* name :
       {"warp-lookback", "coarsened", "pipelined", "fallback", "fallback-inplace"}) {
    const auto base = find_variant(name);
    const auto det = find_variant(std::string(name) + "-deterministic");
    ASSERT_TRUE(base && det) << name;
    EXPECT_EQ(base->protocol.fold, Fold::Tree) << name;
    EXPECT_EQ(det->protocol, left_fold(base->protocol, detail::kDeterministicHeldWindows)) << name;
    EXPECT_EQ(det->kind, Kind::Production) << name;
    EXPECT_EQ(det->claims, base->claims) << name;
  }
}

ExploreResult check(const NamedVariant& v, int tiles, int window, Layout layout = Layout::Packed,
                    int blocks = 0, int launches = 1, int wrap_launch = 0) {
  Instance inst;
  inst.tiles = tiles;
  inst.window = window;
  inst.layout = layout;
  inst.blocks = blocks;
  inst.launches = launches;
  inst.wrap_launch = wrap_launch;
  ExploreOptions o;
  o.progress = v.claims;
  o.check_wait_free = v.claims == Progress::Unfair;
  return explore(build_protocol_system(v.protocol, inst), o);
}
ExploreResult check(const char* name, int tiles, int window, Layout layout = Layout::Packed,
                    int blocks = 0, int launches = 1, int wrap_launch = 0) {
  return check(*find_variant(name), tiles, window, layout, blocks, launches, wrap_launch);
}
// Variant `name` keeping `held` passed windows (Protocol::held_windows).
NamedVariant holding(const char* name, int held) {
  NamedVariant v = *find_variant(name);
  v.protocol.held_windows = held;
  return v;
}

// The flawed fold differs from the left fold only where a look-back passes
// more than one predecessor without a PREFIX (p op (a1 op a2) against
// (p op a1) op a2): never at 3 tiles, at once at 4 (tile 3 behind AGGREGATEs
// of tiles 1 and 2), with windows of one or two.
TEST(LeftFold, TheMutantIsKilledWhereALookbackPassesTwoAggregates) {
  EXPECT_TRUE(check("fold-without-second-pass", 3, 1).passed());
  EXPECT_TRUE(check("fold-without-second-pass", 3, 2).passed());
  for (const int window : {1, 2}) {
    const ExploreResult r = check("fold-without-second-pass", 4, window);
    ASSERT_TRUE(r.violations.count(Property::LeftFold)) << "window " << window;
    EXPECT_EQ(r.violations.size(), 1u) << "only the bracketing is wrong, not the tiles";
    const std::string& why = r.violations.at(Property::LeftFold).message;
    EXPECT_NE(why.find("[0..2 regrouped]"), std::string::npos) << why;
  }
}

// Where look-backs pass windows and refold them (several windows of one
// tile), every deterministic variant's prefixes are left folds, under PTX
// and in both layouts; the fallbacks stay wait-free with the second pass
// (which reads once and does not spin).
TEST(LeftFold, DeterministicVariantsPassWhereLookbacksRefold) {
  for (const Layout layout : {Layout::Packed, Layout::Split}) {
    const char* l = to_string(layout);
    EXPECT_TRUE(check("warp-lookback-deterministic", 5, 1, layout).passed()) << l;
    EXPECT_TRUE(check("warp-lookback-deterministic", 5, 2, layout).passed()) << l;
    EXPECT_TRUE(check("pipelined-deterministic", 4, 1, layout, 2).passed()) << l;
    EXPECT_TRUE(check("fallback-deterministic", 4, 1, layout, 2).passed()) << l;
    EXPECT_TRUE(check("fallback-inplace-deterministic", 4, 1, layout, 2).passed()) << l;
  }
}

// The catalogue's reuse runs of the one-tile rows have 3 tiles, too few to
// pass a window: here the second launch's look-backs refold while the
// first launch's descriptors (and, where launch 0 wraps, cleared ones) lie
// in the storage, with either launch wrapping the epoch.
TEST(LeftFold, RefoldsOverTheStorageOfAnEarlierLaunch) {
  for (const int wrap : {0, 1})
    EXPECT_TRUE(check("warp-lookback-deterministic", 5, 2, Layout::Packed, 0, 2, wrap).passed())
        << "launch " << wrap << " wraps";
}

// The second pass is real work the tree look-back does not do: more
// executions of the same instance (its reads are further events), unless
// it holds the windows it passed.
TEST(LeftFold, TheSecondPassReadsAgain) {
  const ExploreResult tree = check("warp-lookback", 5, 1);
  const ExploreResult left = check(holding("warp-lookback-deterministic", 0), 5, 1);
  ASSERT_TRUE(tree.passed() && left.passed());
  EXPECT_GT(left.executions, tree.executions);
}

// Held windows (Protocol::held_windows): at 5 tiles with windows of one,
// tile 4 passes up to three windows. Holding 0 to 3 of them, every
// deterministic variant's prefixes stay left folds in both layouts, and
// each further window held takes re-reads (events) out of the look-backs
// that pass that many: fewer executions, until no look-back passes more
// windows than are held.
TEST(LeftFold, HeldWindowsKeepTheFoldAndTakeOutReads) {
  for (const Layout layout : {Layout::Packed, Layout::Split}) {
    const char* l = to_string(layout);
    unsigned long long previous = 0;
    for (int held = 0; held <= 4; ++held) {
      const ExploreResult r = check(holding("warp-lookback-deterministic", held), 5, 1, layout);
      ASSERT_TRUE(r.passed()) << l << ", " << held << " held";
      if (held == 4) {
        EXPECT_EQ(r.executions, previous) << l << ": no look-back passes four windows";
      } else if (held > 0) {
        EXPECT_LT(r.executions, previous) << l << ", " << held << " held";
      }
      previous = r.executions;
    }
    for (const char* name :
         {"pipelined-deterministic", "fallback-deterministic", "fallback-inplace-deterministic"})
      for (int held = 0; held <= 2; ++held)
        EXPECT_TRUE(check(holding(name, held), 4, 1, layout, 2).passed())
            << name << ", " << l << ", " << held << " held";
  }
}

// The flawed fold has no second pass, so it holds nothing: its entry says
// so and the field, set anyway, changes none of its executions.
TEST(LeftFold, TheMutantHoldsNothing) {
  EXPECT_EQ(find_variant("fold-without-second-pass")->protocol.held_windows, 0);
  EXPECT_FALSE(has_second_pass(find_variant("fold-without-second-pass")->protocol));
  EXPECT_EQ(held_windows(holding("fold-without-second-pass", 2).protocol), 0);
  const ExploreResult none = check(holding("fold-without-second-pass", 0), 4, 1);
  const ExploreResult two = check(holding("fold-without-second-pass", 2), 4, 1);
  EXPECT_EQ(none.executions, two.executions);
  EXPECT_TRUE(two.violations.count(Property::LeftFold));
}

}  // namespace
