// SPIN as a second opinion on our explorer: every production variant and
// every mutant except the ordering ones, at small bounds, is exported to
// Promela from its Protocol value and checked by SPIN; the violated
// properties and the number of executions must equal the explorer's under
// sequential consistency (where the two in-place mutants whose flaw needs
// weak memory pass in both). Then two deliberately wrong
// comparisons, which the cross-check must flag.
//
// The ordering mutants (no-writer-release, no-reader-acquire,
// no-release-no-acquire, writer-fence-only) are left out: their flaw is a
// data race under weak memory, which SPIN's interleavings cannot express.
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "crosscheck.hpp"

namespace {

using namespace lookback::model;
using namespace lookback::model::spin;
using namespace lookback::protocol;

struct Case {
  const char* variant;
  const char* label;  // distinguishes cases of one variant
  std::optional<Layout> layout = std::nullopt;
  std::optional<int> launches = std::nullopt;
  std::optional<Progress> progress = std::nullopt;
  int resident = 0;
  int tiles = 3;
  int window = 2;
  int wrap_launch = 0;                     // two launches: Instance::wrap_launch
  std::optional<int> held = std::nullopt;  // left fold: Protocol::held_windows
};

// Small bounds: 3 tiles, window 2, the variant's layout (packed for by-size
// ones), one launch unless the flaw needs two.
PromelaSpec spec_of(const NamedVariant& v, const Case& c) {
  Settings s;
  s.tiles = c.tiles;
  s.window = c.window;
  s.layout = c.layout;
  s.launches = c.launches;
  s.progress = c.progress;
  if (c.resident > 0) s.resident = c.resident;
  if (c.wrap_launch > 0) s.wrap_launch = c.wrap_launch;
  s.held_windows = c.held;
  return promela_spec(v, s);
}

const Case kCases[] = {
    // production variants
    {"warp-lookback", "packed"},
    {"warp-lookback", "split", Layout::Split},
    {"warp-lookback", "reuse", std::nullopt, 2},
    // launch 0 hands its word over to launch 1, which wraps
    {"warp-lookback", "reuse_wrap1", std::nullopt, 2, std::nullopt, 0, 3, 2, 1},
    {"coarsened", "packed"},
    // persistent two-tile blocks, 3 tiles on 2 blocks (the reuse check, 4
    // tiles over two launches, agrees too but takes SPIN 5 minutes:
    // 2304 executions, 4.9M states)
    {"pipelined", "packed"},
    {"pipelined", "split", Layout::Split},
    {"fenced-lookback", "packed"},
    {"fallback", "packed"},
    {"fallback-inplace", "packed"},
    {"fallback", "split", Layout::Split},
    {"fallback-inplace", "split", Layout::Split},
    // mutants: each is killed under sequential consistency except the two
    // in-place ones whose flaw needs weak memory (marked below)
    {"split-value-overwritten", "split"},
    {"stop-at-aggregate", "packed"},
    {"prefix-before-lookback", "packed"},
    {"tile0-aggregate", "packed"},
    {"no-reset", "reuse"},
    {"epoch-wrap-not-cleared", "reuse"},
    // its flaw is read only where launch 0 hands over, i.e. launch 1 wraps
    {"hand-over-keeps-epoch", "reuse_wrap1", std::nullopt, 2, std::nullopt, 0, 3, 2, 1},
    {"fallback-plain-store", "packed"},
    {"fallback-plain-store", "split", Layout::Split},
    {"fallback-unbounded-spin", "packed"},
    // these two pass under SC in both tools (the explorer under PTX kills
    // them): a fallback that read an overwritten input also sees its
    // owner's publish, and a misplaced fence.acq_rel orders nothing
    {"fallback-inplace-no-validation", "packed"},
    {"fallback-inplace-fence-odd-tiles", "packed"},
    {"blockidx-tile-id", "packed"},
    // the progress-model facts: ticket ids live under OBE, not HSA; blockIdx
    // ids live under HSA, not OBE; only the fallback is live under UNFAIR
    {"warp-lookback", "hsa", std::nullopt, std::nullopt, Progress::Hsa},
    {"warp-lookback", "lobe", std::nullopt, std::nullopt, Progress::Lobe},
    {"warp-lookback", "unfair", std::nullopt, std::nullopt, Progress::Unfair},
    {"blockidx-tile-id", "hsa", std::nullopt, std::nullopt, Progress::Hsa},
    {"blockidx-tile-id", "lobe", std::nullopt, std::nullopt, Progress::Lobe},
    {"blockidx-tile-id", "fair_resident1", std::nullopt, std::nullopt, Progress::Fair, 1},
    {"warp-lookback", "fair_resident1", std::nullopt, std::nullopt, Progress::Fair, 1},
    {"warp-lookback", "window1", std::nullopt, std::nullopt, std::nullopt, 0, 3, 1},
    {"warp-lookback", "tiles4", std::nullopt, std::nullopt, std::nullopt, 0, 4, 2},
    {"pipelined", "hsa", std::nullopt, std::nullopt, Progress::Hsa},
    {"pipelined", "unfair", std::nullopt, std::nullopt, Progress::Unfair},
    // deterministic mode (the left fold) at 4 tiles, where tile 3 can pass
    // a window without a PREFIX (window 1: two windows) and fold it in a
    // second pass, from the values it held (the catalogue's 4 windows) or,
    // holding fewer, reading it again; its mutant is killed there. (The
    // split layout at 4 tiles agrees too, but takes SPIN over a minute.)
    {"warp-lookback-deterministic", "tiles4", std::nullopt, std::nullopt, std::nullopt, 0, 4, 2},
    {"warp-lookback-deterministic", "window1", std::nullopt, std::nullopt, std::nullopt, 0, 4, 1},
    {"warp-lookback-deterministic", "window1_held1", std::nullopt, std::nullopt, std::nullopt, 0, 4,
     1, 0, 1},
    {"warp-lookback-deterministic", "window1_held0", std::nullopt, std::nullopt, std::nullopt, 0, 4,
     1, 0, 0},
    {"fold-without-second-pass", "tiles4", std::nullopt, std::nullopt, std::nullopt, 0, 4, 2},
    {"pipelined-deterministic", "tiles4", std::nullopt, std::nullopt, std::nullopt, 0, 4, 2},
    {"fallback-deterministic", "tiles4", std::nullopt, std::nullopt, std::nullopt, 0, 4, 2},
    {"fallback-inplace-deterministic", "tiles4", std::nullopt, std::nullopt, std::nullopt, 0, 4, 2},
};

std::filesystem::path work_dir(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("lookback-spin-" + std::to_string(::getpid()) + "-" + name);
}

std::string case_name(const Case& c) {
  std::string s = std::string(c.variant) + "_" + c.label;
  for (char& ch : s)
    if (ch == '-') ch = '_';
  return s;
}

// Readable parameters in gtest's and ctest's output.
void PrintTo(const Case& c, std::ostream* os) {
  *os << case_name(c);
}

class SpinCrossCheck : public ::testing::TestWithParam<Case> {};

// Runs one instance of `v` through both tools; every difference is a
// failure (the model and pan's output are then kept). Returns the
// explorer's verdict.
CheckerVerdict expect_agreement(const NamedVariant& v, const Case& c) {
  const PromelaSpec spec = spec_of(v, c);
  const auto dir = work_dir(case_name(c));
  const SpinVerdict s = run(spec, dir);
  const CheckerVerdict k = check(v, spec);
  std::cout << "[" << case_name(c) << "] " << to_string(k) << "\n"
            << "[" << case_name(c) << "] " << to_string(s) << "\n";
  const auto diffs = disagreements(s, k);
  for (const auto& d : diffs)
    ADD_FAILURE() << case_name(c) << ": " << d;
  if (diffs.empty())
    std::filesystem::remove_all(dir);
  else
    std::cout << "model and pan output kept in " << dir << "\n";
  return k;
}

TEST_P(SpinCrossCheck, SpinAgreesWithTheExplorer) {
  const Case& c = GetParam();
  const auto v = find_variant(c.variant);
  ASSERT_TRUE(v.has_value()) << c.variant;
  // Every case is one the explorer models: a refusal is a failure, not a
  // skip, and is checked before (and whether or not) SPIN is there.
  try {
    const PromelaSpec spec = spec_of(*v, c);
    (void)build_protocol_system(spec.protocol, spec.instance);
  } catch (const std::exception& e) {
    FAIL() << case_name(c) << ": the explorer does not model this instance: " << e.what();
  }
  if (const auto why = unavailable()) GTEST_SKIP() << why.value();
  expect_agreement(*v, c);
}

INSTANTIATE_TEST_SUITE_P(Catalogue, SpinCrossCheck, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return case_name(info.param); });

