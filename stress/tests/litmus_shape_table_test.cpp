// The litmus probes' shape table (no GPU): every shape once, its weak
// outcome and whether PTX allows it, stated independently of the
// implementation; litmus_probe_test.cu runs the shapes on a GPU.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "stress/litmus_probe.hpp"

namespace {

using lookback::stress::LitmusShape;
namespace ls = lookback::stress;

TEST(LitmusShapeTable, EveryShapeOnceWithDistinctName) {
  const auto shapes = ls::all_litmus_shapes();
  EXPECT_EQ(shapes.size(), 7u);
  std::set<LitmusShape> unique(shapes.begin(), shapes.end());
  EXPECT_EQ(unique.size(), shapes.size());
  std::set<std::string> names;
  for (LitmusShape s : shapes)
    names.insert(ls::to_string(s));
  EXPECT_EQ(names.size(), shapes.size());
  EXPECT_EQ(names.count("?"), 0u);
}

// The facts the GPU test relies on.
TEST(LitmusShapeTable, WeakOutcomesAndPtxVerdicts) {
  for (LitmusShape s : ls::all_litmus_shapes()) {
    const int k = ls::weak_outcome_index(s);
    ASSERT_GE(k, 0);
    ASSERT_LT(k, 4);
    const std::string text =
        std::string("r0=") + std::to_string(k / 2) + " r1=" + std::to_string(k % 2);
    EXPECT_EQ(ls::weak_outcome(s), text) << ls::to_string(s);
  }
  EXPECT_STREQ(ls::weak_outcome(LitmusShape::MP), "r0=1 r1=0");
  EXPECT_STREQ(ls::weak_outcome(LitmusShape::SB), "r0=0 r1=0");
  EXPECT_STREQ(ls::weak_outcome(LitmusShape::LB), "r0=1 r1=1");
  for (LitmusShape s : {LitmusShape::MPWriterFenceOnly, LitmusShape::MPReaderFenceOnly,
                        LitmusShape::MPFenced, LitmusShape::MPRelAcq})
    EXPECT_STREQ(ls::weak_outcome(s), "r0=1 r1=0") << ls::to_string(s);

  // PTX: relaxed MP/SB/LB allowed (LB too, unlike RC11); a fence on one side
  // leaves the other side unordered; fence.sc on both sides or rel/acq forbid.
  EXPECT_TRUE(ls::weak_allowed_by_ptx(LitmusShape::MP));
  EXPECT_TRUE(ls::weak_allowed_by_ptx(LitmusShape::SB));
  EXPECT_TRUE(ls::weak_allowed_by_ptx(LitmusShape::LB));
  EXPECT_TRUE(ls::weak_allowed_by_ptx(LitmusShape::MPWriterFenceOnly));
  EXPECT_TRUE(ls::weak_allowed_by_ptx(LitmusShape::MPReaderFenceOnly));
  EXPECT_FALSE(ls::weak_allowed_by_ptx(LitmusShape::MPFenced));
  EXPECT_FALSE(ls::weak_allowed_by_ptx(LitmusShape::MPRelAcq));
}

}  // namespace
