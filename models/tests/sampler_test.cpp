// The sampler (sampler.hpp): deterministic in its choices, exactly the
// explorer's executions on instances small enough to enumerate, what choice 0
// means, residency, and the scan it computes.
#include "lookback/model/sampler.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>

#include "lookback/model/protocol_model.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace {

using namespace lookback::model;
using lookback::protocol::find_variant;
using lookback::protocol::Layout;
using lookback::protocol::Protocol;

Protocol variant(const char* name) {
  return find_variant(name)->protocol;
}

Instance instance(int tiles, Layout layout, int resident = 0) {
  Instance inst;
  inst.tiles = tiles;
  inst.layout = layout;
  inst.resident = resident;
  return inst;
}

System protocol_system(const char* name, const Instance& inst) {
  return build_protocol_system(variant(name), inst);
}
System protocol_system(const char* name, int tiles, Layout layout, int resident = 0) {
  return protocol_system(name, instance(tiles, layout, resident));
}

SampleOptions under(MemoryModel m) {
  SampleOptions o;
  o.model = m;
  return o;
}

std::vector<int> random_choices(std::mt19937& rng, int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int& c : v)
    c = static_cast<int>(rng() % 256);
  return v;
}

// Every tile of every launch wrote its output once, and it is [0..tile].
void expect_scan_output(const Sample& s, const std::vector<int>& tiles_of) {
  EXPECT_EQ(scan_output_error(s, tiles_of), std::nullopt);
}

TEST(Sampler, TheSameChoicesGiveTheSameExecution) {
  const System sys = protocol_system("fallback", 16, Layout::Split, 4);
  std::mt19937 rng(7);
  const std::vector<int> choices = random_choices(rng, 600);
  const Sample a = sample_execution(sys, choices);
  const Sample b = sample_execution(sys, choices);
  ASSERT_TRUE(a.finished);
  EXPECT_EQ(a.schedule, b.schedule);
  EXPECT_EQ(a.decisions, b.decisions);
  EXPECT_EQ(a.graph.fingerprint(), b.graph.fingerprint());
  // ...and the choices matter.
  const Sample c = sample_execution(sys, random_choices(rng, 600));
  EXPECT_NE(a.graph.fingerprint(), c.graph.fingerprint());
}

TEST(Sampler, UnderScATwoTileWarpLookbackAlwaysEndsWithTheScan) {
  for (Layout layout : {Layout::Packed, Layout::Split}) {
    const Instance inst = instance(2, layout);
    const System sys = protocol_system("warp-lookback", inst);
    std::mt19937 rng(11);
    for (int i = 0; i < 300; ++i) {
      const std::vector<int> choices = i == 0 ? std::vector<int>{} : random_choices(rng, 40);
      const Sample s = sample_execution(sys, choices, under(MemoryModel::Sc));
      ASSERT_FALSE(s.violation) << s.violation->message;
      ASSERT_TRUE(s.finished);
      expect_scan_output(s, launch_tiles(inst));
    }
  }
}

// On an instance the explorer enumerates, the final graphs of many samples
// are exactly its executions (without symmetry reduction): none it lacks,
// none missed. Every block gets a symmetry class of its own, so the sampler
// may start any of them first (of interchangeable ones it starts only the
// lowest: a block's first step is its draw, so that would fix which block
// takes ticket 0, and reach one execution of each such pair). The vectors
// are longer than any run's decisions (past the end every choice would be 0).
TEST(Sampler, ReachesExactlyTheExplorersExecutions) {
  struct Case {
    const char* variant;
    int tiles;
    Layout layout;
    MemoryModel model;
  };
  for (const Case& k : {Case{"warp-lookback", 2, Layout::Packed, MemoryModel::Ptx},
                        Case{"warp-lookback", 2, Layout::Split, MemoryModel::Ptx},
                        Case{"fallback", 2, Layout::Packed, MemoryModel::Ptx},
                        Case{"warp-lookback", 3, Layout::Packed, MemoryModel::Rc11}}) {
    System sys = protocol_system(k.variant, k.tiles, k.layout);
    for (std::size_t t = 0; t < sys.symmetry_class.size(); ++t)
      sys.symmetry_class[t] = -1 - static_cast<int>(t);
    // Both sides name a graph as the explorer identifies it: interchangeable
    // locations by value (the explorer reports one graph of each such class).
    auto fingerprint = [&](const ExecutionGraph& g) {
      return g.fingerprint({}, sys.interchangeable);
    };
    std::set<std::pair<std::uint64_t, std::uint64_t>> explored;
    ExploreOptions opt;
    opt.model = k.model;
    opt.symmetry = false;
    opt.check_termination = false;
    opt.on_execution = [&](const ExecutionGraph& g) { explored.insert(fingerprint(g)); };
    // A voided search is run again: only the last one's executions count.
    opt.on_restart = [&] { explored.clear(); };
    const ExploreResult all = explore(sys, opt);
    ASSERT_TRUE(all.passed());
    ASSERT_EQ(explored.size(), all.executions) << k.variant << ", " << k.tiles << " tiles";
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
    std::mt19937 rng(5);
    for (int i = 0; i < 3000; ++i) {
      const Sample s = sample_execution(sys, random_choices(rng, 400), under(k.model));
      ASSERT_FALSE(s.violation) << s.violation->message;
      seen.insert(fingerprint(s.graph));
    }
    EXPECT_EQ(seen.size(), all.executions) << k.variant << ", " << k.tiles << " tiles";
    EXPECT_EQ(seen, explored) << k.variant << ", " << k.tiles << " tiles";
  }
}

