// The protocol spec: the one place where the tile-descriptor encoding, the
// statuses and every memory order of the look-back protocol are written.
//
// A protocol variant is a `Protocol` value. Two interpreters consume it:
//   - the CUDA kernels (kernels/, include/lookback/device/) compile it into
//     libcu++ atomics and fences;
//   - the model checker (models/) turns it into an event program and checks
//     every execution of it under the PTX memory model.
// A seeded bug ("mutant") is just another Protocol with one field changed or
// one `Flaw` set, so the same list is killed (or not) on both sides.
//
// This header is included by host and device code; it holds only structural
// types (usable as C++20 non-type template parameters) and constexpr
// functions.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define LOOKBACK_HD __host__ __device__
#else
#define LOOKBACK_HD
#endif

namespace lookback::protocol {

// ---------------------------------------------------------------------------
// Descriptor states. A descriptor only ever moves up this order:
// INVALID -> AGGREGATE(a_i) -> PREFIX(a_0 + ... + a_i).
enum class Status : std::uint8_t { Invalid = 0, Aggregate = 1, Prefix = 2 };

// Memory order of one access, in PTX terms. `Weak` is a plain ld/st (no
// ordering, races are undefined); the others are strong operations at the
// protocol's scope (.gpu).
enum class Order : std::uint8_t { Weak, Relaxed, Acquire, Release, AcqRel };

// A fence placed next to an access. `AcqRel` is fence.acq_rel.gpu,
// `Sc` is fence.sc.gpu (what __threadfence() compiles to).
enum class Fence : std::uint8_t { None, AcqRel, Sc };

// Where a descriptor's value lives.
//   Packed: status, epoch and value share one atomic word (64 bits for values
//           of up to 4 bytes; 128 bits for values of 5 to 8 bytes, sm_90's
//           16-byte atomics, device::kPacked128Available), so a reader can
//           never see a status with another value. For the model either is
//           one location read and written by single atomic accesses.
//   Split:  a status word plus value words (one for the aggregate, one for the
//           inclusive prefix); readers need release/acquire ordering between
//           them, and a torn read is a real possibility.
//   BySize: production choice made by the kernel per value type; the model
//           checks such a variant under both Packed and Split.
enum class Layout : std::uint8_t { BySize, Packed, Split };

// Where a block's tile index comes from.
enum class TileIdSource : std::uint8_t { Ticket, BlockIdx };

// How descriptors left over from the previous launch are made INVALID.
//   None:       not at all (only correct for a single launch).
//   HostMemset: the host clears descriptors and the ticket before each launch.
//   Epoch:      every descriptor carries the launch epoch; a descriptor from
//               another epoch reads as INVALID. A block reads the epoch with
//               its ticket (one RMW); the block that draws the launch's last
//               ticket stores the next epoch and ticket 0. When the epoch
//               wraps to 0 the last block to finish does that instead, after
//               clearing every descriptor, so no stale word can match
//               (protocol::wraps below).
enum class Reset : std::uint8_t { None, HostMemset, Epoch };

// How a look-back combines the values it collects.
//   Tree:     each window's values are reduced by the warp as a tree (a
//             suffix reduction over its lanes) and put in front of what the
//             windows nearer to the tile combined: the bracketing depends on
//             where the PREFIX was met, so floating-point sums vary from run
//             to run.
//   LeftFold: deterministic. The exclusive prefix of tile i is always the
//             left fold ((a_0 op a_1) op ...) op a_{i-1} of the tile
//             aggregates, bit for bit. Every PREFIX is such a fold, so the
//             look-back starts from the closest PREFIX and folds the
//             aggregates after it one at a time, left to right: windows
//             farther back than the first are passed over without their
//             values and folded in a second pass that reads the nearer
//             windows again, from the far end (whose descriptors can only
//             have moved up; one that became a PREFIX restarts the fold),
//             but for the nearest Protocol::held_windows, whose values the
//             first pass kept.
enum class Fold : std::uint8_t { Tree, LeftFold };

// Forward-progress models (Sorensen et al., OOPSLA 2021). A variant states
// the weakest one under which it claims to terminate.
enum class Progress : std::uint8_t { Fair, Obe, Hsa, Lobe, Unfair };

// The properties the model checker (and, where observable, the GPU stress
// harness) decides. Mutants name the one they are built to violate.
enum class Property : std::uint8_t {
  None,              // production variant: violates nothing
  CorrectPrefix,     // every used/published prefix is exactly [0,i-1] / [0,i]
  NoTornDescriptor,  // a reader never pairs a status with another write's value
  NoDataRace,        // no weak access races with a conflicting access
  MonotoneStatus,    // a descriptor never moves down INVALID<AGGREGATE<PREFIX
  Termination,       // no reachable hang under the claimed progress model
  FallbackWaitFree,  // a block alone finishes in a bounded number of its steps
  LeftFold,          // Fold::LeftFold: every used/published prefix is the left
                     // fold of the tile aggregates, bracketed as such
};

// One deliberate protocol flaw. Flaws that are just a different memory order
// or option are expressed by changing that field instead.
enum class Flaw : std::uint8_t {
  None,
  StopAtAggregate,          // look-back stops at an AGGREGATE as if it were a PREFIX
  PrefixBeforeLookback,     // PREFIX published before the look-back finished
  Tile0PublishesAggregate,  // tile 0 publishes AGGREGATE instead of PREFIX
  SplitValueOverwritten,    // split layout with one value word, rewritten AGGREGATE->PREFIX
  FallbackPlainStore,       // fallback publishes with a plain store (may overwrite PREFIX)
  FallbackNoValidation,     // in-place fallback trusts an input tile it read
                            // without re-checking the descriptor afterwards
  EpochWrapNotCleared,      // epoch wraps without clearing stale descriptors
  CountTilesNotBlocks,      // persistent blocks: the last draw and the
                            // finished counter count tiles, not blocks, so
                            // the last tile's block resets the ticket while
                            // other blocks still draw from it
  HandOverKeepsEpoch,       // the last drawer hands the next launch ticket 0
                            // but this launch's epoch, so the next launch
                            // takes this launch's descriptors for its own
  OutputFenceOnOddTiles,    // in-place persistent block: the output fence
                            // precedes the outputs of its tiles 1, 3, ...
                            // instead of 0, 2, ..., so its first output is
                            // not ordered after its first publish
  FoldWithoutSecondPass,    // Fold::LeftFold without the second pass: each
                            // farther window's fold is put in front of the
                            // nearer windows' fold, p op (w2 op w1) instead
                            // of (p op w2) op w1
};

// ---------------------------------------------------------------------------
// A protocol variant. Structural (public, literal members only), so the
// kernels take it as a template parameter and the model reads the same value.
struct Protocol {
  Layout layout = Layout::BySize;
  TileIdSource tile_id = TileIdSource::Ticket;

