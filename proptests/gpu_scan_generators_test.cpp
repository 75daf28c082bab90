// CPU tests of the GPU properties' case generators (gpu_scan_gen.hpp) and
// the one-line case format (gpu_scan_case.hpp): they need no GPU and no
// kernels, so they run in every CI.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "gpu_scan_case.hpp"
#include "gpu_scan_gen.hpp"

namespace {
namespace lp = lookback::proptest;
using lp::ScanCase;
}  // namespace

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

// Each variant's cases parse back from its one-line form, and a case's tile
// is its variant's default policy's (pipelined: 8192 4-byte items, 3072
// 8-byte ones).
TEST(GpuScanGenerators, EveryVariantRoundTripsWithItsOwnTile) {
  for (int v = 0; v < lp::kVariantKinds; ++v) {
    ScanCase c;
    c.variant = static_cast<lp::VariantKind>(v);
    c.n = 12345;
    std::string error;
    const auto back = lp::parse_case(lp::to_string(c), &error);
    ASSERT_TRUE(back.has_value()) << lp::to_string(c) << ": " << error;
    EXPECT_EQ(*back, c);
  }
  EXPECT_EQ(lp::tile_items(lp::VariantKind::Pipelined, lp::Tuning::Default, lp::ValueType::U32),
            8192);
  EXPECT_EQ(lp::tile_items(lp::VariantKind::Pipelined, lp::Tuning::Stalled, lp::ValueType::F64),
            3072);
  EXPECT_EQ(lp::tile_items(lp::VariantKind::Pipelined, lp::Tuning::Small, lp::ValueType::U32), 128);
  const auto parsed = lp::parse_case("variant=pipelined n=7", nullptr);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->variant, lp::VariantKind::Pipelined);
  EXPECT_FALSE(lp::parse_case("variant=4 n=7", nullptr).has_value());
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
