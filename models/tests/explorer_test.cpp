// The explorer on small hand-written systems whose answers are known:
// message passing with and without release/acquire, races, deadlocks,
// determinism, and that the reductions (symmetry, local steps) change
// counts but never verdicts.
#include "lookback/model/explorer.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "lookback/model/counterexample.hpp"
#include "lookback/model/protocol_model.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace {

using namespace lookback::model;
using lookback::protocol::Progress;

constexpr Loc kData = 0, kFlag = 1;

Value num(int n) {
  return Value::integer(n);
}

// P0: data = 1 (data order); flag = 1 (flag order).
// P1: r = flag (read order); if r == 1: d = data; require d == 1.
System message_passing(Order data, Order publish, Order read) {
  System s;
  s.threads = {{"P0", 0, 0}, {"P1", 1, 0}};
  s.init = {num(0), num(0)};
  s.loc_names = {"data", "flag"};
  s.descriptor = {false, false};
  s.programs.push_back([=](Ctx& c) {
    c.store(kData, num(1), data, Step::Litmus, -1);
    c.store(kFlag, num(1), publish, Step::Litmus, -1);
  });
  s.programs.push_back([=](Ctx& c) {
    if (c.load(kFlag, read, Step::Litmus, -1).num == 1) {
      const Value d = c.load(kData, data, Step::Litmus, -1);
      c.require(d.num == 1, Property::CorrectPrefix, "stale data after the flag");
    }
  });
  return s;
}

ExploreOptions options(MemoryModel m) {
  ExploreOptions o;
  o.model = m;
  return o;
}

TEST(Explorer, ReleaseAcquireMessagePassingHasNoWeakOutcomeOrRace) {
  for (MemoryModel m : {MemoryModel::Ptx, MemoryModel::Rc11, MemoryModel::Sc}) {
    const auto r =
        explore(message_passing(Order::Weak, Order::Release, Order::Acquire), options(m));
    EXPECT_TRUE(r.passed()) << to_string(m);
    EXPECT_EQ(r.executions, 2u) << to_string(m);  // P1 reads flag 0, or flag 1 then data 1
  }
}

TEST(Explorer, RelaxedMessagePassingShowsStaleDataUnderPtxAndRc11ButNotSc) {
  const System s = message_passing(Order::Relaxed, Order::Relaxed, Order::Relaxed);
  EXPECT_TRUE(explore(s, options(MemoryModel::Ptx)).violations.count(Property::CorrectPrefix));
  EXPECT_TRUE(explore(s, options(MemoryModel::Rc11)).violations.count(Property::CorrectPrefix));
  EXPECT_TRUE(explore(s, options(MemoryModel::Sc)).passed());
}

TEST(Explorer, WeakDataPublishedByRelaxedFlagIsARace) {
  const auto r = explore(message_passing(Order::Weak, Order::Relaxed, Order::Acquire),
                         options(MemoryModel::Ptx));
  ASSERT_TRUE(r.violations.count(Property::NoDataRace));
  EXPECT_NE(r.violations.at(Property::NoDataRace).message.find("data"), std::string::npos);
}

TEST(Explorer, FencesRestoreMessagePassing) {
  System s = message_passing(Order::Relaxed, Order::Relaxed, Order::Relaxed);
  s.programs[0] = [](Ctx& c) {
    c.store(kData, num(1), Order::Relaxed, Step::Litmus, -1);
    c.fence(Fence::AcqRel, Step::Litmus, -1);
    c.store(kFlag, num(1), Order::Relaxed, Step::Litmus, -1);
  };
  s.programs[1] = [](Ctx& c) {
    if (c.load(kFlag, Order::Relaxed, Step::Litmus, -1).num == 1) {
      c.fence(Fence::AcqRel, Step::Litmus, -1);
      c.require(c.load(kData, Order::Relaxed, Step::Litmus, -1).num == 1, Property::CorrectPrefix,
                "stale");
    }
  };
  EXPECT_TRUE(explore(s, options(MemoryModel::Ptx)).passed());
  EXPECT_TRUE(explore(s, options(MemoryModel::Rc11)).passed());
}

