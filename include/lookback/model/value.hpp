// Symbolic values held by memory locations in the model.
//
// A tile aggregate is the interval [i,i] of tiles it covers; combining two
// values is defined only for adjacent intervals of the same launch, so a
// double count, a gap, an operand swap or a stale value from another launch
// turns into `Bad` exactly, not by luck of numbers.
#pragma once

#include <cstdint>
#include <string>

#include "lookback/protocol/spec.hpp"

namespace lookback::model {

using protocol::Status;

struct Interval {
  enum class Kind : std::uint8_t { Empty, Range, Bad };
  Kind kind = Kind::Empty;
  std::int16_t lo = 0, hi = 0;
  std::int8_t launch = 0;  // which launch's input it was computed from
  // Fold::LeftFold only (fold() below): the tiles were combined in another
  // bracketing than the left fold ((a_lo op a_lo+1) op ...) op a_hi, so a
  // floating-point sum may differ in its bits. join() never sets it: a Tree
  // variant's values do not track their bracketing.
  bool regrouped = false;

  static constexpr Interval empty() { return {}; }
  static constexpr Interval tile(int i, int launch) {
    return {Kind::Range, static_cast<std::int16_t>(i), static_cast<std::int16_t>(i),
            static_cast<std::int8_t>(launch)};
  }
  static constexpr Interval range(int lo, int hi, int launch) {
    return {Kind::Range, static_cast<std::int16_t>(lo), static_cast<std::int16_t>(hi),
            static_cast<std::int8_t>(launch)};
  }
  static constexpr Interval bad() { return {Kind::Bad, 0, 0, 0}; }
  friend constexpr bool operator==(const Interval&, const Interval&) = default;
};

// a (+) b, where a covers the tiles before b. Anything but adjacency is Bad.
constexpr Interval join(const Interval& a, const Interval& b) {
  if (a.kind == Interval::Kind::Bad || b.kind == Interval::Kind::Bad) return Interval::bad();
  if (a.kind == Interval::Kind::Empty) return b;
  if (b.kind == Interval::Kind::Empty) return a;
  if (a.launch != b.launch || a.hi + 1 != b.lo) return Interval::bad();
  return Interval::range(a.lo, b.hi, a.launch);
}

// a (+) b as a left fold: the left fold of a's tiles is one of b's only
// where b is one tile's aggregate; otherwise the result is regrouped.
constexpr Interval fold(const Interval& a, const Interval& b) {
  Interval r = join(a, b);
  if (r.kind == Interval::Kind::Range)
    r.regrouped =
        a.regrouped || b.regrouped ||
        (a.kind == Interval::Kind::Range && b.kind == Interval::Kind::Range && b.lo != b.hi);
  return r;
}

// The same tiles of the same launch, however they were bracketed.
constexpr bool same_tiles(const Interval& a, const Interval& b) {
  return a.kind == b.kind && a.lo == b.lo && a.hi == b.hi && a.launch == b.launch;
}

// One memory cell's content. Which fields matter depends on the location:
// counters and litmus variables use `num`; descriptors use status/epoch/iv;
// value words and data tiles use iv. `pub` names the publish that wrote a
// descriptor part (so a split reader can tell a torn pair) and is 0 for
// memory nobody has published to.
struct Value {
  std::int32_t num = 0;
  Status status = Status::Invalid;
  std::uint32_t epoch = 0;
  Interval iv{};
  std::uint16_t pub = 0;
  friend constexpr bool operator==(const Value&, const Value&) = default;

  static constexpr Value integer(std::int32_t n) {
    Value v;
    v.num = n;
    return v;
  }
};

std::string to_string(const Interval& iv);
// Short rendering for counterexamples, e.g. "PREFIX[0..2]@e1" or "7".
std::string to_string(const Value& v, bool descriptor);

}  // namespace lookback::model