// The injected disagreement: a mutant's model exported under a production
// variant's name must not pass for that variant.
TEST(SpinCrossCheckInjected, MutantModelUnderAProductionNameIsFlagged) {
  if (const auto why = unavailable()) GTEST_SKIP() << why.value();
  const NamedVariant production = *find_variant("warp-lookback");
  const NamedVariant mutant = *find_variant("stop-at-aggregate");
  const Case c{"warp-lookback", "injected"};
  const PromelaSpec honest = spec_of(production, c);
  PromelaSpec wrong = honest;
  wrong.protocol = mutant.protocol;  // the name still says warp-lookback
  const auto dir = work_dir("injected-mutant");
  const SpinVerdict s = run(wrong, dir);
  const CheckerVerdict k = check(production, honest);
  const auto diffs = disagreements(s, k);
  ASSERT_FALSE(diffs.empty()) << to_string(s) << "\n" << to_string(k);
  EXPECT_NE(diffs.front().find("violated properties differ"), std::string::npos) << diffs.front();
  EXPECT_NE(diffs.front().find("correct-prefix"), std::string::npos) << diffs.front();
  std::filesystem::remove_all(dir);
}

// Agreement on the verdict alone is not enough: two passing variants whose
// executions differ (fenced-lookback's fence.sc events are ordered) must be
// told apart by the execution counts.
TEST(SpinCrossCheckInjected, ExecutionCountMismatchIsFlagged) {
  if (const auto why = unavailable()) GTEST_SKIP() << why.value();
  const NamedVariant fenced = *find_variant("fenced-lookback");
  const NamedVariant warp = *find_variant("warp-lookback");
  const Case c{"fenced-lookback", "injected"};
  const auto dir = work_dir("injected-count");
  const SpinVerdict s = run(spec_of(fenced, c), dir);
  const CheckerVerdict k = check(warp, spec_of(warp, c));
  const auto diffs = disagreements(s, k);
  ASSERT_EQ(diffs.size(), 1u) << to_string(s) << "\n" << to_string(k);
  EXPECT_NE(diffs.front().find("execution counts differ"), std::string::npos) << diffs.front();
  std::filesystem::remove_all(dir);
}