// Choice 0 keeps the running thread and reads the newest write: an empty
// vector runs the blocks one after the other, which no look-back flaw
// survives only by luck of interleaving, while some vector exposes it.
TEST(Sampler, ChoiceZeroRunsBlocksInTurnAndOtherChoicesInterleave) {
  const System sys = build_protocol_system(variant("stop-at-aggregate"), Instance{});
  const Sample sequential = sample_execution(sys, {});
  EXPECT_TRUE(sequential.finished);
  EXPECT_FALSE(sequential.violation);
  for (std::size_t i = 1; i < sequential.schedule.size(); ++i)  // blocks run in turn
    EXPECT_LE(sequential.schedule[i - 1], sequential.schedule[i]);
  std::mt19937 rng(3);
  bool found = false;
  for (int i = 0; i < 200 && !found; ++i) {
    const Sample s = sample_execution(sys, random_choices(rng, 100));
    found = s.violation && s.violation->property == Property::CorrectPrefix;
  }
  EXPECT_TRUE(found);
}

TEST(Sampler, NeverRunsMoreBlocksAtOnceThanAreResident) {
  // 12 tiles on 6 persistent blocks (blocks_for), 3 of them resident.
  const Instance inst = instance(12, Layout::Packed, /*resident=*/3);
  const System sys = protocol_system("fallback", inst);
  ASSERT_EQ(blocks_for(variant("fallback"), inst), 6);
  std::mt19937 rng(13);
  for (int i = 0; i < 50; ++i) {
    const Sample s = sample_execution(sys, random_choices(rng, 400));
    ASSERT_TRUE(s.finished);
    std::vector<int> first(12, -1), last(12, -1);
    for (int k = 0; k < static_cast<int>(s.schedule.size()); ++k) {
      const int t = s.schedule[static_cast<std::size_t>(k)];
      if (first[t] < 0) first[t] = k;
      last[t] = k;
    }
    int most = 0;
    for (int k = 0; k < static_cast<int>(s.schedule.size()); ++k) {
      int active = 0;
      for (int t = 0; t < 12; ++t)
        active += first[t] <= k && k <= last[t];
      most = std::max(most, active);
    }
    EXPECT_LE(most, 3);
    expect_scan_output(s, launch_tiles(inst));
  }
}

TEST(Sampler, StopsAtTheEventBound) {
  const System sys = protocol_system("warp-lookback", 16, Layout::Packed, 4);
  std::mt19937 rng(19);
  const std::vector<int> choices = random_choices(rng, 300);
  SampleOptions opt;
  opt.max_events = 40;
  const Sample cut = sample_execution(sys, choices, opt);
  EXPECT_TRUE(cut.cut);
  EXPECT_FALSE(cut.finished);
  ASSERT_EQ(cut.graph.size(), 40);
  // A prefix of the unbounded run with the same choices.
  const Sample full = sample_execution(sys, choices);
  ASSERT_TRUE(full.finished);
  EXPECT_EQ(std::vector<int>(full.schedule.begin(), full.schedule.begin() + 40), cut.schedule);
}

// 64 tiles fit the sampler's PTX state; the from-scratch axioms (RC11, SC)
// refuse a graph past kMaxEvents rather than overflow.
TEST(Sampler, SixtyFourTilesUnderPtxOnlyAndTheBoundIsAClearError) {
  const Instance inst = instance(64, Layout::Packed, 8);
  const System sys = protocol_system("warp-lookback", inst);
  std::mt19937 rng(17);
  const Sample s = sample_execution(sys, random_choices(rng, 2000));
  EXPECT_TRUE(s.finished);
  EXPECT_GT(s.graph.size(), kMaxEvents);
  expect_scan_output(s, launch_tiles(inst));
  EXPECT_THROW(sample_execution(sys, {}, under(MemoryModel::Sc)), std::invalid_argument);
}

}  // namespace
