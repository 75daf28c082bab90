// The benchmark's report logic that needs no GPU: which row default_gaps
// compares the default configuration with.
#include "harness/report.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using lookback_bench::default_gaps;
using lookback_bench::DefaultGap;
using lookback_bench::Row;

Row row(const char* op, std::int64_t n, const char* impl, double us) {
  return {op, n, impl, us, us, 0.0, 0.0, 0.0, "ok"};
}

TEST(DefaultGaps, TheFastestOtherPlanRowAtEachSize) {
  const std::vector<const char*> plans = {"small", "middle", "default"};
  const std::vector<Row> rows = {
      row("g", 1024, "copy", 1.0),   row("g", 1024, "cub", 2.0),     row("g", 1024, "small", 5.0),
      row("g", 1024, "middle", 6.0), row("g", 1024, "default", 5.2), row("g", 4096, "copy", 1.5),
      row("g", 4096, "small", 9.0),  row("g", 4096, "middle", 7.0),  row("g", 4096, "default", 6.5),
  };
  const std::vector<DefaultGap> gaps = default_gaps(rows, "g", plans);
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_EQ(gaps[0].n, 1024);
  EXPECT_EQ(gaps[0].fastest, "small");
  EXPECT_DOUBLE_EQ(gaps[0].fastest_us, 5.0);
  EXPECT_DOUBLE_EQ(gaps[0].default_us, 5.2);
  EXPECT_EQ(gaps[1].n, 4096);
  EXPECT_EQ(gaps[1].fastest, "middle");
  EXPECT_DOUBLE_EQ(gaps[1].default_us, 6.5);  // faster than every other row: a negative gap
}

// Copy, CUB, a group's extra rows (not among its plans) and EXPT rows are
// no candidates, however fast; nor are other groups' rows.
TEST(DefaultGaps, LeavesOutCopyCubExtraAndExptRowsAndOtherGroups) {
  const std::vector<const char*> plans = {"pipelined", "EXPT-w no-pf", "default"};
  const std::vector<Row> rows = {
      row("g", 1024, "copy", 1.0),          row("g", 1024, "cub", 1.1),
      row("g", 1024, "kcopy tile", 1.2),    row("g", 1024, "EXPT-w no-pf", 1.3),
      row("other", 1024, "pipelined", 1.4), row("g", 1024, "pipelined", 8.0),
      row("g", 1024, "default", 7.0),
  };
  const std::vector<DefaultGap> gaps = default_gaps(rows, "g", plans);
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_EQ(gaps[0].fastest, "pipelined");
  EXPECT_DOUBLE_EQ(gaps[0].fastest_us, 8.0);
}

TEST(DefaultGaps, NoneWithoutADefaultRowOrWithoutAnotherPlanAtItsSize) {
  const std::vector<const char*> plans = {"pipelined", "default"};
  EXPECT_TRUE(default_gaps({row("g", 1024, "pipelined", 8.0)}, "g", plans).empty());
  // The default alone at 2048: no gap there, one at 1024.
  const std::vector<DefaultGap> gaps =
      default_gaps({row("g", 1024, "pipelined", 8.0), row("g", 1024, "default", 7.0),
                    row("g", 2048, "default", 9.0)},
                   "g", plans);
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_EQ(gaps[0].n, 1024);
}

}  // namespace
