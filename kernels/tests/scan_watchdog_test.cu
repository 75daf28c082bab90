// A protocol that cannot terminate (the catalogue's "tile0-aggregate"
// mutant: tile 0 never publishes a PREFIX) must end with an error, not a
// hang; the same temp storage then serves a correct scan.
#include <algorithm>

#include "scan_test_util.hpp"

namespace lt = lookback::testing;

TEST(ScanWatchdog, NonTerminatingProtocolReturnsTimeout) {
  LOOKBACK_REQUIRE_GPU();
  namespace lp = lookback::protocol;
  constexpr lp::Protocol kMutant =
      lookback::with_reset(lp::find_variant("tile0-aggregate")->protocol, lp::Reset::HostMemset);
  const std::int64_t n = 1 << 20;
  const std::vector<std::uint32_t> in = lt::make_input<std::uint32_t>(n, 3);
  lt::DeviceBuffer<std::uint32_t> a(in.size()), b(in.size());
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * 4, cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  // Coarsened throughout: the mutant runs on its tile shape, and the storage
  // is sized for it.
  ASSERT_EQ(
      lookback::DeviceScan::InclusiveSum<lookback::Coarsened>(nullptr, bytes, a.get(), b.get(), n),
      cudaSuccess);
  lt::DeviceBuffer<unsigned char> temp(bytes);
  lookback::Options options;
  options.watchdog_rounds = 20000;
  options.check_errors = true;
  const cudaError_t e = lookback::detail::scan_with_protocol<lookback::Coarsened, kMutant, false>(
      temp.get(), bytes, a.get(), b.get(), n, lookback::Sum{}, 0u, 0, options);
  EXPECT_EQ(e, cudaErrorTimeout);
  EXPECT_NE(std::string(lookback::last_error_message()).find("watchdog"), std::string::npos)
      << lookback::last_error_message();
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());  // the context is still usable

  ASSERT_EQ(lookback::DeviceScan::InclusiveSum<lookback::Coarsened>(temp.get(), bytes, a.get(),
                                                                    b.get(), n),
            cudaSuccess)
      << lookback::last_error_message();
  std::vector<std::uint32_t> got(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * 4, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(in, lt::Kind::Inclusive), got, 4096));
}

namespace {

// A launch that gives up still hands its storage over (Reset::Epoch, as in
// ScanPlan): a persistent block that gave up draws on until a ticket is past
// the last tile, so the launch's last draw happens and its drawer stores the
// next launch word (ticket 0, next epoch) with no help from the host; in a
// launch whose epoch wraps, the last block to count itself finished does.
// With the error check on, the host reports the error and zeroes the
// storage, and a correct scan follows on it.
template <class Cfg>
void gives_up_and_hands_over(std::uint32_t start_epoch) {
  namespace lp = lookback::protocol;
  namespace ld = lookback::device;
  constexpr lp::Protocol kMutant = [] {
    lp::Protocol p = Cfg::protocol;
    p.flaw = lp::Flaw::Tile0PublishesAggregate;  // tile 1 waits forever
    return p;
  }();
  static_assert(kMutant.reset == lp::Reset::Epoch);
  const std::int64_t n = lookback::detail::tile_items<Cfg, std::uint32_t>() * 3000 + 5;
  const std::vector<std::uint32_t> in = lt::make_input<std::uint32_t>(n, 5);
  lt::DeviceBuffer<std::uint32_t> a(in.size()), b(in.size());
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * 4, cudaMemcpyHostToDevice));
  auto scan = [&](auto protocol, const lookback::Options& o, std::size_t& bytes, void* temp) {
    return lookback::detail::scan_with_protocol<Cfg, decltype(protocol)::value, false>(
        temp, bytes, a.get(), b.get(), n, lookback::Sum{}, 0u, 0, o);
  };
  using Mutant = std::integral_constant<lp::Protocol, kMutant>;
  using Correct = std::integral_constant<lp::Protocol, Cfg::protocol>;
  std::size_t bytes = 0;
  ASSERT_EQ(scan(Mutant{}, {}, bytes, nullptr), cudaSuccess);
  lt::DeviceBuffer<unsigned char> temp(bytes);
  ASSERT_TRUE(temp);
  LOOKBACK_CUDA_OK(cudaMemset(temp.get(), 0, bytes));  // as ScanPlan::init
  ld::Header* header = ld::header_of(temp.get());
  const std::uint64_t start = ld::draw_word(0u, start_epoch);
  LOOKBACK_CUDA_OK(cudaMemcpy(&header->draw, &start, sizeof start, cudaMemcpyHostToDevice));
  auto read_header = [&] {
    ld::Header h{};
    EXPECT_EQ(cudaMemcpy(&h, header, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
  };

  lookback::Options options;
  options.watchdog_rounds = 20000;
  options.check_errors = false;
  ASSERT_EQ(scan(Mutant{}, options, bytes, temp.get()), cudaSuccess);
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
  ld::Header h = read_header();
  EXPECT_EQ(h.error, static_cast<std::uint32_t>(ld::DeviceError::WatchdogExpired));
  const std::uint32_t next = lp::next_epoch(start_epoch, kMutant.epoch_bits);
  EXPECT_EQ(h.draw, ld::draw_word(0u, next))
      << "ticket " << ld::draw_count(h.draw) << ", epoch " << ld::draw_epoch(h.draw);
  EXPECT_EQ(h.done, 0u);  // counted (and reset) only where the epoch wrapped

  LOOKBACK_CUDA_OK(cudaMemset(&header->error, 0, 2 * sizeof(std::uint32_t)));
  options.check_errors = true;
  EXPECT_EQ(scan(Mutant{}, options, bytes, temp.get()), cudaErrorTimeout);
  h = read_header();
  EXPECT_EQ(h.error, 0u);
  EXPECT_EQ(h.draw, 0u);  // zeroed as when created

  ASSERT_EQ(scan(Correct{}, options, bytes, temp.get()), cudaSuccess)
      << lookback::last_error_message();
  std::vector<std::uint32_t> got(in.size());
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * 4, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(in, lt::Kind::Inclusive), got, 4096));
  EXPECT_EQ(read_header().draw, ld::draw_word(0u, 1u));
}

}  // namespace

