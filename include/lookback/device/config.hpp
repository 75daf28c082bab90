// Choosing a variant: a configuration type names the variant (and so its
// protocol from the catalogue), the tuning policy, and compile-time options.
//
//   lookback::WarpLookback, lookback::Coarsened, lookback::Pipelined,
//   lookback::Fallback, lookback::WarpLookbackSmall (small tiles),
//   lookback::PipelinedWide (8-byte shape for GPUs of more bandwidth per
//   SM), lookback::PacedWarpLookback<gbps> (first wave loads in ticket order)
//   lookback::DefaultConfig<T>   what the API picks when none is named
//   lookback::SizeAdaptive<S, L, bytes>  S up to `bytes` of input, L above
//   lookback::DeviceAdaptive<B, W, gbps> W on GPUs of at least `gbps` of DRAM
//                                bandwidth per SM, B on the others
//   lookback::Deterministic<C>   same variant, run-to-run bitwise identical
//                                floating-point results (of DefaultConfig<T>:
//                                DeterministicDefaultConfig<T>, own switches;
//                                integer sums run the default: runs_on_t)
//   lookback::ScanConfig<Variant, Policy, deterministic, instrumented,
//                        scalar_path>       everything spelled out
//
// Each ScanConfig carries two protocols, both straight from the catalogue
// (a SizeAdaptive's two halves carry theirs): `protocol` for out-of-place scans and
// `protocol_in_place` for d_in == d_out (only the fallback differs: "fallback-inplace"). The API
// changes one field of them: the stateless CUB-shaped DeviceScan uses
// Reset::HostMemset; ScanPlan uses the catalogue's Reset::Epoch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "lookback/device/perturb.hpp"
#include "lookback/device/policy.hpp"
#include "lookback/device/trace.hpp"
#include "lookback/ops.hpp"
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
// The catalogue entry a kernel is generated from; deterministic: its
// "-deterministic" entry (Fold::LeftFold), so the model checks that too.
template <Variant V, bool kInPlace, bool kDeterministic>
constexpr protocol::Protocol catalogue_protocol() {
  if constexpr (V == Variant::WarpLookback) {
    return protocol::production("warp-lookback", kDeterministic);
  } else if constexpr (V == Variant::Coarsened) {
    return protocol::production("coarsened", kDeterministic);
  } else if constexpr (V == Variant::Pipelined) {
    return protocol::production("pipelined", kDeterministic);
  } else if constexpr (kInPlace) {
    return protocol::production("fallback-inplace", kDeterministic);
  } else {
    return protocol::production("fallback", kDeterministic);
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
  // right from the closest PREFIX, so outputs do not depend on scheduling
  // (the protocols below are then Fold::LeftFold).
  static constexpr bool deterministic = kDeterministic;
  // Look-back statistics in the temp-storage header, and stall injection.
  static constexpr bool instrumented = kInstrumented;
  // Compile the scalar path for pointers not aligned to the vector width
  // (otherwise such pointers are an error).
  static constexpr bool scalar_path = kScalarPath;
  static constexpr protocol::Protocol protocol =
      detail::catalogue_protocol<V, false, kDeterministic>();
  static constexpr protocol::Protocol protocol_in_place =
      detail::catalogue_protocol<V, true, kDeterministic>();
};

using WarpLookback = ScanConfig<Variant::WarpLookback>;
// warp-lookback with small tiles, for small inputs (DefaultConfig's small half).
using WarpLookbackSmall = ScanConfig<Variant::WarpLookback, WarpLookbackSmallPolicy>;
using Coarsened = ScanConfig<Variant::Coarsened>;
using Pipelined = ScanConfig<Variant::Pipelined>;
// Pipelined with the 8-byte shape for GPUs of more bandwidth per SM
// (PipelinedWidePolicy; DefaultConfig picks it by device and size).
using PipelinedWide = ScanConfig<Variant::Pipelined, PipelinedWidePolicy>;
using Fallback = ScanConfig<Variant::Fallback>;
// warp-lookback whose first wave loads in ticket order, at about kGBps
// (PacedFirstWave, first_wave.cuh): the deterministic default's tier at
// about one wave of tiles (DeterministicDefaultConfig).
template <int kGBps>
using PacedWarpLookback =
    ScanConfig<Variant::WarpLookback, PacedFirstWave<WarpLookbackPolicy, kGBps>>;

namespace detail {
// What the two kinds of adaptive configuration share: two whole
// configurations, which must take the same flags (Deterministic<> and
// Instrumented<> set them on both).
template <class A, class B>
struct ConfigPair {
  static_assert(A::deterministic == B::deterministic && A::instrumented == B::instrumented,
                "both halves of an adaptive configuration take the same flags");
  static constexpr bool deterministic = A::deterministic;
  static constexpr bool instrumented = A::instrumented;
};
}  // namespace detail

// A configuration picked per call by the size of the input: Small for
// scans of at most MaxSmallBytes bytes (n * sizeof(T)), Large above. Both are
// whole configurations (ScanConfigs) with their own protocol and kernels;
// nothing is shared between them at run time. The stateless DeviceScan sizes
// and runs the one that n picks (a query above the switch returns enough for
// every smaller n too); a ScanPlan of a SizeAdaptive holds one storage for
// each, since Reset::Epoch storage belongs to one configuration
// (dispatch.cuh). The most items it takes are Large's. The API recognises
// SizeAdaptive itself, not classes derived from it.
template <class Small, class Large, std::int64_t MaxSmallBytes>
struct SizeAdaptive : detail::ConfigPair<Small, Large> {
  static_assert(MaxSmallBytes >= 0);
  using small = Small;
  using large = Large;
  static constexpr std::int64_t max_small_bytes = MaxSmallBytes;
  template <class T>
  static constexpr std::int64_t max_small_items() {
    return MaxSmallBytes / static_cast<std::int64_t>(sizeof(T));
  }
  // Negative n picks Small too, whose validation reports it.
  template <class T>
  static constexpr bool picks_small(std::int64_t n) {
    return n <= max_small_items<T>();
  }
};

template <class C>
inline constexpr bool is_size_adaptive_v = false;
template <class S, class L, std::int64_t B>
inline constexpr bool is_size_adaptive_v<SizeAdaptive<S, L, B>> = true;

// A configuration picked by the GPU a scan runs on: Wide on GPUs whose peak
// DRAM bandwidth per SM is at least WideGBpsPerSm (device_memory.hpp), Base
// on the others. The policies are compile-time per architecture, but GPUs
// of one architecture differ in what they need: by Little's law an SM must
// keep bandwidth x latency bytes in flight, and an H200 moves 1.44x an
// H100's bytes per SM with the same SMs and L2 (bench/results/h200/). Both
// halves are whole configurations with their own kernels. The stateless
// DeviceScan picks per call (the current device; a size query returns
// enough for either half); a ScanPlan picks once, at init(), for the device
// current then, and holds storage for that half only. The most items it
// takes are the fewer of the two halves'. A SizeAdaptive's half may be a
// DeviceAdaptive and the reverse (DefaultConfig's large half for 1- and
// 8-byte values: detail::default_tiers).
template <class Base, class Wide, int WideGBpsPerSm>
struct DeviceAdaptive : detail::ConfigPair<Base, Wide> {
  static_assert(WideGBpsPerSm >= 0);
  using base = Base;
  using wide = Wide;
  static constexpr int wide_gbps_per_sm = WideGBpsPerSm;
  static constexpr bool picks_wide(double dram_gbps_per_sm) {
    return dram_gbps_per_sm >= WideGBpsPerSm;
  }
};

template <class C>
inline constexpr bool is_device_adaptive_v = false;
template <class B, class W, int G>
inline constexpr bool is_device_adaptive_v<DeviceAdaptive<B, W, G>> = true;

namespace detail {
// C with each whole configuration in it (C itself, or both halves of an
// adaptive configuration, recursively) replaced by Map<that ScanConfig>::type:
// the wrappers below and the bench's copies of the default (no scalar path)
// take DefaultConfig's composition from here rather than repeating it.
template <class C, template <class> class Map>
struct map_configs {
  using type = typename Map<C>::type;
};
template <class S, class L, std::int64_t B, template <class> class Map>
struct map_configs<SizeAdaptive<S, L, B>, Map> {
  using type =
      SizeAdaptive<typename map_configs<S, Map>::type, typename map_configs<L, Map>::type, B>;
};
template <class B, class W, int G, template <class> class Map>
struct map_configs<DeviceAdaptive<B, W, G>, Map> {
  using type =
      DeviceAdaptive<typename map_configs<B, Map>::type, typename map_configs<W, Map>::type, G>;
};
template <class C, template <class> class Map>
using map_configs_t = typename map_configs<C, Map>::type;

template <bool kDeterministic, bool kInstrumented>
struct set_flags {
  template <class C>
  struct on {
    using type =
        ScanConfig<C::variant, typename C::policy, kDeterministic, kInstrumented, C::scalar_path>;
  };
};
}  // namespace detail

// What DeviceScan and ScanPlan use unless told otherwise: warp-lookback with
// small tiles (WarpLookbackSmall, 4096 items of up to 4 bytes, 2048 of 8)
// for small inputs, pipelined for large ones; Coarsened for values of other
// sizes. The small tiles run up to default_max_small_bytes of input: 2 MiB
// of 4-byte values (2^19 items), 8 MiB of 8-byte ones (2^20), 1 MiB of 2-byte
// (2^19) and 128 KiB of 1-byte ones (2^17). 1-, 2- and 4-byte values have a
// middle tier up to default_max_middle_bytes: WarpLookback's 224 x 44 tiles
// up to 16 MiB of 4-byte values (2^22 items) and 2.5 MiB of 2-byte ones
// (1.25 x 2^20), Coarsened up to 4 MiB of 1-byte ones (2^22; 14 MiB on GPUs
// of HBM3e-class bandwidth per SM); pipelined above that, for 8-byte values
// on those GPUs pipelined-wide above default_wide_switch_bytes.
//
// The switches (u32 / u64 / u16 / u8 sums, bench --suite explore, groups
// explore_default*, two or three passes; H100: bench/results/README.md
// "Relaxed packed publishes", H200: bench/results/h200/README.md "The
// default's switches" and "Three tiers"):
// - u32, H100 / H200 alike: the small tiles are the fastest up to 2^18 items
//   and level with 224 x 44 at 2^19. From 1.25 x 2^19 to 2^21, 224 x 44 is
//   ahead of the small tiles by up to 0.5 us (2^20: 10.24 against 10.48 us
//   on the H100, 9.57 against 9.85 on the H200), except at 1.5 x 2^20 (small
//   tiles 0.2-0.4 us ahead). Pipelined trails 224 x 44 by 0.5-1.3 us up to
//   2^21, 0.7 at 2.5 x 2^20, 0.1-0.2 at 3 x 2^20 and (H200) 0.6 at
//   3.5 x 2^20; at 2^22 the two are level (H100: pipelined 0.1 us ahead).
//   With the middle tier the default is within 0.21 us of the fastest tier
//   from 2^18 to 2^22 on the H200 (bench/results/h200/three-tiers/).
// - u64: the small tiles lead up to 1.5 x 2^17; from 2^18 to 2^20 they and
//   224 x 20 take turns within 0.3 us, with pipelined 0.5-1.1 us behind;
//   pipelined leads from 1.75 x 2^20 (no middle tier: it would win nothing).
// - u16: the small tiles 0.4-0.8 us ahead of pipelined at 1.5 x 2^18 - 2^19,
//   level from 1.5 x 2^19; u8: 0.4-0.9 us from 1.5 x 2^17 to 2^19, level from
//   1.5 x 2^19. Above the small tiles (bench/results/h200/three-tiers/narrow/
//   and the H100's relaxed-publish/new-default/, two passes each):
//   - u16: 224 x 44 0.2-0.7 us ahead of pipelined from 1.25 x 2^19 to
//     1.25 x 2^20 on both GPUs, 0.4 behind at 1.5 x 2^20. Coarsened would
//     reach 2^21 and win more on the H200, but on the H100 it is at most
//     0.25 us ahead of pipelined there (behind at 1.75 x 2^20);
//   - u8: coarsened 0.7-1.4 us ahead from 2^19 to 2^22 on both (2^22, mean
//     of the passes: 10.69 against 12.06 us on the H200, 10.99 against 12.34
//     on the H100). Above 2^22: on the H200 1.4-2.3 us ahead up to 2^23 and
//     level at 2^24; on the H100 2^23 not measured, pipelined 4-8% ahead at
//     2^24-2^26.
//   With these middle tiers the H200's default is within 0.1 us of its
//   fastest tier from 2^16 to 2^22 u8 items, and within 0.14 us up to 2^20
//   u16 items, 0.3-0.55 behind coarsened from 1.25 x 2^20 to 2^21
//   (bench/results/h200/three-tiers/narrow-tiers/final/).
// - Below 2^18 items the small tiles beat 224 x 44 by 0.6-1.3 us from
//   1.5 x 2^13 to 2^16 items (explore_small_warp*).
// - Pipelined above: for u16 92.3% of copy at 2^30 against coarsened's
//   82.6% (u8 65.2% against 64.4%; both measured before the relaxed
//   publishes).
// History: Pipelined at every size for 4- and 8-byte values and Coarsened
// for the others until 2026-11-27; that day WarpLookback up to 4 MiB, then
// WarpLookbackSmall up to 2 MiB (512 KiB of 2-byte, 128 KiB of 1-byte
// values) while the one-tile variants still published with a release, then
// WarpLookbackSmall up to 8 MiB of 4- and 8-byte values; the middle tier
// for 4-byte values since 2026-11-28, for 1- and 2-byte ones since 2026-11-29
// (when the 1-byte small share went from 512 back to 128 KiB: on the H100
// coarsened is 0.1-0.55 us ahead of the small tiles from 1.5 x 2^17 to 2^19
// u8 items, on the H200 within 0.1 us up to 1.5 x 2^18 and 0.7 ahead at 2^19;
// the small tiles lead by 0.4-0.9 us at 2^17).
constexpr std::int64_t default_max_small_bytes(std::size_t value_bytes) {
  return value_bytes == 1   ? std::int64_t{128} << 10
         : value_bytes == 2 ? std::int64_t{1} << 20
         : value_bytes == 4 ? std::int64_t{2} << 20
                            : std::int64_t{8} << 20;
}
// The middle tier's share of 1-, 2- and 4-byte values (8-byte values have
// no middle tier; values of other sizes no SizeAdaptive at all), on GPUs
// below kWideGBpsPerSm of DRAM bandwidth per SM (the H100s) and from it
// (wide_gpu: the H200). Only 1-byte values differ: on the H200 coarsened
// stays 1.4-2.4 us (7-15%) ahead of pipelined from 5 x 2^20 to 14 x 2^20
// u8 items and is level at 2^24 (explore_default_u8 to 2^24, three passes
// on each of two cards; bench/results/h200/README.md, "Wide-GPU switches"),
// while the H100 has pipelined 4-8% ahead from 2^24 and 2^23 unmeasured, so
// it keeps 4 MiB.
constexpr std::int64_t default_max_middle_bytes(std::size_t value_bytes, bool wide_gpu = false) {
  return value_bytes == 1   ? (wide_gpu ? std::int64_t{14} << 20 : std::int64_t{4} << 20)
         : value_bytes == 2 ? std::int64_t{5} << 19
                            : std::int64_t{16} << 20;
}
// 8-byte values above the small tiles on GPUs of HBM3e-class bandwidth per
// SM (kWideGBpsPerSm, policy.hpp): Pipelined up to this many bytes of input,
// PipelinedWide above; on the others Pipelined at every size. On the H200
// (explore_wide_switch*, 2^20 to 2^25 items in quarter steps, three passes
// on each of two cards; bench/results/h200/README.md, "Bring-up" and
// "Wide-GPU switches") the wide shape pays for u64 sums from 2^24 items and
// is level at 12-14 x 2^20; below that Pipelined's shape is 0.2-1.6 us
// ahead at every size but 3.5-4 x 2^20. For f64 sums it pays from 3.5 x
// 2^20 items, Pipelined ahead by up to 1.1 us below: the wide kernel runs
// f64 2.4% faster than u64 at 2^25 items, Pipelined's runs both alike. So 96
// MiB (12 x 2^20 items) for integers and values that are not floating point
// (not measured: left with the integers, nearer the H100's choice), 26 MiB
// (3.25 x 2^20 items) for floating point.
template <class T>
constexpr std::int64_t default_wide_switch_bytes() {
  static_assert(sizeof(T) == 8, "only 8-byte values have a wide shape");
  return std::is_floating_point_v<T> ? std::int64_t{26} << 20 : std::int64_t{96} << 20;
}
namespace detail {
// What the default runs above its small tiles, on GPUs below kWideGBpsPerSm
// (base) and from it (wide): 1-, 2- and 4-byte values a middle tier, then
// pipelined; 8-byte values pipelined, on wide GPUs pipelined-wide above
// default_wide_switch_bytes. Where the two are the same configuration the
// default asks no device; where they differ, a DeviceAdaptive (whose plan
// holds the storage of the half the GPU picks only).
template <class T, bool kEightBytes = sizeof(T) == 8>
struct default_tiers {
  using middle = std::conditional_t<sizeof(T) == 1, Coarsened, WarpLookback>;
  using base = SizeAdaptive<middle, Pipelined, default_max_middle_bytes(sizeof(T))>;
  using wide = SizeAdaptive<middle, Pipelined, default_max_middle_bytes(sizeof(T), true)>;
};
template <class T>
struct default_tiers<T, true> {
  using base = Pipelined;
  using wide = SizeAdaptive<Pipelined, PipelinedWide, default_wide_switch_bytes<T>()>;
};
template <class Base, class Wide>
using by_device_t = std::conditional_t<std::is_same_v<Base, Wide>, Base,
                                       DeviceAdaptive<Base, Wide, kWideGBpsPerSm>>;
template <class T>
using default_large_half =
    by_device_t<typename default_tiers<T>::base, typename default_tiers<T>::wide>;
}  // namespace detail
// The default's 8-byte values above the small tiles, picked by the GPU and
// on wide GPUs by size.
template <class T>
using PipelinedByDevice = std::enable_if_t<sizeof(T) == 8, detail::default_large_half<T>>;
template <class T>
using DefaultConfig =
    std::conditional_t<sizeof(T) <= 2 || sizeof(T) == 4 || sizeof(T) == 8,
                       SizeAdaptive<WarpLookbackSmall, detail::default_large_half<T>,
                                    default_max_small_bytes(sizeof(T))>,
                       Coarsened>;

// The deterministic default (what Deterministic<DefaultConfig<T>> is): its
// own tiers, since the left fold costs each kernel differently. Folding left
// from the closest PREFIX adds one dependent add per tile to the look-back
// chain, so at sizes where the grid is about one wave the kernels of fewer,
// larger tiles lose less (bench/results/h200/default-det/, quarter steps
// from 2^17 to 2^23 items, H200). There the chain also waits for the last
// aggregates, which a one-wave grid loads all at once; a first wave paced in
// ticket order (PacedWarpLookback) hands the look-backs their aggregates in
// order, so the chain runs while the later tiles load. Pacing costs the
// default itself 1-5% at those sizes (at 4000 GB/s), so only the
// deterministic default paces. Figures: bench/results/h200/det-pace/README.md
// (three H200s, then run 4 and bench/results/h200/bringup/run2-with-det/ on
// others). The rates were chosen on H200s only: on an H100 (3.35 TB/s
// against 4.8) the same rates ask for input faster against its DRAM, as
// 8000 GB/s did on the H200, which was within 1.2 points of 6000.
// - 4-byte values: the small tiles up to 1.75 MiB (7 x 2^16 items: level
//   with 224 x 44 there, 2% behind at 2^19), 224 x 44 warp-lookback up to
//   9 MiB (2.25 x 2^20 items: unpaced ahead to 2^21, paced from 2.5 x 2^20,
//   nothing measured between), the same paced at 6000 GB/s up to 16 MiB
//   (at 3.5 x 2^20 and 2^22 items 2-8 points ahead of the unpaced tier and
//   of coarsened, the tier it replaced), pipelined above (1.9 us ahead of
//   coarsened at 5 x 2^20). f32: within 5% of the default from 2^19 items
//   on three cards (worst +6.6% before the paced tier); another card's
//   bring-up +5.0-5.2% at 1.5 x 2^21 and up to +5.0% at 2^23
//   (bench/results/h200/bringup/run2-with-det/).
// - 8-byte values: the small tiles up to 2 MiB (2^18 items; 224 x 20 is
//   0.3 us ahead at 1.25 x 2^18), 224 x 20 warp-lookback up to 6 MiB
//   (1.5 x 2^19 items), the same paced at 4000 GB/s up to 16 MiB (2^21
//   items; 0.4-4.7 points ahead of the unpaced tier from 1.75 x 2^19), then
//   pipelined; on wide GPUs the wide shape, for floating point from 16 MiB
//   (0.5 us ahead of pipelined-det at 2.5 x 2^20), for the others from the
//   default's 96 MiB (not measured; integer sums run the default: runs_on_t,
//   below). f64 stays 9-10.5% behind the default from 2.5 x 2^20 to 2^22
//   items and 4.5-5.9% to 2^23, where no deterministic kernel came within
//   5% (paced warp-lookback at other rates 8.7% at best, det-pace/run4;
//   larger pipelined tiles, in dynamic shared memory, within 4-9%: not
//   taken, bench/results/h200/dynamic-shared/).
// - 1- and 2-byte values and values of other sizes: the default's tiers,
//   each folding left (not measured).
template <class T>
constexpr std::int64_t deterministic_max_small_bytes() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "only 4- and 8-byte values have own switches");
  return sizeof(T) == 4 ? std::int64_t{7} << 18 : std::int64_t{2} << 20;
}
template <class T>
constexpr std::int64_t deterministic_max_unpaced_bytes() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "only 4- and 8-byte values have own switches");
  return sizeof(T) == 4 ? std::int64_t{9} << 20 : std::int64_t{6} << 20;
}
// The paced tier: its rate, and up to here.
template <class T>
constexpr int deterministic_pace_gbps() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "only 4- and 8-byte values have own switches");
  return sizeof(T) == 4 ? 6000 : 4000;
}
inline constexpr std::int64_t kDeterministicMaxPacedBytes = std::int64_t{16} << 20;
namespace detail {
template <class C>
using deterministic_t = typename set_flags<true, false>::template on<C>::type;
// Above the paced tier: what differs between 4- and 8-byte values. Values
// of other sizes have no own tiers (no specialisation).
template <class T, std::size_t kBytes = sizeof(T)>
struct deterministic_above_paced {};
template <class T>
struct deterministic_above_paced<T, 4> {
  using type = deterministic_t<Pipelined>;
};
// 8-byte values: pipelined; on wide GPUs the wide shape, for floating point
// from where the paced tier ends (16 MiB), for other values from the
// default's switch.
template <class T>
struct deterministic_above_paced<T, 8> {
  using wide =
      std::conditional_t<std::is_floating_point_v<T>, deterministic_t<PipelinedWide>,
                         SizeAdaptive<deterministic_t<Pipelined>, deterministic_t<PipelinedWide>,
                                      default_wide_switch_bytes<T>()>>;
  using type = by_device_t<deterministic_t<Pipelined>, wide>;
};
template <class T, class = void>
struct deterministic_default {
  using type = map_configs_t<DefaultConfig<T>, set_flags<true, false>::template on>;
};
template <class T>
struct deterministic_default<T, std::void_t<typename deterministic_above_paced<T>::type>> {
  using type = SizeAdaptive<
      deterministic_t<WarpLookbackSmall>,
      SizeAdaptive<
          deterministic_t<WarpLookback>,
          SizeAdaptive<deterministic_t<PacedWarpLookback<deterministic_pace_gbps<T>()>>,
                       typename deterministic_above_paced<T>::type, kDeterministicMaxPacedBytes>,
          deterministic_max_unpaced_bytes<T>()>,
      deterministic_max_small_bytes<T>()>;
};
}  // namespace detail
template <class T>
using DeterministicDefaultConfig = typename detail::deterministic_default<T>::type;

