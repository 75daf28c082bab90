// The eager-stores and read-blocks reductions (models/src/eager_stores.hpp,
// models/src/read_blocks.hpp): the same executions (as a set of graphs, not
// only a count) and the same verdicts as the search without them, each
// alone and both; a search that meets a violation or an await is voided
// and run again without them.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "lookback/model/explorer.hpp"
#include "lookback/model/protocol_model.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace {

using namespace lookback::model;
using namespace lookback::protocol;

using Fingerprint = std::pair<std::uint64_t, std::uint64_t>;

std::vector<Property> violated(const ExploreResult& r) {
  std::vector<Property> out;
  for (const auto& [p, v] : r.violations)
    out.push_back(p);
  return out;
}

ExploreOptions options_for(const NamedVariant& v) {
  ExploreOptions o;
  o.progress = v.claims;
  o.check_wait_free = v.claims == Progress::Unfair;
  return o;
}

// Every maximal graph of one exploration, named without symmetry (so the
// two searches cannot pick different representatives of one class) and
// with interchangeable locations by value, as the explorer identifies them.
std::set<Fingerprint> executions(const System& sys, ExploreOptions o, ExploreResult& r) {
  std::set<Fingerprint> out;
  o.symmetry = false;
  o.on_execution = [&](const ExecutionGraph& g) {
    out.insert(g.fingerprint({}, o.interchangeable ? sys.interchangeable : std::vector<bool>{}));
  };
  o.on_restart = [&] { out.clear(); };
  r = explore(sys, o);
  return out;
}

// The fallbacks are the variants the reduction is for: wait-free, so no
// await voids it, and production ones pass, so no violation does.
TEST(EagerStoresAndReadBlocks, SameSetOfExecutionsOnTheFallbacks) {
  for (const char* name : {"fallback", "fallback-inplace"}) {
    const NamedVariant v = *find_variant(name);
    for (Layout layout : {Layout::Packed, Layout::Split}) {
      for (int launches : {1, 2}) {
        Instance inst;
        inst.tiles = launches == 1 ? 3 : 2;
        inst.layout = layout;
        inst.launches = launches;
        const System sys = build_protocol_system(v.protocol, inst);
        ExploreOptions o = options_for(v);
        ExploreResult eager, stores_only, full;
        const auto with = executions(sys, o, eager);
        o.read_blocks = false;
        const auto with_stores = executions(sys, o, stores_only);
        o.eager_stores = false;
        const auto without = executions(sys, o, full);
        o.read_blocks = true;
        ExploreResult blocks_only;
        const auto with_blocks = executions(sys, o, blocks_only);
        EXPECT_EQ(with_blocks, without);
        EXPECT_FALSE(blocks_only.reexplored);
        EXPECT_LT(blocks_only.graphs, full.graphs);
        EXPECT_EQ(with_stores, without);
        EXPECT_FALSE(stores_only.reexplored);
        EXPECT_EQ(stores_only.executions, full.executions);
        EXPECT_LE(eager.graphs, stores_only.graphs);
        const std::string what = std::string(name) + ", " + to_string(layout) + ", " +
                                 std::to_string(launches) + " launch(es)";
        EXPECT_TRUE(eager.passed()) << what;
        EXPECT_FALSE(eager.reexplored) << what;
        EXPECT_EQ(with, without) << what;
        EXPECT_EQ(eager.executions, full.executions) << what;
        EXPECT_EQ(eager.stuck, full.stuck) << what;
        EXPECT_LT(eager.graphs, full.graphs) << what;
      }
    }
  }
}

// Every catalogue entry, with symmetry as --all runs it: the same verdicts
// and execution counts; a variant that meets a violation or waits is
// explored again without the reduction, so its counts are the full ones.
TEST(EagerStoresAndReadBlocks, SameVerdictsOnEveryCatalogueEntry) {
  for (const NamedVariant& v : kCatalogue) {
    std::vector<Layout> layouts{v.protocol.layout};
    if (v.protocol.layout == Layout::BySize) layouts = {Layout::Packed, Layout::Split};
    for (Layout layout : layouts) {
      for (int launches : {1, 2}) {
        Instance inst;
        inst.tiles = launches == 1 ? 3 : 2;
        inst.layout = layout;
        inst.launches = launches;
        if (v.protocol.flaw == Flaw::SplitValueOverwritten && layout != Layout::Split) continue;
        const System sys = build_protocol_system(v.protocol, inst);
        ExploreOptions o = options_for(v);
        const ExploreResult eager = explore(sys, o);
        o.eager_stores = o.read_blocks = false;
        const ExploreResult full = explore(sys, o);
        const std::string what = std::string(v.name) + ", " + to_string(layout) + ", " +
                                 std::to_string(launches) + " launch(es)";
        EXPECT_EQ(violated(eager), violated(full)) << what;
        EXPECT_EQ(eager.executions, full.executions) << what;
        EXPECT_EQ(eager.stuck, full.stuck) << what;
        EXPECT_LE(eager.graphs, full.graphs) << what;
        if (!eager.passed()) {
          EXPECT_TRUE(eager.reexplored) << what;
          EXPECT_EQ(eager.graphs, full.graphs) << what;
          for (const auto& [p, viol] : full.violations)
            EXPECT_EQ(eager.violations.at(p).graph.size(), viol.graph.size()) << what;
        }
      }
    }
  }
}

