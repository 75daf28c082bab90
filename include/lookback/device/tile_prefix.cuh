// The part of a tile's work that talks to other tiles, run by warp 0 of the
// block once the tile's aggregate is known. Two steps, so the warp can do
// its share of the local scan in between (its predecessors meanwhile get time
// to publish):
//   publish_aggregate: AGGREGATE(a_i) (tile 0: PREFIX directly);
//   resolve:           look back (after the policy's delay), then PREFIX.
// Shared by both tile algorithms (agent_striped.cuh, agent_cub.cuh).
#pragma once

#include <cstdint>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/lookback.cuh"
#include "lookback/device/params.hpp"
#include "lookback/device/partial.cuh"
#include "lookback/device/perturb.cuh"
#include "lookback/device/trace.cuh"

namespace lookback::device {

template <Protocol P, class Policy, class T, class Op, bool kExclusive, bool kInstrumented>
struct TilePrefix {
  using Desc = Descriptor<P, T>;

  // All 32 lanes of warp 0.
  __device__ static void publish_aggregate(const KernelParams<T, Op>& p, const Desc& desc, Op op,
                                           std::uint32_t tile, std::uint32_t epoch,
                                           const T& aggregate, int lane) {
    if constexpr (kInstrumented) {
      perturb_stall(p.perturb, tile);
      perturb_delay(p.perturb, tile, PerturbPoint::BeforeAggregate);
    }
    if (lane != 0) return;
    // Tile 0's aggregate is its inclusive prefix (protocol::first_publish_status).
    const protocol::Status s = protocol::first_publish_status(P, tile);
    if (tile == 0 && kExclusive) {
      desc.publish(0, s, op(p.init, aggregate), epoch);
    } else {
      desc.publish(tile, s, aggregate, epoch);
    }
    if constexpr (kInstrumented) trace_stamp(p.trace, tile, TracePoint::Aggregate);
  }

  // All 32 lanes of warp 0, after publish_aggregate. Returns false if the
  // look-back gave up (watchdog, DescriptorWentBack); otherwise `exclusive` is the tile's
  // exclusive prefix (absent for tile 0 of an inclusive scan).
  template <class Reducer>
  __device__ static bool resolve(const KernelParams<T, Op>& p, const Desc& desc, Op op,
                                 std::uint32_t tile, std::uint32_t epoch, const T& aggregate,
                                 Reducer& reduce, int lane, Partial<T>& exclusive) {
    if (tile == 0) {
      if constexpr (kExclusive) exclusive = Partial<T>{p.init, true};
      if constexpr (kInstrumented) {
        if (lane == 0) trace_stamp(p.trace, tile, TracePoint::Prefix);
      }
      return true;
    }
    if constexpr (Policy::kLookbackDelayNs > 0) {
      if constexpr (Policy::kDelayMinTiles > 0) {
        if (p.num_tiles >= static_cast<std::uint32_t>(Policy::kDelayMinTiles))
          __nanosleep(Policy::kLookbackDelayNs);
      } else {
        __nanosleep(Policy::kLookbackDelayNs);
      }
    }
    const Partial<T> first = kExclusive ? Partial<T>{p.init, true} : Partial<T>{};
    WindowLookback<P, T, Op, kInstrumented, Policy::kSpinDelayNs> lookback(
        desc, op, first, epoch, p.header, p.watchdog, tile, lane, p.perturb);
    T prefix{};
    if (!lookback.run(reduce, prefix)) return false;
    exclusive = Partial<T>{prefix, true};
    if constexpr (kInstrumented) perturb_delay(p.perturb, tile, PerturbPoint::BeforePrefix);
    if (lane == 0) {
      desc.publish(tile, protocol::Status::Prefix, op(prefix, aggregate), epoch);
      if constexpr (kInstrumented) trace_stamp(p.trace, tile, TracePoint::Prefix);
    }
    return true;
  }
};

}  // namespace lookback::device