NamedVariant one_tile_fallback() {
  NamedVariant v = *find_variant("fallback");
  v.protocol.tiles_per_block = 1;
  return v;
}

// A window that falls back twice. The kernel (WindowLookback::wait_window)
// falls back on the closest INVALID lane and, while another is INVALID,
// reads the whole window again; with a spin bound of 1 it falls back on the
// next one with the words it has. Under SC the catalogue's persistent
// fallback never meets two INVALID lanes in a window at the cross-check's
// bounds (a block publishes a tile's aggregate before it looks back for its
// older one; under PTX a stale read can still see it INVALID), so both paths
// run here on one-tile blocks: each passes, SPIN agrees with the explorer on
// each, and the two paths give different executions.
TEST(SpinCrossCheckFallbacks, TwoFallbacksInAWindowWithAndWithoutAReread) {
  if (const auto why = unavailable()) GTEST_SKIP() << why.value();
  const NamedVariant reread = one_tile_fallback();
  ASSERT_GT(reread.protocol.spin_bound, 1);
  NamedVariant once = reread;
  once.protocol.spin_bound = 1;
  for (const Layout layout : {Layout::Packed, Layout::Split}) {
    std::uint64_t executions[2] = {};
    for (int k = 0; k < 2; ++k) {
      const NamedVariant& v = k == 0 ? reread : once;
      const std::string label = std::string(k == 0 ? "reread_" : "spin1_") +
                                (layout == Layout::Packed ? "packed" : "split");
      const CheckerVerdict checker = expect_agreement(v, Case{"fallback", label.c_str(), layout});
      EXPECT_TRUE(checker.violated.empty()) << label << ": " << to_string(checker);
      executions[k] = checker.executions;
    }
    EXPECT_NE(executions[0], executions[1]) << "no window of this instance fell back twice";
  }
}

