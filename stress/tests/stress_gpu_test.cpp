// The harness on a GPU, briefly: correct variants stay clean under the
// harshest knob, and mutants whose flaw shows on every schedule are killed.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "lookback/protocol/catalogue.hpp"
#include "stress/entries.hpp"
#include "stress/harness.hpp"
#include "stress/knobs.hpp"

namespace {

using namespace lookback::stress;

EntryRunner entry(const std::string& name) {
  for (const auto& e : all_entries())
    if (name == e.name) return e;
  ADD_FAILURE() << "no entry " << name;
  return {};
}

Knob knob(const std::string& name) {
  for (const auto& k : default_knobs())
    if (k.name == name) return k;
  ADD_FAILURE() << "no knob " << name;
  return {};
}

class StressGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!gpu_available(&why)) GTEST_SKIP() << why;
  }
};

// Every production variant of the catalogue (the harness has an entry for
// each catalogue row: entries.cpp's static_assert), under every knob that
// applies to it.
TEST_F(StressGpu, CorrectVariantsSurviveEveryKnobBriefly) {
  Harness h(HarnessConfig{});
  for (const auto& e : all_entries()) {
    if (lookback::protocol::kCatalogue[static_cast<std::size_t>(e.index)].kind !=
        lookback::protocol::Kind::Production)
      continue;
    for (const auto& k : default_knobs()) {
      if (!k.applies_to(e.fallback)) continue;
      const CellResult r = h.run(e, k, 0.3, 2000, false);
      EXPECT_GT(r.launches, 0u) << e.name << " / " << k.name;
      EXPECT_EQ(r.failures(), 0u) << e.name << " / " << k.name << ": " << r.first_failure;
    }
  }
}

TEST_F(StressGpu, MutantsThatFailOnEverySchedulePrettyMuchAreKilled) {
  Harness h(HarnessConfig{});
  for (const char* name :
       {"stop-at-aggregate", "prefix-before-lookback", "tile0-aggregate", "no-reset"}) {
    const CellResult r = h.run(entry(name), knob("none"), 10.0, 100000, true);
    EXPECT_GT(r.failures(), 0u) << name << " survived " << r.launches << " launches";
  }
}

// The targeted knobs kill what they aim at, and only that: the correct
// variants under the same knob stay clean.
TEST_F(StressGpu, StarvedTileTripsTheUnboundedSpinButNotTheFallback) {
  Harness h(HarnessConfig{});
  const CellResult bad =
      h.run(entry("fallback-unbounded-spin"), knob("starved-tile"), 20.0, 64, true);
  EXPECT_GT(bad.watchdog_trips, 0u) << bad.launches << " launches";
  for (const char* name : {"fallback", "fallback-inplace"}) {
    const CellResult ok = h.run(entry(name), knob("starved-tile"), 2.0, 400, false);
    EXPECT_GT(ok.launches, 0u) << name;
    EXPECT_EQ(ok.failures(), 0u) << name << ": " << ok.first_failure;
  }
}

TEST_F(StressGpu, DispatchReversedHangsBlockIdxTilesButNotTickets) {
  Harness h(HarnessConfig{});
  const CellResult bad =
      h.run(entry("blockidx-tile-id"), knob("dispatch-reversed"), 20.0, 64, true);
  EXPECT_TRUE(bad.note.empty()) << bad.note;
  EXPECT_GT(bad.watchdog_trips, 0u) << bad.launches << " launches";
  const CellResult ok = h.run(entry("warp-lookback"), knob("dispatch-reversed"), 2.0, 200, false);
  EXPECT_GT(ok.launches, 0u);
  EXPECT_EQ(ok.failures(), 0u) << ok.first_failure;
}

TEST_F(StressGpu, FallbackRaceMovesAPlainStoreStatusBackwards) {
  Harness h(HarnessConfig{});
  const CellResult bad =
      h.run(entry("fallback-plain-store"), knob("fallback-race"), 30.0, UINT64_MAX, true);
  EXPECT_GT(bad.status_regressions, 0u) << bad.launches << " launches";
  for (const char* name : {"fallback", "fallback-inplace"}) {
    const CellResult ok = h.run(entry(name), knob("fallback-race"), 2.0, UINT64_MAX, false);
    EXPECT_GT(ok.launches, 0u) << name;
    EXPECT_EQ(ok.failures(), 0u) << name << ": " << ok.first_failure;
  }
}

TEST_F(StressGpu, ThroughputRunsAndIsPlausible) {
  Harness h(HarnessConfig{});
  const double gbps = h.throughput(entry("coarsened"), 1 << 22, 5);
  EXPECT_GT(gbps, 10.0);
  EXPECT_LT(gbps, 20000.0);
}

}  // namespace
