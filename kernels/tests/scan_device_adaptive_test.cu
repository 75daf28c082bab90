// Configurations picked by the GPU (lookback::DeviceAdaptive, config.hpp):
// which half the current device picks, through both APIs; both halves on any
// GPU (a threshold of 0 GB/s per SM always picks the wide half, one no GPU
// reaches always the base); the size query covering both; and the wide
// pipelined shape (PipelinedWide, 8-byte values only differ from Pipelined)
// against the CPU reference over the matrix of sizes and placements.
#include <limits>

#include "lookback/device/device_memory.hpp"
#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lt::Kind;
using lt::MatrixCase;
using lt::Placement;
using lt::Type;

namespace {

using lookback::DeviceAdaptive;
using lookback::Pipelined;
using lookback::PipelinedWide;
using AlwaysWide = DeviceAdaptive<Pipelined, PipelinedWide, 0>;
using NeverWide = DeviceAdaptive<Pipelined, PipelinedWide, std::numeric_limits<int>::max()>;

double current_gbps_per_sm() {
  int dev = 0;
  EXPECT_EQ(cudaGetDevice(&dev), cudaSuccess);
  lookback::DeviceMemory m;
  EXPECT_EQ(lookback::detail::query_device_memory(dev, m), cudaSuccess)
      << lookback::last_error_message();
  return lookback::dram_gbps_per_sm(m);
}

// A plan of Cfg picks `want_wide`, holds storage for that half only, and
// scans correctly.
template <class Cfg>
void plan_picks(bool want_wide) {
  using T = std::uint64_t;
  const std::int64_t n = 5 * lt::tile_items_for<Cfg, T>(1) + 17;
  lookback::ScanPlan<T, Cfg> plan;
  ASSERT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  EXPECT_EQ(plan.picked_wide(), want_wide);
  EXPECT_EQ(plan.wide_plan().initialised(), want_wide);
  EXPECT_EQ(plan.base_plan().initialised(), !want_wide);
  EXPECT_EQ(plan.capacity(), n);
  EXPECT_EQ(plan.bytes(), want_wide ? plan.wide_plan().bytes() : plan.base_plan().bytes());
  const std::vector<T> in = lt::make_input<T>(n, 41);
  lt::DeviceBuffer<T> a(n), b(n);
  ASSERT_TRUE(a && b);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  for (const Kind kind : {Kind::Inclusive, Kind::Exclusive}) {
    const cudaError_t e = kind == Kind::Inclusive ? plan.InclusiveSum(a.get(), b.get(), n)
                                                  : plan.ExclusiveSum(a.get(), b.get(), n);
    ASSERT_EQ(e, cudaSuccess) << lookback::last_error_message();
    std::vector<T> got(n);
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
    EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(in, kind), got, lt::tile_items_for<Cfg, T>(n)))
        << lt::name(kind);
  }
}

TEST(DeviceAdaptive, PlanPicksByTheCurrentDevice) {
  LOOKBACK_REQUIRE_GPU();
  const double gbps = current_gbps_per_sm();
  EXPECT_GT(gbps, 0.0) << "the runtime reported no memory clock or bus width";
  const bool wide = gbps >= lookback::kWideGBpsPerSm;
  std::printf("[ info ] %.1f GB/s of DRAM per SM: the default takes %s\n", gbps,
              wide ? "PipelinedWide" : "Pipelined");
  plan_picks<lookback::PipelinedByDevice>(wide);
}

TEST(DeviceAdaptive, ThresholdsForceEitherHalf) {
  LOOKBACK_REQUIRE_GPU();
  plan_picks<AlwaysWide>(true);
  plan_picks<NeverWide>(false);
}

// The stateless API: each forced half scans correctly, and a size query
// answers for the larger of the two halves' needs, whichever the device.
TEST(DeviceAdaptive, StatelessQueryCoversBothHalves) {
  LOOKBACK_REQUIRE_GPU();
  using T = double;
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{3841}, std::int64_t{1} << 20}) {
    std::size_t both = 0, base = 0, wide = 0;
    ASSERT_EQ(lt::device_scan<AlwaysWide>(nullptr, both, static_cast<const T*>(nullptr),
                                          static_cast<T*>(nullptr), n, Kind::Inclusive),
              cudaSuccess);
    ASSERT_EQ(lt::device_scan<Pipelined>(nullptr, base, static_cast<const T*>(nullptr),
                                         static_cast<T*>(nullptr), n, Kind::Inclusive),
              cudaSuccess);
    ASSERT_EQ(lt::device_scan<PipelinedWide>(nullptr, wide, static_cast<const T*>(nullptr),
                                             static_cast<T*>(nullptr), n, Kind::Inclusive),
              cudaSuccess);
    EXPECT_EQ(both, std::max(base, wide)) << "n = " << n;
  }
  for (const Kind kind : {Kind::Inclusive, Kind::Exclusive})
    for (const Placement p : {Placement::OutOfPlace, Placement::Offset2InPlace}) {
      SCOPED_TRACE(testing::Message() << lt::name(kind) << ", placement " << lt::name(p));
      lt::run_matrix_case<AlwaysWide, T>((1 << 20) + 3, kind, p);
      lt::run_matrix_case<NeverWide, T>((1 << 20) + 3, kind, p);
    }
}

// PipelinedWide's 8-byte kernels over the scan matrix (its 4-byte shapes
// are Pipelined's, which scan_pipelined_test covers).
std::vector<MatrixCase> wide_cases() {
  std::vector<MatrixCase> cases;
  for (const MatrixCase& c : lt::matrix_cases<PipelinedWide>())
    if (c.type == Type::I64 || c.type == Type::U64 || c.type == Type::F64) cases.push_back(c);
  return cases;
}

class PipelinedWideScan : public ::testing::TestWithParam<MatrixCase> {};

TEST_P(PipelinedWideScan, MatchesReference) {
  LOOKBACK_REQUIRE_GPU();
  const MatrixCase& c = GetParam();
  switch (c.type) {
    case Type::I64:
      return lt::run_matrix_case<PipelinedWide, std::int64_t>(c.n, c.kind, c.placement);
    case Type::U64:
      return lt::run_matrix_case<PipelinedWide, std::uint64_t>(c.n, c.kind, c.placement);
    case Type::F64:
      return lt::run_matrix_case<PipelinedWide, double>(c.n, c.kind, c.placement);
    default:
      FAIL() << "not an 8-byte case: " << lt::name(c.type);
  }
}

INSTANTIATE_TEST_SUITE_P(Matrix, PipelinedWideScan, ::testing::ValuesIn(wide_cases()),
                         lt::case_name);

}  // namespace