// The fallbacks under every progress model and occupancy bound: a forced
// store or read block must not hide a state where the scheduler is stuck
// (under hsa a block that cannot start for want of a slot hangs the scan).
TEST(EagerStoresAndReadBlocks, SameVerdictsOnTheFallbacksUnderEveryProgressModelAndOccupancy) {
  for (const char* name : {"fallback", "fallback-inplace"}) {
    const NamedVariant v = *find_variant(name);
    for (int launches : {1, 2}) {
      for (int resident = 0; resident < 3; ++resident) {
        for (Progress p :
             {Progress::Fair, Progress::Obe, Progress::Hsa, Progress::Lobe, Progress::Unfair}) {
          Instance inst;
          inst.tiles = 3;
          inst.layout = Layout::Packed;
          inst.launches = launches;
          inst.resident = resident;
          const System sys = build_protocol_system(v.protocol, inst);
          ExploreOptions o = options_for(v);
          o.progress = p;
          const ExploreResult eager = explore(sys, o);
          o.eager_stores = o.read_blocks = false;
          const ExploreResult full = explore(sys, o);
          const std::string what = std::string(name) + ", " + std::to_string(launches) +
                                   " launch(es), resident " + std::to_string(resident) + ", " +
                                   to_string(p);
          EXPECT_EQ(violated(eager), violated(full)) << what;
          EXPECT_EQ(eager.executions, full.executions) << what;
          EXPECT_EQ(eager.stuck, full.stuck) << what;
          EXPECT_LE(eager.graphs, full.graphs) << what;
        }
      }
    }
  }
}

// A store that goes early could end a wait a partial graph was stuck in:
// a program that reaches an await is explored without the reduction, and
// its hang is found.
TEST(EagerStoresAndReadBlocks, AnAwaitVoidsTheReducedSearch) {
  System s;
  s.threads = {{"W", 0, 0}, {"R", 1, 0}};
  s.init = {Value::integer(0), Value::integer(0)};
  s.loc_names = {"x", "y"};
  s.descriptor = {false, false};
  s.programs.push_back([](Ctx& c) {
    c.load(1, Order::Relaxed, Step::Litmus, -1);
    c.store(0, Value::integer(1), Order::Relaxed, Step::Litmus, -1);
  });
  s.programs.push_back([](Ctx& c) {
    c.await(0, Order::Relaxed, Step::Litmus, -1, [](const Value& v) { return v.num == 1; });
  });
  ExploreOptions o;
  o.progress = Progress::Unfair;
  const ExploreResult r = explore(s, o);
  EXPECT_TRUE(r.reexplored);
  EXPECT_TRUE(r.violations.count(Property::Termination));
  o.eager_stores = o.read_blocks = false;
  const ExploreResult full = explore(s, o);
  EXPECT_EQ(r.graphs, full.graphs);
  EXPECT_EQ(r.executions, full.executions);
}

// Two stores to a descriptor, PREFIX then AGGREGATE (a descent), and a
// third thread's store that can land between them: the search without the
// reduction finds monotone-status where the two are next to each other;
// the reduced search must not miss it.
TEST(EagerStoresAndReadBlocks, AStoreBetweenTwoOfADescentDoesNotHideIt) {
  System s;
  s.threads = {{"A", 0, 0}, {"B", 1, 0}, {"C", 2, 0}};
  s.init = {Value{}, Value::integer(0)};
  s.loc_names = {"desc", "y"};
  s.descriptor = {true, false};
  auto status = [](Status st) {
    Value v;
    v.status = st;
    return v;
  };
  s.programs.push_back([status](Ctx& c) {
    c.load(1, Order::Relaxed, Step::Litmus, -1);
    c.store(0, status(Status::Prefix), Order::Relaxed, Step::Litmus, -1);
  });
  s.programs.push_back([status](Ctx& c) {
    c.load(1, Order::Relaxed, Step::Litmus, -1);
    c.store(0, status(Status::Aggregate), Order::Relaxed, Step::Litmus, -1);
  });
  s.programs.push_back([status](Ctx& c) {
    c.load(1, Order::Relaxed, Step::Litmus, -1);
    c.store(0, status(Status::Aggregate), Order::Relaxed, Step::Litmus, -1);
  });
  ExploreOptions o;
  o.progress = Progress::Unfair;
  o.symmetry = false;
  const ExploreResult r = explore(s, o);
  o.eager_stores = o.read_blocks = false;
  const ExploreResult full = explore(s, o);
  EXPECT_TRUE(full.violations.count(Property::MonotoneStatus));
  EXPECT_EQ(violated(r), violated(full));
  EXPECT_TRUE(r.reexplored);
}

// A read, then a store another thread's RMW reads: the read block runs
// the store with the read, and the RMW still sees every value.
TEST(EagerStoresAndReadBlocks, AnRmwAfterABlockSeesItsStore) {
  System s;
  s.threads = {{"T", 0, 0}, {"U", 1, 0}, {"V", 2, 0}};
  s.init = {Value::integer(0), Value::integer(0)};
  s.loc_names = {"x", "y"};
  s.descriptor = {false, false};
  s.programs.push_back([](Ctx& c) {
    const int a = c.load(0, Order::Relaxed, Step::Litmus, -1).num;
    c.store(1, Value::integer(1 + a), Order::Relaxed, Step::Litmus, -1);
  });
  s.programs.push_back([](Ctx& c) {
    const int b = c.fetch_add(1, 10, Order::Relaxed, Step::Litmus, -1).num;
    c.require(b != 2, Property::CorrectPrefix, "U saw T's store of x == 1");
  });
  s.programs.push_back(
      [](Ctx& c) { c.store(0, Value::integer(1), Order::Relaxed, Step::Litmus, -1); });
  ExploreOptions o;
  o.progress = Progress::Unfair;
  o.eager_stores = false;
  const ExploreResult blocks = explore(s, o);
  o.read_blocks = false;
  const ExploreResult full = explore(s, o);
  EXPECT_TRUE(full.violations.count(Property::CorrectPrefix));
  EXPECT_EQ(violated(blocks), violated(full));
}

}  // namespace
