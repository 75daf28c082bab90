// The default configuration (lookback::DefaultConfig<T>, a SizeAdaptive)
// through the stateless DeviceScan: sizes at the small half's tile edges, the
// largest size of each tier and the next (small tiles; a middle tier, 224 x 44
// for 2- and 4-byte values and coarsened for 1-byte ones; pipelined; for
// 8-byte values on wide GPUs pipelined-wide above pipelined; the tiers the
// current GPU runs),
// inclusive and exclusive, aligned, misaligned and in
// place, for every value size it covers; and one temp allocation, sized by a
// query for the largest n, serving scans on every tier.
#include <algorithm>

#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lt::Kind;
using lt::Placement;

namespace {

template <class T>
void around_the_switch() {
  using Cfg = lookback::DefaultConfig<T>;
  static_assert(lookback::is_size_adaptive_v<Cfg>);
  const std::int64_t small_tile = lt::tile_items_for<Cfg, T>(1);
  std::vector<std::int64_t> sizes = {small_tile, small_tile + 1, 2 * small_tile - 1};
  // Every switch of the tiers this GPU runs (lt::tier_bounds).
  std::vector<std::int64_t> bounds;
  lt::tier_bounds<Cfg, T>(bounds);
  EXPECT_EQ(bounds.front(), Cfg::template max_small_items<T>());
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i)
    sizes.insert(sizes.end(), {bounds[i], bounds[i] + 1});
  for (const std::int64_t n : sizes)
    for (const Kind kind : {Kind::Inclusive, Kind::Exclusive})
      for (const Placement placement :
           {Placement::OutOfPlace, Placement::InPlace, Placement::Offset3Mixed}) {
        SCOPED_TRACE(testing::Message() << "n = " << n << ", " << lt::name(kind) << ", placement "
                                        << static_cast<int>(placement));
        lt::run_matrix_case<Cfg, T>(n, kind, placement);
        if (::testing::Test::HasFatalFailure()) return;
      }
}

TEST(ScanDefault, AroundTheSwitchU32) {
  LOOKBACK_REQUIRE_GPU();
  around_the_switch<std::uint32_t>();
}
TEST(ScanDefault, AroundTheSwitchF64) {
  LOOKBACK_REQUIRE_GPU();
  around_the_switch<double>();
}
TEST(ScanDefault, AroundTheSwitchU16) {
  LOOKBACK_REQUIRE_GPU();
  around_the_switch<std::uint16_t>();
}
TEST(ScanDefault, AroundTheSwitchU8) {
  LOOKBACK_REQUIRE_GPU();
  around_the_switch<std::uint8_t>();
}

// CUB's usage: query once for the largest n, then scan smaller inputs with
// that storage, on any tier. Where a smaller tier's tiles are the smaller, a
// query just above its switch must cover that tier's largest scan itself:
// the default's 4096-item u32 tiles against 224 x 44's 9856 (2^19 items: 128
// small tiles, 128 descriptors; 2^19 + 1: 54 tiles, 64 descriptors), and
// SmallTilesFirst (pipelined's 8192 below warp-lookback's 9856: 300,000
// items take 37 pipelined tiles, 64 descriptors; 300,001 items 31
// warp-lookback tiles, 32). Above the middle switch pipelined's own storage
// already covers the tiers below (2^22 + 1 items: 513 pipelined tiles, 544
// descriptors, against 224 x 44's 448 and the small tiles' 128): that test
// checks that one storage serves all three tiers.
using SmallTilesFirst =
    lookback::SizeAdaptive<lookback::Pipelined, lookback::WarpLookback, 300000 * 4>;

template <class Cfg, class T = std::uint32_t>
void one_query_serves_all(std::int64_t largest, std::initializer_list<std::int64_t> sizes) {
  lt::DeviceBuffer<T> a(largest), b(largest);
  ASSERT_TRUE(a && b);
  std::size_t bytes = 0;
  ASSERT_EQ(lookback::DeviceScan::InclusiveSum<Cfg>(nullptr, bytes, a.get(), b.get(), largest),
            cudaSuccess)
      << lookback::last_error_message();
  lt::DeviceBuffer<unsigned char> temp(bytes);
  ASSERT_TRUE(temp);
  for (const std::int64_t n : sizes) {
    const std::vector<T> in = lt::make_input<T>(n, 77 + n);
    LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    // Poison: the last size's output must not stand in for this one's.
    LOOKBACK_CUDA_OK(cudaMemset(b.get(), 0xA5, n * sizeof(T)));
    std::size_t b_bytes = bytes;
    ASSERT_EQ(lookback::DeviceScan::InclusiveSum<Cfg>(temp.get(), b_bytes, a.get(), b.get(), n),
              cudaSuccess)
        << "n = " << n << ": " << lookback::last_error_message();
    std::vector<T> got(n);
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
    EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(in, Kind::Inclusive), got,
                                  lt::tile_items_for<Cfg, T>(n)))
        << "n = " << n;
  }
}

