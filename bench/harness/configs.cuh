// The configurations the suites time: the library's variants with their
// production policies, compiled without the scalar path (the pools are
// aligned unless a group is given an offset), the default configuration as
// the same kernels, and the policy and protocol changes that exploration
// rows are built from (EXPT rows: measurements, not verified variants).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lookback/device/protocol_change.hpp"
#include "lookback/device_scan.cuh"

namespace lookback_bench {

// Variant V with Policy, vector path only (no scalar path compiled).
template <lookback::Variant V, class Policy = lookback::detail::default_policy_t<V>,
          bool kDet = false>
using Bench = lookback::ScanConfig<V, Policy, kDet, false, false>;
using BWarp = Bench<lookback::Variant::WarpLookback>;
using BCoarse = Bench<lookback::Variant::Coarsened>;
using BFallback = Bench<lookback::Variant::Fallback>;
using BCoarseDet = Bench<lookback::Variant::Coarsened, lookback::CoarsenedPolicy, true>;
using BPipelinedDet = Bench<lookback::Variant::Pipelined, lookback::PipelinedPolicy, true>;
using BFallbackDet = Bench<lookback::Variant::Fallback, lookback::FallbackPolicy, true>;
using BWarpDet = Bench<lookback::Variant::WarpLookback, lookback::WarpLookbackPolicy, true>;
using BWarpSmallDet =
    Bench<lookback::Variant::WarpLookback, lookback::WarpLookbackSmallPolicy, true>;
using BPipelinedWideDet = Bench<lookback::Variant::Pipelined, lookback::PipelinedWidePolicy, true>;
// The deterministic default's paced tier (lookback::PacedWarpLookback).
template <int kGBps>
using BWarpPacedDet = Bench<lookback::Variant::WarpLookback,
                            lookback::PacedFirstWave<lookback::WarpLookbackPolicy, kGBps>, true>;
using BPipelined = Bench<lookback::Variant::Pipelined>;
using BWarpSmall = Bench<lookback::Variant::WarpLookback, lookback::WarpLookbackSmallPolicy>;
using BPipelinedWide = Bench<lookback::Variant::Pipelined, lookback::PipelinedWidePolicy>;
// DefaultConfig<T> as the benchmark's configurations: every whole
// configuration in it without the scalar path.
template <class C>
struct WithoutScalarPath {
  using type = lookback::ScanConfig<C::variant, typename C::policy, C::deterministic,
                                    C::instrumented, false>;
};
template <class T>
using BDefaultFor = lookback::detail::map_configs_t<lookback::DefaultConfig<T>, WithoutScalarPath>;
// Its tiers are the rows' own kernels (one instantiation each).
static_assert(std::is_same_v<BDefaultFor<std::uint32_t>::small, BWarpSmall> &&
              std::is_same_v<BDefaultFor<std::uint32_t>::large::small, BWarp> &&
              std::is_same_v<BDefaultFor<std::uint32_t>::large::large, BPipelined> &&
              std::is_same_v<BDefaultFor<std::uint16_t>::large::small, BWarp> &&
              std::is_same_v<BDefaultFor<std::uint8_t>::large::base::small, BCoarse> &&
              std::is_same_v<BDefaultFor<std::uint8_t>::large::wide::small, BCoarse> &&
              std::is_same_v<BDefaultFor<std::uint64_t>::large::base, BPipelined> &&
              std::is_same_v<BDefaultFor<std::uint64_t>::large::wide::small, BPipelined> &&
              std::is_same_v<BDefaultFor<std::uint64_t>::large::wide::large, BPipelinedWide>);
// The deterministic mode as a user asks for it: Deterministic<DefaultConfig<T>>
// (the deterministic default, with its own switches; integer sums run the
// default: runs_on_t), likewise without the scalar path.
template <class T>
using BDefaultDetFor = lookback::detail::map_configs_t<
    lookback::runs_on_t<lookback::Deterministic<lookback::DefaultConfig<T>>, T>, WithoutScalarPath>;
static_assert(std::is_same_v<BDefaultDetFor<std::uint32_t>, BDefaultFor<std::uint32_t>> &&
              std::is_same_v<BDefaultDetFor<std::uint64_t>, BDefaultFor<std::uint64_t>>);
static_assert(std::is_same_v<BDefaultDetFor<float>::small, BWarpSmallDet> &&
              std::is_same_v<BDefaultDetFor<float>::large::small, BWarpDet> &&
              std::is_same_v<BDefaultDetFor<float>::large::large::small, BWarpPacedDet<6000>> &&
              std::is_same_v<BDefaultDetFor<float>::large::large::large, BPipelinedDet> &&
              std::is_same_v<BDefaultDetFor<double>::small, BWarpSmallDet> &&
              std::is_same_v<BDefaultDetFor<double>::large::small, BWarpDet> &&
              std::is_same_v<BDefaultDetFor<double>::large::large::small, BWarpPacedDet<4000>> &&
              std::is_same_v<BDefaultDetFor<double>::large::large::large::base, BPipelinedDet> &&
              std::is_same_v<BDefaultDetFor<double>::large::large::large::wide, BPipelinedWideDet>);

// A warp-lookback shape for exploration: Threads x Bytes per thread, the
// library's look-back delay from 1024 tiles, at most kMaxItems items a
// thread (1- and 2-byte values).
template <int Threads, int Bytes, int MinBlocks, int kMaxItems>
struct SmallWarpShape : lookback::TilePolicy<Threads, Bytes, MinBlocks, 3000, 0, false, 1024> {
  template <class T>
  static constexpr int items() {
    constexpr int i = Bytes / static_cast<int>(sizeof(T));
    return i > kMaxItems ? kMaxItems : i < 1 ? 1 : i;
  }
};

// Policy with another L2 prefetch distance (TilePolicy::kL2PrefetchBytes).
template <class Policy, int kBytes>
struct L2Prefetch : Policy {
  static constexpr int kL2PrefetchBytes = kBytes;
};

// Policy with another look-back delay (TilePolicy::kLookbackDelayNs): none.
template <class Policy>
struct NoDelay : Policy {
  static constexpr int kLookbackDelayNs = 0;
};

// A neighbour of variant V's chosen policy (the tuning and explore suites'
// rows): Shape with the chosen policy's L2 prefetch distance
// (l2_prefetch.cuh), so that shapes are compared with the prefetch the
// library runs them with (until 2026-11-28 they ran without it).
template <lookback::Variant V, class Shape>
using Neighbour =
    Bench<V, L2Prefetch<Shape, lookback::detail::default_policy_t<V>::kL2PrefetchBytes>>;

// Measurement-only protocol changes (NOT verified variants: no catalogue
// entry): Base with Change applied to both of its protocols.
template <class Base, class Change>
using ExptProtocol = lookback::unverified::ProtocolChange<Base, Change>;
// What the per-tile bookkeeping costs: where tile ids come from, how the
// storage is reset.
template <lookback::protocol::TileIdSource kTileId, lookback::protocol::Reset kReset>
struct BookkeepingChange {
  constexpr lookback::protocol::Protocol operator()(lookback::protocol::Protocol p) const {
    p.tile_id = kTileId;
    p.reset = kReset;
    return p;
  }
};
template <class Base, lookback::protocol::TileIdSource kTileId, lookback::protocol::Reset kReset>
using ExptBookkeeping = ExptProtocol<Base, BookkeepingChange<kTileId, kReset>>;
// Other look-back orders: packed publishes relaxed (as every production
// protocol's since 2026-11-27 evening) or not, and the look-back reads' order.
template <bool kRelaxedPublish, lookback::protocol::Order kLookbackOrder>
struct OrdersChange {
  constexpr lookback::protocol::Protocol operator()(lookback::protocol::Protocol p) const {
    p.relaxed_packed_publish = kRelaxedPublish;
    p.lookback_order = kLookbackOrder;
    return p;
  }
};
template <class Base, bool kRelaxedPublish, lookback::protocol::Order kLookbackOrder>
using ExptOrders = ExptProtocol<Base, OrdersChange<kRelaxedPublish, kLookbackOrder>>;
// Another number of passed windows a left fold keeps for its second pass.
template <class Base, int kHeld>
using ExptHeld = lookback::unverified::Holding<Base, kHeld>;
// Another look-back window (Protocol::window, at most 32: one warp's lanes).
template <int kWindow>
struct WindowChange {
  constexpr lookback::protocol::Protocol operator()(lookback::protocol::Protocol p) const {
    p.window = kWindow;
    return p;
  }
};

}  // namespace lookback_bench