namespace detail {
// The one of Values whose DefaultConfig is C with its flags cleared; void if
// none. Values name once each composition the deterministic default changes:
// 4-byte values, 8-byte floating point, other 8-byte values.
template <class C, class... Values>
struct default_config_of {
  using type = void;
};
template <class C, class V, class... Values>
struct default_config_of<C, V, Values...> {
  using type = std::conditional_t<std::is_same_v<C, DefaultConfig<V>>, V,
                                  typename default_config_of<C, Values...>::type>;
};
static_assert(std::is_same_v<DefaultConfig<float>, DefaultConfig<std::uint32_t>> &&
                  !std::is_same_v<DefaultConfig<double>, DefaultConfig<std::uint64_t>>,
              "DefaultConfig tells 8-byte floating point apart and 4-byte values not: "
              "default_config_of's value types must name each composition once");
template <class C>
using default_value_t =
    typename default_config_of<map_configs_t<C, set_flags<false, false>::template on>,
                               std::uint32_t, std::uint64_t, double>::type;
// Deterministic<C>: a DefaultConfig (whatever its flags) becomes the
// deterministic default, every other configuration its tiers folding left.
template <class C, class Value = default_value_t<C>>
struct deterministic_of {
  using type = map_configs_t<DeterministicDefaultConfig<Value>,
                             set_flags<true, C::instrumented>::template on>;
};
template <class C>
struct deterministic_of<C, void> {
  using type = map_configs_t<C, set_flags<true, C::instrumented>::template on>;
};
}  // namespace detail

