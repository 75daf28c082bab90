// RapidCheck generators of ScanCases.
//
// Every field is drawn from a small choice that RapidCheck shrinks toward
// index 0, and index 0 is always the simplest value: the default variant
// (coarsened), not deterministic, the default tuning, u32, sum, inclusive,
// init 0, aligned pointers, out of place, vector accesses, DeviceScan, all-one
// inputs, seed 0 (and, for the stalled tuning, 2000 ns every 2nd tile). Choices are uniform over
// the whole run (not scaled by RapidCheck's size), except the sizes below.
//
// Sizes are drawn from a shape and resolved against the tile size of the
// case's own configuration (variant, tuning, value type), then clamped to
// [0, LOOKBACK_PROP_MAX_N]:
//   0 tiny      0, 1 or 2
//   1 small     0 .. 64
//   2 tiles     k * tile + {0, -1, +1}, k in 1 .. 64
//   3 pow2      2^e + {0, -1, +1}, e in 0 .. log2(max)
//   4 any       log-uniform: 2^e + r, r < 2^e, e < log2(max)
// Shrinking moves to earlier shapes (a tiny or small size when the failure
// allows) and, within a shape, toward fewer tiles, smaller exponents and
// offset 0, so a protocol failure shrinks to the fewest tiles that show it.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "gpu_scan_case.hpp"

