// The visited set of a parallel search: FingerprintSet split into shards,
// each behind its own mutex, so that workers asking about different graphs
// rarely wait for each other. A fingerprint's shard comes from the top bits
// of its second half, which FingerprintSet's slot index hardly uses.
#pragma once

#include <array>
#include <mutex>

#include "fingerprint_set.hpp"

namespace lookback::model::detail {

class SharedFingerprintSet {
 public:
  using Key = FingerprintSet::Key;

  bool contains(const Key& k) const {
    const Shard& s = shard(k);
    std::lock_guard<std::mutex> lock(s.mutex);
    return s.set.contains(k);
  }

  // Adds `k`; false if it was there already (whoever added it first).
  bool insert(const Key& k) {
    Shard& s = shard(k);
    std::lock_guard<std::mutex> lock(s.mutex);
    return s.set.insert(k);
  }

 private:
  static constexpr int kShardBits = 6;
  struct Shard {
    mutable std::mutex mutex;
    FingerprintSet set;
  };
  Shard& shard(const Key& k) { return shards_[k.second >> (64 - kShardBits)]; }
  const Shard& shard(const Key& k) const { return shards_[k.second >> (64 - kShardBits)]; }

  std::array<Shard, std::size_t{1} << kShardBits> shards_;
};

}  // namespace lookback::model::detail