// Temp storage at any byte offset, exactly the queried size: the scan aligns
// its header inside it (the query's slack pays for that) and touches nothing
// outside it (canary bytes on both sides), on each tier.
TEST(ScanDefault, MisalignedTempStorageOfTheQueriedSize) {
  LOOKBACK_REQUIRE_GPU();
  using T = std::uint32_t;
  using Cfg = lookback::DefaultConfig<T>;
  std::vector<std::int64_t> bounds;
  lt::tier_bounds<Cfg, T>(bounds);
  const std::int64_t largest = bounds[bounds.size() - 2] + 1;
  lt::DeviceBuffer<T> a(largest), b(largest);
  ASSERT_TRUE(a && b);
  constexpr unsigned char kCanary = 0xA5;
  constexpr std::size_t kMargin = 256;
  for (const std::int64_t n : {std::int64_t{1000}, bounds[0] + 1, largest}) {
    std::size_t bytes = 0;
    ASSERT_EQ(lookback::DeviceScan::InclusiveSum(nullptr, bytes, a.get(), b.get(), n), cudaSuccess);
    const std::vector<T> in = lt::make_input<T>(n, 5 + n);
    LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    const std::vector<T> want = lt::reference_scan(in, Kind::Inclusive);
    for (const std::size_t offset : {1, 7, 64, 127, 128}) {
      SCOPED_TRACE(testing::Message() << "n = " << n << ", temp at +" << offset);
      lt::DeviceBuffer<unsigned char> temp(offset + bytes + kMargin);
      ASSERT_TRUE(temp);
      LOOKBACK_CUDA_OK(cudaMemset(temp.get(), kCanary, offset + bytes + kMargin));
      // The output over a poison of its own, so that a scan that wrote
      // nothing cannot pass on the previous offset's output.
      LOOKBACK_CUDA_OK(cudaMemset(b.get(), static_cast<int>(offset), n * sizeof(T)));
      std::size_t given = bytes;
      ASSERT_EQ(lookback::DeviceScan::InclusiveSum(temp.get() + offset, given, a.get(), b.get(), n),
                cudaSuccess)
          << lookback::last_error_message();
      std::vector<T> got(n);
      LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
      EXPECT_TRUE(lt::equal_exactly(want, got, lt::tile_items_for<Cfg, T>(n)));
      std::vector<unsigned char> around(offset + bytes + kMargin);
      LOOKBACK_CUDA_OK(
          cudaMemcpy(around.data(), temp.get(), around.size(), cudaMemcpyDeviceToHost));
      EXPECT_TRUE(std::all_of(around.begin(), around.begin() + offset, [](unsigned char c) {
        return c == kCanary;
      })) << "a byte before the temp storage changed";
      EXPECT_TRUE(std::all_of(around.begin() + offset + bytes, around.end(), [](unsigned char c) {
        return c == kCanary;
      })) << "a byte after the temp storage changed";
    }
  }
}

