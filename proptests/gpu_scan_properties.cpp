// GPU properties (label gpu): lookback::DeviceScan and lookback::ScanPlan
// against the CPU reference (lookback::reference) for random cases: variant
// (warp-lookback, coarsened, fallback, pipelined; deterministic mode), value type (u32,
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
// One binary per variant (gpu_scan_properties_coarsened, _warp_lookback,
// _fallback, _pipelined: all kernels in one binary are too large to ship to
// a GPU machine); below, gpu_scan_properties_<v> is any of them. The generators'
// own tests are CPU tests in gpu_scan_generators_test.cpp.
//
// Run (on a machine with a GPU; without one every GPU property skips):
//   build/gpu/proptests/gpu_scan_properties_<v> --gtest_brief=1
// Each property checks RapidCheck's max_success cases (default 100; printed
// with the time): RC_PARAMS="max_success=1000" for more. Larger sizes:
//   LOOKBACK_PROP_MAX_N=2^28 build/gpu/proptests/gpu_scan_properties_<v>
//
// Replaying a failure. RapidCheck prints the seed at start ("Using
// configuration: seed=...") and, for a failing property, the shrunk
// counterexample as a one-line case and a reproduce string:
//   RC_PARAMS="reproduce=<string>" build/gpu/proptests/gpu_scan_properties_<v>
//       --gtest_filter='GpuScanProperties.<Name>'      (one command line)
// reruns exactly that counterexample (same LOOKBACK_PROP_MAX_N needed), and
//   RC_PARAMS="seed=<seed>" build/gpu/proptests/gpu_scan_properties_<v>
// reruns the whole random sequence. The one-line case runs on its own with
//   LOOKBACK_PROP_CASE="variant=fallback det=0 ... seed=12"
//       build/gpu/proptests/gpu_scan_properties_fallback --gtest_filter='*Replay*'
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

// Every configuration of each variant this binary links.
TEST(GpuScanProperties, MatchesReference) {
  LOOKBACK_REQUIRE_GPU();
  ASSERT_FALSE(lp::linked_variants().empty()) << "no variant linked into this binary";
  for (const lp::VariantKind v : lp::linked_variants()) {
    lp::gen::CaseSpace space;
    space.variant = v;
    check_on_gpu(std::string("GpuScanProperties/MatchesReference/") + lp::name(v),
                 lp::gen::scan_case(space));
  }
}

// Deterministic mode: mostly real-valued float sums, each case run 3 times
// and compared bit for bit (and with the reference).
TEST(GpuScanProperties, DeterministicMatchesReferenceAndRepeatsBitwise) {
  LOOKBACK_REQUIRE_GPU();
  ASSERT_FALSE(lp::linked_variants().empty()) << "no variant linked into this binary";
  for (const lp::VariantKind v : lp::linked_variants()) {
    lp::gen::CaseSpace space;
    space.variant = v;
    space.deterministic = true;
    space.types = {{lp::ValueType::F32, 4},
                   {lp::ValueType::F64, 4},
                   {lp::ValueType::U32, 1},
                   {lp::ValueType::I64, 1},
                   {lp::ValueType::Affine, 1}};
    space.values_weights = {1, 1, 6};
    check_on_gpu(std::string("GpuScanProperties/DeterministicMatchesReferenceAndRepeatsBitwise/") +
                     lp::name(v),
                 lp::gen::scan_case(space));
  }
}

// One case given on the command line (LOOKBACK_PROP_CASE); skipped when the
// variable is unset.
TEST(GpuScanProperties, Replay) {
  const char* line = std::getenv("LOOKBACK_PROP_CASE");
  if (line == nullptr || *line == '\0') GTEST_SKIP() << "LOOKBACK_PROP_CASE is not set";
  LOOKBACK_REQUIRE_GPU();
  std::string error;
  const auto c = lp::parse_case(line, &error);
  ASSERT_TRUE(c.has_value()) << "LOOKBACK_PROP_CASE: " << error;
  // A replay that cannot run the asked case must not look like a pass.
  ASSERT_NE(lp::linked_runners(c->variant), nullptr)
      << "the case's variant is not linked here: run " << lp::properties_binary(c->variant);
  std::printf("[ gpu-props ] replaying %s\n", lp::to_string(*c).c_str());
  const std::string failure = lp::run_case(*c);
  EXPECT_TRUE(failure.empty()) << lp::to_string(*c) << "\n" << failure;
}