  // Writer side: every descriptor publish (AGGREGATE, PREFIX, fallback).
  Fence publish_fence = Fence::None;  // placed before the status store
  Order publish_order = Order::Release;
  // Packed layout: publish stores are relaxed instead of publish_order
  // (publish_order_on). A packed word carries its own value, so a reader
  // that takes it needs nothing else the writer wrote; the split layout's
  // value words do, and there publish_order holds. The fallback's CAS keeps
  // fallback_cas_order(p).
  bool relaxed_packed_publish = false;

  // Reader side: every look-back read of a status (or packed) word.
  Order lookback_order = Order::Acquire;
  Fence lookback_fence = Fence::None;  // placed after the window's reads

  // Split layout only: accesses to the value words.
  Order value_order = Order::Weak;

  // Predecessors inspected per look-back step (a warp reads them at once).
  int window = 32;

  // Decoupled fallback: a tile that has spun `spin_bound` look-back rounds on
  // an INVALID predecessor reduces that predecessor's input tile itself and
  // publishes the aggregate with a monotone (CAS) update. spin_bound == 0
  // means wait unboundedly.
  bool fallback = false;
  int spin_bound = 0;

  Reset reset = Reset::Epoch;
  int epoch_bits = 30;

  // The output overwrites the input. Only the fallback reads a predecessor's
  // input, so only there does this change the protocol: the fallback's input
  // reads and the owner's output writes become strong, the owner fences
  // before writing its output (output_fence_before: a persistent block
  // before every second tile's), and a fallback re-reads the descriptor
  // after reducing to validate. The owner's own input reads stay weak
  // (input_load_order).
  bool in_place = false;

