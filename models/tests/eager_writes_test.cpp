// The eager-writes reduction (models/src/eager_writes.hpp): verdicts equal
// those of the search without it on every catalogue entry whose split value
// words it covers, counterexamples grow by at most the stores it moved
// ahead, and a program that breaks the declaration is explored again
// without it.
#include <gtest/gtest.h>

#include <algorithm>

#include "lookback/model/explorer.hpp"
#include "lookback/model/protocol_model.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace {

using namespace lookback::model;
using namespace lookback::protocol;

std::vector<Property> violated(const ExploreResult& r) {
  std::vector<Property> out;
  for (const auto& [p, v] : r.violations)
    out.push_back(p);
  return out;
}

TEST(EagerWrites, SameVerdictsAsTheFullSearchOnSplitValueWords) {
  int covered = 0;
  for (const NamedVariant& v : kCatalogue) {
    if (v.protocol.layout == Layout::Packed) continue;
    for (int launches : {1, 2}) {
      Instance inst;
      inst.tiles = 3;
      inst.layout = Layout::Split;
      inst.launches = launches;
      const System sys = build_protocol_system(v.protocol, inst);
      if (std::find(sys.eager_writes.begin(), sys.eager_writes.end(), true) ==
          sys.eager_writes.end())
        continue;
      ++covered;
      ExploreOptions o;
      o.progress = v.claims;
      o.check_wait_free = v.claims == Progress::Unfair;
      o.eager_stores = false;  // it moves every store: this test is about value words
      const ExploreResult eager = explore(sys, o);
      o.eager_writes = false;
      const ExploreResult full = explore(sys, o);
      EXPECT_EQ(violated(eager), violated(full)) << v.name << ", " << launches << " launch(es)";
      EXPECT_EQ(eager.executions, full.executions) << v.name;
      EXPECT_LE(eager.graphs, full.graphs) << v.name;
      // A counterexample may hold the stores that went ahead of it.
      for (const auto& [p, viol] : full.violations) {
        if (!eager.violations.count(p)) continue;
        EXPECT_GE(eager.violations.at(p).graph.size(), viol.graph.size()) << v.name;
        EXPECT_LE(eager.violations.at(p).graph.size(), viol.graph.size() + 2) << v.name;
      }
    }
  }
  EXPECT_GE(covered, 4);  // the fallback variants and their mutants
}

TEST(EagerWrites, TheSplitFallbackInPlaceTakesFewerGraphs) {
  const NamedVariant v = *find_variant("fallback-inplace");
  Instance inst;
  inst.tiles = 3;
  inst.layout = Layout::Split;
  ExploreOptions o;
  o.progress = v.claims;
  o.eager_stores = false;  // it moves these stores too (eager_stores_test)
  const System sys = build_protocol_system(v.protocol, inst);
  const ExploreResult eager = explore(sys, o);
  o.eager_writes = false;
  const ExploreResult full = explore(sys, o);
  EXPECT_TRUE(eager.passed());
  EXPECT_FALSE(eager.reexplored);
  EXPECT_EQ(eager.executions, full.executions);
  EXPECT_LT(eager.graphs, full.graphs);
}

// A location declared eager is also read with a weak load, which may race
// with the store: the declaration is wrong, so the search runs again without
// it and finds the race.
TEST(EagerWrites, ABrokenDeclarationIsExploredAgain) {
  System s;
  s.threads = {{"W", 0, 0}, {"R", 1, 0}};
  s.init = {Value::integer(0)};
  s.loc_names = {"x"};
  s.descriptor = {false};
  s.eager_writes = {true};
  s.programs.push_back([](Ctx& c) {
    c.store(0, Value::integer(1), Order::Relaxed, Step::Litmus, -1);
    c.fence(Fence::Sc, Step::Litmus, -1);
  });
  s.programs.push_back([](Ctx& c) { c.load(0, Order::Weak, Step::Litmus, -1); });
  const ExploreResult r = explore(s, ExploreOptions{});
  EXPECT_TRUE(r.reexplored);
  EXPECT_TRUE(r.violations.count(Property::NoDataRace));
  ExploreOptions full;
  full.eager_writes = false;
  const ExploreResult e = explore(s, full);
  EXPECT_EQ(r.executions, e.executions);
  EXPECT_EQ(r.graphs, e.graphs);
}

// A store a thread ends with would change occupancy when moved ahead: the
// search notices and runs again without the reduction.
TEST(EagerWrites, AStoreThatEndsItsThreadIsNotMovedAhead) {
  System s;
  s.threads = {{"W", 0, 0}, {"R", 1, 0}};
  s.init = {Value::integer(0), Value::integer(0)};
  s.loc_names = {"x", "y"};
  s.descriptor = {false, false};
  s.eager_writes = {true, false};
  s.programs.push_back([](Ctx& c) {
    c.load(1, Order::Relaxed, Step::Litmus, -1);
    c.store(0, Value::integer(1), Order::Relaxed, Step::Litmus, -1);
  });
  s.programs.push_back([](Ctx& c) {
    const int v = c.load(0, Order::Relaxed, Step::Litmus, -1).num;
    c.require(v == 1, Property::CorrectPrefix, "read 0");
  });
  const ExploreResult r = explore(s, ExploreOptions{});
  EXPECT_TRUE(r.reexplored);
  EXPECT_TRUE(r.violations.count(Property::CorrectPrefix));
}

}  // namespace
