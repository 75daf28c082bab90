// Per-launch bookkeeping in the temp-storage header: where a block's tile id
// comes from (P.tile_id), which epoch the launch runs in, and (Reset::Epoch)
// how the last block to finish prepares the storage for the next launch.
//
// Reset::Epoch, step by step (no init kernel, one launch per scan):
//   1. every block reads Header::epoch (relaxed): all descriptors it writes
//      carry that epoch (protocol::encode_tag) and a descriptor of another
//      epoch reads as INVALID (protocol::effective_status);
//   2. after its last descriptor access a block increments Header::done with
//      an acq_rel RMW; the block that brings it to the number of blocks
//      (protocol::last_finisher: one per tile, or the grid of persistent
//      blocks, each counted after the draw that ended its loop) is the last
//      one, and every other block's descriptor and ticket accesses happen
//      before it.
//      The tile algorithms count a block finished right after the barrier
//      that ends its look-back, before it stores its output, and from a warp
//      with no stores in flight: the RMW's release half then waits for no
//      data store (measured: ~3% of throughput at n = 2^30 when it came
//      after the output stores, bench/explore/tile_bound.cu);
//   3. the last block resets the ticket and the done counter, and stores
//      protocol::next_epoch(epoch, P.epoch_bits). When that wraps to 0 it
//      first clears every descriptor any launch on this storage has used
//      (Header::high_water), so no stale word can match a future epoch.
//   The next launch on the same stream sees all of it (kernel boundary).
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
using protocol::kEpochReadOrder;
using protocol::kResetOrder;
using protocol::kTicketOrder;
inline constexpr protocol::Order kErrorOrder = protocol::Order::Relaxed;  // watchdog flag

template <protocol::Protocol P>
struct LaunchState {
  // Called by one thread per block.
  __device__ static std::uint32_t tile_id(Header* h) {
    if constexpr (P.tile_id == protocol::TileIdSource::Ticket) {
      return device_ref<std::uint32_t>(h->ticket).fetch_add(1u, rmw_order<kTicketOrder>());
    } else {
      return blockIdx.x;
    }
  }
  __device__ static std::uint32_t epoch(Header* h) {
    if constexpr (P.reset == protocol::Reset::Epoch) {
      return load_word<kEpochReadOrder>(&h->epoch);
    } else {
      return 0u;
    }
  }
  // Called by all lanes of one warp after the block's last descriptor access
  // (a __syncthreads() orders the other warps' accesses before it); output
  // stores may follow (they touch no descriptor, ticket or header word).
  template <class Desc>
  __device__ static void finish(Header* h, const Desc& desc, std::uint32_t num_tiles,
                                std::uint32_t epoch, int lane) {
    if constexpr (P.reset == protocol::Reset::Epoch) {
      std::uint32_t last = 0;
      if (lane == 0) {
        const std::uint32_t before =
            device_ref<std::uint32_t>(h->done).fetch_add(1u, rmw_order<kDoneOrder>());
        last = before == protocol::last_finisher(P, num_tiles, gridDim.x) ? 1u : 0u;
      }
      last = __shfl_sync(0xffffffffu, last, 0);
      if (!last) return;
      const std::uint32_t next = protocol::next_epoch(epoch, P.epoch_bits);
      std::uint32_t high = load_word<kResetOrder>(&h->high_water);
      if (high < num_tiles) high = num_tiles;
      if (next == 0 && P.flaw != protocol::Flaw::EpochWrapNotCleared) {
        for (std::uint32_t t = lane; t < high; t += 32)
          desc.template clear<kResetOrder>(t);
      }
      __syncwarp();
      if (lane == 0) {
        store_word<kResetOrder>(&h->high_water, high);
        store_word<kResetOrder>(&h->ticket, 0u);
        store_word<kResetOrder>(&h->done, 0u);
        store_word<kResetOrder>(&h->epoch, next);
      }
    }
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
