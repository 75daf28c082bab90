// Per-launch bookkeeping in the temp-storage header: where a block's tile id
// comes from (P.tile_id), which epoch the launch runs in, and (Reset::Epoch)
// how the launch hands the storage over to the next one (spec.hpp, above
// protocol::wraps, states the protocol; this is its kernel side).
//
// Reset::Epoch, step by step (no init kernel, one launch per scan):
//   1. thread 0 of every block draws from Header::draw, the 64-bit launch
//      word [ epoch | ticket ], with one relaxed fetch_add: the ticket is its
//      tile id (TileIdSource::Ticket) and the epoch is the launch's. All
//      descriptors it writes carry that epoch (protocol::encode_tag) and a
//      descriptor of another epoch reads as INVALID
//      (protocol::effective_status);
//   2. the block whose draw returned protocol::last_draw (one draw per
//      tile, plus each persistent block's draw past the last tile) stores,
//      once it is done with descriptors, the next launch's word (ticket 0
//      and protocol::handed_over_epoch) and raises Header::high_water to this
//      launch's tile count. Every draw of the launch precedes the last one
//      in the word's coherence order (each draw is an RMW), and the last
//      draw (thread 0) precedes the store (lane 0 of the last warp) by the
//      __syncthreads() between them, so no block of this launch reads the
//      next epoch; the next launch on the same stream sees it (kernel
//      boundary);
//   3. only a launch whose next epoch wraps to 0 counts its blocks finished:
//      after its last descriptor access each block increments Header::done
//      with an acq_rel RMW, and the block that brings it to
//      protocol::last_finisher clears every descriptor any launch on this
//      storage has used (Header::high_water), so no stale word can match a
//      future epoch, then stores the next word (ticket 0, epoch 0). Its last
//      drawer stores nothing.
//   A persistent block that gives up (watchdog) still draws until a ticket
//   is past the last tile, so that the launch's last draw happens (finish).
//   Before 2026-11-26 every launch took the path of step 3 and every block
//   read the epoch with a separate load: at n = 2^30, u32, that cost the
//   one-tile-per-block warp-lookback kernel ~3.5% of copy bandwidth
//   (bench/results/README.md, explore_bookkeeping).
#pragma once

#include <cstdint>

#include "lookback/device/memory_order.cuh"
#include "lookback/device/temp_storage.hpp"
#include "lookback/protocol/spec.hpp"

namespace lookback::device {

// Orders of the header's bookkeeping words: the spec's, which the model
// checks (protocol::kTicketOrder and friends). The watchdog flag is not part
// of the protocol (a test build's error report).
using protocol::kDoneOrder;
using protocol::kResetOrder;
using protocol::kTicketOrder;
inline constexpr protocol::Order kErrorOrder = protocol::Order::Relaxed;  // watchdog flag

// What a block's draw returns.
struct Draw {
  std::uint32_t tile;   // the block's tile id (the ticket, or blockIdx)
  std::uint32_t count;  // the ticket: how many draws of this launch came before
  std::uint32_t epoch;  // the launch epoch (0 unless Reset::Epoch)
};

template <protocol::Protocol P>
struct LaunchState {
  static constexpr bool kEpoch = P.reset == protocol::Reset::Epoch;
  // A blockIdx variant draws only to hand the epoch over.
  static constexpr bool kDraws = kEpoch || P.tile_id == protocol::TileIdSource::Ticket;

  // Called by one thread per block, for each of its draws (step 1).
  __device__ static Draw draw(Header* h) {
    if constexpr (!kDraws) {
      return Draw{blockIdx.x, 0u, 0u};
    } else {
      const std::uint64_t word =
          device_ref<std::uint64_t>(h->draw).fetch_add(1u, rmw_order<kTicketOrder>());
      const std::uint32_t count = draw_count(word);
      return Draw{P.tile_id == protocol::TileIdSource::Ticket ? count : blockIdx.x, count,
                  kEpoch ? draw_epoch(word) : 0u};
    }
  }

  // Called by all lanes of one warp after the block's last descriptor access
  // (a __syncthreads() orders the other warps' accesses before it); output
  // stores may follow (they touch no descriptor, ticket or header word).
  // `drawn` is the count of the block's last draw. The last drawer hands
  // the launch word over (step 2); in an epoch-wrapping launch every block
  // counts itself and the last one clears and hands over (step 3).
  // `gave_up`: a persistent block whose look-back gave up (watchdog) may not
  // have drawn past the last tile; it draws on until it has, so that the
  // launch's last draw happens.
  // In the common case this is one compare. The rest is out of line in
  // persistent blocks, where this sits in the loop that holds two tiles'
  // registers and each register it took there spilled (ptxas, sm_90: 8-byte
  // fallback kernels; H200, 2^30: f64 fallback 87.2% of copy against 88.7%,
  // u64 in place 76.6 against 78.6). One-tile blocks keep it inline: the
  // call cost them (H100, u32 at 2^30: coarsened 95.3% against 96.3).
  template <class Desc>
  __device__ static void finish(Header* h, const Desc& desc, std::uint32_t num_tiles,
                                std::uint32_t epoch, std::uint32_t drawn, bool gave_up, int lane) {
    if constexpr (kEpoch) {
      if (protocol::wraps(P, epoch)) {
        if constexpr (protocol::persistent(P)) {
          finish_wrapping_out_of_line(h, desc, num_tiles, drawn, gave_up, lane);
        } else {
          finish_wrapping(h, desc, num_tiles, drawn, gave_up, lane);
        }
      } else if (lane == 0 && (drawn == protocol::last_draw(P, num_tiles, gridDim.x) ||
                               (protocol::persistent(P) && gave_up))) {
        if constexpr (protocol::persistent(P)) {
          hand_over_out_of_line(h, num_tiles, epoch, drawn);
        } else {
          hand_over(h, num_tiles, epoch, drawn);
        }
      }
    }
  }

