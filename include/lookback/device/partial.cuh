// A value that may be absent. Scans with an arbitrary associative operator
// have no identity element, so "nothing to the left" (the first element of an
// inclusive scan, lane 0's exclusive prefix) is an absent value rather than
// an identity.
#pragma once

namespace lookback::device {

template <class T>
struct Partial {
  T value{};
  bool valid = false;
};

// a op b, where an absent side is skipped. `a` is the earlier (left) operand.
template <class T, class Op>
__device__ __forceinline__ Partial<T> combine(Op& op, const Partial<T>& a, const Partial<T>& b) {
  if (!a.valid) return b;
  if (!b.valid) return a;
  return Partial<T>{op(a.value, b.value), true};
}
template <class T, class Op>
__device__ __forceinline__ Partial<T> combine(Op& op, const Partial<T>& a, const T& b) {
  return Partial<T>{a.valid ? op(a.value, b) : b, true};
}

}  // namespace lookback::device
