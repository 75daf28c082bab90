// The L2 prefetch's host-side arithmetic (no GPU): which tiles a launch asks
// L2 for (prefetch_window) and how far ahead each production policy asks
// (policy_prefetch_tiles). What the prefetch does on a GPU is
// scan_l2_prefetch_test.cu's.
#include <gtest/gtest.h>

#include <cstdint>

#include "lookback/device/params.hpp"
#include "lookback/device/policy.hpp"

namespace {

namespace ld = lookback::device;

TEST(L2PrefetchWindow, LeavesOutTheFirstWaveAndAPartialLastTile) {
  // 528 persistent blocks of two tiles: the first 1056 tiles are the first
  // wave's; 10 tiles and a part: the partial 11th is not asked for.
  constexpr ld::PrefetchWindow w = ld::prefetch_window(528, 2, 2000 * 8192 + 5, 8192);
  static_assert(w.from == 1056 && w.to == 2000);
  EXPECT_EQ(ld::prefetch_window(396, 1, 10 * 9856, 9856).to, 10u);
  EXPECT_EQ(ld::prefetch_window(396, 1, 10 * 9856 - 1, 9856).to, 9u);
  EXPECT_EQ(ld::prefetch_window(396, 1, 100, 9856).to, 0u);  // no whole tile
  EXPECT_EQ(ld::prefetch_window(396, 1, 0, 9856).from, 396u);
  // The largest grid: 2^31 - 1 tiles.
  EXPECT_EQ(ld::prefetch_window(528, 2, std::int64_t{0x7fffffff} * 8192, 8192).to, 0x7fffffffu);
}

TEST(L2PrefetchWindow, ProductionPoliciesPrefetchAboutAMebibyteAhead) {
  // 1 MiB of input (coarsened: 512 KiB) in whole tiles: 9856-item u32 and
  // 4480-item u64 warp-lookback tiles, 64 KiB coarsened, 32 KiB pipelined.
  EXPECT_EQ((lookback::policy_prefetch_tiles<lookback::WarpLookbackPolicy, std::uint32_t>()), 26);
  EXPECT_EQ((lookback::policy_prefetch_tiles<lookback::WarpLookbackPolicy, std::uint64_t>()), 29);
  EXPECT_EQ((lookback::policy_prefetch_tiles<lookback::CoarsenedPolicy, std::uint32_t>()), 8);
  EXPECT_EQ((lookback::policy_prefetch_tiles<lookback::PipelinedPolicy, std::uint32_t>()), 32);
  EXPECT_EQ((lookback::policy_prefetch_tiles<lookback::FallbackPolicy, std::uint64_t>()), 42);
  // The default's small half does not prefetch: its grids are one wave.
  EXPECT_EQ((lookback::policy_prefetch_tiles<lookback::WarpLookbackSmallPolicy, std::uint32_t>()),
            0);
}

}  // namespace
