// The named protocol variants: production ones and seeded mutants.
// Everything here is data built from spec.hpp; nothing re-states an encoding
// or an order.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "lookback/protocol/spec.hpp"

namespace lookback::protocol {

enum class Kind : std::uint8_t { Production, Mutant };

struct NamedVariant {
  const char* name;
  Kind kind;
  Protocol protocol;
  // Weakest progress model under which the variant claims to terminate.
  Progress claims;
  // For mutants: the property its flaw violates. Production: Property::None.
  Property expected;
  // Launches sharing the temp storage needed to expose the flaw (2 for reuse).
  int launches;
  const char* summary;
};

namespace detail {
// Production building blocks. `coarsened` differs from `warp-lookback` only
// in tuning (items per thread, vector width), which lives with the kernels,
// not in the protocol. Packed publishes are relaxed in every production
// variant (a packed word carries its value; split words keep the release).
// A release's fence sits on each tile's path from its aggregate to its
// output: on the H100 it cost `pipelined` 3-4% of copy bandwidth (its fence
// also waited for the previous tile's stores) and one-tile blocks 0.4-1.2 us
// from 2^13 to 2^20 items, 10% of a 2^20-item scan (bench/results/README.md,
// 2026-11-25 and 2026-11-27 evening). `pipelined`'s blocks are persistent
// and hold two tiles. The fallback runs on the same persistent blocks:
// one-tile blocks held it at 95% of copy where `pipelined` reached 99%, and
// its bounded wait does not care which block holds a tile.
inline constexpr Protocol kWarpLookback = [] {
  Protocol p{};
  p.relaxed_packed_publish = true;
  return p;
}();
inline constexpr Protocol kPipelined = [] {
  Protocol p = kWarpLookback;
  p.tiles_per_block = 2;
  return p;
}();
inline constexpr Protocol kFallback = [] {
  Protocol p = kPipelined;
  p.fallback = true;
  p.spin_bound = 64;
  return p;
}();
inline constexpr Protocol kFallbackInPlace = [] {
  Protocol p = kFallback;
  p.in_place = true;
  return p;
}();
// Deterministic mode: the left fold, holding the values of the 4 nearest
// windows a look-back passes. Re-reading every passed window (0 held) made
// pipelined f32 12% and f64 50% slower than the default at 2^28 on an H200
// (pipelined's look-backs often start before their predecessors publish a
// PREFIX and pass several windows, each re-read an L2 round trip on the
// chain of PREFIXes), coarsened f32 13% at 2^22-2^23. With 4 held (in shared
// memory): f32 coarsened and pipelined within 3% of their default from 2^24
// items, 2-7% behind below; f64 pipelined 3-5% from 2^24. 2 held left
// pipelined 15-17% behind at 2^22-2^23; 8 and 16 were no faster
// (bench/results/h200/held-windows/).
inline constexpr int kDeterministicHeldWindows = 4;
constexpr Protocol deterministic(const Protocol& p) {
  return left_fold(p, kDeterministicHeldWindows);
}

template <class F>
constexpr Protocol with(Protocol p, F&& change) {
  change(p);
  return p;
}
}  // namespace detail

inline constexpr std::array kCatalogue{
    // ----------------------------------------------------------- production
    NamedVariant{"warp-lookback", Kind::Production, detail::kWarpLookback, Progress::Obe,
                 Property::None, 1,
                 "a warp inspects a window of predecessors per step; packed publishes "
                 "relaxed (split ones release), acquire reads, atomic ticket, epoch reset"},
    NamedVariant{"coarsened", Kind::Production, detail::kWarpLookback, Progress::Obe,
                 Property::None, 1,
                 "many items per thread with 16-byte loads; same protocol as warp-lookback"},
    NamedVariant{"pipelined", Kind::Production, detail::kPipelined, Progress::Obe, Property::None,
                 1,
                 "coarsened tiles on persistent blocks that hold two: a block publishes its "
                 "newer tile's aggregate before the older one's look-back; packed publishes "
                 "relaxed"},
    NamedVariant{"fallback", Kind::Production, detail::kFallback, Progress::Unfair, Property::None,
                 1,
                 "decoupled fallback: after a bounded spin a tile reduces the blocking "
                 "predecessor's input itself and publishes it with a monotone CAS; "
                 "on pipelined's persistent two-tile blocks"},
    NamedVariant{"fallback-inplace", Kind::Production, detail::kFallbackInPlace, Progress::Unfair,
                 Property::None, 1,
                 "fallback with output over input: strong output stores and predecessor "
                 "reads (a tile's own input reads stay weak), owner fences before its "
                 "output (every second one of a block), fallback re-validates the descriptor"},
    // Deterministic mode (Fold::LeftFold) of each production kernel: the
    // same protocol, folding left (lookback::Deterministic<C> compiles
    // these; production() below checks that each is its base variant's
    // detail::deterministic()).
    NamedVariant{"warp-lookback-deterministic", Kind::Production,
                 detail::deterministic(detail::kWarpLookback), Progress::Obe, Property::None, 1,
                 "warp-lookback whose prefixes are the left fold of the aggregates, bit for "
                 "bit: folds from the closest PREFIX, the windows passed in a second pass (the "
                 "nearest 4 from the values read, farther ones read again)"},
    NamedVariant{"coarsened-deterministic", Kind::Production,
                 detail::deterministic(detail::kWarpLookback), Progress::Obe, Property::None, 1,
                 "coarsened, folding left (deterministic)"},
    NamedVariant{"pipelined-deterministic", Kind::Production,
                 detail::deterministic(detail::kPipelined), Progress::Obe, Property::None, 1,
                 "pipelined, folding left (deterministic)"},
    NamedVariant{"fallback-deterministic", Kind::Production,
                 detail::deterministic(detail::kFallback), Progress::Unfair, Property::None, 1,
                 "fallback, folding left (deterministic; a fallback's reduction has the "
                 "owner's bits)"},
    NamedVariant{"fallback-inplace-deterministic", Kind::Production,
                 detail::deterministic(detail::kFallbackInPlace), Progress::Unfair, Property::None,
                 1, "fallback-inplace, folding left (deterministic)"},
    NamedVariant{"fenced-lookback", Kind::Production,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) {
                                p.publish_fence = Fence::Sc;
                                p.publish_order = Order::Relaxed;
                                p.lookback_order = Order::Relaxed;
                                p.lookback_fence = Fence::Sc;
                              }),
                 Progress::Obe, Property::None, 1,
                 "classic __threadfence() style: relaxed accesses ordered by fence.sc"},
    // -------------------------------------------------------------- mutants
    NamedVariant{"no-writer-release", Kind::Mutant,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) {
                                p.layout = Layout::Split;
                                p.publish_order = Order::Relaxed;
                              }),
                 Progress::Obe, Property::NoDataRace, 1,
                 "split layout; status published relaxed with no fence before it"},
    NamedVariant{"no-reader-acquire", Kind::Mutant,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) {
                                p.layout = Layout::Split;
                                p.lookback_order = Order::Relaxed;
                              }),
                 Progress::Obe, Property::NoDataRace, 1,
                 "split layout; status read relaxed with no fence after it"},
    NamedVariant{"no-release-no-acquire", Kind::Mutant,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) {
                                p.layout = Layout::Split;
                                p.publish_order = Order::Relaxed;
                                p.lookback_order = Order::Relaxed;
                              }),
                 Progress::Obe, Property::NoDataRace, 1,
                 "split layout; both sides relaxed, nothing orders value and status"},
    NamedVariant{"writer-fence-only", Kind::Mutant,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) {
                                p.layout = Layout::Split;
                                p.publish_order = Order::Relaxed;
                                p.publish_fence = Fence::Sc;
                                p.lookback_order = Order::Relaxed;
                              }),
                 Progress::Obe, Property::NoDataRace, 1,
                 "split layout; __threadfence() before publishing but none after reading"},
    NamedVariant{"split-value-overwritten", Kind::Mutant,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) {
                                p.layout = Layout::Split;
                                p.value_order = Order::Relaxed;
                                p.flaw = Flaw::SplitValueOverwritten;
                              }),
                 Progress::Obe, Property::NoTornDescriptor, 1,
                 "split layout with one value word: PREFIX overwrites the AGGREGATE value "
                 "a reader of the old status may still take"},
    NamedVariant{
        "stop-at-aggregate", Kind::Mutant,
        detail::with(detail::kWarpLookback, [](Protocol& p) { p.flaw = Flaw::StopAtAggregate; }),
        Progress::Obe, Property::CorrectPrefix, 1,
        "look-back stops at an AGGREGATE as if it were a PREFIX"},
    NamedVariant{"prefix-before-lookback", Kind::Mutant,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) { p.flaw = Flaw::PrefixBeforeLookback; }),
                 Progress::Obe, Property::CorrectPrefix, 1,
                 "PREFIX (of the tile's aggregate alone) published before the look-back"},
    NamedVariant{"tile0-aggregate", Kind::Mutant,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) { p.flaw = Flaw::Tile0PublishesAggregate; }),
                 Progress::Obe, Property::Termination, 1,
                 "tile 0 publishes AGGREGATE, so a look-back never meets a PREFIX"},
    NamedVariant{"no-reset", Kind::Mutant,
                 detail::with(detail::kWarpLookback, [](Protocol& p) { p.reset = Reset::None; }),
                 Progress::Obe, Property::CorrectPrefix, 2,
                 "descriptors are not reset between launches sharing temp storage"},
    NamedVariant{"epoch-wrap-not-cleared", Kind::Mutant,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) {
                                p.epoch_bits = 1;
                                p.flaw = Flaw::EpochWrapNotCleared;
                              }),
                 Progress::Obe, Property::CorrectPrefix, 2,
                 "epoch counter wraps without clearing descriptors of an older epoch"},
    NamedVariant{
        "hand-over-keeps-epoch", Kind::Mutant,
        detail::with(detail::kWarpLookback, [](Protocol& p) { p.flaw = Flaw::HandOverKeepsEpoch; }),
        Progress::Obe, Property::CorrectPrefix, 2,
        "the last drawer resets the ticket but keeps the epoch: the next launch "
        "reads the descriptors this launch left as its own"},
    NamedVariant{
        "fallback-plain-store", Kind::Mutant,
        detail::with(detail::kFallback, [](Protocol& p) { p.flaw = Flaw::FallbackPlainStore; }),
        Progress::Unfair, Property::MonotoneStatus, 1,
        "fallback publishes its aggregate with a plain store over a PREFIX"},
    NamedVariant{"fallback-unbounded-spin", Kind::Mutant,
                 detail::with(detail::kFallback, [](Protocol& p) { p.spin_bound = 0; }),
                 Progress::Unfair, Property::Termination, 1,
                 "fallback whose spin bound was removed: it waits like a plain look-back"},
    NamedVariant{"fallback-inplace-no-validation", Kind::Mutant,
                 detail::with(detail::kFallbackInPlace,
                              [](Protocol& p) { p.flaw = Flaw::FallbackNoValidation; }),
                 Progress::Unfair, Property::CorrectPrefix, 1,
                 "in-place fallback reduces a predecessor's input that may already be "
                 "overwritten by its output, and does not re-check"},
    NamedVariant{"fallback-inplace-fence-odd-tiles", Kind::Mutant,
                 detail::with(detail::kFallbackInPlace,
                              [](Protocol& p) { p.flaw = Flaw::OutputFenceOnOddTiles; }),
                 Progress::Unfair, Property::CorrectPrefix, 1,
                 "in-place fallback whose persistent blocks fence before their 2nd, 4th, ... "
                 "output instead of the 1st, 3rd, ...: a validating fallback may take a first "
                 "tile's output for its input"},
    NamedVariant{
        "count-tiles-not-blocks", Kind::Mutant,
        detail::with(detail::kPipelined, [](Protocol& p) { p.flaw = Flaw::CountTilesNotBlocks; }),
        Progress::Obe, Property::NoDataRace, 2,
        "persistent blocks count tiles, not blocks, at the last draw and the finished "
        "counter: the launch word is reset while a block still draws, which takes tile 0 "
        "again (two blocks write one output tile)"},
    NamedVariant{"fold-without-second-pass", Kind::Mutant,
                 detail::with(left_fold(detail::kWarpLookback, 0),
                              [](Protocol& p) { p.flaw = Flaw::FoldWithoutSecondPass; }),
                 Progress::Obe, Property::LeftFold, 1,
                 "deterministic look-back that folds each window left but puts it in front "
                 "of the nearer windows' fold: p op (w2 op w1), not (p op w2) op w1"},
    NamedVariant{"blockidx-tile-id", Kind::Mutant,
                 detail::with(detail::kWarpLookback,
                              [](Protocol& p) { p.tile_id = TileIdSource::BlockIdx; }),
                 Progress::Obe, Property::Termination, 1,
                 "tile id from blockIdx: a started block may wait on one never scheduled"},
};

// Look a variant or mutant up by name.
constexpr std::optional<NamedVariant> find_variant(std::string_view name) {
  for (const auto& v : kCatalogue)
    if (name == v.name) return v;
  return std::nullopt;
}

// The production variant a kernel named `name` is generated from; with
// `deterministic`, the entry named `name`-deterministic, which must be
// detail::deterministic of `name`'s (so every kernel's protocol has a verdict row).
consteval Protocol production(std::string_view name, bool deterministic = false) {
  constexpr std::string_view kSuffix = "-deterministic";
  for (const auto& v : kCatalogue) {
    const std::string_view n = v.name;
    if (v.kind != Kind::Production) continue;
    if (!deterministic && n == name) return v.protocol;
    if (deterministic && n.size() == name.size() + kSuffix.size() && n.starts_with(name) &&
        n.ends_with(kSuffix)) {
      if (v.protocol != detail::deterministic(production(name)))
        throw "not the base variant's deterministic()";
      return v.protocol;
    }
  }
  throw "unknown production variant";  // compile-time error
}

}  // namespace lookback::protocol
