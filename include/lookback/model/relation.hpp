// A binary relation over at most kMaxEvents events, as bit rows: the
// relational algebra the memory-model axioms are written in.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace lookback::model {

// Bounded instances stay well below this; a larger one is refused with a
// clear error rather than slowing every relation down.
inline constexpr int kMaxEvents = 128;

// The sampler (sampler.hpp) builds one execution at a time, of instances far
// beyond the exhaustive bound (64 tiles: hundreds of events), and keeps its
// incremental PTX state in rows this wide. Only the sampler pays for them:
// the explorer and `Relation` keep 128-bit rows.
inline constexpr int kMaxSampledEvents = 4096;

// A set of event ids below N, as a fixed array of words.
template <int N>
class BasicBits {
 public:
  static_assert(N > 0 && N % 64 == 0);
  static constexpr int kWords = N / 64;
  void set(int i) { w_[i >> 6] |= (1ull << (i & 63)); }
  bool test(int i) const { return (w_[i >> 6] >> (i & 63)) & 1ull; }
  BasicBits& operator|=(const BasicBits& o) {
    for (int k = 0; k < kWords; ++k)
      w_[k] |= o.w_[k];
    return *this;
  }
  BasicBits operator&(const BasicBits& o) const {
    BasicBits r;
    for (int k = 0; k < kWords; ++k)
      r.w_[k] = w_[k] & o.w_[k];
    return r;
  }
  bool intersects(const BasicBits& o) const {
    for (int k = 0; k < kWords; ++k)
      if (w_[k] & o.w_[k]) return true;
    return false;
  }
  bool any() const {
    for (auto x : w_)
      if (x) return true;
    return false;
  }
  template <class F>
  void for_each(F&& f) const {
    for (int k = 0; k < kWords; ++k)
      for (std::uint64_t x = w_[k]; x; x &= x - 1)
        f(k * 64 + std::countr_zero(x));
  }

 private:
  std::array<std::uint64_t, kWords> w_{};
};

using Bits = BasicBits<kMaxEvents>;

class Relation {
 public:
  explicit Relation(int n = 0) : n_(n), rows_(static_cast<std::size_t>(n)) {}
  int size() const { return n_; }
  void add(int a, int b) { rows_[a].set(b); }
  bool has(int a, int b) const { return rows_[a].test(b); }
  const Bits& row(int a) const { return rows_[a]; }
  Bits& row(int a) { return rows_[a]; }

  Relation& operator|=(const Relation& o) {
    for (int i = 0; i < n_; ++i)
      rows_[i] |= o.rows_[i];
    return *this;
  }
  // this ; o
  Relation then(const Relation& o) const {
    Relation r(n_);
    for (int i = 0; i < n_; ++i)
      rows_[i].for_each([&](int k) { r.rows_[i] |= o.rows_[k]; });
    return r;
  }
  // Transitive closure (Warshall over bit rows).
  Relation plus() const {
    Relation r = *this;
    for (int k = 0; k < n_; ++k)
      for (int i = 0; i < n_; ++i)
        if (r.rows_[i].test(k)) r.rows_[i] |= r.rows_[k];
    return r;
  }
  Relation star() const {
    Relation r = plus();
    for (int i = 0; i < n_; ++i)
      r.add(i, i);
    return r;
  }
  bool irreflexive() const {
    for (int i = 0; i < n_; ++i)
      if (has(i, i)) return false;
    return true;
  }
  bool acyclic() const { return plus().irreflexive(); }

 private:
  int n_;
  std::vector<Bits> rows_;
};

}  // namespace lookback::model