TEST(Explorer, CoherenceForbidsReadingOlderValueAfterNewer) {
  System s;
  s.threads = {{"W", 0, 0}, {"R", 1, 0}};
  s.init = {num(0)};
  s.loc_names = {"x"};
  s.descriptor = {false};
  s.programs.push_back([](Ctx& c) {
    c.store(0, num(1), Order::Relaxed, Step::Litmus, -1);
    c.store(0, num(2), Order::Relaxed, Step::Litmus, -1);
  });
  s.programs.push_back([](Ctx& c) {
    const int a = c.load(0, Order::Relaxed, Step::Litmus, -1).num;
    const int b = c.load(0, Order::Relaxed, Step::Litmus, -1).num;
    c.require(b >= a, Property::MonotoneStatus, "read went back in coherence order");
  });
  EXPECT_TRUE(explore(s, options(MemoryModel::Ptx)).passed());
}

// P0: data = 1 (relaxed); flag = 1 (release).
// P1: as lanes of one warp-wide read (Ctx::begin_lanes) or one after the
// other: f = flag (acquire), d = data (relaxed); then, after the group,
// d2 = data (relaxed). `check_lanes` requires d == 1 where f == 1 (what
// one thread's acquire gives and two lanes' do not); the read after the
// group is required to see data == 1 where f == 1 either way.
System lanes_message_passing(bool lanes, bool check_lanes) {
  System s = message_passing(Order::Relaxed, Order::Release, Order::Acquire);
  s.programs[1] = [=](Ctx& c) {
    if (lanes) c.begin_lanes();
    const int f = c.load(kFlag, Order::Acquire, Step::Litmus, -1).num;
    const int d = c.load(kData, Order::Relaxed, Step::Litmus, -1).num;
    if (lanes) c.end_lanes();
    if (check_lanes)
      c.require(f == 0 || d == 1, Property::CorrectPrefix, "the other lane read stale data");
    const int d2 = c.load(kData, Order::Relaxed, Step::Litmus, -1).num;
    c.require(f == 0 || d2 == 1, Property::NoTornDescriptor, "stale data after the group");
  };
  return s;
}

TEST(Explorer, LanesOfAWindowReadAreNotOrderedByEachOther) {
  for (MemoryModel m : {MemoryModel::Ptx, MemoryModel::Rc11, MemoryModel::Sc}) {
    // One thread: the acquire orders the data read after it.
    EXPECT_TRUE(explore(lanes_message_passing(false, true), options(m)).passed()) << to_string(m);
    // Two lanes: the data lane may have read before the flag was set,
    // under SC too (it read at an earlier moment).
    const auto r = explore(lanes_message_passing(true, true), options(m));
    EXPECT_EQ(r.violations.count(Property::CorrectPrefix), 1u) << to_string(m);
    EXPECT_EQ(r.violations.count(Property::NoTornDescriptor), 0u) << to_string(m);
    // Every event after the group follows each lane: the flag lane's
    // acquire orders the later data read.
    EXPECT_TRUE(explore(lanes_message_passing(true, false), options(m)).passed()) << to_string(m);
  }
}

// W: x = 1; x = 2. R, in launch `reader_launch`: z; then a lane reads x,
// required not to be the overwritten 1.
System overwritten_then_a_lane(int reader_launch) {
  System s;
  s.threads = {{"W", 0, 0}, {"R", 1, reader_launch}};
  s.init = {num(0), num(0)};
  s.loc_names = {"x", "z"};
  s.descriptor = {false, false};
  s.programs.push_back([](Ctx& c) {
    c.store(0, num(1), Order::Relaxed, Step::Litmus, -1);
    c.store(0, num(2), Order::Relaxed, Step::Litmus, -1);
  });
  s.programs.push_back([](Ctx& c) {
    c.load(1, Order::Relaxed, Step::Litmus, -1);
    c.begin_lanes();
    const int x = c.load(0, Order::Relaxed, Step::Litmus, -1).num;
    c.end_lanes();
    c.require(x != 1, Property::CorrectPrefix, "read the overwritten value");
  });
  return s;
}

