// The part of a tile's work that talks to other tiles, run by warp 0 of the
// block once the tile's aggregate is known: publish AGGREGATE (tile 0:
// PREFIX directly), look back, publish PREFIX. Shared by both tile
// algorithms (agent_striped.cuh, agent_cub.cuh).
#pragma once

#include <cstdint>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/lookback.cuh"
#include "lookback/device/params.hpp"
#include "lookback/device/partial.cuh"

namespace lookback::device {

// Instrumented kernels: the chosen tiles sleep before publishing.
__device__ inline void injected_stall(std::uint32_t tile, std::uint32_t ns, std::uint32_t every) {
  if (ns == 0 || every == 0 || tile % every != every - 1) return;
  for (std::uint32_t slept = 0; slept < ns; slept += 1000)
    __nanosleep(1000);
}

template <Protocol P, class T, class Op, bool kExclusive, bool kDeterministic, bool kInstrumented>
struct TilePrefix {
  using Desc = Descriptor<P, T>;

  // All 32 lanes of warp 0. Returns false if the look-back gave up
  // (watchdog); otherwise `exclusive` is the tile's exclusive prefix (absent
  // for tile 0 of an inclusive scan).
  template <class Reducer>
  __device__ static bool run(const KernelParams<T, Op>& p, const Desc& desc, Op op,
                             std::uint32_t tile, std::uint32_t epoch, const T& aggregate,
                             Reducer& reduce, int lane, Partial<T>& exclusive) {
    if constexpr (kInstrumented) injected_stall(tile, p.stall_ns, p.stall_every);
    if (tile == 0) {
      T inclusive = aggregate;
      if constexpr (kExclusive) {
        exclusive = Partial<T>{p.init, true};
        inclusive = op(p.init, aggregate);
      }
      if (lane == 0) {
        constexpr protocol::Status s = P.flaw == protocol::Flaw::Tile0PublishesAggregate
                                           ? protocol::Status::Aggregate
                                           : protocol::Status::Prefix;
        desc.publish(0, s, inclusive, epoch);
      }
      return true;
    }
    if (lane == 0) {
      constexpr protocol::Status s = P.flaw == protocol::Flaw::PrefixBeforeLookback
                                         ? protocol::Status::Prefix
                                         : protocol::Status::Aggregate;
      desc.publish(tile, s, aggregate, epoch);
    }
    WindowLookback<P, T, Op, kDeterministic, kInstrumented> lookback(desc, op, epoch, p.header,
                                                                     p.watchdog, tile, lane);
    T prefix{};
    if (!lookback.run(reduce, prefix)) return false;
    exclusive = Partial<T>{prefix, true};
    if (lane == 0) desc.publish(tile, protocol::Status::Prefix, op(prefix, aggregate), epoch);
    return true;
  }
};

}  // namespace lookback::device
