// Configurations picked by the GPU (lookback::DeviceAdaptive, config.hpp):
// which half the current device picks, through both APIs; both halves on any
// GPU (a threshold of 0 GB/s per SM always picks the wide half, one no GPU
// reaches always the base); the size query covering both; the default's
// 8-byte large half, whose wide half is itself picked by size, on either
// side of that switch; and the wide pipelined shape (PipelinedWide, 8-byte
// values only differ from Pipelined) against the CPU reference: the matrix
// of sizes and placements, the deterministic mode, and a plan's epoch
// wrapping.
#include <limits>
#include <string>

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
// Halves whose wide one has the smaller tiles (more storage): a query that
// answered for the base half only would come out short.
using WideNeedsMore = DeviceAdaptive<PipelinedWide, Pipelined, 0>;

// What the library compares (rounded to hundredths, cached), checked
// against the runtime's figures.
double current_gbps_per_sm() {
  int dev = 0;
  EXPECT_EQ(cudaGetDevice(&dev), cudaSuccess);
  lookback::DeviceMemory m;
  EXPECT_EQ(lookback::detail::query_device_memory(dev, m), cudaSuccess)
      << lookback::last_error_message();
  double gbps = -1.0;
  EXPECT_EQ(lookback::detail::current_dram_gbps_per_sm(gbps), cudaSuccess)
      << lookback::last_error_message();
  EXPECT_NEAR(gbps, lookback::dram_gbps_per_sm(m), 0.005);
  return gbps;
}

template <class Cfg, class T>
std::size_t query(std::int64_t n) {
  std::size_t bytes = 0;
  EXPECT_EQ(lt::device_scan<Cfg>(nullptr, bytes, static_cast<const T*>(nullptr),
                                 static_cast<T*>(nullptr), n, Kind::Inclusive),
            cudaSuccess)
      << lookback::last_error_message();
  return bytes;
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
  using Default = lookback::PipelinedByDevice<std::uint64_t>;
  const bool wide = Default::picks_wide(gbps);
  std::printf("[ info ] %.1f GB/s of DRAM per SM: the default takes %s\n", gbps,
              wide ? "Pipelined, PipelinedWide above its size switch" : "Pipelined");
  plan_picks<Default>(wide);
}

