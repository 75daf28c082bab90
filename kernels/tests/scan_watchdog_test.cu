// A protocol that cannot terminate (the catalogue's "tile0-aggregate"
// mutant: tile 0 never publishes a PREFIX) must end with an error, not a
// hang; the same temp storage then serves a correct scan.
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
  EXPECT_EQ(e, cudaErrorLaunchTimeout);
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
