// Layout of the scan's temporary storage: a small header followed by the
// tile descriptors. Host and device code include this (no CUDA-only
// constructs), so the host sizes exactly what the kernels address.
//
//   [ Header (kHeaderBytes) | descriptor region ]
//
// The descriptor region holds room for `capacity` descriptors (a multiple of
// kDescriptorGroup = 32) as a structure of arrays, each array starting on a
// 128-byte line:
//
//   words      [capacity]  what a look-back reads first: the packed word
//                          (8 or 16 bytes, one per 32-byte sector:
//                          kPackedWordStride), or the split layout's 32-bit
//                          tag (contiguous)
//   aggregate  [capacity]  split layout only: aggregate values
//   inclusive  [capacity]  split layout only: inclusive-prefix values
//                          (absent when split_value_words(P) == 1)
//
// So 32 split tags fill one line (a warp's look-back window reads at most
// two lines of tags), and no tag shares a cache line with a value: the value
// a reader takes after acquiring a tag always lives in another line.
//
// The capacity comes from the temp-storage size (descriptor_capacity), which
// the host knows on every call and passes to the kernel (DescriptorStorage in
// KernelParams), so host and kernel place the value arrays alike. Only the
// words persist from one launch to the next (values are always written
// before their tag, in the same launch), and the words array starts at the
// region's beginning whatever the capacity.
//
// Both of the spec's reset schemes use the same layout:
//   Reset::HostMemset  the host clears the header and the words of the
//                      descriptors a launch uses (one cudaMemsetAsync)
//                      before every launch;
//   Reset::Epoch       the storage is zeroed once when it is created and never
//                      again by the host (except after a launch that
//                      reported an error): descriptors carry the launch
//                      epoch and each launch advances it. Every
//                      launch on it must pass the same temp-storage size: a
//                      different capacity would move the value arrays over
//                      words a later, larger launch reads as tags.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lookback/protocol/spec.hpp"  // LOOKBACK_HD

namespace lookback::device {

// Codes the kernels leave in Header::error.
enum class DeviceError : std::uint32_t {
  None = 0,
  WatchdogExpired = 1,     // a wait loop ran past the watchdog bound
  TicketOverflow = 2,      // a block drew a tile id >= the number of tiles
  DescriptorWentBack = 3,  // Fold::LeftFold's second pass read INVALID where its
                           // first pass had read a published descriptor
};

// Look-back statistics, written only by instrumented kernels.
struct LookbackStats {
  unsigned long long windows;        // windows read (first look-back pass)
  unsigned long long spin_rounds;    // re-reads of a window because a lane was INVALID
  unsigned long long fallbacks;      // predecessor tiles reduced by a waiting tile
  unsigned long long fallback_wins;  // ... whose CAS published the aggregate
  // Deterministic mode: windows its second pass read again (passed windows
  // beyond Protocol::held_windows), and how many of those held a PREFIX by
  // then (the fold restarted there).
  unsigned long long reread_windows;
  unsigned long long reread_restarts;

