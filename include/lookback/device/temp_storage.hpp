// Layout of the scan's temporary storage: a small header followed by one
// descriptor per tile. Host and device code include this (no CUDA-only
// constructs), so the host sizes exactly what the kernels address.
//
//   [ Header (kHeaderBytes) | descriptor 0 | descriptor 1 | ... ]
//
// Both of the spec's reset schemes use the same layout:
//   Reset::HostMemset  the host clears header + the descriptors a launch uses
//                      (one cudaMemsetAsync) before every launch;
//   Reset::Epoch       the storage is zeroed once when it is created and never
//                      again by the host: descriptors carry the launch epoch
//                      and the last block of each launch advances it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lookback::device {

// Codes the kernels leave in Header::error.
enum class DeviceError : std::uint32_t {
  None = 0,
  WatchdogExpired = 1,  // a wait loop ran past the watchdog bound
  TicketOverflow = 2,   // a block drew a tile id >= the number of tiles
};

// Look-back statistics, written only by instrumented kernels.
struct LookbackStats {
  unsigned long long windows;        // windows read (first look-back pass)
  unsigned long long spin_rounds;    // re-reads of a window because a lane was INVALID
  unsigned long long fallbacks;      // predecessor tiles reduced by a waiting tile
  unsigned long long fallback_wins;  // ... whose CAS published the aggregate
};

struct alignas(16) Header {
  std::uint32_t ticket;      // next tile id (TileIdSource::Ticket)
  std::uint32_t done;        // blocks finished in this launch (Reset::Epoch)
  std::uint32_t epoch;       // current launch epoch (Reset::Epoch)
  std::uint32_t error;       // DeviceError, first one wins
  std::uint32_t error_tile;  // tile that raised `error`
  std::uint32_t high_water;  // most tiles any launch on this storage used (epoch wrap clear)
  std::uint32_t reserved[2];
  LookbackStats stats;
};

inline constexpr std::size_t kHeaderBytes = 128;
inline constexpr std::size_t kTempAlignment = 16;
static_assert(sizeof(Header) <= kHeaderBytes);

// Bytes of temp storage for `num_tiles` descriptors of `descriptor_bytes`
// each, including slack to align a user pointer up to kTempAlignment.
constexpr std::size_t temp_storage_bytes(std::uint64_t num_tiles, std::size_t descriptor_bytes) {
  return kHeaderBytes + static_cast<std::size_t>(num_tiles) * descriptor_bytes + kTempAlignment;
}

// Bytes a HostMemset launch clears: the header and the descriptors it uses.
constexpr std::size_t cleared_bytes(std::uint64_t num_tiles, std::size_t descriptor_bytes) {
  return kHeaderBytes + static_cast<std::size_t>(num_tiles) * descriptor_bytes;
}

// The header of a temp-storage allocation (aligned up) and its descriptors.
inline Header* header_of(void* temp) {
  const auto p = reinterpret_cast<std::uintptr_t>(temp);
  return reinterpret_cast<Header*>((p + kTempAlignment - 1) & ~(kTempAlignment - 1));
}
inline void* descriptors_of(Header* h) {
  return reinterpret_cast<unsigned char*>(h) + kHeaderBytes;
}

}  // namespace lookback::device