// Same configuration, run-to-run bitwise identical floating-point results:
// each tier's protocol folds left (Fold::LeftFold); DefaultConfig<T>, with
// or without Instrumented<>, becomes DeterministicDefaultConfig<T>'s tiers.
template <class C>
using Deterministic = typename detail::deterministic_of<C>::type;
template <class C>
using Instrumented =
    detail::map_configs_t<C, detail::set_flags<C::deterministic, true>::template on>;

// Operators under which values of T come out bitwise alike in any
// bracketing: the library's Sum, Min, Max and Xor on integers (unsigned adds
// wrap; a signed sum that overflows is undefined behaviour in C++ whatever
// the bracketing, and otherwise exact). Floating point does not qualify
// (rounding makes a + b + c depend on the bracketing: what Deterministic<C>
// is for), nor does an operator of your own on integers (it may round:
// bf16 bits in a std::uint16_t). Specialise it to true for one that does.
template <class T, class Op>
struct exact_operator : std::bool_constant<std::is_integral_v<T> &&
                                           (std::is_same_v<Op, Sum> || std::is_same_v<Op, Min> ||
                                            std::is_same_v<Op, Max> || std::is_same_v<Op, Xor>)> {};

namespace detail {
template <class C, class T>
inline constexpr bool is_deterministic_default =
    std::is_same_v<C, DeterministicDefaultConfig<T>> ||
    std::is_same_v<C, Instrumented<DeterministicDefaultConfig<T>>>;
// The configuration a scan of T with Op under C runs: C, except that the
// deterministic default (DeterministicDefaultConfig<T>, instrumented or not)
// under an exact operator runs DefaultConfig<T>, instrumented as C is. Any
// bracketing gives the same bits there, so the left fold would buy nothing,
// and it adds a dependent operation per tile to the look-back chain (H200,
// u64 sums: the deterministic default 20-32% behind the default from 14 MiB
// to 2^23 items, 6-8% from 2^24; bench/results/h200/default-det/integer/).
// As CCCL's determinism guide puts it, a library picks an implementation
// that meets the requirement, and the default meets it here. A
// deterministic configuration named otherwise runs as named (the tests and
// the benchmark run deterministic kernels on integers); only where it is the
// same type as the deterministic default (Deterministic<Coarsened> of
// 16-byte integers) is it taken for that.
template <class C, class T, class Op,
          bool = (is_deterministic_default<C, T> && exact_operator<T, Op>::value)>
struct runs_on {
  using type = C;
};
template <class C, class T, class Op>
struct runs_on<C, T, Op, true> {
  using type = map_configs_t<DefaultConfig<T>, set_flags<false, C::instrumented>::template on>;
};
}  // namespace detail
// ScanPlan, whose operator comes with each call, decides by Sum and refuses
// (at compile time) a call whose operator would need the left fold.
template <class C, class T, class Op = Sum>
using runs_on_t = typename detail::runs_on<C, T, Op>::type;

