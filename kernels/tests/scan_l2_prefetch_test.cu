// The L2 prefetch (l2_prefetch.cuh, TilePolicy::kL2PrefetchBytes) is a hint:
// it must change no output and never reach outside the input. Each variant
// here prefetches the very next tile (the shortest distance), so every tile
// past the grid's first wave asks for its successor: sizes end just before,
// at and after the first wave's last tile, and mid-tile a few tiles later
// (a partial last tile is not asked for), aligned, misaligned (the range
// starts at the tile's first 16-byte boundary) and in place.
#include "scan_test_util.hpp"

namespace lt = lookback::testing;

namespace {

// Policy asking for the next tile's input (policy_prefetch_tiles rounds up
// to one tile).
template <class Policy>
struct NextTilePrefetch : Policy {
  static constexpr int kL2PrefetchBytes = 1;
};
template <lookback::Variant V>
using NextTile = lookback::ScanConfig<V, NextTilePrefetch<lookback::detail::default_policy_t<V>>>;

static_assert(
    lookback::policy_prefetch_tiles<NextTilePrefetch<lookback::FallbackPolicy>, std::uint32_t>() ==
    1);

// Tiles the first wave of Cfg's aligned kernel for protocol P draws, as the
// launch computes it (KernelParams::prefetch_from). P is a template
// argument: nvcc 13 cannot name an agent from Cfg::protocol inside the
// alias (scan_persistent_test.cu).
template <class Cfg, lookback::protocol::Protocol P, class T>
std::int64_t first_wave_tiles() {
  using A =
      lookback::detail::agent_t<Cfg, P, false, lookback::device::Access::Vector, T, lookback::Sum>;
  std::uint32_t resident = 0;
  EXPECT_EQ(lookback::detail::resident_blocks<A>(resident), cudaSuccess)
      << lookback::last_error_message();
  return static_cast<std::int64_t>(resident) * (lookback::protocol::persistent(A::P) ? 2 : 1);
}

template <class Cfg, class T>
void check_around_first_wave() {
  const std::int64_t tile = lookback::detail::tile_items<Cfg, T>();
  const std::int64_t wave = first_wave_tiles<Cfg, Cfg::protocol, T>() * tile;
  for (const std::int64_t n :
       {wave - tile - 1, wave - 1, wave, wave + 1, wave + 3 * tile + tile / 2 + 3})
    for (const lt::Placement p :
         {lt::Placement::OutOfPlace, lt::Placement::Offset1, lt::Placement::Offset2InPlace}) {
      SCOPED_TRACE(testing::Message() << "n = " << n << ", " << lt::name(p));
      lt::run_matrix_case<Cfg, T>(n, lt::Kind::Inclusive, p);
    }
}

TEST(ScanL2Prefetch, ProductionPoliciesPrefetchAboutAMebibyteAhead) {
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

TEST(ScanL2Prefetch, WarpLookbackOutputsUnchanged) {
  LOOKBACK_REQUIRE_GPU();
  check_around_first_wave<NextTile<lookback::Variant::WarpLookback>, std::uint32_t>();
  check_around_first_wave<NextTile<lookback::Variant::WarpLookback>, std::uint64_t>();
}

TEST(ScanL2Prefetch, CoarsenedOutputsUnchanged) {
  LOOKBACK_REQUIRE_GPU();
  check_around_first_wave<NextTile<lookback::Variant::Coarsened>, std::uint32_t>();
  check_around_first_wave<NextTile<lookback::Variant::Coarsened>, std::uint64_t>();
}

TEST(ScanL2Prefetch, PipelinedOutputsUnchanged) {
  LOOKBACK_REQUIRE_GPU();
  check_around_first_wave<NextTile<lookback::Variant::Pipelined>, std::uint32_t>();
  check_around_first_wave<NextTile<lookback::Variant::Pipelined>, std::uint64_t>();
}

TEST(ScanL2Prefetch, FallbackOutputsUnchangedInAndOutOfPlace) {
  LOOKBACK_REQUIRE_GPU();
  check_around_first_wave<NextTile<lookback::Variant::Fallback>, std::uint32_t>();
  check_around_first_wave<NextTile<lookback::Variant::Fallback>, std::uint64_t>();
}

}  // namespace