// Not from the library's own reading of the runtime: GPUs recognised by
// name, against their data sheets' DRAM bandwidth (within 10%; a misread
// clock or bus width is off by far more) and the half the default must pick
// on each (device_memory_test has the same GPUs' figures on the CPU). Longer
// names first: "H100 PCIe" before "H100"; a GH200 (a name holding "H200",
// with HBM3 or HBM3e) is not one of them.
TEST(DeviceAdaptive, KnownGpusReportTheirDataSheetsBandwidth) {
  LOOKBACK_REQUIRE_GPU();
  int dev = 0;
  LOOKBACK_CUDA_OK(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  LOOKBACK_CUDA_OK(cudaGetDeviceProperties(&prop, dev));
  const std::string name = prop.name;
  struct Known {
    const char* name;
    double tb_per_s;
    bool wide;
  };
  constexpr Known kKnown[] = {{"H100 PCIe", 2.0, false},
                              {"H100 NVL", 3.9, false},
                              {"H200", 4.8, true},
                              {"H100", 3.35, false}};
  const Known* known = nullptr;
  for (const Known& k : kKnown)
    if (!known && name.find(k.name) != std::string::npos) known = &k;
  if (!known || name.find("GH200") != std::string::npos)
    GTEST_SKIP() << name << ": no data-sheet figures for this GPU here";
  const double gbps = current_gbps_per_sm();
  const double tb_per_s = gbps * prop.multiProcessorCount / 1000.0;
  EXPECT_NEAR(tb_per_s, known->tb_per_s, 0.1 * known->tb_per_s) << name;
  EXPECT_EQ(lookback::PipelinedByDevice<std::uint64_t>::picks_wide(gbps), known->wide) << name;
}

TEST(DeviceAdaptive, ThresholdsForceEitherHalf) {
  LOOKBACK_REQUIRE_GPU();
  plan_picks<AlwaysWide>(true);
  plan_picks<NeverWide>(false);
}

// The stateless API: a size query answers for the larger of the two
// halves' needs whichever half the device picks; a call runs the half its
// threshold picks (told apart by storage that only the wide half's smaller
// need fits); each forced half scans correctly.
TEST(DeviceAdaptive, StatelessQueryCoversBothHalves) {
  LOOKBACK_REQUIRE_GPU();
  using T = double;
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{3841}, std::int64_t{1} << 20}) {
    const std::size_t base = query<Pipelined, T>(n), wide = query<PipelinedWide, T>(n);
    EXPECT_EQ((query<AlwaysWide, T>(n)), std::max(base, wide)) << "n = " << n;
    EXPECT_EQ((query<NeverWide, T>(n)), std::max(base, wide)) << "n = " << n;
    EXPECT_EQ((query<WideNeedsMore, T>(n)), std::max(base, wide)) << "n = " << n;
  }
  // 2^20 items: 342 tiles of 3072 (352 descriptors) against 274 of 3840 (288).
  const std::int64_t n = std::int64_t{1} << 20;
  std::size_t wide_only = query<PipelinedWide, T>(n);
  ASSERT_LT(wide_only, (query<Pipelined, T>(n)));
  lt::DeviceBuffer<T> a(n), b(n);
  lt::DeviceBuffer<unsigned char> temp(wide_only);
  ASSERT_TRUE(a && b && temp);
  EXPECT_EQ(
      lt::device_scan<AlwaysWide>(temp.get(), wide_only, a.get(), b.get(), n, Kind::Inclusive),
      cudaSuccess)
      << lookback::last_error_message();
  EXPECT_EQ(lt::device_scan<NeverWide>(temp.get(), wide_only, a.get(), b.get(), n, Kind::Inclusive),
            cudaErrorInvalidValue);
  EXPECT_NE(std::string(lookback::last_error_message()).find("temp storage too small"),
            std::string::npos)
      << lookback::last_error_message();
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
  for (const Kind kind : {Kind::Inclusive, Kind::Exclusive})
    for (const Placement p : {Placement::OutOfPlace, Placement::Offset2InPlace}) {
      SCOPED_TRACE(testing::Message() << lt::name(kind) << ", placement " << lt::name(p));
      lt::run_matrix_case<AlwaysWide, T>((1 << 20) + 3, kind, p);
      lt::run_matrix_case<NeverWide, T>((1 << 20) + 3, kind, p);
    }
}

