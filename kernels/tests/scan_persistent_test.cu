// Persistent two-tile blocks (the pipelined variant, protocol::persistent):
// the grid is what the device holds at once, sizes around that grid, many
// launches of changing grid sizes on one plan (the finished counter counts
// blocks, so each launch must leave the ticket at 0), and a stale ticket
// reported as an error instead of a silent skip.
#include <cstddef>

#include "resident_blocks.hpp"
#include "scan_test_util.hpp"

namespace lt = lookback::testing;
namespace lp = lookback::protocol;

namespace {

using Cfg = lookback::Pipelined;
constexpr std::int64_t kTile = lookback::detail::tile_items<Cfg, std::uint32_t>();

static_assert(lp::persistent(Cfg::protocol), "the pipelined variant runs persistent blocks");
static_assert(!lp::persistent(lookback::Coarsened::protocol));
static_assert(!lp::persistent(lookback::WarpLookback::protocol));

// (A template on the protocol: resident_blocks.hpp says why.)
template <class C, lp::Protocol P>
int occupancy() {
  using A = lookback::detail::agent_t<C, P, false, lookback::device::Access::Vector, std::uint32_t,
                                      lookback::Sum>;
  int per_sm = 0;
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lookback::device::scan_kernel<A>,
                                                          A::kThreads, 0),
            cudaSuccess);
  return per_sm;
}

std::uint32_t resident_pipelined() {
  return lt::resident_blocks<Cfg, Cfg::protocol>();
}
int occupancy_pipelined() {
  return occupancy<Cfg, Cfg::protocol>();
}

// One inclusive or exclusive u32 sum of n items on `plan`, checked.
void check_plan_scan(lookback::ScanPlan<std::uint32_t, Cfg>& plan, std::int64_t n, lt::Kind kind,
                     std::uint64_t seed) {
  const std::vector<std::uint32_t> in = lt::make_input<std::uint32_t>(n, seed);
  lt::DeviceBuffer<std::uint32_t> a(in.size()), b(in.size());
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * 4, cudaMemcpyHostToDevice));
  const cudaError_t e = kind == lt::Kind::Inclusive ? plan.InclusiveSum(a.get(), b.get(), n)
                                                    : plan.ExclusiveSum(a.get(), b.get(), n);
  ASSERT_EQ(e, cudaSuccess) << lookback::last_error_message();
  std::vector<std::uint32_t> got(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * 4, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(in, kind), got, kTile)) << "n = " << n;
}

// The count the launch clamps a persistent grid to is the occupancy API's
// blocks per SM times the SMs, asked once per device and then cached. (That
// a launch runs that many blocks, no fewer, is observed from the kernel's own
// block ids: scan_trace_test, PipelinedGridIsTheResidentBlocks.)
TEST(ScanPersistent, GridIsWhatTheDeviceHoldsAtOnce) {
  LOOKBACK_REQUIRE_GPU();
  const int sms = lt::device_sms();
  const int per_sm = occupancy_pipelined();
  EXPECT_GE(per_sm, 1);
  EXPECT_EQ(resident_pipelined(), static_cast<std::uint32_t>(sms * per_sm));
  EXPECT_EQ(resident_pipelined(),
            static_cast<std::uint32_t>(sms * per_sm));  // cached, same answer
}

// Fewer tiles than the grid (one block per tile), exactly the grid, and
// many tiles per block; partial last tiles.
TEST(ScanPersistent, SizesAroundTheGrid) {
  LOOKBACK_REQUIRE_GPU();
  const std::int64_t grid = resident_pipelined();
  ASSERT_GT(grid, 1);
  lookback::ScanPlan<std::uint32_t, Cfg> plan;
  ASSERT_EQ(plan.init(kTile * (8 * grid + 3)), cudaSuccess) << lookback::last_error_message();
  std::uint64_t seed = 1;
  for (std::int64_t tiles :
       {std::int64_t{1}, std::int64_t{2}, grid - 1, grid, grid + 1, 2 * grid + 1, 8 * grid + 3}) {
    for (std::int64_t cut : {std::int64_t{0}, kTile / 2 + 1}) {
      const std::int64_t n = std::max<std::int64_t>(1, tiles * kTile - cut);
      check_plan_scan(plan, n, lt::Kind::Inclusive, seed++);
      check_plan_scan(plan, n, lt::Kind::Exclusive, seed++);
    }
  }
}

