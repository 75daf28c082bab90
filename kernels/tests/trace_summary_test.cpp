// The tile-timeline summary (lookback/trace_summary.hpp) on hand-made
// stamps: host code, no GPU (label `cpu`). The GPU side, that a traced scan
// stamps every tile in order, is in scan_trace_test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "lookback/trace_summary.hpp"

namespace {

using lookback::summarize_trace;
using lookback::device::TileStamps;

TileStamps tile(std::uint64_t drawn, std::uint64_t aggregate, std::uint64_t prefix,
                std::uint64_t stored, std::uint32_t sm) {
  return TileStamps{{drawn, aggregate, prefix, stored}, sm, 0};
}

// Three complete tiles (ns), one that never stored, one whose stamps go
// backwards. Times are relative to the first draw, at 1000 ns.
std::vector<TileStamps> sample() {
  return {tile(1000, 3000, 4000, 6000, 0),   //
          tile(1000, 5000, 8000, 9000, 1),   //
          tile(2000, 4000, 4500, 7000, 1),   //
          tile(1500, 2500, 3000, 0, 2),      // incomplete
          tile(3000, 2000, 3500, 4000, 3)};  // out of order
}

TEST(TraceSummary, CountsBadTilesAndLeavesThemOut) {
  const auto s = summarize_trace(sample(), 2.0);
  EXPECT_EQ(s.tiles, 5u);
  EXPECT_EQ(s.incomplete, 1u);
  EXPECT_EQ(s.out_of_order, 1u);
  EXPECT_EQ(s.sms, 2u);  // sm 2 and 3 ran only the bad tiles
}

TEST(TraceSummary, SpanFillAndDrain) {
  const auto s = summarize_trace(sample(), 2.0);
  EXPECT_DOUBLE_EQ(s.span_us, 8.0);
  EXPECT_DOUBLE_EQ(s.first_input_us, 2.0);
  EXPECT_DOUBLE_EQ(s.last_draw_us, 1.0);
  EXPECT_DOUBLE_EQ(s.tail_us, 7.0);
  EXPECT_DOUBLE_EQ(s.timer_step_ns, 500.0);
}

// The timer step counts complete, in-order tiles only: an incomplete
// tile's finer gaps are not the timer's.
TEST(TraceSummary, TimerStepIsTheSmallestGapOfCompleteTiles) {
  EXPECT_DOUBLE_EQ(lookback::timer_step_ns(sample()), 500.0);
  const std::vector<TileStamps> coarse = {tile(1000, 3000, 4000, 6000, 0),
                                          tile(1000, 1100, 1200, 0, 1),      // incomplete
                                          tile(1300, 1200, 1250, 1260, 1)};  // out of order
  EXPECT_DOUBLE_EQ(lookback::timer_step_ns(coarse), 1000.0);
  EXPECT_DOUBLE_EQ(summarize_trace(coarse, 1.0).timer_step_ns, 1000.0);
  const std::vector<TileStamps> fine = {tile(1000, 3000, 4000, 6000, 0),
                                        tile(1000, 1100, 1200, 1300, 1)};
  EXPECT_DOUBLE_EQ(lookback::timer_step_ns(fine), 100.0);
  EXPECT_DOUBLE_EQ(lookback::timer_step_ns(std::vector<TileStamps>{}), 0.0);
}

TEST(TraceSummary, StepTimesAreNearestRankPercentiles) {
  const auto s = summarize_trace(sample(), 2.0);
  EXPECT_DOUBLE_EQ(s.load.median_us, 2.0);  // {2, 2, 4}
  EXPECT_DOUBLE_EQ(s.load.p90_us, 4.0);
  EXPECT_DOUBLE_EQ(s.load.max_us, 4.0);
  EXPECT_DOUBLE_EQ(s.lookback.median_us, 1.0);  // {0.5, 1, 3}
  EXPECT_DOUBLE_EQ(s.lookback.max_us, 3.0);
  EXPECT_DOUBLE_EQ(s.store.median_us, 2.0);  // {1, 2, 2.5}
  EXPECT_DOUBLE_EQ(s.store.max_us, 2.5);
}

TEST(TraceSummary, TimelineCountsEventsAndTilesInFlight) {
  const auto s = summarize_trace(sample(), 2.0);
  ASSERT_EQ(s.timeline.size(), 5u);  // [0, 2) ... [8, 10)
  std::vector<std::uint32_t> drawn, aggregated, stored, loading, looking, storing;
  for (const auto& b : s.timeline) {
    drawn.push_back(b.drawn);
    aggregated.push_back(b.aggregated);
    stored.push_back(b.stored);
    loading.push_back(b.loading);
    looking.push_back(b.looking);
    storing.push_back(b.storing);
  }
  using V = std::vector<std::uint32_t>;
  EXPECT_EQ(drawn, (V{3, 0, 0, 0, 0}));
  EXPECT_EQ(aggregated, (V{0, 2, 1, 0, 0}));
  EXPECT_EQ(stored, (V{0, 0, 1, 1, 1}));
  // At 0 us tiles A and B load (C is drawn at 1 us); at 2 us A looks back
  // while B and C load; at 4 us A and C store, B looks back (until 7 us).
  EXPECT_EQ(loading, (V{2, 2, 0, 0, 0}));
  EXPECT_EQ(looking, (V{0, 1, 1, 1, 0}));
  EXPECT_EQ(storing, (V{0, 0, 2, 0, 0}));
  EXPECT_DOUBLE_EQ(s.timeline[3].start_us, 6.0);
}

TEST(TraceSummary, NothingCompleteOrNoBucketsGivesNoTimeline) {
  std::vector<TileStamps> none = {tile(0, 0, 0, 0, 0)};
  const auto s = summarize_trace(none, 1.0);
  EXPECT_EQ(s.incomplete, 1u);
  EXPECT_TRUE(s.timeline.empty());
  EXPECT_EQ(s.span_us, 0.0);
  EXPECT_TRUE(summarize_trace(sample(), 0.0).timeline.empty());
  EXPECT_TRUE(summarize_trace(sample(), -1.0).timeline.empty());
  EXPECT_TRUE(summarize_trace(sample(), std::nan("")).timeline.empty());
  EXPECT_TRUE(summarize_trace(sample(), INFINITY).timeline.empty());
}

// A bucket far finer than the span widens to kMaxTimelineBuckets, and the
// counts still add up to the tiles.
TEST(TraceSummary, TinyBucketsAreCapped) {
  const auto s = summarize_trace(sample(), 1e-9);
  ASSERT_LE(s.timeline.size(), lookback::kMaxTimelineBuckets);
  EXPECT_GE(s.bucket_us, 8.0 / lookback::kMaxTimelineBuckets);
  std::uint32_t drawn = 0, stored = 0;
  for (const auto& b : s.timeline) {
    drawn += b.drawn;
    stored += b.stored;
  }
  EXPECT_EQ(drawn, 3u);
  EXPECT_EQ(stored, 3u);
}

}  // namespace