  // Tiles a block holds at once.
  //   1: a block takes one tile id, scans the tile and exits; the grid has
  //      one block per tile.
  //   2: blocks are persistent: the grid is what the device holds at once
  //      and a block takes ticket after ticket until the tickets run out.
  //      Holding tile t, a block takes its next tile t' > t, scans it and
  //      publishes t''s aggregate before it looks back for t, so the
  //      look-back's wait overlaps the next tile's loads and no aggregate
  //      ever waits on a look-back. A block waits only after publishing the
  //      aggregate of every tile it holds, and only on lower tickets, which
  //      running blocks hold: the ticket's forward-progress argument (OBE)
  //      still holds. Needs TileIdSource::Ticket. (The `pipelined` and
  //      `fallback` variants; the fallback's waits are bounded anyway.)
  int tiles_per_block = 1;

  // How the look-back combines values (deterministic mode is LeftFold).
  Fold fold = Fold::Tree;
  // Fold::LeftFold: how many of the windows a look-back passes (the nearest
  // ones, all of whose descriptors it read AGGREGATE) it keeps the values of,
  // so that its second pass folds them from what it read instead of reading
  // them again. An aggregate never changes, so the bits are the same; what
  // is lost is only the chance to restart at a PREFIX published since.
  // Farther passed windows are read again (0: every one).
  int held_windows = 0;

  Flaw flaw = Flaw::None;

