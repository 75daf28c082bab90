// GPU properties (label gpu): lookback::DeviceScan and lookback::ScanPlan
// against the CPU reference (lookback::reference) for random cases: variant
// (warp-lookback, coarsened, fallback; deterministic mode), value type (u32,
// i32, u64, i64, f32, f64, Affine), operator (sum, max, min, xor where the
// type has it; ComposeAffine), inclusive / exclusive with a random init,
// size (biased to 0, 1, tile boundaries +-1, powers of two +-1; up to 2^24,
// or LOOKBACK_PROP_MAX_N), pointer misalignment 0..3 elements (input and
// output separately), in place or not, tuning (tile policy; injected tile
// stalls; vector accesses on or off), entry point. Every output element is checked: exactly for
// integers, Affine, max/min and integer-valued float sums; within the bound
// documented in gpu_scan_runner.cuh for real-valued float sums; bitwise
// across 3 runs in deterministic mode. Guard elements around the output (and
// the input, out of place) must keep their poison.
//
// Run (on a machine with a GPU; without one every GPU property skips):
//   build/gpu/proptests/gpu_scan_properties --gtest_brief=1
// Each property checks RapidCheck's max_success cases (default 100; printed
// with the time): RC_PARAMS="max_success=1000" for more. Larger sizes:
//   LOOKBACK_PROP_MAX_N=2^28 build/gpu/proptests/gpu_scan_properties
//
// Replaying a failure. RapidCheck prints the seed at start ("Using
// configuration: seed=...") and, for a failing property, the shrunk
// counterexample as a one-line case and a reproduce string:
//   RC_PARAMS="reproduce=<string>" build/gpu/proptests/gpu_scan_properties
//       --gtest_filter='GpuScanProperties.<Name>'      (one command line)
// reruns exactly that counterexample (same LOOKBACK_PROP_MAX_N needed), and
//   RC_PARAMS="seed=<seed>" build/gpu/proptests/gpu_scan_properties
// reruns the whole random sequence. The one-line case runs on its own with
//   LOOKBACK_PROP_CASE="variant=fallback det=0 ... seed=12"
//       build/gpu/proptests/gpu_scan_properties --gtest_filter='*Replay*'
// (a fresh process: plans start at epoch 0, unlike inside a run).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpu_scan_case.hpp"
#include "gpu_scan_gen.hpp"
#include "gpu_scan_runner.hpp"
#include "gpu_test_util.hpp"  // kernels/tests
#include "rapidcheck/detail/Configuration.h"