TEST(ScanWatchdog, PersistentBlocksThatGiveUpStillHandTheEpochOver) {
  LOOKBACK_REQUIRE_GPU();
  gives_up_and_hands_over<lookback::Pipelined>(0u);
}

TEST(ScanWatchdog, PersistentBlocksThatGiveUpStillWrapTheEpoch) {
  LOOKBACK_REQUIRE_GPU();
  gives_up_and_hands_over<lt::TwoBitEpoch<lookback::Pipelined>>(3u);  // 3 wraps to 0
}

TEST(ScanWatchdog, OneTileBlocksThatGiveUpStillHandTheEpochOver) {
  LOOKBACK_REQUIRE_GPU();
  gives_up_and_hands_over<lookback::WarpLookback>(0u);
}

TEST(ScanWatchdog, OneTileBlocksThatGiveUpStillWrapTheEpoch) {
  LOOKBACK_REQUIRE_GPU();
  gives_up_and_hands_over<lt::TwoBitEpoch<lookback::WarpLookback>>(3u);
}

// A plan refuses a watchdog without check_errors before it launches (an
// expiry would go unreported and its error flag stay set for a later call);
// the plan is untouched and a checked call on it then scans.
TEST(ScanWatchdog, PlanRefusesAnUncheckedWatchdog) {
  LOOKBACK_REQUIRE_GPU();
  const std::int64_t n = (1 << 20) + 3;
  const std::vector<std::uint32_t> in = lt::make_input<std::uint32_t>(n, 11);
  lt::DeviceBuffer<std::uint32_t> a(in.size()), b(in.size());
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * 4, cudaMemcpyHostToDevice));
  LOOKBACK_CUDA_OK(cudaMemset(b.get(), 0, n * 4));
  lookback::ScanPlan<std::uint32_t, lookback::Pipelined> plan;  // kernels built above
  ASSERT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  int device = -1;
  LOOKBACK_CUDA_OK(cudaGetDevice(&device));
  EXPECT_EQ(plan.device(), device);
  lookback::Options unchecked;
  unchecked.watchdog_rounds = 20000;
  unchecked.check_errors = false;
  EXPECT_EQ(plan.InclusiveSum(a.get(), b.get(), n, 0, unchecked), cudaErrorInvalidValue);
  EXPECT_NE(std::string(lookback::last_error_message()).find("needs Options::check_errors"),
            std::string::npos)
      << lookback::last_error_message();
  std::vector<std::uint32_t> got(n);
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * 4, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(std::all_of(got.begin(), got.end(), [](std::uint32_t v) { return v == 0; }))
      << "the refused call launched";
  lookback::Options checked = unchecked;
  checked.check_errors = true;
  ASSERT_EQ(plan.InclusiveSum(a.get(), b.get(), n, 0, checked), cudaSuccess)
      << lookback::last_error_message();
  LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * 4, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(
      lt::equal_exactly(lt::reference_scan(in, lt::Kind::Inclusive), got,
                        lookback::detail::tile_items<lookback::Pipelined, std::uint32_t>()));
}
