// splitmix64 (Steele, Lea, Flood 2014): a fast, seedable 64-bit mixer, the
// same on host and device. Tests, benchmarks and stress harnesses derive
// their pseudo-random inputs and schedules from it, so a seed means the same
// thing everywhere.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define LOOKBACK_SPLITMIX_HD __host__ __device__
#else
#define LOOKBACK_SPLITMIX_HD
#endif

namespace lookback {

LOOKBACK_SPLITMIX_HD constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace lookback
