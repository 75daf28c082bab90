// One catalogue entry (production variant or mutant) compiled as a real,
// instrumented kernel: u32 inclusive sum, the protocol value taken straight
// from protocol::kCatalogue[index]. Host-only interface (no CUDA headers) so
// the harness and its tests stay plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "lookback/device/perturb.hpp"

struct CUstream_st;

namespace lookback::stress {

struct EntryRunner {
  int index = -1;               // in protocol::kCatalogue
  const char* name = "";        // catalogue name
  const char* agent = "";       // which tile algorithm runs it ("warp-lookback" or "coarsened")
  bool in_place = false;        // the protocol scans over its input
  bool fallback = false;        // the decoupled-fallback family (spin bound or not)
  bool blockidx_tiles = false;  // tile ids come from blockIdx, not from a ticket
  bool persistent = false;      // a grid of resident blocks draws every tile by ticket
  std::int64_t tile_items = 0;
  // Bytes of temp storage for n items.
  std::size_t (*temp_bytes)(std::int64_t n) = nullptr;
  // Enqueues one scan on `stream` (no synchronisation, no error-flag read):
  // returns a CUDA error code (0: success) and fills `message` on failure.
  int (*run)(void* temp, std::size_t temp_bytes, const std::uint32_t* in, std::uint32_t* out,
             std::int64_t n, const device::Perturbation& perturb, std::uint32_t watchdog_rounds,
             CUstream_st* stream, std::string* message) = nullptr;
  // Scan blocks of this kernel one SM holds at once (occupancy calculator).
  int (*blocks_per_sm)() = nullptr;
  // Enqueues, after a scan of n items on `temp` (of `temp_bytes`, as passed
  // to run: it fixes where the descriptors lie), a check of the final
  // descriptor states: every tile's owner last published PREFIX (tile 0:
  // protocol::first_publish_status), and a descriptor never moves down, so a
  // launch that raised no device error must leave each of them there. One
  // that ended lower moved backwards (the monotone-status property).
  // slot[0]: descriptors found lower; slot[1]: the first of them, as
  // encode_regression(tile, status). Returns a CUDA error code (0: success).
  int (*check_final)(void* temp, std::size_t temp_bytes, std::int64_t n, std::uint32_t* slot,
                     CUstream_st* stream) = nullptr;
};

// A regressed descriptor as one word, larger for lower tiles (so an atomic
// max keeps the first): tile < 2^24, status in the low byte.
constexpr std::uint32_t encode_regression(std::uint32_t tile, std::uint32_t status) {
  return ((0xffffffu - (tile & 0xffffffu)) << 8) | (status & 0xffu);
}
constexpr std::uint32_t regression_tile(std::uint32_t word) {
  return 0xffffffu - (word >> 8);
}
constexpr std::uint32_t regression_status(std::uint32_t word) {
  return word & 0xffu;
}

// Defined once per entry (src/entry.cu compiled with LOOKBACK_STRESS_ENTRY=I).
template <int I>
EntryRunner make_entry();

}  // namespace lookback::stress
