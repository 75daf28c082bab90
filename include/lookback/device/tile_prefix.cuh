// The part of a tile's work that talks to other tiles, run by warp 0 of the
// block once the tile's aggregate is known. Two steps, so the warp can do
// its share of the local scan in between (its predecessors meanwhile get time
// to publish):
//   publish_aggregate: AGGREGATE(a_i) (tile 0: PREFIX directly);
//   resolve:           look back (after the policy's delay), then PREFIX.
// Shared by both tile algorithms (agent_striped.cuh, agent_cub.cuh).
//
// Racing look-backs (tuning, not protocol: TilePolicy::kLookbackWarps > 1,
// the CUB agent only): several warps of the block run the same look-back,
// each starting kPollStaggerNs after the one before, so that while a window
// still holds an INVALID descriptor the warps' reads are spread over a round
// trip and one of them reads soon after a predecessor's publish lands. The
// first warp through claims the tile (LookbackRace, shared memory) and alone
// publishes PREFIX; the others stop at their next round or lose the claim.
// Every published value is one warp's look-back as if it had run alone,
// which is what the model checks; the losers' reads write nothing.
#pragma once

#include <cstdint>

#include <cub/util_ptx.cuh>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/global_timer.cuh"
#include "lookback/device/lookback.cuh"
#include "lookback/device/params.hpp"
#include "lookback/device/partial.cuh"
#include "lookback/device/perturb.cuh"
#include "lookback/device/trace.cuh"

namespace lookback::device {

// The claim of racing look-back warps: 0 until a warp finishes, then that
// warp + 1. Zeroed by the block before its warps look back.
struct LookbackRace {
  int winner;
};

enum class Resolution : std::uint8_t {
  Resolved,  // this warp holds the tile's exclusive prefix and published PREFIX
  GaveUp,    // the watchdog expired
  Lost,      // another racing warp resolves the tile
};

template <Protocol P, class Policy, class T, class Op, bool kExclusive, bool kDeterministic,
          bool kInstrumented>
struct TilePrefix {
  static constexpr int kRacers = Policy::kLookbackWarps;
  static_assert(kRacers >= 1 && kRacers <= 32);
  static_assert(kRacers == 1 || !protocol::bounded_wait(P),
                "racing look-backs would race the fallback's reductions too");
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

  // All 32 lanes of warp 0 after publish_aggregate, and of warps 1 ..
  // kRacers - 1 (racing look-backs; race: zeroed shared claim, nullptr when
  // kRacers is 1). On Resolved `exclusive` is the tile's exclusive prefix
  // (absent for tile 0 of an inclusive scan).
  template <class Reducer>
  __device__ static Resolution resolve(const KernelParams<T, Op>& p, const Desc& desc, Op op,
                                       std::uint32_t tile, std::uint32_t epoch, const T& aggregate,
                                       Reducer& reduce, int lane, Partial<T>& exclusive,
                                       LookbackRace* race = nullptr, int warp = 0) {
    if (tile == 0) {
      if (warp != 0) return Resolution::Lost;
      if constexpr (kExclusive) exclusive = Partial<T>{p.init, true};
      if constexpr (kInstrumented) {
        if (lane == 0) trace_stamp(p.trace, tile, TracePoint::Prefix);
      }
      return Resolution::Resolved;
    }
    if constexpr (kRacers > 1) {
      if (warp > 0) {
        const std::uint64_t until =
            global_timer_ns() + std::uint64_t{Policy::kPollStaggerNs} * static_cast<unsigned>(warp);
        while (global_timer_ns() < until) {
        }
      }
    }
    if constexpr (Policy::kLookbackDelayNs > 0) {
      if constexpr (Policy::kDelayMinTiles > 0) {
        if (p.num_tiles >= static_cast<std::uint32_t>(Policy::kDelayMinTiles))
          __nanosleep(Policy::kLookbackDelayNs);
      } else {
        __nanosleep(Policy::kLookbackDelayNs);
      }
    }
    WindowLookback<P, T, Op, kDeterministic, kInstrumented, Policy::kSpinDelayNs> lookback(
        desc, op, epoch, p.header, p.watchdog, tile, lane, p.perturb,
        kRacers > 1 ? &race->winner : nullptr);
    T prefix{};
    const bool done = lookback.run(reduce, prefix);
    if constexpr (kRacers > 1) {
      if (lookback.abandoned()) return Resolution::Lost;
      int claimed = 0;
      if (lane == 0) claimed = atomicCAS(&race->winner, 0, warp + 1) == 0 ? 1 : 0;
      if (!cub::ShuffleIndex<32>(claimed, 0, 0xffffffffu)) return Resolution::Lost;
    }
    if (!done) return Resolution::GaveUp;
    exclusive = Partial<T>{prefix, true};
    if constexpr (kInstrumented) perturb_delay(p.perturb, tile, PerturbPoint::BeforePrefix);
    if (lane == 0) {
      desc.publish(tile, protocol::Status::Prefix, op(prefix, aggregate), epoch);
      if constexpr (kInstrumented) trace_stamp(p.trace, tile, TracePoint::Prefix);
    }
    return Resolution::Resolved;
  }
};

}  // namespace lookback::device