// A lane reads a value current at some moment since its block's previous
// step, not one overwritten before: here x = 2 was written in launch 0,
// before R, of launch 1, took any step (SC's axiom, acyclic(po | com), alone
// would let the lane read x = 1: nothing but the launch orders them).
TEST(Explorer, ALaneReadsNoValueOverwrittenBeforeItsBlocksLastStep) {
  const System s = overwritten_then_a_lane(1);
  for (MemoryModel m : {MemoryModel::Ptx, MemoryModel::Rc11, MemoryModel::Sc}) {
    const auto r = explore(s, options(m));
    EXPECT_TRUE(r.passed()) << to_string(m);
    EXPECT_EQ(r.executions, 1u) << to_string(m);  // x = 2
  }
}

// Under an occupancy bound of one block, R runs wholly before W or after it,
// so under SC its lane reads x = 0 or x = 2, never W's overwritten x = 1;
// without the bound (or under PTX, where the bound orders no memory) it may.
TEST(Explorer, UnderAnOccupancyBoundSCLanesReadNoValueOverwrittenBeforeTheirBlockStarted) {
  const System s = overwritten_then_a_lane(0);
  auto found = [&](MemoryModel m, int resident) {
    System r = s;
    r.resident = resident;
    return explore(r, options(m)).violations.count(Property::CorrectPrefix) > 0;
  };
  EXPECT_FALSE(found(MemoryModel::Sc, 1));
  EXPECT_TRUE(found(MemoryModel::Sc, 0));
  EXPECT_TRUE(found(MemoryModel::Ptx, 1));
}

// A counterexample names a window read's lanes, and its graph draws no
// program order between them.
TEST(Explorer, CounterexamplesShowLanesUnordered) {
  const System s = lanes_message_passing(true, true);
  const auto r = explore(s, options(MemoryModel::Ptx));
  ASSERT_EQ(r.violations.count(Property::CorrectPrefix), 1u);
  const Violation& v = r.violations.at(Property::CorrectPrefix);
  std::ostringstream text, dot;
  print_counterexample(text, s, v);
  EXPECT_NE(text.str().find("[lanes #0-#1: concurrent]"), std::string::npos) << text.str();
  write_dot(dot, s, v.graph, "lanes");
  const auto lanes = v.graph.thread_events(1);
  ASSERT_EQ(lanes.size(), 2u);
  const auto writes = v.graph.thread_events(0);
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_EQ(
      dot.str().find("e" + std::to_string(lanes[0]) + " -> e" + std::to_string(lanes[1]) + ";"),
      std::string::npos)
      << dot.str();
  EXPECT_NE(
      dot.str().find("e" + std::to_string(writes[0]) + " -> e" + std::to_string(writes[1]) + ";"),
      std::string::npos)
      << dot.str();
}

TEST(Explorer, LanesHoldOnlyReads) {
  System s = message_passing(Order::Relaxed, Order::Relaxed, Order::Relaxed);
  s.programs[1] = [](Ctx& c) {
    c.begin_lanes();
    c.load(kFlag, Order::Relaxed, Step::Litmus, -1);
    c.store(kData, num(2), Order::Relaxed, Step::Litmus, -1);
    c.end_lanes();
  };
  EXPECT_THROW(explore(s, options(MemoryModel::Ptx)), std::logic_error);
}

TEST(Explorer, AwaitOnAValueNobodyWritesIsAHangUnderEveryProgressModel) {
  System s;
  s.threads = {{"waiter", 0, 0}, {"other", 1, 0}};
  s.init = {num(0), num(0)};
  s.loc_names = {"flag", "x"};
  s.descriptor = {false, false};
  s.programs.push_back([](Ctx& c) {
    c.await(0, Order::Acquire, Step::Litmus, -1, [](const Value& v) { return v.num == 1; });
  });
  s.programs.push_back([](Ctx& c) { c.store(1, num(1), Order::Relaxed, Step::Litmus, -1); });
  for (Progress p :
       {Progress::Fair, Progress::Obe, Progress::Hsa, Progress::Lobe, Progress::Unfair}) {
    ExploreOptions o = options(MemoryModel::Ptx);
    o.progress = p;
    const auto r = explore(s, o);
    ASSERT_TRUE(r.violations.count(Property::Termination)) << to_string(p);
    EXPECT_NE(r.violations.at(Property::Termination).message.find("waiter waits on flag"),
              std::string::npos);
  }
}

