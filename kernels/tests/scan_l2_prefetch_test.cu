// The L2 prefetch (l2_prefetch.cuh, TilePolicy::kL2PrefetchBytes) is a hint:
// it must change no output, stay inside the input, and never issue a
// misaligned address (cp.async.bulk.prefetch traps on one: the whole
// context is lost). The window the launch computes and the production
// distances are checked on the host (l2_prefetch_window_test.cpp); on the
// GPU each variant prefetches the very next tile (the shortest
// distance), so every tile from the grid's first wave's last one on asks
// for its successor: sizes end at the first wave's last tile (nothing to
// ask for), two tiles after it, and mid-tile a few tiles later (a partial
// last tile is not asked for); aligned, misaligned (the range starts at
// the tile's first 16-byte boundary) and in place; u32 and u64, and 12-byte
// values, whose striped "vector" path moves one item at a time at 4-byte
// alignment. The production distances run in the variants' matrix tests
// (2^24 items, every value type, aligned and misaligned in place).
#include "resident_blocks.hpp"
#include "scan_test_util.hpp"

namespace lt = lookback::testing;
namespace ld = lookback::device;

namespace {

// Policy asking for the next tile's input (policy_prefetch_tiles rounds up
// to one tile).
template <class Policy>
struct NextTilePrefetch : Policy {
  static constexpr int kL2PrefetchBytes = 1;
};
static_assert(
    lookback::policy_prefetch_tiles<NextTilePrefetch<lookback::FallbackPolicy>, std::uint32_t>() ==
    1);
template <lookback::Variant V>
using NextTile = lookback::ScanConfig<V, NextTilePrefetch<lookback::detail::default_policy_t<V>>>;

// Tiles the first wave of Cfg's aligned kernel for protocol P draws: the
// window the launch computes, from prefetch_window itself (P: a template
// argument, resident_blocks.hpp says why). The scalar and in-place kernels may hold
// another number of blocks; their sizes land near their wave's edge.
template <class Cfg, lookback::protocol::Protocol P, class T>
std::int64_t first_wave_tiles() {
  return ld::prefetch_window(lt::resident_blocks<Cfg, P, T, lt::op_for<T>>(), P.tiles_per_block, 0,
                             lookback::detail::tile_items<Cfg, T>())
      .from;
}

template <class Cfg, class T>
void check_around_first_wave(std::initializer_list<lt::Placement> placements) {
  const std::int64_t tile = lookback::detail::tile_items<Cfg, T>();
  const std::int64_t wave = first_wave_tiles<Cfg, Cfg::protocol, T>() * tile;
  for (const std::int64_t n : {wave, wave + 2 * tile + 1, wave + 3 * tile + tile / 2 + 3})
    for (const lt::Placement p : placements) {
      SCOPED_TRACE(testing::Message() << "n = " << n << ", " << lt::name(p));
      lt::run_matrix_case<Cfg, T>(n, lt::Kind::Inclusive, p);
    }
}

// Variant V's next-tile configuration on u32 and u64, aligned, misaligned
// and in place.
template <lookback::Variant V>
void check_u32_and_u64() {
  const auto placements = {lt::Placement::OutOfPlace, lt::Placement::Offset1,
                           lt::Placement::Offset2InPlace};
  check_around_first_wave<NextTile<V>, std::uint32_t>(placements);
  check_around_first_wave<NextTile<V>, std::uint64_t>(placements);
}

TEST(ScanL2Prefetch, WarpLookbackOutputsUnchanged) {
  LOOKBACK_REQUIRE_GPU();
  check_u32_and_u64<lookback::Variant::WarpLookback>();
}

TEST(ScanL2Prefetch, CoarsenedOutputsUnchanged) {
  LOOKBACK_REQUIRE_GPU();
  check_u32_and_u64<lookback::Variant::Coarsened>();
}

TEST(ScanL2Prefetch, PipelinedOutputsUnchanged) {
  LOOKBACK_REQUIRE_GPU();
  check_u32_and_u64<lookback::Variant::Pipelined>();
}

TEST(ScanL2Prefetch, FallbackOutputsUnchangedInAndOutOfPlace) {
  LOOKBACK_REQUIRE_GPU();
  check_u32_and_u64<lookback::Variant::Fallback>();
}

// 12-byte values: the striped agents' vector path moves single items, so a
// pointer 4 bytes past a 16-byte boundary is valid there and the prefetch
// must round it (before the fix it trapped: cudaErrorMisalignedAddress).
TEST(ScanL2Prefetch, TwelveByteValuesOnUnalignedPointers) {
  LOOKBACK_REQUIRE_GPU();
  const auto kUnaligned = {lt::Placement::Offset1, lt::Placement::Offset2InPlace,
                           lt::Placement::Offset3Mixed};
  check_around_first_wave<NextTile<lookback::Variant::Coarsened>, lt::Wide12>(kUnaligned);
  check_around_first_wave<NextTile<lookback::Variant::Fallback>, lt::Wide12>(kUnaligned);
  // The default configuration for 12-byte values (Coarsened), production
  // distance, well past its first wave.
  lt::run_matrix_case<lookback::DefaultConfig<lt::Wide12>, lt::Wide12>(
      std::int64_t{1} << 24, lt::Kind::Inclusive, lt::Placement::Offset1);
}

}  // namespace
