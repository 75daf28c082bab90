// EXPT (measurement only, not a verified protocol): a two-level look-back.
//
// Tiles form groups of 32. Besides its tile word, group g has a group word
// (descriptor num_tiles + g): AGGREGATE(a_32g op ... op a_32g+31), published
// by the group's last tile as soon as it has seen its group's 31 other
// aggregates (none of them PREFIX yet), and PREFIX(inclusive prefix of tile
// 32g+31) once that tile has resolved. Tile i = 32g + k reads, in one round,
// its own group's k earlier tile words and the words of up to 32 - k earlier
// groups, so a far tile waits for about two hops (its groups' last tiles see
// their groups; it sees their group words) instead of one per 32 tiles.
// Sums only in tile order; not deterministic; no fallback.
#pragma once

#include <cstdint>

#include <cub/util_ptx.cuh>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/launch_state.cuh"
#include "lookback/device/partial.cuh"
#include "lookback/protocol/spec.hpp"

namespace lookback::device {

template <Protocol P, class T, class Op>
class GroupLookback {
 public:
  using Desc = Descriptor<P, T>;
  using Word = typename Desc::Word;
  static_assert(!protocol::bounded_wait(P), "EXPT: no fallback");
  static constexpr unsigned kFull = 0xffffffffu;
  static constexpr std::uint32_t kGroup = 32;

  // Whether a launch has room for the group words after its tile words.
  __device__ static bool fits(std::uint32_t num_tiles, std::uint32_t capacity) {
    return std::uint64_t{num_tiles} + (num_tiles + kGroup - 1) / kGroup <= capacity;
  }

  __device__ GroupLookback(const Desc& desc, Op op, std::uint32_t epoch, Header* header,
                           std::uint32_t watchdog_limit, std::uint32_t tile, int lane,
                           std::uint32_t num_tiles)
      : desc_(desc),
        op_(op),
        epoch_(epoch),
        wd_{header, watchdog_limit},
        tile_(tile),
        lane_(lane),
        num_tiles_(num_tiles) {}

  // All 32 lanes, tile >= 1: exclusive prefix of the tile; false on watchdog.
  // `aggregate` is the tile's own (the last tile of a group publishes its
  // group's words with it).
  __device__ bool run(const T& aggregate, T& exclusive) {
    const std::uint32_t g = tile_ / kGroup;
    const int k = static_cast<int>(tile_ % kGroup);
    const bool last_of_group = k == static_cast<int>(kGroup) - 1;
    Partial<T> acc{};      // combined value right of the current round
    std::int64_t top = g;  // groups below `top` are still to read
    bool first = true;
    while (true) {
      // Items far -> near: groups [top - m, top - 1], then (first round) the
      // own group's tiles [32g, tile - 1]; item j sits in lane 32 - c + j.
      // A group's last tile reads its own group alone first, so that its
      // group word does not wait for the group words below it.
      const int tiles_here = first ? k : 0;
      const std::int64_t room = 32 - tiles_here;
      const int m = first && last_of_group ? 0 : static_cast<int>(top < room ? top : room);
      const int c = m + tiles_here;
      const int j = lane_ - (32 - c);
      const bool active = j >= 0;
      std::uint32_t index = 0;
      if (active)
        index = j < m ? num_tiles_ + static_cast<std::uint32_t>(top - m + j)
                      : g * kGroup + static_cast<std::uint32_t>(j - m);
      // Waits only for the items above the closest PREFIX: group words lag
      // their groups by a hop, and a near PREFIX makes them unnecessary.
      Word w{};
      unsigned stop = 0;
      while (true) {
        if (active) w = desc_.load(index);
        fence<P.lookback_fence>();
        const unsigned invalid =
            __ballot_sync(kFull, active && status(w) == protocol::Status::Invalid);
        const unsigned prefix =
            __ballot_sync(kFull, active && status(w) == protocol::Status::Prefix);
        const int s = prefix ? 31 - __clz(prefix) : -1;
        const unsigned above = s < 0 ? invalid : s == 31 ? 0u : invalid & ~((2u << s) - 1u);
        if (above == 0) {
          stop = s < 0 ? 0u : 1u << s;
          break;
        }
        if (wd_.expired(tile_, lane_)) return false;
      }
      const int lo = stop ? 31 - __clz(stop) : 32 - c;
      T v{};
      if (active && lane_ >= lo) v = desc_.value(index, w);
      if (first && last_of_group) {
        // The own group's 31 other tiles are lanes 1..31.
        if (stop == 0) {
          T s = v;
#pragma unroll
          for (int off = 1; off < 32; off <<= 1) {
            const T other = cub::ShuffleDown<32>(s, off, 31, kFull);
            if (lane_ + off < 32) s = op_(s, other);
          }
          const T group = cub::ShuffleIndex<32>(s, 32 - k, kFull);
          if (lane_ == 0)
            desc_.publish(num_tiles_ + g, protocol::Status::Aggregate, op_(group, aggregate),
                          epoch_);
        }
      }
      // Suffix reduction from lane lo.
#pragma unroll
      for (int off = 1; off < 32; off <<= 1) {
        const T other = cub::ShuffleDown<32>(v, off, 31, kFull);
        if (lane_ + off < 32) v = op_(v, other);
      }
      if (c > 0) {
        const T round = cub::ShuffleIndex<32>(v, lo, kFull);
        acc = acc.valid ? Partial<T>{op_(round, acc.value), true} : Partial<T>{round, true};
      }
      top -= m;
      first = false;
      if (stop || top == 0) break;  // group 0's word covers tiles from 0
    }
    exclusive = acc.value;
    if (last_of_group && lane_ == 0)
      desc_.publish(num_tiles_ + g, protocol::Status::Prefix, op_(exclusive, aggregate), epoch_);
    return true;
  }

 private:
  __device__ protocol::Status status(Word w) const {
    return protocol::effective_status(Desc::tag(w), epoch_, P.reset);
  }

  Desc desc_;
  Op op_;
  std::uint32_t epoch_;
  Watchdog wd_;
  std::uint32_t tile_;
  int lane_;
  std::uint32_t num_tiles_;
};

}  // namespace lookback::device