TEST(Explorer, AwaitSatisfiedByAnotherThreadIsAHangOnlyWithoutFairness) {
  System s;
  s.threads = {{"setter", 0, 0}, {"waiter", 1, 0}};
  s.init = {num(0)};
  s.loc_names = {"flag"};
  s.descriptor = {false};
  s.programs.push_back([](Ctx& c) { c.store(0, num(1), Order::Release, Step::Litmus, -1); });
  s.programs.push_back([](Ctx& c) {
    c.await(0, Order::Acquire, Step::Litmus, -1, [](const Value& v) { return v.num == 1; });
  });
  auto hangs = [&](Progress p) {
    ExploreOptions o = options(MemoryModel::Ptx);
    o.progress = p;
    return explore(s, o).violations.count(Property::Termination) > 0;
  };
  EXPECT_FALSE(hangs(Progress::Fair));
  EXPECT_TRUE(hangs(Progress::Obe));    // the setter may never be started
  EXPECT_FALSE(hangs(Progress::Hsa));   // the setter is the lowest id: it runs
  EXPECT_FALSE(hangs(Progress::Lobe));  // the waiter started, so every lower id runs
  EXPECT_TRUE(hangs(Progress::Unfair));
}

// Three blocks for LOBE: "waiter" (block 0) reads x and, having read 1,
// waits for flag == 1; "setter" stores the flag and "writer" x, at blocks 1
// and 2 in the order given.
System waiter_setter_writer(bool setter_first) {
  System s;
  s.threads = {{"waiter", 0, 0},
               {setter_first ? "setter" : "writer", 1, 0},
               {setter_first ? "writer" : "setter", 2, 0}};
  s.init = {num(0), num(0)};
  s.loc_names = {"flag", "x"};
  s.descriptor = {false, false};
  s.programs.push_back([](Ctx& c) {
    if (c.load(1, Order::Relaxed, Step::Litmus, -1).num == 1)
      c.await(0, Order::Acquire, Step::Litmus, -1, [](const Value& v) { return v.num == 1; });
  });
  const auto setter = [](Ctx& c) { c.store(0, num(1), Order::Release, Step::Litmus, -1); };
  const auto writer = [](Ctx& c) { c.store(1, num(1), Order::Relaxed, Step::Litmus, -1); };
  s.programs.push_back(setter_first ? Program(setter) : Program(writer));
  s.programs.push_back(setter_first ? Program(writer) : Program(setter));
  return s;
}

bool hangs_under(const System& s, Progress p) {
  ExploreOptions o = options(MemoryModel::Ptx);
  o.progress = p;
  return explore(s, o).violations.count(Property::Termination) > 0;
}

// LOBE counts a block that finished: once the writer (the highest id) has
// run, every lower block is obliged, so the setter runs and the waiter's
// await ends. (Counting only unfinished blocks made the waiter the highest
// started one, and its wait a hang.)
TEST(Explorer, UnderLobeAFinishedBlockObligesEveryLowerOne) {
  const System s = waiter_setter_writer(true);
  EXPECT_FALSE(hangs_under(s, Progress::Lobe));
  EXPECT_FALSE(hangs_under(s, Progress::Fair));
  EXPECT_TRUE(hangs_under(s, Progress::Obe));  // the setter may never be started
  EXPECT_TRUE(hangs_under(s, Progress::Hsa));  // only the lowest unfinished block must run
  EXPECT_TRUE(hangs_under(s, Progress::Unfair));
}

// ...and only those: a block above the highest one that ran is not obliged.
// The writer (1) ran and finished, the waiter waits on a flag that only the
// setter (2) sets; LOBE need never start it: a hang (fair: none).
TEST(Explorer, UnderLobeABlockAboveTheHighestThatRanIsNotObliged) {
  const System s = waiter_setter_writer(false);
  EXPECT_TRUE(hangs_under(s, Progress::Lobe));
  EXPECT_FALSE(hangs_under(s, Progress::Fair));
  EXPECT_TRUE(hangs_under(s, Progress::Obe));
  EXPECT_TRUE(hangs_under(s, Progress::Hsa));
}

