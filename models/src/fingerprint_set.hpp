// The set of graph fingerprints the explorer has visited: open addressing
// in one flat array. The search asks it about every candidate step, and
// with millions of entries std::unordered_set spent most of that time
// chasing a bucket pointer and then a node pointer, two cache misses per
// question; here a question costs one probe run in one array. Fingerprints
// are already well mixed (graph.cpp): a multiply folds both halves into
// the slot index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace lookback::model::detail {

class FingerprintSet {
 public:
  using Key = std::pair<std::uint64_t, std::uint64_t>;

  bool contains(const Key& k) const {
    if (is_empty_key(k)) return has_empty_key_;
    if (slots_.empty()) return false;
    for (std::size_t i = index(k);; i = (i + 1) & mask_) {
      if (slots_[i] == k) return true;
      if (is_empty_key(slots_[i])) return false;
    }
  }

  // Adds `k`; false if it was there already.
  bool insert(const Key& k) {
    if (is_empty_key(k)) {
      const bool fresh = !has_empty_key_;
      has_empty_key_ = true;
      return fresh;
    }
    // Grow at 3/4 full: linear probing stays short on mixed keys.
    if (4 * (size_ + 1) > 3 * slots_.size()) grow();
    std::size_t i = index(k);
    for (; !is_empty_key(slots_[i]); i = (i + 1) & mask_)
      if (slots_[i] == k) return false;
    slots_[i] = k;
    ++size_;
    return true;
  }

 private:
  // The all-zero key marks an empty slot; the key itself, should a graph
  // ever hash to it, is kept aside in a flag.
  static bool is_empty_key(const Key& k) { return k.first == 0 && k.second == 0; }
  std::size_t index(const Key& k) const {
    return static_cast<std::size_t>(k.first ^ (k.second * 0x9e3779b97f4a7c15ull)) & mask_;
  }

  void grow() {
    std::vector<Key> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : 2 * old.size(), Key{0, 0});
    mask_ = slots_.size() - 1;
    for (const Key& k : old) {
      if (is_empty_key(k)) continue;
      std::size_t i = index(k);
      while (!is_empty_key(slots_[i]))
        i = (i + 1) & mask_;
      slots_[i] = k;
    }
  }

  std::vector<Key> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
  bool has_empty_key_ = false;
};

}  // namespace lookback::model::detail