// Under an occupancy bound a window's lanes read in lane order in both tools
// (SPIN.md, "a window's lanes"): with two of three one-tile blocks resident,
// the third starts after one finished without reading what that one wrote
// last, so lanes that could read older writes would give it executions
// SPIN's gate forbids.
TEST(SpinCrossCheckFallbacks, LanesUnderAnOccupancyBound) {
  if (const auto why = unavailable()) GTEST_SKIP() << why.value();
  for (const Layout layout : {Layout::Packed, Layout::Split}) {
    const CheckerVerdict checker = expect_agreement(
        one_tile_fallback(),
        Case{"fallback", layout == Layout::Packed ? "resident2_packed" : "resident2_split", layout,
             std::nullopt, std::nullopt, 2});
    EXPECT_TRUE(checker.violated.empty()) << to_string(checker);
  }
}

}  // namespace

// Termination under fair scheduling, the LTL way: <> (all finished) under
// SPIN's weak fairness must fail exactly where the explorer finds a hang
// under the fair progress model.
class SpinFairLiveness : public ::testing::TestWithParam<Case> {};

TEST_P(SpinFairLiveness, LtlAgreesWithTheExplorer) {
  if (const auto why = unavailable()) GTEST_SKIP() << why.value();
  const Case& c = GetParam();
  const NamedVariant v = *find_variant(c.variant);
  const PromelaSpec spec = spec_of(v, c);
  ASSERT_EQ(spec.progress, Progress::Fair);
  const auto dir = work_dir("ltl-" + case_name(c));
  std::string problem;
  const auto spin_hang = fair_liveness_violated(spec, dir, problem);
  ASSERT_TRUE(spin_hang.has_value()) << problem;
  const auto violated = check_variant(v, settings_for(spec)).violated();
  const bool hang =
      std::find(violated.begin(), violated.end(), Property::Termination) != violated.end();
  std::cout << "[ltl " << case_name(c) << "] explorer " << (hang ? "hang" : "terminates")
            << ", SPIN " << (*spin_hang ? "hang" : "terminates") << "\n";
  EXPECT_EQ(*spin_hang, hang);
  std::filesystem::remove_all(dir);
}

const Case kFairCases[] = {
    {"warp-lookback", "fair", std::nullopt, std::nullopt, Progress::Fair},
    {"blockidx-tile-id", "fair", std::nullopt, std::nullopt, Progress::Fair},
    {"tile0-aggregate", "fair", std::nullopt, std::nullopt, Progress::Fair},
    {"blockidx-tile-id", "fair_resident1", std::nullopt, std::nullopt, Progress::Fair, 1},
    {"fallback", "fair", std::nullopt, std::nullopt, Progress::Fair},
};

INSTANTIATE_TEST_SUITE_P(Fair, SpinFairLiveness, ::testing::ValuesIn(kFairCases),
                         [](const auto& info) { return case_name(info.param); });