  friend constexpr bool operator==(const Protocol&, const Protocol&) = default;
};

// ---------------------------------------------------------------------------
// Derived orders. Both interpreters call these rather than deciding locally.

// Order of a descriptor publish store (AGGREGATE, PREFIX, a flawed
// fallback's plain store) on layout `l`, Packed or Split.
LOOKBACK_HD constexpr Order publish_order_on(const Protocol& p, Layout l) {
  return l == Layout::Packed && p.relaxed_packed_publish ? Order::Relaxed : p.publish_order;
}

// Order of a fallback's reads of a predecessor's input tile and of the
// owner's writes of its output tile: in place with a fallback they overlap,
// so both are strong.
LOOKBACK_HD constexpr Order data_order(const Protocol& p) {
  return (p.in_place && p.fallback) ? Order::Relaxed : Order::Weak;
}
// Order of the owner's reads of its own input tile: weak in every variant.
// Only the owner writes that tile (its output, in place), and only after
// these reads; the fallbacks' reads of it are reads too. So no write races
// with them. The model has one thread per block and one location per tile,
// so it checks the protocol-level claim; "after these reads" is the kernel's
// to keep: each thread stores only the elements it loaded itself (program
// order), the tile's first item, which the threads of a partial tile's
// warps on the partial path read as padding, is ordered before its owner's
// store by a barrier, cp.async copies are waited for before any
// store, and an earlier launch's writes to the buffer end with its kernel.
// (Strong, these reads cost the in-place fallback its cp.async staging:
// H100, u32 at 2^28, 974 us against 774 weak;
// bench/results/fallback/h100_inplace_probe.log.)
LOOKBACK_HD constexpr Order input_load_order(const Protocol&) {
  return Order::Weak;
}
// Fence the owner places before writing its output tile (in-place fallback:
// makes "output written" imply "descriptor published" for a validating
// reader); which outputs it precedes: output_fence_before.
LOOKBACK_HD constexpr Fence output_fence(const Protocol& p) {
  return (p.in_place && p.fallback) ? Fence::AcqRel : Fence::None;
}
// A fallback publishes with a monotone CAS unless the variant is flawed.
LOOKBACK_HD constexpr bool fallback_uses_cas(const Protocol& p) {
  return p.flaw != Flaw::FallbackPlainStore;
}
// The in-place fallback re-checks the descriptor after reducing the input.
LOOKBACK_HD constexpr bool fallback_validates(const Protocol& p) {
  return p.in_place && p.flaw != Flaw::FallbackNoValidation;
}
// Fence between a validating fallback's input reads and its re-read of the
// descriptor (the reader half of "output written => descriptor published").
LOOKBACK_HD constexpr Fence validation_fence(const Protocol& p) {
  return fallback_validates(p) ? Fence::AcqRel : Fence::None;
}
// The status a tile publishes right after its local scan: tile 0's aggregate
// already is its inclusive prefix.
LOOKBACK_HD constexpr Status first_publish_status(const Protocol& p, long long tile) {
  if (p.flaw == Flaw::PrefixBeforeLookback) return Status::Prefix;
  if (tile == 0 && p.flaw != Flaw::Tile0PublishesAggregate) return Status::Prefix;
  return Status::Aggregate;
}
// The status a fallback publishes for the predecessor whose input it reduced:
// the reduction of tile 0 is tile 0's inclusive prefix.
LOOKBACK_HD constexpr Status fallback_status(long long tile) {
  return tile == 0 ? Status::Prefix : Status::Aggregate;
}
// Spinning is bounded (and so the variant needs no inter-block progress).
LOOKBACK_HD constexpr bool bounded_wait(const Protocol& p) {
  return p.fallback && p.spin_bound > 0;
}
// Blocks are persistent: they loop over tickets (Protocol::tiles_per_block).
LOOKBACK_HD constexpr bool persistent(const Protocol& p) {
  return p.tiles_per_block > 1;
}
// Whether the owner takes output_fence(p) before writing the output of the
// k-th tile its block draws (k = 0, 1, 2, ...). One-tile blocks: before
// every output. A persistent block (tiles_per_block is 1 or 2; the model
// rejects more) publishes the aggregate of its tile k + 1 before it looks
// back for tile k and writes tile k's output, so the fence before tile k's
// output already lies between tile k + 1's publish and tile k + 1's output:
// one fence for every two tiles, before the outputs of tiles 0, 2, 4, ...
// In the kernel (agent_striped.cuh, run_persistent) the publish is warp 0's
// and the fence every storing thread's, ordered by the barrier at the end of
// resolve(): moving the next tile's begin() after the look-back, or that
// barrier, breaks the argument, and the model (one thread per block) would
// not see it. (H100, in-place fallback at 2^30, % of copy: u32 97.9 ->
// 99.3, u64 92.3 -> 96.3; bench/results/README.md, "One output fence per
// two tiles".)
LOOKBACK_HD constexpr bool output_fence_before(const Protocol& p, long long k) {
  const long long fenced_parity = p.flaw == Flaw::OutputFenceOnOddTiles ? 1 : 0;
  return output_fence(p) != Fence::None && (!persistent(p) || k % 2 == fenced_parity);
}
// The epoch after `epoch`, modulo the variant's epoch width. A result of 0
// means the epoch wrapped and stale descriptors must be cleared.
LOOKBACK_HD constexpr std::uint32_t next_epoch(std::uint32_t epoch, int epoch_bits) {
  const std::uint32_t mask = epoch_bits >= 32 ? 0xffffffffu : ((1u << epoch_bits) - 1u);
  return (epoch + 1u) & mask;
}
// Reset::Epoch hands the launch over in one of two ways. In both, the
// launch word holds the ticket and the epoch, and every block reads the
// epoch in the RMW that draws its tile id (a blockIdx variant draws too,
// only to count).
//   Most launches: the block whose draw was the launch's last (last_draw)
//   stores the word of the next launch (ticket 0, next epoch:
//   handed_over_epoch) after its last descriptor access. Every other draw
//   of this launch precedes that draw in the word's coherence order (they
//   are RMWs), and the draw precedes the store within the block (the
//   model's block is one thread; the kernels draw in one thread and store
//   from another after a __syncthreads()), so no block of this launch reads
//   the next epoch, and the kernel boundary orders the store before the
//   next launch. No block counts itself finished.
//   A launch whose next epoch wraps to 0 must also clear every descriptor,
//   after every block's last descriptor access: its blocks count themselves
//   finished (an acq_rel RMW on the done counter) and the last one clears,
//   then stores the next word. Its last drawer stores nothing.
// (Until 2026-11-26 every launch counted its blocks and every block read the
// epoch with a load of its own: bench/results/README.md has what that cost.)
LOOKBACK_HD constexpr bool wraps(const Protocol& p, std::uint32_t epoch) {
  return next_epoch(epoch, p.epoch_bits) == 0;
}
// The epoch the last drawer of a launch at `epoch` (one that does not wrap)
// stores into the next launch's word.
LOOKBACK_HD constexpr std::uint32_t handed_over_epoch(const Protocol& p, std::uint32_t epoch) {
  return p.flaw == Flaw::HandOverKeepsEpoch ? epoch : next_epoch(epoch, p.epoch_bits);
}
// The draw (the ticket value it returned) that is the launch's last: one
// per block of one tile (a grid of one block per tile); persistent blocks
// draw each tile once and then each block once more, past the last tile.
LOOKBACK_HD constexpr long long last_draw(const Protocol& p, long long tiles, long long blocks) {
  if (!persistent(p)) return blocks - 1;
  return tiles - 1 + (p.flaw != Flaw::CountTilesNotBlocks ? blocks : 0);
}
// The value of the finished-blocks counter at which a block knows it is the
// last one of an epoch-wrapping launch. Every block counts itself once,
// after the draw that ended its loop.
LOOKBACK_HD constexpr long long last_finisher(const Protocol& p, long long tiles,
                                              long long blocks) {
  return (persistent(p) && p.flaw != Flaw::CountTilesNotBlocks ? blocks : tiles) - 1;
}
// A left fold with its second pass over the windows the look-back passed
// (every LeftFold variant but the flawed one), and how many of them it
// folds from what its first pass read.
LOOKBACK_HD constexpr bool has_second_pass(const Protocol& p) {
  return p.fold == Fold::LeftFold && p.flaw != Flaw::FoldWithoutSecondPass;
}
LOOKBACK_HD constexpr int held_windows(const Protocol& p) {
  return has_second_pass(p) ? p.held_windows : 0;
}
// The variant's deterministic counterpart: the same protocol, folding left,
// keeping `held_windows` passed windows for the second pass.
LOOKBACK_HD constexpr Protocol left_fold(Protocol p, int held_windows) {
  p.fold = Fold::LeftFold;
  p.held_windows = held_windows;
  return p;
}
// Number of separate value words per descriptor in the split layout.
LOOKBACK_HD constexpr int split_value_words(const Protocol& p) {
  return p.flaw == Flaw::SplitValueOverwritten ? 1 : 2;
}
// Order of the split layout's value words. A fallback writes a predecessor's
// aggregate word while its owner may write the same word (the same value);
// weak accesses would race, so a fallback variant accesses them at least
// relaxed (a value wider than one machine word: word by word, each word
// single-copy atomic; a torn value is excluded by the status, not by size).
LOOKBACK_HD constexpr Order split_value_order(const Protocol& p) {
  return (p.fallback && p.value_order == Order::Weak) ? Order::Relaxed : p.value_order;
}

// Order of the fallback's CAS. It publishes (release, like any publish) and,
// when it fails, adopts the descriptor it found, whose value words it then
// reads (acquire, like any look-back read).
LOOKBACK_HD constexpr Order fallback_cas_order(const Protocol& p) {
  const bool rel = p.publish_order == Order::Release || p.publish_order == Order::AcqRel;
  const bool acq = p.lookback_order == Order::Acquire || p.lookback_order == Order::AcqRel;
  return rel && acq ? Order::AcqRel : rel ? Order::Release : acq ? Order::Acquire : Order::Relaxed;
}

// Orders of the launch bookkeeping, the same for every variant.
// The draw from the launch word (ticket and epoch in one RMW) needs no
// ordering: descriptors carry all communication, and every draw of a launch
// precedes the last drawer's hand-over in the word's coherence order.
inline constexpr Order kTicketOrder = Order::Relaxed;
// The finished-blocks counter of an epoch-wrapping launch: acq_rel so the
// last block's clears and resets come after every block's descriptor
// accesses and draws (no block of this launch can see a cleared descriptor
// or the next launch word).
inline constexpr Order kDoneOrder = Order::AcqRel;
// The hand-over's stores (next launch word, cleared descriptors, counter),
// ordered before the next launch by the kernel boundary.
inline constexpr Order kResetOrder = Order::Relaxed;

// Does a read with order `o` (and an optional trailing fence) acquire?
LOOKBACK_HD constexpr bool acquires(Order o, Fence f) {
  return o == Order::Acquire || o == Order::AcqRel || f != Fence::None;
}
// Does a write with order `o` (and an optional leading fence) release?
LOOKBACK_HD constexpr bool releases(Order o, Fence f) {
  return o == Order::Release || o == Order::AcqRel || f != Fence::None;
}

// ---------------------------------------------------------------------------
// Packed descriptor encoding. One word: [ value | epoch | status ].
// The status takes the low 2 bits, the epoch the next `kEpochBits`, and the
// value the upper half of the word (so 32-bit values in a 64-bit word and
// 64-bit values in a 128-bit word). INVALID is all-zero status bits, so a
// zero-filled descriptor array is all INVALID at epoch 0.
inline constexpr int kStatusBits = 2;
inline constexpr int kEpochBits = 30;
inline constexpr std::uint32_t kStatusMask = (1u << kStatusBits) - 1u;
inline constexpr std::uint32_t kEpochMask = (1u << kEpochBits) - 1u;

// An epoch reset needs its epochs to fit the tag: two epochs that differ only
// above kEpochBits (possible with epoch_bits 31 or 32; the launch word holds
// 32) would take each other's descriptors for their own. Kernels
// static_assert this; the model refuses such a protocol.
LOOKBACK_HD constexpr bool epoch_fits_tag(const Protocol& p) {
  return p.reset != Reset::Epoch || (p.epoch_bits >= 1 && p.epoch_bits <= kEpochBits);
}

// The low 32 bits of every packed word (and the whole split status word).
LOOKBACK_HD constexpr std::uint32_t encode_tag(Status s, std::uint32_t epoch) {
  return (static_cast<std::uint32_t>(s) & kStatusMask) | ((epoch & kEpochMask) << kStatusBits);
}
LOOKBACK_HD constexpr Status tag_status(std::uint32_t tag) {
  return static_cast<Status>(tag & kStatusMask);
}
LOOKBACK_HD constexpr std::uint32_t tag_epoch(std::uint32_t tag) {
  return (tag >> kStatusBits) & kEpochMask;
}
// A tag read in launch epoch `epoch` counts only if it was written in it.
LOOKBACK_HD constexpr Status effective_status(std::uint32_t tag, std::uint32_t epoch, Reset reset) {
  if (reset == Reset::Epoch && tag_epoch(tag) != (epoch & kEpochMask)) return Status::Invalid;
  return tag_status(tag);
}

// 64-bit packed word for values of at most 4 bytes: [ value (32) | tag (32) ].
LOOKBACK_HD constexpr std::uint64_t pack64(Status s, std::uint32_t epoch, std::uint32_t bits) {
  return (static_cast<std::uint64_t>(bits) << 32) | encode_tag(s, epoch);
}
LOOKBACK_HD constexpr std::uint32_t packed64_tag(std::uint64_t w) {
  return static_cast<std::uint32_t>(w);
}
LOOKBACK_HD constexpr std::uint32_t packed64_value(std::uint64_t w) {
  return static_cast<std::uint32_t>(w >> 32);
}

// 128-bit packed word for values of 5 to 8 bytes: [ value (64) | 0 (32) | tag
// (32) ], held as its low and high 64-bit halves (the two registers of a PTX
// .b128 access: `lo` is bits 0..63, at the lower address). Bits 32..63 are
// padding, always 0, so the all-zero word is INVALID at epoch 0 as well.
struct alignas(16) Packed128 {
  std::uint64_t lo;  // the tag, zero-extended
  std::uint64_t hi;  // the value bits (zero-extended to 64)
  friend constexpr bool operator==(const Packed128&, const Packed128&) = default;
};
LOOKBACK_HD constexpr Packed128 pack128(Status s, std::uint32_t epoch, std::uint64_t bits) {
  return Packed128{encode_tag(s, epoch), bits};
}
LOOKBACK_HD constexpr std::uint32_t packed128_tag(const Packed128& w) {
  return static_cast<std::uint32_t>(w.lo);
}
LOOKBACK_HD constexpr std::uint64_t packed128_value(const Packed128& w) {
  return w.hi;
}

// ---------------------------------------------------------------------------
// Names, shared by the model's output, the stress report and the tests.
LOOKBACK_HD constexpr const char* to_string(Status s) {
  switch (s) {
    case Status::Invalid:
      return "INVALID";
    case Status::Aggregate:
      return "AGGREGATE";
    case Status::Prefix:
      return "PREFIX";
  }
  return "?";
}
LOOKBACK_HD constexpr const char* to_string(Order o) {
  switch (o) {
    case Order::Weak:
      return "weak";
    case Order::Relaxed:
      return "relaxed";
    case Order::Acquire:
      return "acquire";
    case Order::Release:
      return "release";
    case Order::AcqRel:
      return "acq_rel";
  }
  return "?";
}
LOOKBACK_HD constexpr const char* to_string(Fence f) {
  switch (f) {
    case Fence::None:
      return "none";
    case Fence::AcqRel:
      return "fence.acq_rel";
    case Fence::Sc:
      return "fence.sc";
  }
  return "?";
}
LOOKBACK_HD constexpr const char* to_string(Layout l) {
  switch (l) {
    case Layout::BySize:
      return "by-size";
    case Layout::Packed:
      return "packed";
    case Layout::Split:
      return "split";
  }
  return "?";
}
LOOKBACK_HD constexpr const char* to_string(TileIdSource t) {
  return t == TileIdSource::Ticket ? "ticket" : "blockidx";
}
LOOKBACK_HD constexpr const char* to_string(Reset r) {
  switch (r) {
    case Reset::None:
      return "none";
    case Reset::HostMemset:
      return "host-memset";
    case Reset::Epoch:
      return "epoch";
  }
  return "?";
}
LOOKBACK_HD constexpr const char* to_string(Fold f) {
  return f == Fold::Tree ? "tree" : "left-fold";
}
LOOKBACK_HD constexpr const char* to_string(Progress p) {
  switch (p) {
    case Progress::Fair:
      return "fair";
    case Progress::Obe:
      return "obe";
    case Progress::Hsa:
      return "hsa";
    case Progress::Lobe:
      return "lobe";
    case Progress::Unfair:
      return "unfair";
  }
  return "?";
}
LOOKBACK_HD constexpr const char* to_string(Property p) {
  switch (p) {
    case Property::None:
      return "none";
    case Property::CorrectPrefix:
      return "correct-prefix";
    case Property::NoTornDescriptor:
      return "no-torn-descriptor";
    case Property::NoDataRace:
      return "no-data-race";
    case Property::MonotoneStatus:
      return "monotone-status";
    case Property::Termination:
      return "termination";
    case Property::FallbackWaitFree:
      return "fallback-wait-free";
    case Property::LeftFold:
      return "left-fold";
  }
  return "?";
}
LOOKBACK_HD constexpr const char* to_string(Flaw f) {
  switch (f) {
    case Flaw::None:
      return "none";
    case Flaw::StopAtAggregate:
      return "stop-at-aggregate";
    case Flaw::PrefixBeforeLookback:
      return "prefix-before-lookback";
    case Flaw::Tile0PublishesAggregate:
      return "tile0-publishes-aggregate";
    case Flaw::SplitValueOverwritten:
      return "split-value-overwritten";
    case Flaw::FallbackPlainStore:
      return "fallback-plain-store";
    case Flaw::FallbackNoValidation:
      return "fallback-no-validation";
    case Flaw::EpochWrapNotCleared:
      return "epoch-wrap-not-cleared";
    case Flaw::CountTilesNotBlocks:
      return "count-tiles-not-blocks";
    case Flaw::HandOverKeepsEpoch:
      return "hand-over-keeps-epoch";
    case Flaw::OutputFenceOnOddTiles:
      return "output-fence-on-odd-tiles";
    case Flaw::FoldWithoutSecondPass:
      return "fold-without-second-pass";
  }
  return "?";
}

}  // namespace lookback::protocol
