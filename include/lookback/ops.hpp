// Associative operators ("monoids") shared by kernels, tests and the CPU
// reference. Each functor is usable on host and device. `Affine` is the
// non-commutative one: composing maps x -> a*x + b in order, with wrapping
// unsigned arithmetic so results are exact and comparable bit for bit.
#pragma once

#include <cstdint>
#include <limits>

#include "lookback/protocol/spec.hpp"  // LOOKBACK_HD

namespace lookback {

struct Sum {
  template <class T>
  LOOKBACK_HD constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct Max {
  template <class T>
  LOOKBACK_HD constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};
struct Min {
  template <class T>
  LOOKBACK_HD constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
struct Xor {
  template <class T>
  LOOKBACK_HD constexpr T operator()(const T& a, const T& b) const {
    return a ^ b;
  }
};

// The affine map x -> a*x + b over Z/2^32. Composition is associative and
// not commutative, so a scan that swaps operands gives a different answer.
struct Affine {
  std::uint32_t a = 1;
  std::uint32_t b = 0;
  friend LOOKBACK_HD constexpr bool operator==(const Affine& l, const Affine& r) {
    return l.a == r.a && l.b == r.b;
  }
};
// (l then r)(x) = r.a * (l.a * x + l.b) + r.b
struct ComposeAffine {
  LOOKBACK_HD constexpr Affine operator()(const Affine& l, const Affine& r) const {
    return Affine{r.a * l.a, r.a * l.b + r.b};
  }
};

// Identity elements, for exclusive scans that need one.
template <class T>
LOOKBACK_HD constexpr T identity_of(Sum) {
  return T{};
}
template <class T>
LOOKBACK_HD constexpr T identity_of(Xor) {
  return T{};
}
template <class T>
LOOKBACK_HD constexpr T identity_of(Max) {
  return std::numeric_limits<T>::lowest();
}
template <class T>
LOOKBACK_HD constexpr T identity_of(Min) {
  return std::numeric_limits<T>::max();
}
template <class T>
LOOKBACK_HD constexpr T identity_of(ComposeAffine) {
  return Affine{};
}

}  // namespace lookback