namespace {

namespace lp = lookback::proptest;
using lp::ScanCase;

// Checks `gen`'s cases on the GPU under RapidCheck and prints what ran.
void check_on_gpu(const std::string& property, const rc::Gen<ScanCase>& gen) {
  const lp::RunTotals before = lp::run_totals();
  const auto start = std::chrono::steady_clock::now();
  const bool ok = rc::check(property, [gen] {
    const ScanCase c = *gen;
    RC_TAG(std::string(lp::name(c.variant)) + (c.deterministic ? " det" : ""));
    const std::string failure = lp::run_case(c);
    if (!failure.empty()) RC_FAIL(failure);
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const lp::RunTotals after = lp::run_totals();
  std::printf(
      "[ gpu-props ] %s: max_success=%d, %lld cases run (with shrinking), %lld scans, %lld items, "
      "max n %lld, %.2f s\n",
      property.c_str(), rc::detail::configuration().testParams.maxSuccess,
      static_cast<long long>(after.cases - before.cases),
      static_cast<long long>(after.scans - before.scans),
      static_cast<long long>(after.items - before.items),
      static_cast<long long>(lp::prop_max_items()), seconds);
  std::fflush(stdout);
  EXPECT_TRUE(ok) << "the shrunk case and RC_PARAMS=\"reproduce=...\" are printed above (stderr)";
}

}  // namespace

TEST(GpuScanProperties, AnyConfigMatchesReference) {
  LOOKBACK_REQUIRE_GPU();
  check_on_gpu("GpuScanProperties/AnyConfigMatchesReference", lp::gen::scan_case());
}

TEST(GpuScanProperties, CoarsenedMatchesReference) {
  LOOKBACK_REQUIRE_GPU();
  lp::gen::CaseSpace space;
  space.variant = lp::VariantKind::Coarsened;
  check_on_gpu("GpuScanProperties/CoarsenedMatchesReference", lp::gen::scan_case(space));
}

TEST(GpuScanProperties, WarpLookbackMatchesReference) {
  LOOKBACK_REQUIRE_GPU();
  lp::gen::CaseSpace space;
  space.variant = lp::VariantKind::WarpLookback;
  check_on_gpu("GpuScanProperties/WarpLookbackMatchesReference", lp::gen::scan_case(space));
}

TEST(GpuScanProperties, FallbackMatchesReference) {
  LOOKBACK_REQUIRE_GPU();
  lp::gen::CaseSpace space;
  space.variant = lp::VariantKind::Fallback;
  check_on_gpu("GpuScanProperties/FallbackMatchesReference", lp::gen::scan_case(space));
}

// Deterministic mode: every variant, mostly real-valued float sums, each
// case run 3 times and compared bit for bit (and with the reference).
TEST(GpuScanProperties, DeterministicMatchesReferenceAndRepeatsBitwise) {
  LOOKBACK_REQUIRE_GPU();
  lp::gen::CaseSpace space;
  space.deterministic = true;
  space.types = {{lp::ValueType::F32, 4},
                 {lp::ValueType::F64, 4},
                 {lp::ValueType::U32, 1},
                 {lp::ValueType::I64, 1},
                 {lp::ValueType::Affine, 1}};
  space.values_weights = {1, 1, 6};
  check_on_gpu("GpuScanProperties/DeterministicMatchesReferenceAndRepeatsBitwise",
               lp::gen::scan_case(space));
}

// One case given on the command line (LOOKBACK_PROP_CASE); passes without
// doing anything when the variable is unset.
TEST(GpuScanProperties, Replay) {
  const char* line = std::getenv("LOOKBACK_PROP_CASE");
  if (line == nullptr || *line == '\0') return;
  LOOKBACK_REQUIRE_GPU();
  std::string error;
  const auto c = lp::parse_case(line, &error);
  ASSERT_TRUE(c.has_value()) << "LOOKBACK_PROP_CASE: " << error;
  std::printf("[ gpu-props ] replaying %s\n", lp::to_string(*c).c_str());
  const std::string failure = lp::run_case(*c);
  EXPECT_TRUE(failure.empty()) << lp::to_string(*c) << "\n" << failure;
}

// --- The generators themselves (CPU only: they run everywhere) ------------

// Every generated case is one the binary compiled, its size is in range,
// and its one-line form parses back to the same case.
TEST(GpuScanGenerators, CasesAreCompiledAndPrintAsReproducers) {
  const std::int64_t max_n = lp::prop_max_items();
  EXPECT_TRUE(rc::check("GpuScanGenerators/CasesAreCompiledAndPrintAsReproducers", [max_n] {
    const ScanCase c = *lp::gen::scan_case();
    RC_ASSERT(lp::compiled(c));
    RC_ASSERT(c.n >= 0);
    RC_ASSERT(c.n <= max_n);
    RC_ASSERT(c.misalign_in >= 0 && c.misalign_in < 4);
    RC_ASSERT(c.misalign_out >= 0 && c.misalign_out < 4);
    std::string error;
    const auto back = lp::parse_case(lp::to_string(c), &error);
    RC_ASSERT(back.has_value());
    RC_ASSERT(*back == c);
  }));
}

namespace {
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};
}  // namespace

// A failure that needs an exclusive scan of more than 5000 8-byte values
// shrinks to the simplest such case: every other field at its default and
// the size to at most two u64 tiles of the default configuration.
TEST(GpuScanGenerators, ShrinkToTheSimplestFailingCase) {
  rc::detail::TestMetadata metadata;
  metadata.id = "GpuScanGenerators/ShrinkToTheSimplestFailingCase";
  rc::detail::TestParams params;
  params.seed = 12345;
  params.maxSuccess = 1000;
  QuietListener quiet;
  const auto result = rc::detail::checkProperty(
      rc::detail::toProperty([] {
        lp::gen::CaseSpace space;
        space.max_n = std::int64_t{1} << 24;
        const ScanCase c = *lp::gen::scan_case(space);
        RC_ASSERT(!(c.n > 5000 && lp::size_of(c.type) == 8 && c.exclusive));
      }),
      metadata, params, quiet);
  ASSERT_TRUE(result.is<rc::detail::FailureResult>()) << "no failing case was generated";
  const auto failure = result.get<rc::detail::FailureResult>();
  ASSERT_EQ(failure.counterExample.size(), 1u);
  const std::string shown = failure.counterExample[0].second;
  std::string error;
  const auto c = lp::parse_case(shown, &error);
  ASSERT_TRUE(c.has_value()) << shown << ": " << error;
  std::printf("[ gpu-props ] shrunk to: %s\n", shown.c_str());
  EXPECT_EQ(lp::size_of(c->type), 8) << shown;
  EXPECT_TRUE(c->exclusive) << shown;
  EXPECT_GT(c->n, 5000) << shown;
  EXPECT_LE(c->n, 8192) << shown;
  ScanCase simplest = *c;  // what every other field must have shrunk to
  simplest.variant = lp::VariantKind::Coarsened;
  simplest.deterministic = false;
  simplest.tuning = lp::Tuning::Default;
  simplest.op = lp::op_at(c->type, 0);
  simplest.init = 0;
  simplest.misalign_in = simplest.misalign_out = 0;
  simplest.in_place = false;
  simplest.vector = true;
  simplest.entry = lp::Entry::DeviceScan;
  simplest.values = lp::Values::Ones;
  simplest.seed = 0;
  simplest.stall_ns = simplest.stall_every = 0;
  EXPECT_EQ(lp::to_string(*c), lp::to_string(simplest));
}