// Run-time options of one call.
struct Options {
  // Every wait loop gives up after this many rounds (0: never) and the call
  // returns cudaErrorTimeout. Test and stress builds default to a bound.
  // Needs check_errors: DeviceScan and ScanPlan refuse a bound without it
  // (validate_watchdog), since only a checked call can report an expiry.
  std::uint32_t watchdog_rounds = LOOKBACK_DEFAULT_WATCHDOG_ROUNDS;
  // Synchronize the stream after the launch and read the kernels' error flag
  // (needed to report a watchdog expiry; makes the call blocking).
  bool check_errors = LOOKBACK_DEFAULT_WATCHDOG_ROUNDS != 0;
  // Use 16-byte vector accesses when the pointers allow it (false: the
  // scalar path, for tests; warp-lookback configurations have only the
  // vector path and ignore it, one built without the scalar path refuses it).
  bool allow_vector = true;
  // Instrumented configurations only (an error on others): schedule
  // perturbations (delays, stalled tiles, tile-id permutations, pre-stress;
  // device/perturb.hpp), e.g. perturb.stall_ns / perturb.stall_every to
  // force look-back waits and fallbacks.
  device::Perturbation perturb{};
  // Instrumented configurations only: a zeroed buffer of at least one
  // TileStamps per tile (detail::tiles_for) that receives each tile's
  // timeline (device/trace.hpp; lookback/trace_summary.hpp reads it).
  device::TileTrace trace{};
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
