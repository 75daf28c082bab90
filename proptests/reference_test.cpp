// Unit tests of the CPU reference scans against the standard library, and
// with non-commutative operators so operand order is checked.
#include "lookback/reference/scan.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "lookback/ops.hpp"

namespace {

using lookback::Affine;
using lookback::ComposeAffine;
namespace ref = lookback::reference;

// 2x2 integer matrices under multiplication (wrapping): associative, not commutative.
struct Mat2 {
  std::array<std::uint32_t, 4> m{1, 0, 0, 1};
  friend bool operator==(const Mat2&, const Mat2&) = default;
};
Mat2 mul(const Mat2& x, const Mat2& y) {
  return Mat2{{x.m[0] * y.m[0] + x.m[1] * y.m[2], x.m[0] * y.m[1] + x.m[1] * y.m[3],
               x.m[2] * y.m[0] + x.m[3] * y.m[2], x.m[2] * y.m[1] + x.m[3] * y.m[3]}};
}

TEST(ReferenceScan, EmptyInputGivesEmptyOutput) {
  const std::vector<int> in;
  EXPECT_TRUE(ref::inclusive_scan(in, std::plus<>{}).empty());
  EXPECT_TRUE(ref::exclusive_scan(in, 7, std::plus<>{}).empty());
}

TEST(ReferenceScan, InclusiveSumMatchesStd) {
  std::vector<std::int64_t> in(1000);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<std::int64_t>(i * 7919 % 101) - 50;
  std::vector<std::int64_t> expected(in.size());
  std::inclusive_scan(in.begin(), in.end(), expected.begin());
  EXPECT_EQ(ref::inclusive_scan(in, std::plus<>{}), expected);
}

TEST(ReferenceScan, ExclusiveSumMatchesStdWithInit) {
  std::vector<std::uint32_t> in(777);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<std::uint32_t>(i * 2654435761u);
  std::vector<std::uint32_t> expected(in.size());
  std::exclusive_scan(in.begin(), in.end(), expected.begin(), 42u);
  EXPECT_EQ(ref::exclusive_scan(in, 42u, std::plus<>{}), expected);
}

TEST(ReferenceScan, MaxMatchesStd) {
  const std::vector<int> in{3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
  std::vector<int> expected(in.size());
  std::inclusive_scan(in.begin(), in.end(), expected.begin(),
                      [](int a, int b) { return std::max(a, b); });
  EXPECT_EQ(ref::inclusive_scan(in, lookback::Max{}), expected);
}

TEST(ReferenceScan, StringConcatenationKeepsOrder) {
  // Concatenation is associative and not commutative: any swap shows.
  const std::vector<std::string> in{"a", "b", "c", "d"};
  EXPECT_EQ(ref::inclusive_scan(in, std::plus<>{}),
            (std::vector<std::string>{"a", "ab", "abc", "abcd"}));
  EXPECT_EQ(ref::exclusive_scan(in, std::string{">"}, std::plus<>{}),
            (std::vector<std::string>{">", ">a", ">ab", ">abc"}));
}

TEST(ReferenceScan, AffineCompositionMatchesStdAndIsOrderSensitive) {
  std::vector<Affine> in;
  for (std::uint32_t i = 0; i < 300; ++i)
    in.push_back(Affine{2 * i + 1, i * i + 3});
  std::vector<Affine> expected(in.size());
  std::inclusive_scan(in.begin(), in.end(), expected.begin(), ComposeAffine{});
  const auto got = ref::inclusive_scan(in, ComposeAffine{});
  EXPECT_EQ(got, expected);
  // The reversed operator gives a different answer on this input, so a
  // scan that swapped operands could not pass the comparison above.
  std::vector<Affine> swapped(in.size());
  std::inclusive_scan(in.begin(), in.end(), swapped.begin(),
                      [](const Affine& l, const Affine& r) { return ComposeAffine{}(r, l); });
  EXPECT_NE(got, swapped);
  // Applying the scanned map equals applying each map in turn.
  std::uint32_t x = 12345;
  for (const Affine& f : in)
    x = f.a * x + f.b;
  EXPECT_EQ(got.back().a * 12345u + got.back().b, x);
}

TEST(ReferenceScan, MatrixProductMatchesStdExclusive) {
  std::vector<Mat2> in;
  for (std::uint32_t i = 0; i < 64; ++i)
    in.push_back(Mat2{{i + 2, i % 3 + 1, i % 2, 1}});
  std::vector<Mat2> expected(in.size());
  std::exclusive_scan(in.begin(), in.end(), expected.begin(), Mat2{}, mul);
  EXPECT_EQ(ref::exclusive_scan(in, Mat2{}, mul), expected);
  EXPECT_NE(mul(in[1], in[2]), mul(in[2], in[1]));  // the operator really is non-commutative
}

TEST(ReferenceScan, SeededInclusiveEqualsExclusiveShiftedByOne) {
  const std::vector<int> in{5, -2, 7, 0, 3};
  const auto seeded = ref::inclusive_scan(std::span<const int>(in), 10, std::plus<>{});
  const auto excl = ref::exclusive_scan(in, 10, std::plus<>{});
  for (std::size_t i = 0; i + 1 < in.size(); ++i)
    EXPECT_EQ(seeded[i], excl[i + 1]);
  EXPECT_EQ(seeded.back(), 10 + 5 - 2 + 7 + 0 + 3);
}

}  // namespace