TEST(ScanDefault, OneQueryForTheLargestSizeServesEveryTier) {
  LOOKBACK_REQUIRE_GPU();
  using Cfg = lookback::DefaultConfig<std::uint32_t>;
  constexpr std::int64_t share = Cfg::max_small_items<std::uint32_t>();
  constexpr std::int64_t middle = Cfg::large::max_small_items<std::uint32_t>();
  static_assert(share < middle);
  constexpr std::int64_t largest = middle + 4 * share;  // past both switches
  one_query_serves_all<Cfg>(largest,
                            {largest, 1000, share, share + 1, middle, middle + 1, largest - 1});
}
TEST(ScanDefault, OneQueryJustAboveTheSwitchServesTheSmallHalf) {
  LOOKBACK_REQUIRE_GPU();
  using Cfg = lookback::DefaultConfig<std::uint32_t>;
  constexpr std::int64_t share = Cfg::max_small_items<std::uint32_t>();
  one_query_serves_all<Cfg>(share + 1, {share + 1, share, share - 1, 1000});
}
TEST(ScanDefault, OneQueryJustAboveTheMiddleSwitchServesEveryTier) {
  LOOKBACK_REQUIRE_GPU();
  using Cfg = lookback::DefaultConfig<std::uint32_t>;
  constexpr std::int64_t share = Cfg::max_small_items<std::uint32_t>();
  constexpr std::int64_t middle = Cfg::large::max_small_items<std::uint32_t>();
  one_query_serves_all<Cfg>(middle + 1, {middle + 1, middle, middle - 1, share + 1, share, 1000});
}
// 2-byte values: the small tiles' share (2^19 items, 128 tiles, 128
// descriptors) is more than 224 x 44 takes just above it (54 tiles, 64
// descriptors), so the query must cover the small tiles' whole share.
TEST(ScanDefault, OneQueryJustAboveTheSwitchServesTheSmallHalfU16) {
  LOOKBACK_REQUIRE_GPU();
  using T = std::uint16_t;
  using Cfg = lookback::DefaultConfig<T>;
  constexpr std::int64_t share = Cfg::max_small_items<T>();
  one_query_serves_all<Cfg, T>(share + 1, {share + 1, share, share - 1, 1000});
}
// 1-byte values, coarsened's tiles in the middle (up to 4 MiB; 14 MiB on
// wide GPUs): there each tier's own storage already covers the tiers below
// it (2^17 + 1 items: 9 coarsened tiles, one group of descriptors like the
// small tiles' 32; 2^22 + 1: 513 pipelined tiles against coarsened's 256),
// so this checks the plain case, one query past both middle switches.
TEST(ScanDefault, OneQueryJustAboveTheMiddleSwitchServesEveryTierU8) {
  LOOKBACK_REQUIRE_GPU();
  using T = std::uint8_t;
  using Cfg = lookback::DefaultConfig<T>;
  constexpr std::int64_t share = Cfg::max_small_items<T>();
  constexpr std::int64_t middle = Cfg::large::base::max_small_items<T>();
  constexpr std::int64_t wide_middle = Cfg::large::wide::max_small_items<T>();
  static_assert(middle < wide_middle);
  one_query_serves_all<Cfg, T>(wide_middle + 1, {wide_middle + 1, wide_middle, middle + 1, middle,
                                                 middle - 1, share + 1, share, 1000});
}
TEST(ScanDefault, OneQueryAboveTheSwitchServesTheSmallHalfWithSmallerTiles) {
  LOOKBACK_REQUIRE_GPU();
  one_query_serves_all<SmallTilesFirst>(300001, {300001, 300000, 299999, 1000});
}

// A failed CUDA call whose error the caller has not read yet is not the
// scan's: the scan (on each tier) runs and succeeds, and the caller's error
// is still pending for the caller. cudaMalloc's out-of-memory error is not
// sticky, so the context stays usable.
TEST(ScanDefault, AnEarlierFailedCallIsNotTheScans) {
  LOOKBACK_REQUIRE_GPU();
  using T = std::uint32_t;
  using Cfg = lookback::DefaultConfig<T>;
  constexpr std::int64_t share = Cfg::max_small_items<T>();
  constexpr std::int64_t middle = Cfg::large::max_small_items<T>();
  for (const std::int64_t n : {std::int64_t{1000}, share + 1, middle + 1}) {
    SCOPED_TRACE(testing::Message() << "n = " << n);
    const std::vector<T>& in = lt::cached_input<T>(n);
    const std::vector<T>& want = lt::cached_reference<T>(n, Kind::Inclusive);
    const auto count = static_cast<std::size_t>(n);
    lt::DeviceBuffer<T> d_in(count), d_out(count);
    ASSERT_TRUE(d_in && d_out);
    LOOKBACK_CUDA_OK(cudaMemcpy(d_in.get(), in.data(), count * sizeof(T), cudaMemcpyHostToDevice));
    std::size_t bytes = 0;
    ASSERT_EQ(lt::device_scan<Cfg>(nullptr, bytes, d_in.get(), d_out.get(), n, Kind::Inclusive),
              cudaSuccess);
    lt::DeviceBuffer<unsigned char> temp(bytes);
    ASSERT_TRUE(temp);
    void* too_much = nullptr;
    ASSERT_EQ(cudaMalloc(&too_much, std::size_t{1} << 60), cudaErrorMemoryAllocation);
    EXPECT_EQ(lt::device_scan<Cfg>(temp.get(), bytes, d_in.get(), d_out.get(), n, Kind::Inclusive),
              cudaSuccess)
        << lookback::last_error_message();
    EXPECT_EQ(cudaGetLastError(), cudaErrorMemoryAllocation) << "the caller's error was consumed";
    std::vector<T> got(count);
    LOOKBACK_CUDA_OK(
        cudaMemcpy(got.data(), d_out.get(), count * sizeof(T), cudaMemcpyDeviceToHost));
    EXPECT_TRUE(lt::equal_exactly(want, got, lt::tile_items_for<Cfg, T>(n)));
  }
}

}  // namespace