 private:
  // A persistent block that gave up draws until a ticket is past the last
  // tile; returns its last draw.
  __device__ static std::uint32_t drain(Header* h, std::uint32_t num_tiles, std::uint32_t drawn) {
    if constexpr (protocol::persistent(P)) {
      while (drawn < num_tiles)
        drawn = draw(h).count;
    }
    return drawn;
  }

  // Step 2, by one thread.
  __device__ static void hand_over(Header* h, std::uint32_t num_tiles, std::uint32_t epoch,
                                   std::uint32_t drawn) {
    if (drain(h, num_tiles, drawn) != protocol::last_draw(P, num_tiles, gridDim.x)) return;
    if (load_word<kResetOrder>(&h->high_water) < num_tiles)
      store_word<kResetOrder>(&h->high_water, num_tiles);
    store_word<kResetOrder>(&h->draw, draw_word(0u, protocol::handed_over_epoch(P, epoch)));
  }

  __device__ __noinline__ static void hand_over_out_of_line(Header* h, std::uint32_t num_tiles,
                                                            std::uint32_t epoch,
                                                            std::uint32_t drawn) {
    hand_over(h, num_tiles, epoch, drawn);
  }

  // Step 3, by all lanes of one warp.
  template <class Desc>
  __device__ static void finish_wrapping(Header* h, const Desc& desc, std::uint32_t num_tiles,
                                         std::uint32_t drawn, bool gave_up, int lane) {
    std::uint32_t last = 0;
    if (lane == 0) {
      if (gave_up) drain(h, num_tiles, drawn);
      const std::uint32_t before =
          device_ref<std::uint32_t>(h->done).fetch_add(1u, rmw_order<kDoneOrder>());
      last = before == protocol::last_finisher(P, num_tiles, gridDim.x) ? 1u : 0u;
    }
    last = __shfl_sync(0xffffffffu, last, 0);
    if (!last) return;
    // In the model's order: the counter, the descriptors, the launch word.
    if (lane == 0) store_word<kResetOrder>(&h->done, 0u);
    std::uint32_t high = load_word<kResetOrder>(&h->high_water);
    if (high < num_tiles) high = num_tiles;
    if (P.flaw != protocol::Flaw::EpochWrapNotCleared) {
      for (std::uint32_t t = lane; t < high; t += 32)
        desc.template clear<kResetOrder>(t);
    }
    __syncwarp();
    if (lane == 0) {
      store_word<kResetOrder>(&h->high_water, high);
      store_word<kResetOrder>(&h->draw, draw_word(0u, 0u));
    }
  }
  template <class Desc>
  __device__ __noinline__ static void finish_wrapping_out_of_line(Header* h, const Desc& desc,
                                                                  std::uint32_t num_tiles,
                                                                  std::uint32_t drawn, bool gave_up,
                                                                  int lane) {
    finish_wrapping(h, desc, num_tiles, drawn, gave_up, lane);
  }
};

// Records the first error of a launch (later ones are dropped).
__device__ inline void raise_error(Header* h, DeviceError e, std::uint32_t tile) {
  std::uint32_t expected = 0;
  if (device_ref<std::uint32_t>(h->error).compare_exchange_strong(
          expected, static_cast<std::uint32_t>(e), rmw_order<kErrorOrder>(),
          load_order<kErrorOrder>())) {
    store_word<kErrorOrder>(&h->error_tile, tile);
  }
}

// Bounds every wait loop (when `limit` != 0). Used uniformly by all lanes of
// the waiting warp; returns true when the warp must give up: its own bound
// ran out (it then raises WatchdogExpired), or another block raised an error.
struct Watchdog {
  Header* header;
  std::uint32_t limit;
  std::uint32_t rounds = 0;

  __device__ bool expired(std::uint32_t tile, int lane) {
    if (limit == 0) return false;
    ++rounds;
    if ((rounds & 127u) == 0) {
      std::uint32_t e = 0;
      if (lane == 0) e = load_word<kErrorOrder>(&header->error);
      if (__shfl_sync(0xffffffffu, e, 0) != 0) return true;
    }
    if (rounds > limit) {
      if (lane == 0) raise_error(header, DeviceError::WatchdogExpired, tile);
      return true;
    }
    return false;
  }
};

}  // namespace lookback::device