// Each launch's last drawer (one draw per tile and one past the last tile
// per block) resets the ticket for the next one; grids of different sizes
// follow each other on one plan.
TEST(ScanPersistent, ManyLaunchesOfChangingGridsOnOnePlan) {
  LOOKBACK_REQUIRE_GPU();
  const std::int64_t grid = resident_pipelined();
  lookback::ScanPlan<std::uint32_t, Cfg> plan;
  ASSERT_EQ(plan.init(kTile * (3 * grid)), cudaSuccess) << lookback::last_error_message();
  const std::int64_t sizes[] = {kTile * 3 * grid, 5, kTile * grid / 2 + 7, kTile * 2 * grid - 1,
                                kTile + 1};
  for (int round = 0; round < 40; ++round)
    check_plan_scan(plan, sizes[round % 5], round % 2 ? lt::Kind::Exclusive : lt::Kind::Inclusive,
                    100 + round);
}

// A ticket left at a stale value is reported (cudaErrorIllegalState, the
// message says why), never a silent partial scan or a hang, for persistent
// blocks and for one block per tile; the same storage then scans correctly.
template <class C>
void stale_ticket_is_reported() {
  constexpr lp::Protocol kP = C::protocol;  // Reset::Epoch, as in ScanPlan
  const std::int64_t n = kTile * 40 + 3;
  const std::vector<std::uint32_t> in = lt::make_input<std::uint32_t>(n, 7);
  lt::DeviceBuffer<std::uint32_t> a(in.size()), b(in.size());
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * 4, cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  ASSERT_EQ((lookback::detail::scan_with_protocol<C, kP, false>(nullptr, bytes, a.get(), b.get(), n,
                                                                lookback::Sum{}, 0u, 0, {})),
            cudaSuccess);
  lt::DeviceBuffer<unsigned char> temp(bytes);
  ASSERT_TRUE(temp);
  LOOKBACK_CUDA_OK(cudaMemset(temp.get(), 0, bytes));
  // The launch word with a stale ticket (its low half) in epoch 0.
  const std::uint64_t stale = lookback::device::draw_word(1u << 30, 0u);
  auto* header = lookback::device::header_of(temp.get());
  LOOKBACK_CUDA_OK(cudaMemcpy(&header->draw, &stale, sizeof stale, cudaMemcpyHostToDevice));
  lookback::Options options;
  options.watchdog_rounds = 20000;
  options.check_errors = true;
  const cudaError_t e = lookback::detail::scan_with_protocol<C, kP, false>(
      temp.get(), bytes, a.get(), b.get(), n, lookback::Sum{}, 0u, 0, options);
  EXPECT_EQ(e, cudaErrorIllegalState) << lookback::last_error_message();
  EXPECT_NE(std::string(lookback::last_error_message()).find("the ticket was not reset"),
            std::string::npos)
      << lookback::last_error_message();
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());

  // The checked scan reported the error and zeroed the storage (the stale
  // ticket is never handed over by the kernels themselves).
  LOOKBACK_CUDA_OK((lookback::detail::scan_with_protocol<C, kP, false>(
      temp.get(), bytes, a.get(), b.get(), n, lookback::Sum{}, 0u, 0, options)));
  std::vector<std::uint32_t> got(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * 4, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(in, lt::Kind::Inclusive), got, kTile));
}

TEST(ScanPersistent, StaleTicketIsReportedPersistent) {
  LOOKBACK_REQUIRE_GPU();
  stale_ticket_is_reported<lookback::Pipelined>();
}

TEST(ScanPersistent, StaleTicketIsReportedOneTilePerBlock) {
  LOOKBACK_REQUIRE_GPU();
  stale_ticket_is_reported<lookback::WarpLookback>();
}

}  // namespace