// One resident slot, hsa: if the higher block starts first, the lowest one
// cannot start while it runs, and hsa obliges the scheduler to run only the
// lowest unfinished block: a hang, at the state after "late" read x. Its
// last step (a plain store, or a store to a location only it touches) must
// not be forced past that state (it would free the slot and hide the hang).
// Under lobe and fair the scheduler must run "late" to its end: no hang.
TEST(Explorer, OccupancyHangIsFoundWhenTheBlockHoldingTheSlotEndsOnALocalOrPlainStore) {
  for (const bool local_last : {false, true}) {
    System s;
    s.threads = {{"early", 0, 0}, {"late", 1, 0}};
    s.init = {num(0), num(0)};
    s.loc_names = {"x", "y"};
    s.descriptor = {false, false};
    if (local_last) s.local = {false, true};
    s.resident = 1;
    s.programs.push_back([](Ctx& c) { c.store(0, num(1), Order::Relaxed, Step::Litmus, -1); });
    s.programs.push_back([](Ctx& c) {
      c.load(0, Order::Relaxed, Step::Litmus, -1);
      c.store(1, num(1), Order::Weak, Step::Litmus, -1);
    });
    const char* what = local_last ? "local last store" : "plain last store";
    ExploreOptions o = options(MemoryModel::Ptx);
    o.progress = Progress::Hsa;
    const auto hsa = explore(s, o);
    const auto hang = hsa.violations.find(Property::Termination);
    EXPECT_NE(hang, hsa.violations.end()) << what;
    if (hang != hsa.violations.end()) {
      EXPECT_NE(hang->second.message.find("starved"), std::string::npos) << hang->second.message;
    }
    for (Progress p : {Progress::Lobe, Progress::Fair}) {
      o.progress = p;
      EXPECT_TRUE(explore(s, o).passed()) << to_string(p) << ", " << what;
    }
  }
}

TEST(Explorer, ResultsAreReproducible) {
  const System s = message_passing(Order::Weak, Order::Relaxed, Order::Relaxed);
  const auto a = explore(s, options(MemoryModel::Ptx));
  const auto b = explore(s, options(MemoryModel::Ptx));
  EXPECT_EQ(a.graphs, b.graphs);
  EXPECT_EQ(a.executions, b.executions);
  ASSERT_EQ(a.violations.size(), b.violations.size());
  for (const auto& [p, v] : a.violations) {
    EXPECT_EQ(v.message, b.violations.at(p).message);
    EXPECT_EQ(v.schedule, b.violations.at(p).schedule);
  }
}

}  // namespace

namespace {
// The explorer's incremental PTX check against the from-scratch one, on every
// graph of explorations that exercise release/acquire, fences, RMWs, CAS,
// launches and races.
TEST(Explorer, IncrementalPtxAgreesWithFromScratchAxioms) {
  using namespace lookback::protocol;
  for (const char* name : {"warp-lookback", "fenced-lookback", "fallback", "fallback-inplace",
                           "no-reader-acquire", "writer-fence-only", "split-value-overwritten",
                           "fallback-plain-store", "no-reset", "epoch-wrap-not-cleared"}) {
    const NamedVariant v = *find_variant(name);
    for (Layout layout : {Layout::Packed, Layout::Split}) {
      if (v.protocol.layout != Layout::BySize && v.protocol.layout != layout) continue;
      Instance inst;
      inst.tiles = 3;
      inst.layout = layout;
      inst.launches = v.launches;
      const System sys = build_protocol_system(v.protocol, inst);
      ExploreOptions o;
      o.cross_check = true;
      o.progress = v.claims;
      ExploreResult r;
      EXPECT_NO_THROW(r = explore(sys, o)) << name;
      EXPECT_GT(r.graphs, 10u) << name;
    }
  }
}
}  // namespace