// The default's 8-byte large half (PipelinedByDevice<T>) on a wide GPU runs
// Pipelined up to its switch (26 MiB of f64, 96 MiB of u64) and
// PipelinedWide above. The stateless API on the current device, told apart
// by storage that only PipelinedWide's smaller need fits (the wide shape runs
// on a wide GPU above the switch only), and on any GPU its wide half forced
// by a threshold of 0; a plan of the forced copy holds PipelinedWide's storage
// only past the switch. Every scan checked against the CPU reference.
template <class T>
void wide_half_switches_by_size() {
  using Default = lookback::PipelinedByDevice<T>;
  using ForcedWide = DeviceAdaptive<Pipelined, typename Default::wide, 0>;
  const std::int64_t share = Default::wide::template max_small_items<T>();
  const bool wide_here = Default::picks_wide(current_gbps_per_sm());
  lt::DeviceBuffer<T> a(share + 1), b(share + 1);
  ASSERT_TRUE(a && b);
  const std::vector<T> in = lt::make_input<T>(share + 1, 43);
  LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), (share + 1) * sizeof(T), cudaMemcpyHostToDevice));
  // The CPU reference is sequential, so the scan of in[0..n) is the first n
  // items of the scan of all of in: one reference serves every n.
  const std::vector<T> want_all = lt::reference_scan(in, Kind::Inclusive);
  // Every scan below writes b over a fresh poison (a byte of its own), so a
  // scan that writes nothing cannot pass on an earlier scan's output.
  unsigned char poison = 0x5a;
  const auto repoison = [&] {
    poison = static_cast<unsigned char>(poison + 0x31);
    LOOKBACK_CUDA_OK(cudaMemset(b.get(), poison, (share + 1) * sizeof(T)));
  };
  repoison();
  const auto check = [&](std::int64_t n, std::int64_t tile_items, const char* what) {
    std::vector<T> got(n);
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), b.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
    const std::vector<T> want(want_all.begin(), want_all.begin() + n);
    EXPECT_TRUE(lt::equal_exactly(want, got, tile_items)) << what << ", n = " << n;
    repoison();
  };
  for (const std::int64_t n : {share, share + 1}) {
    SCOPED_TRACE(testing::Message() << "n = " << n << " (switch at " << share << " items)");
    std::size_t wide_only = query<PipelinedWide, T>(n);
    ASSERT_LT(wide_only, (query<Pipelined, T>(n)));
    lt::DeviceBuffer<unsigned char> temp(wide_only);
    ASSERT_TRUE(temp);
    const bool wide_runs = n > share;
    const cudaError_t forced =
        lt::device_scan<ForcedWide>(temp.get(), wide_only, a.get(), b.get(), n, Kind::Inclusive);
    if (wide_runs) {
      EXPECT_EQ(forced, cudaSuccess) << lookback::last_error_message();
      check(n, lt::tile_items_for<ForcedWide, T>(n), "forced wide");
    } else {
      EXPECT_EQ(forced, cudaErrorInvalidValue);
      EXPECT_NE(std::string(lookback::last_error_message()).find("temp storage too small"),
                std::string::npos)
          << lookback::last_error_message();
    }
    const cudaError_t here =
        lt::device_scan<Default>(temp.get(), wide_only, a.get(), b.get(), n, Kind::Inclusive);
    EXPECT_EQ(here, wide_here && wide_runs ? cudaSuccess : cudaErrorInvalidValue)
        << lookback::last_error_message();
    if (here == cudaSuccess) check(n, lt::tile_items_for<Default, T>(n), "this GPU");
    // Storage the query gives serves either half on every GPU.
    std::size_t bytes = query<Default, T>(n);
    EXPECT_EQ(bytes, (query<Pipelined, T>(n)));
    lt::DeviceBuffer<unsigned char> full(bytes);
    ASSERT_TRUE(full);
    for (const bool force : {false, true}) {
      const cudaError_t e =
          force
              ? lt::device_scan<ForcedWide>(full.get(), bytes, a.get(), b.get(), n, Kind::Inclusive)
              : lt::device_scan<Default>(full.get(), bytes, a.get(), b.get(), n, Kind::Inclusive);
      ASSERT_EQ(e, cudaSuccess) << lookback::last_error_message();
      check(n, force ? lt::tile_items_for<ForcedWide, T>(n) : lt::tile_items_for<Default, T>(n),
            force ? "forced wide, queried storage" : "this GPU, queried storage");
    }
    lookback::ScanPlan<T, ForcedWide> plan;
    ASSERT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
    ASSERT_TRUE(plan.picked_wide());
    EXPECT_TRUE(plan.wide_plan().small_plan().initialised());
    EXPECT_EQ(plan.wide_plan().large_plan().initialised(), wide_runs);
    for (const std::int64_t m : {n, std::int64_t{3 * 3840 + 1}}) {
      ASSERT_EQ(plan.InclusiveSum(a.get(), b.get(), m), cudaSuccess)
          << lookback::last_error_message();
      check(m, lt::tile_items_for<ForcedWide, T>(m), "forced wide plan");
    }
  }
}

