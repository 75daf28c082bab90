// CPU reference scans: the oracle every kernel and property test compares
// against. Written for clarity, not speed: one left-to-right fold that keeps
// the operand order (running OP element), so non-commutative operators are
// checked too.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace lookback::reference {

// out[i] = in[0] op in[1] op ... op in[i]
template <class T, class Op>
std::vector<T> inclusive_scan(std::span<const T> in, Op op) {
  std::vector<T> out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    out.push_back(i == 0 ? in[0] : op(out.back(), in[i]));
  return out;
}

// out[0] = init, out[i] = init op in[0] op ... op in[i-1]
template <class T, class Op>
std::vector<T> exclusive_scan(std::span<const T> in, T init, Op op) {
  std::vector<T> out;
  out.reserve(in.size());
  T running = std::move(init);
  for (std::size_t i = 0; i < in.size(); ++i) {
    out.push_back(running);
    running = op(running, in[i]);
  }
  return out;
}

// Inclusive scan seeded with `init`: out[i] = init op in[0] op ... op in[i].
template <class T, class Op>
std::vector<T> inclusive_scan(std::span<const T> in, T init, Op op) {
  std::vector<T> out;
  out.reserve(in.size());
  T running = std::move(init);
  for (const T& x : in) {
    running = op(running, x);
    out.push_back(running);
  }
  return out;
}

// Convenience overloads for containers.
template <class T, class Op>
std::vector<T> inclusive_scan(const std::vector<T>& in, Op op) {
  return inclusive_scan(std::span<const T>(in), op);
}
template <class T, class Op>
std::vector<T> exclusive_scan(const std::vector<T>& in, T init, Op op) {
  return exclusive_scan(std::span<const T>(in), std::move(init), op);
}

}  // namespace lookback::reference
