// Choosing a variant: a configuration type names the variant (and so its
// protocol from the catalogue), the tuning policy, and compile-time options.
//
//   lookback::WarpLookback, lookback::Coarsened, lookback::Pipelined,
//   lookback::Fallback
//   lookback::DefaultConfig<T>   what the API picks when none is named
//   lookback::Deterministic<C>   same variant, run-to-run bitwise identical
//                                floating-point results
//   lookback::ScanConfig<Variant, Policy, deterministic, instrumented,
//                        scalar_path>       everything spelled out
//
// Each configuration carries two protocols, both straight from the
// catalogue: `protocol` for out-of-place scans and `protocol_in_place` for
// d_in == d_out (only the fallback differs: "fallback-inplace"). The API
// changes one field of them: the stateless CUB-shaped DeviceScan uses
// Reset::HostMemset; ScanPlan uses the catalogue's Reset::Epoch.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lookback/device/perturb.hpp"
#include "lookback/device/policy.hpp"
#include "lookback/protocol/catalogue.hpp"
#include "lookback/protocol/spec.hpp"

#ifndef LOOKBACK_DEFAULT_WATCHDOG_ROUNDS
// Bound on the rounds of every wait loop (0: unbounded). Test and stress
// builds define it (kernels/CMakeLists.txt); production leaves it 0.
#define LOOKBACK_DEFAULT_WATCHDOG_ROUNDS 0u
#endif

namespace lookback {

enum class Variant : std::uint8_t { WarpLookback, Coarsened, Pipelined, Fallback };

constexpr const char* to_string(Variant v) {
  switch (v) {
    case Variant::WarpLookback:
      return "warp-lookback";
    case Variant::Coarsened:
      return "coarsened";
    case Variant::Pipelined:
      return "pipelined";
    case Variant::Fallback:
      return "fallback";
  }
  return "?";
}

namespace detail {
template <Variant V>
constexpr protocol::Protocol catalogue_protocol(bool in_place) {
  if constexpr (V == Variant::WarpLookback) {
    return protocol::production("warp-lookback");
  } else if constexpr (V == Variant::Coarsened) {
    return protocol::production("coarsened");
  } else if constexpr (V == Variant::Pipelined) {
    return protocol::production("pipelined");
  } else {
    return in_place ? protocol::production("fallback-inplace") : protocol::production("fallback");
  }
}
template <Variant V>
using default_policy_t =
    std::conditional_t<V == Variant::WarpLookback, WarpLookbackPolicy,
                       std::conditional_t<V == Variant::Fallback, FallbackPolicy,
                                          std::conditional_t<V == Variant::Pipelined,
                                                             PipelinedPolicy, CoarsenedPolicy>>>;
}  // namespace detail

template <Variant V, class Policy = detail::default_policy_t<V>, bool kDeterministic = false,
          bool kInstrumented = false, bool kScalarPath = true>
struct ScanConfig {
  static constexpr Variant variant = V;
  using policy = Policy;
  // Deterministic floating point: the look-back folds tile aggregates left to
  // right from the closest PREFIX, so outputs do not depend on scheduling.
  static constexpr bool deterministic = kDeterministic;
  // Look-back statistics in the temp-storage header, and stall injection.
  static constexpr bool instrumented = kInstrumented;
  // Compile the scalar path for pointers not aligned to the vector width
  // (otherwise such pointers are an error).
  static constexpr bool scalar_path = kScalarPath;
  static constexpr protocol::Protocol protocol = detail::catalogue_protocol<V>(false);
  static constexpr protocol::Protocol protocol_in_place = detail::catalogue_protocol<V>(true);
};

using WarpLookback = ScanConfig<Variant::WarpLookback>;
using Coarsened = ScanConfig<Variant::Coarsened>;
using Pipelined = ScanConfig<Variant::Pipelined>;
using Fallback = ScanConfig<Variant::Fallback>;

// What DeviceScan and ScanPlan use unless told otherwise: Pipelined for 4-
// and 8-byte values, Coarsened for other sizes (1- and 2-byte values were
// never measured with Pipelined). H100, against Coarsened (bench/results/
// README.md, 2026-11-26): u32 sum/max and f32 sum as fast or faster at every
// power of two from 2^15 items (0-17% below 2^23, 11-23% at 2^23-2^25, 3-9%
// from 2^26), at most 0.9 us behind at 2^10-2^14; u64 sum faster from 2^19
// (6% at 2^20, 12% at 2^24, 2% at 2^30) and at 2^10-2^12, 0.5-1.2 us behind
// at 2^13-2^18. Those u64 sizes, and u32 sizes such as 2^20 + 54,919 (1 us
// behind), end in a partial tile, whose loads waited on each other until
// 2026-11-26 evening; since then pipelined u64 is ahead at every power of
// two from 2^10 (8.9 us against 10.6 at 2^16) and u32 at 2^20 + 54,919
// (11.87 against 11.94; bench/results/README.md, "Partial last tiles"), and
// since the smaller partial-tile code (2026-11-26, late) pipelined u32 is
// ahead at every power of two from 2^10 too (7.2 us against 8.7 at 2^10;
// "Partial-tile code size").
template <class T>
using DefaultConfig = std::conditional_t<sizeof(T) == 4 || sizeof(T) == 8, Pipelined, Coarsened>;

template <class C>
using Deterministic =
    ScanConfig<C::variant, typename C::policy, true, C::instrumented, C::scalar_path>;
template <class C>
using Instrumented =
    ScanConfig<C::variant, typename C::policy, C::deterministic, true, C::scalar_path>;

// Run-time options of one call.
struct Options {
  // Every wait loop gives up after this many rounds (0: never) and the call
  // returns cudaErrorLaunchTimeout. Test and stress builds default to a bound.
  std::uint32_t watchdog_rounds = LOOKBACK_DEFAULT_WATCHDOG_ROUNDS;
  // Synchronize the stream after the launch and read the kernels' error flag
  // (needed to report a watchdog expiry; makes the call blocking).
  bool check_errors = LOOKBACK_DEFAULT_WATCHDOG_ROUNDS != 0;
  // Use 16-byte vector accesses when the pointers allow it (false: always
  // the scalar path; for tests).
  bool allow_vector = true;
  // Instrumented configurations only: schedule perturbations (delays,
  // stalled tiles, tile-id permutations, pre-stress; device/perturb.hpp),
  // e.g. perturb.stall_ns / perturb.stall_every to force look-back waits
  // and fallbacks.
  device::Perturbation perturb{};
};

// A protocol as a type: nvcc 13 miscompiles __global__ templates that take a
// class-type non-type template parameter directly.
template <protocol::Protocol P>
struct ProtocolTag {
  static constexpr protocol::Protocol value = P;
};

constexpr protocol::Protocol with_reset(protocol::Protocol p, protocol::Reset r) {
  p.reset = r;
  return p;
}

}  // namespace lookback