TEST(DeviceAdaptive, DefaultWideHalfSwitchesBySizeF64) {
  LOOKBACK_REQUIRE_GPU();
  wide_half_switches_by_size<double>();
}
TEST(DeviceAdaptive, DefaultWideHalfSwitchesBySizeU64) {
  LOOKBACK_REQUIRE_GPU();
  wide_half_switches_by_size<std::uint64_t>();
}

// The deterministic mode and the instrumented kernels of the wide shape
// (Deterministic<DefaultConfig<double>> runs them on a wide GPU above 16
// MiB), and a plan whose 2-bit epoch wraps every 4 launches, in place and
// misaligned too.
TEST(DeviceAdaptive, WideShapeDeterministicInstrumentedAndEpochWraps) {
  LOOKBACK_REQUIRE_GPU();
  using Det = lookback::Deterministic<PipelinedWide>;
  using Ins = lookback::Instrumented<PipelinedWide>;
  for (const std::int64_t n :
       {std::int64_t{3839}, std::int64_t{3 * 3840 + 5}, std::int64_t{1} << 20})
    for (const Kind kind : {Kind::Inclusive, Kind::Exclusive}) {
      SCOPED_TRACE(testing::Message() << "n = " << n << ", " << lt::name(kind));
      lt::run_matrix_case<Det, double>(n, kind, Placement::Offset3Mixed);
      lt::run_matrix_case<Ins, std::uint64_t>(n, kind, Placement::Offset2InPlace);
    }
  using T = std::uint64_t;
  using Cfg = lt::TwoBitEpoch<PipelinedWide>;
  const std::int64_t cap = 4 * 3840 + 100;
  lookback::ScanPlan<T, Cfg> plan;
  ASSERT_EQ(plan.init(cap), cudaSuccess) << lookback::last_error_message();
  lt::DeviceBuffer<T> a(cap + 1), b(cap + 1);
  ASSERT_TRUE(a && b);
  for (int launch = 0; launch < 10; ++launch) {
    const std::int64_t n = launch % 3 == 0 ? cap : 3840 * (launch % 4) + 7;
    const Kind kind = launch % 2 ? Kind::Exclusive : Kind::Inclusive;
    const bool in_place = launch % 4 >= 2;
    T* in = a.get() + (launch % 3 == 1 ? 1 : 0);
    T* out = in_place ? in : b.get();
    const std::vector<T> x = lt::make_input<T>(n, 500 + launch);
    LOOKBACK_CUDA_OK(cudaMemcpy(in, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    ASSERT_EQ(lt::plan_scan(plan, in, out, n, kind), cudaSuccess)
        << "launch " << launch << ": " << lookback::last_error_message();
    std::vector<T> got(n);
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    EXPECT_TRUE(lt::equal_exactly(lt::reference_scan(x, kind), got, 3840)) << "launch " << launch;
  }
}

// PipelinedWide's 8-byte kernels over the scan matrix (its 4-byte shapes
// are Pipelined's, which scan_pipelined_test covers). Affine maps are 8
// bytes with 4-byte alignment, and their operator does not commute.
std::vector<MatrixCase> wide_cases() {
  static_assert(sizeof(lookback::Affine) == 8);
  std::vector<MatrixCase> cases;
  for (const MatrixCase& c : lt::matrix_cases<PipelinedWide>())
    if (c.type == Type::I64 || c.type == Type::U64 || c.type == Type::F64 || c.type == Type::Affine)
      cases.push_back(c);
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
    case Type::Affine:
      return lt::run_matrix_case<PipelinedWide, lookback::Affine>(c.n, c.kind, c.placement);
    default:
      FAIL() << "not an 8-byte case: " << lt::name(c.type);
  }
}

INSTANTIATE_TEST_SUITE_P(Matrix, PipelinedWideScan, ::testing::ValuesIn(wide_cases()),
                         lt::case_name);

}  // namespace
