// More than 2^31 items (uint32, inclusive, in place) through every variant:
// 64-bit indexing, no truncation; 131k to 262k tiles with the default
// policies, and more than 2^19 with warp-lookback on CUB's 128 x 24 tiles
// (its policy until 2026-11-26).
#include <algorithm>

#include "scan_test_util.hpp"

namespace lt = lookback::testing;

namespace {
using SmallTileWarpLookback =
    lookback::ScanConfig<lookback::Variant::WarpLookback,
                         lookback::TilePolicy<128, 96, 6, 3000, 0, false, 1024>>;
static_assert(lookback::policy_tile_items<SmallTileWarpLookback::policy, std::uint32_t>() == 3072);

template <class Cfg>
void scan_and_compare(std::uint32_t* d, const std::vector<std::uint32_t>& in,
                      const std::vector<std::uint32_t>& want, const char* variant) {
  const std::int64_t n = static_cast<std::int64_t>(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(d, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  ASSERT_EQ(lookback::DeviceScan::InclusiveSum<Cfg>(nullptr, bytes, d, d, n), cudaSuccess);
  lt::DeviceBuffer<unsigned char> temp(bytes);
  ASSERT_TRUE(temp);
  ASSERT_EQ(lookback::DeviceScan::InclusiveSum<Cfg>(temp.get(), bytes, d, d, n), cudaSuccess)
      << lookback::last_error_message();
  std::vector<std::uint32_t> got(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), d, in.size() * 4, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lt::equal_exactly(want, got, lookback::detail::tile_items<Cfg, std::uint32_t>()))
      << variant;
}
}  // namespace

TEST(ScanGiant, U32InclusiveInPlaceBeyond2To31) {
  LOOKBACK_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t{1} << 31) + 17;
  std::size_t free_bytes = 0, total = 0;
  LOOKBACK_CUDA_OK(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < static_cast<std::size_t>(n) * 4 + (std::size_t{1} << 30))
    GTEST_SKIP() << "needs " << n * 4 / (1 << 20) << " MiB of device memory";
  std::vector<std::uint32_t> in(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    in[i] = static_cast<std::uint32_t>(i) * 0x9E3779B1u + static_cast<std::uint32_t>(i >> 9);
  const std::vector<std::uint32_t> want =
      lookback::reference::inclusive_scan(std::span<const std::uint32_t>(in), lookback::Sum{});
  lt::DeviceBuffer<std::uint32_t> buffer(in.size());
  ASSERT_TRUE(buffer);
  scan_and_compare<lookback::Coarsened>(buffer.get(), in, want, "coarsened");
  scan_and_compare<lookback::Fallback>(buffer.get(), in, want, "fallback");
  scan_and_compare<lookback::Pipelined>(buffer.get(), in, want, "pipelined");
  scan_and_compare<lookback::WarpLookback>(buffer.get(), in, want, "warp-lookback");
  scan_and_compare<SmallTileWarpLookback>(buffer.get(), in, want, "warp-lookback, 699k tiles");
}
