// RapidCheck properties of the CPU reference (label `proptest`). Seeds are
// printed on failure; replay with RC_PARAMS="reproduce=...".
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "lookback/ops.hpp"
#include "lookback/reference/scan.hpp"

namespace {
namespace ref = lookback::reference;
using lookback::Affine;
using lookback::ComposeAffine;
}  // namespace

namespace rc {
template <>
struct Arbitrary<Affine> {
  static Gen<Affine> arbitrary() {
    return gen::construct<Affine>(gen::arbitrary<std::uint32_t>(), gen::arbitrary<std::uint32_t>());
  }
};
}  // namespace rc

RC_GTEST_PROP(ReferenceProperties, InclusiveSumEqualsStd, (const std::vector<std::uint32_t>& in)) {
  std::vector<std::uint32_t> expected(in.size());
  std::inclusive_scan(in.begin(), in.end(), expected.begin());
  RC_ASSERT(ref::inclusive_scan(in, lookback::Sum{}) == expected);
}

RC_GTEST_PROP(ReferenceProperties, ExclusiveXorEqualsStd,
              (const std::vector<std::uint64_t>& in, std::uint64_t init)) {
  std::vector<std::uint64_t> expected(in.size());
  std::exclusive_scan(in.begin(), in.end(), expected.begin(), init,
                      [](auto a, auto b) { return a ^ b; });
  RC_ASSERT(ref::exclusive_scan(in, init, lookback::Xor{}) == expected);
}

RC_GTEST_PROP(ReferenceProperties, AffineInclusiveEqualsStd, (const std::vector<Affine>& in)) {
  std::vector<Affine> expected(in.size());
  std::inclusive_scan(in.begin(), in.end(), expected.begin(), ComposeAffine{});
  RC_ASSERT(ref::inclusive_scan(in, ComposeAffine{}) == expected);
}

RC_GTEST_PROP(ReferenceProperties, AffineExclusiveEqualsStd,
              (const std::vector<Affine>& in, Affine init)) {
  std::vector<Affine> expected(in.size());
  std::exclusive_scan(in.begin(), in.end(), expected.begin(), init, ComposeAffine{});
  RC_ASSERT(ref::exclusive_scan(in, init, ComposeAffine{}) == expected);
}

// Splitting the input anywhere and scanning the halves, seeding the second
// half with the first half's total, equals scanning the whole: the identity
// a single-pass look-back relies on.
RC_GTEST_PROP(ReferenceProperties, ScanComposesAcrossASplit, (const std::vector<Affine>& in)) {
  RC_PRE(!in.empty());
  const auto cut = *rc::gen::inRange<std::size_t>(0, in.size() + 1);
  const std::span<const Affine> all(in);
  const auto left = ref::inclusive_scan(all.first(cut), ComposeAffine{});
  const Affine carry = left.empty() ? Affine{} : left.back();
  auto right = ref::inclusive_scan(all.subspan(cut), carry, ComposeAffine{});
  std::vector<Affine> joined = left;
  joined.insert(joined.end(), right.begin(), right.end());
  RC_ASSERT(joined == ref::inclusive_scan(in, ComposeAffine{}));
}
