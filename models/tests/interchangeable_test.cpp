// The interchangeable-writes reduction (models/src/interchangeable.hpp):
// verdicts equal those of the exact search on every catalogue entry whose
// split value words it covers, and a program that breaks the declaration is
// explored again exactly.
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

TEST(Interchangeable, SameVerdictsAsTheExactSearchOnSplitValueWords) {
  int covered = 0;  // systems that declare a location interchangeable
  for (const NamedVariant& v : kCatalogue) {
    if (v.protocol.layout == Layout::Packed) continue;
    for (int launches : {1, v.launches}) {
      Instance inst;
      inst.tiles = 3;
      inst.layout = Layout::Split;
      inst.launches = launches;
      const System sys = build_protocol_system(v.protocol, inst);
      if (std::find(sys.interchangeable.begin(), sys.interchangeable.end(), true) ==
          sys.interchangeable.end())
        continue;  // nothing to reduce: the two searches are one
      ++covered;
      ExploreOptions o;
      o.progress = v.claims;
      o.check_wait_free = v.claims == Progress::Unfair;
      const ExploreResult reduced = explore(sys, o);
      o.interchangeable = false;
      const ExploreResult exact = explore(sys, o);
      EXPECT_EQ(violated(reduced), violated(exact)) << v.name << ", " << launches << " launch(es)";
      EXPECT_LE(reduced.executions, exact.executions) << v.name;
      // A counterexample is one of several equivalent graphs of one size.
      for (const auto& [p, viol] : exact.violations) {
        if (reduced.violations.count(p)) {
          EXPECT_EQ(reduced.violations.at(p).graph.size(), viol.graph.size()) << v.name;
        }
      }
    }
  }
  EXPECT_GE(covered, 4);  // the fallback variants and their mutants
}

// With the same publish order on both layouts: the catalogue's fallback
// publishes packed words relaxed (Protocol::relaxed_packed_publish), which
// allows more executions than the split layout's release, on purpose.
TEST(Interchangeable, TheFallbackOnSplitWordsHasThePackedExecutions) {
  const NamedVariant v = *find_variant("fallback");
  Protocol p = v.protocol;
  p.relaxed_packed_publish = false;
  Instance inst;
  inst.tiles = 3;
  inst.layout = Layout::Split;
  ExploreOptions o;
  o.progress = v.claims;
  const ExploreResult split = explore(build_protocol_system(p, inst), o);
  inst.layout = Layout::Packed;
  const ExploreResult packed = explore(build_protocol_system(p, inst), o);
  EXPECT_TRUE(split.passed());
  EXPECT_FALSE(split.reexplored);
  EXPECT_EQ(split.executions, packed.executions);
}

// Two writers store different values to a location declared interchangeable:
// the declaration is wrong, so the search runs again without it and still
// finds the reader seeing 1 then 2 and 2 then 1.
TEST(Interchangeable, ABrokenDeclarationIsExploredExactly) {
  System s;
  s.threads = {{"A", 0, 0}, {"B", 1, 0}, {"R", 2, 0}};
  s.init = {Value::integer(0)};
  s.loc_names = {"x"};
  s.descriptor = {false};
  s.interchangeable = {true};
  for (int k = 1; k <= 2; ++k)
    s.programs.push_back(
        [k](Ctx& c) { c.store(0, Value::integer(k), Order::Relaxed, Step::Litmus, -1); });
  s.programs.push_back([](Ctx& c) {
    const int a = c.load(0, Order::Relaxed, Step::Litmus, -1).num;
    const int b = c.load(0, Order::Relaxed, Step::Litmus, -1).num;
    c.require(!(a == 2 && b == 1), Property::CorrectPrefix, "2 then 1");
  });
  const ExploreResult r = explore(s, ExploreOptions{});
  EXPECT_TRUE(r.reexplored);
  EXPECT_TRUE(r.violations.count(Property::CorrectPrefix));
  ExploreOptions exact;
  exact.interchangeable = false;
  const ExploreResult e = explore(s, exact);
  EXPECT_EQ(r.executions, e.executions);
  EXPECT_EQ(r.graphs, e.graphs);
}

}  // namespace