namespace lookback::proptest {

// RapidCheck prints counterexamples with showValue: the one-line reproducer.
inline void showValue(const ScanCase& c, std::ostream& os) {
  os << c;
}

namespace gen {

// A uniform index in [0, k), shrinking toward 0.
inline rc::Gen<int> choice(int k) {
  return rc::gen::resize(100, rc::gen::inRange(0, k));
}

// An index drawn with the given weights, shrinking toward 0.
inline rc::Gen<int> weighted(std::vector<int> weights) {
  int total = 0;
  for (int w : weights)
    total += w;
  return rc::gen::map(choice(total), [weights](int x) {
    int i = 0;
    while (x >= weights[i])
      x -= weights[i++];
    return i;
  });
}

// 0, -1, +1 (shrinks toward 0).
inline rc::Gen<int> offset() {
  return rc::gen::map(choice(3), [](int x) { return x == 0 ? 0 : (x == 1 ? -1 : 1); });
}

// An integer in [-m, m], shrinking toward 0 (zigzag: 0, -1, 1, -2, 2, ...).
inline rc::Gen<std::int64_t> centered(std::int64_t m) {
  return rc::gen::map(rc::gen::resize(100, rc::gen::inRange<std::int64_t>(0, 2 * m + 1)),
                      [](std::int64_t z) { return z % 2 == 0 ? z / 2 : -(z + 1) / 2; });
}

inline int log2_floor(std::int64_t x) {
  int e = 0;
  while (x > 1)
    x >>= 1, ++e;
  return e;
}

struct SizeSpec {
  int shape = 0;
  int tiny = 0;
  int small = 0;
  int tiles = 1;
  int tile_offset = 0;
  int pow2 = 0;
  int pow2_offset = 0;
  int any_exponent = 0;
  std::int64_t any_fraction = 0;
};

inline rc::Gen<SizeSpec> size_spec(std::int64_t max_n) {
  const int e_max = log2_floor(max_n < 1 ? 1 : max_n);
  return rc::gen::build<SizeSpec>(
      rc::gen::set(&SizeSpec::shape, weighted({1, 2, 3, 2, 2})),
      rc::gen::set(&SizeSpec::tiny, choice(3)), rc::gen::set(&SizeSpec::small, choice(65)),
      rc::gen::set(&SizeSpec::tiles, rc::gen::map(choice(64), [](int k) { return k + 1; })),
      rc::gen::set(&SizeSpec::tile_offset, offset()),
      rc::gen::set(&SizeSpec::pow2, choice(e_max + 1)),
      rc::gen::set(&SizeSpec::pow2_offset, offset()),
      rc::gen::set(&SizeSpec::any_exponent, choice(e_max < 1 ? 1 : e_max)),
      rc::gen::set(&SizeSpec::any_fraction,
                   rc::gen::resize(100, rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 40))));
}

inline std::int64_t resolve(const SizeSpec& s, std::int64_t tile, std::int64_t max_n) {
  std::int64_t n = 0;
  switch (s.shape) {
    case 0:
      n = s.tiny;
      break;
    case 1:
      n = s.small;
      break;
    case 2:
      n = s.tiles * tile + s.tile_offset;
      break;
    case 3:
      n = (std::int64_t{1} << s.pow2) + s.pow2_offset;
      break;
    default: {
      const std::int64_t base = std::int64_t{1} << s.any_exponent;
      n = base + s.any_fraction % base;
      break;
    }
  }
  return n < 0 ? 0 : (n > max_n ? max_n : n);
}

// Restrictions of the case space for one property. Fixed fields are not
// drawn; `types` lists the value types in shrinking order with their weights.
struct CaseSpace {
  std::optional<VariantKind> variant;
  std::optional<bool> deterministic;
  std::vector<std::pair<ValueType, int>> types = {
      {ValueType::U32, 1}, {ValueType::I32, 1}, {ValueType::U64, 1},   {ValueType::I64, 1},
      {ValueType::F32, 1}, {ValueType::F64, 1}, {ValueType::Affine, 1}};
  std::vector<int> values_weights = {1, 2, 3};  // Ones, Small, Full
  std::int64_t max_n = prop_max_items();
};

// Boolean true with probability 1/k, shrinking to false.
inline rc::Gen<bool> one_in(int k) {
  return rc::gen::map(choice(k), [k](int x) { return x == k - 1; });
}

inline rc::Gen<ScanCase> scan_case(CaseSpace space = {}) {
  const std::int64_t max_n = space.max_n;
  std::vector<int> type_weights;
  for (const auto& t : space.types)
    type_weights.push_back(t.second);
  auto fields = rc::gen::build<ScanCase>(
      rc::gen::set(&ScanCase::variant,
                   space.variant ? rc::gen::just(*space.variant)
                                 : rc::gen::map(choice(kVariantKinds),
                                                [](int i) { return static_cast<VariantKind>(i); })),
      rc::gen::set(&ScanCase::deterministic,
                   space.deterministic ? rc::gen::just(*space.deterministic) : one_in(4)),
      rc::gen::set(&ScanCase::tuning, rc::gen::map(weighted({4, 2, 1, 2}),
                                                   [](int i) { return static_cast<Tuning>(i); })),
      rc::gen::set(&ScanCase::type,
                   rc::gen::map(weighted(type_weights),
                                [types = space.types](int i) { return types[i].first; })),
      // An index into the type's operators, resolved below.
      rc::gen::set(&ScanCase::op,
                   rc::gen::map(choice(4), [](int i) { return static_cast<OpKind>(i); })),
      rc::gen::set(&ScanCase::exclusive, one_in(2)), rc::gen::set(&ScanCase::init, centered(1000)),
      rc::gen::set(&ScanCase::misalign_in, weighted({3, 1, 1, 1})),
      rc::gen::set(&ScanCase::misalign_out, weighted({3, 1, 1, 1})),
      rc::gen::set(&ScanCase::in_place, one_in(3)),
      rc::gen::set(&ScanCase::vector, rc::gen::map(one_in(6), [](bool scalar) { return !scalar; })),
      rc::gen::set(&ScanCase::entry,
                   rc::gen::map(choice(2), [](int i) { return static_cast<Entry>(i); })),
      rc::gen::set(&ScanCase::values, rc::gen::map(weighted(space.values_weights),
                                                   [](int i) { return static_cast<Values>(i); })),
      rc::gen::set(&ScanCase::seed, rc::gen::resize(100, rc::gen::inRange<std::uint64_t>(
                                                             0, std::uint64_t{1} << 32))),
      // Tuning::Stalled only (normalize() clears them otherwise).
      rc::gen::set(&ScanCase::stall_ns,
                   rc::gen::map(choice(3),
                                [](int i) {
                                  constexpr std::uint32_t kNs[] = {2000, 20000, 200000};
                                  return kNs[i];
                                })),
      rc::gen::set(&ScanCase::stall_every, rc::gen::map(choice(4), [](int i) {
        constexpr std::uint32_t kEvery[] = {2, 3, 7, 16};
        return kEvery[i];
      })));
  return rc::gen::apply(
      [max_n](ScanCase c, const SizeSpec& size) {
        c.op = op_at(c.type, static_cast<int>(c.op));
        c = normalize(c);
        c.n = resolve(size, tile_items(c), max_n);
        return c;
      },
      fields, size_spec(max_n));
}

}  // namespace gen
}  // namespace lookback::proptest

namespace rc {
template <>
struct Arbitrary<lookback::proptest::ScanCase> {
  static Gen<lookback::proptest::ScanCase> arbitrary() {
    return lookback::proptest::gen::scan_case();
  }
};
}  // namespace rc
