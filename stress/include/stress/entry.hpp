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
  int index = -1;          // in protocol::kCatalogue
  const char* name = "";   // catalogue name
  const char* agent = "";  // which tile algorithm runs it ("warp-lookback" or "coarsened")
  bool in_place = false;   // the protocol scans over its input
  std::int64_t tile_items = 0;
  // Bytes of temp storage for n items.
  std::size_t (*temp_bytes)(std::int64_t n) = nullptr;
  // Enqueues one scan on `stream` (no synchronisation, no error-flag read):
  // returns a CUDA error code (0: success) and fills `message` on failure.
  int (*run)(void* temp, std::size_t temp_bytes, const std::uint32_t* in, std::uint32_t* out,
             std::int64_t n, const device::Perturbation& perturb, std::uint32_t watchdog_rounds,
             CUstream_st* stream, std::string* message) = nullptr;
};

// Defined once per entry (src/entry.cu compiled with LOOKBACK_STRESS_ENTRY=I).
template <int I>
EntryRunner make_entry();

}  // namespace lookback::stress