  // Adds another storage's counts (a plan of several storages reports one
  // sum; every field, so that a new one is not forgotten there).
  LookbackStats& operator+=(const LookbackStats& o) {
    windows += o.windows;
    spin_rounds += o.spin_rounds;
    fallbacks += o.fallbacks;
    fallback_wins += o.fallback_wins;
    reread_windows += o.reread_windows;
    reread_restarts += o.reread_restarts;
    return *this;
  }
};

struct alignas(16) Header {
  // The launch word: the ticket (draws so far in this launch: the next tile
  // id under TileIdSource::Ticket) in the low 32 bits and the launch epoch
  // (Reset::Epoch) in the high 32, so one RMW draws a tile id and reads the
  // epoch (launch_state.cuh; draw_word, draw_count, draw_epoch below).
  std::uint64_t draw;
  std::uint32_t done;        // blocks finished in an epoch-wrapping launch (Reset::Epoch)
  std::uint32_t error;       // DeviceError, first one wins
  std::uint32_t error_tile;  // tile that raised `error`
  std::uint32_t high_water;  // most tiles any launch on this storage used (epoch wrap clear)
  std::uint32_t reserved[2];
  LookbackStats stats;
};

// One cache line; the header and every descriptor array start on one.
inline constexpr std::size_t kLineBytes = 128;
inline constexpr std::size_t kHeaderBytes = kLineBytes;
// A user pointer is aligned up to this (temp_storage_bytes includes the slack).
inline constexpr std::size_t kTempAlignment = kLineBytes;
static_assert(sizeof(Header) <= kHeaderBytes);

LOOKBACK_HD constexpr std::uint64_t draw_word(std::uint32_t count, std::uint32_t epoch) {
  return (static_cast<std::uint64_t>(epoch) << 32) | count;
}
LOOKBACK_HD constexpr std::uint32_t draw_count(std::uint64_t word) {
  return static_cast<std::uint32_t>(word);
}
LOOKBACK_HD constexpr std::uint32_t draw_epoch(std::uint64_t word) {
  return static_cast<std::uint32_t>(word >> 32);
}

// Descriptors are laid out in groups of 32: one line of split tags.
inline constexpr std::uint64_t kDescriptorGroup = 32;
// Tile ids are below 2^31, so no launch needs more descriptors than this.
inline constexpr std::uint64_t kMaxDescriptorCapacity = std::uint64_t{1} << 31;

// Packed words lie one per 32-byte sector (the L2's unit of access), not
// side by side. On the H100, with 8-byte words 4 to a sector, the blocks
// publishing neighbouring tiles and the look-backs polling them shared
// sectors; spreading the words took the coarsened shape from 92.7% to
// 96.2% of copy bandwidth at 2^30 items and the pipelined one (with relaxed
// publishes) from 97.0% to 99.1% (bench/explore/tile_bound.cu, group
// pdesc). Split tags stay contiguous, 32 to a line.
inline constexpr std::size_t kPackedWordStride = 32;

// How a layout stores one descriptor (descriptor.cuh gives each its shape).
struct DescriptorShape {
  std::size_t word_bytes;   // the word a look-back reads: packed word or split tag
  std::size_t word_stride;  // bytes from one tile's word to the next (>= word_bytes)
  std::size_t value_bytes;  // split layout: one value slot; packed: 0
  int value_arrays;         // split layout: 2 (aggregate, inclusive) or 1; packed: 0
  friend constexpr bool operator==(const DescriptorShape&, const DescriptorShape&) = default;
};

LOOKBACK_HD constexpr std::uint64_t round_up(std::uint64_t x, std::uint64_t to) {
  return (x + to - 1) / to * to;
}
// Descriptors a launch of `num_tiles` tiles needs room for.
LOOKBACK_HD constexpr std::uint64_t capacity_for_tiles(std::uint64_t num_tiles) {
  return round_up(num_tiles, kDescriptorGroup);
}
// Byte offset (from the region's start) of value array `k` (0: aggregate,
// 1: inclusive); value_array_offset(capacity, s, s.value_arrays) is the size
// of the whole region.
LOOKBACK_HD constexpr std::uint64_t value_array_offset(std::uint64_t capacity, DescriptorShape s,
                                                       int k) {
  return round_up(capacity * s.word_stride, kLineBytes) +
         static_cast<std::uint64_t>(k) * round_up(capacity * s.value_bytes, kLineBytes);
}
LOOKBACK_HD constexpr std::uint64_t region_bytes(std::uint64_t capacity, DescriptorShape s) {
  return value_array_offset(capacity, s, s.value_arrays);
}

// Bytes of temp storage for a launch of `num_tiles` tiles, including slack
// to align a user pointer up to kTempAlignment.
constexpr std::size_t temp_storage_bytes(std::uint64_t num_tiles, DescriptorShape s) {
  return kHeaderBytes + static_cast<std::size_t>(region_bytes(capacity_for_tiles(num_tiles), s)) +
         kTempAlignment;
}

// The descriptors a temp-storage allocation of `temp_bytes` holds: the
// largest multiple of 32 whose region fits (at least capacity_for_tiles(n)
// when temp_bytes >= temp_storage_bytes(n, s)).
constexpr std::uint64_t descriptor_capacity(std::size_t temp_bytes, DescriptorShape s) {
  if (temp_bytes < kHeaderBytes + kTempAlignment) return 0;
  const std::uint64_t avail = temp_bytes - kHeaderBytes - kTempAlignment;
  std::uint64_t lo = 0, hi = kMaxDescriptorCapacity / kDescriptorGroup;  // groups
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (region_bytes(mid * kDescriptorGroup, s) <= avail) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo * kDescriptorGroup;
}

// Bytes a HostMemset launch clears: the header and the words of the
// descriptors it uses (they start right after the header). Value arrays need
// no clearing: a value is only read after its tag, written in the same launch.
constexpr std::size_t cleared_bytes(std::uint64_t num_tiles, DescriptorShape s) {
  return kHeaderBytes + static_cast<std::size_t>(num_tiles) * s.word_stride;
}

// What a kernel gets to address its descriptors.
struct DescriptorStorage {
  void* base;              // the descriptor region, kLineBytes aligned
  std::uint32_t capacity;  // descriptors it holds (descriptor_capacity)
};

// The header of a temp-storage allocation (aligned up) and its descriptors.
inline Header* header_of(void* temp) {
  const auto p = reinterpret_cast<std::uintptr_t>(temp);
  return reinterpret_cast<Header*>((p + kTempAlignment - 1) & ~(kTempAlignment - 1));
}
inline DescriptorStorage descriptors_of(Header* h, std::uint64_t capacity) {
  return DescriptorStorage{reinterpret_cast<unsigned char*>(h) + kHeaderBytes,
                           static_cast<std::uint32_t>(capacity)};
}

}  // namespace lookback::device
