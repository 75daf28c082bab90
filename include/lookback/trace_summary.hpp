// What a tile timeline (device/trace.hpp, written by an instrumented scan
// given Options::trace) says, in numbers a person can read: how long each
// step of a tile's life took, how long the grid took to fill and to drain,
// and, per time bucket, how many tiles were drawn, had their input in, were
// stored, and how many blocks sat in a look-back. Host code only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "lookback/device/trace.hpp"

namespace lookback {

// Nearest-rank percentiles of one step's durations over every tile.
struct StepTimes {
  double median_us = 0;
  double p90_us = 0;
  double max_us = 0;
};

// One bucket of the timeline, [start_us, start_us + width): tiles that
// passed a point inside it, and what the tiles in flight were doing at its
// start.
struct TimelineBucket {
  double start_us = 0;
  std::uint32_t drawn = 0;
  std::uint32_t aggregated = 0;  // input in: the tile's loads were done
  std::uint32_t stored = 0;
  std::uint32_t loading = 0;  // drawn, aggregate not yet published
  std::uint32_t looking = 0;  // aggregate out, prefix not yet known
  std::uint32_t storing = 0;  // prefix known, its block not yet past its stores
};

struct TraceSummary {
  std::uint32_t tiles = 0;
  std::uint32_t incomplete = 0;    // tiles missing a stamp (a point never reached)
  std::uint32_t out_of_order = 0;  // complete tiles whose stamps go backwards
  std::uint32_t sms = 0;           // distinct multiprocessors that ran a tile
  // From the first draw (every time below is relative to it).
  double span_us = 0;         // to the last store
  double first_input_us = 0;  // the earliest aggregate of any tile: the first input in
  double last_draw_us = 0;
  double tail_us = 0;        // last draw to last store: the drain
  StepTimes load;            // drawn -> aggregate (loads, local reduction; a paced wait)
  StepTimes lookback;        // aggregate -> prefix (delay, look-back, waits)
  StepTimes store;           // prefix -> stored (tile scan, output stores)
  double timer_step_ns = 0;  // lookback::timer_step_ns of the stamps
  double bucket_us = 0;
  std::vector<TimelineBucket> timeline;
};

namespace detail {
inline StepTimes step_times(std::vector<double> us) {
  if (us.empty()) return {};
  std::sort(us.begin(), us.end());
  const auto rank = [&](double q) {
    const auto i = static_cast<std::size_t>(q * static_cast<double>(us.size() - 1) + 0.5);
    return us[std::min(i, us.size() - 1)];
  };
  return {rank(0.5), rank(0.9), us.back()};
}
}  // namespace detail

// A tile whose every point was stamped (a zero stamp was never written).
inline bool all_stamped(const device::TileStamps& t) {
  return std::none_of(std::begin(t.ns), std::end(t.ns), [](std::uint64_t v) { return v == 0; });
}
// ... and in order: the only kind of tile the summary uses.
inline bool complete_in_order(const device::TileStamps& t) {
  return all_stamped(t) && std::is_sorted(std::begin(t.ns), std::end(t.ns));
}

namespace detail {
// The smallest nonzero gap between two stamps of `tiles` (0: none differ).
inline double smallest_gap_ns(const std::vector<const device::TileStamps*>& tiles) {
  std::vector<std::uint64_t> all;
  all.reserve(tiles.size() * device::kTracePoints);
  for (const auto* t : tiles)
    all.insert(all.end(), std::begin(t->ns), std::end(t->ns));
  std::sort(all.begin(), all.end());
  std::uint64_t step = 0;
  for (std::size_t i = 1; i < all.size(); ++i) {
    const std::uint64_t d = all[i] - all[i - 1];
    if (d != 0 && (step == 0 || d < step)) step = d;
  }
  return static_cast<double>(step);
}
}  // namespace detail

// The global timer's step: the smallest nonzero gap between two stamps of
// complete, in-order tiles (0 when no two differ). Times finer than this
// are noise, so a caller sizes timeline buckets from it.
inline double timer_step_ns(std::span<const device::TileStamps> stamps) {
  std::vector<const device::TileStamps*> good;
  for (const auto& t : stamps)
    if (complete_in_order(t)) good.push_back(&t);
  return detail::smallest_gap_ns(good);
}

// The most buckets a timeline gets; a finer bucket_us widens to fit.
inline constexpr std::size_t kMaxTimelineBuckets = 100000;

// bucket_us > 0 (finite): the width of the timeline's buckets; otherwise no
// timeline. Incomplete and out-of-order tiles are counted and left out of
// everything else.
inline TraceSummary summarize_trace(std::span<const device::TileStamps> stamps, double bucket_us) {
  using device::TracePoint;
  constexpr int kDrawn = static_cast<int>(TracePoint::Drawn);
  constexpr int kAggregate = static_cast<int>(TracePoint::Aggregate);
  constexpr int kPrefix = static_cast<int>(TracePoint::Prefix);
  constexpr int kStored = static_cast<int>(TracePoint::Stored);
  TraceSummary s;
  s.tiles = static_cast<std::uint32_t>(stamps.size());
  std::vector<const device::TileStamps*> good;
  good.reserve(stamps.size());
  std::vector<std::uint32_t> sms;
  for (const auto& t : stamps) {
    if (complete_in_order(t)) {
      good.push_back(&t);
      sms.push_back(t.sm);
    } else if (!all_stamped(t)) {
      ++s.incomplete;
    } else {
      ++s.out_of_order;
    }
  }
  std::sort(sms.begin(), sms.end());
  s.sms = static_cast<std::uint32_t>(std::unique(sms.begin(), sms.end()) - sms.begin());
  if (good.empty()) return s;

  std::uint64_t t0 = std::numeric_limits<std::uint64_t>::max(), first_agg = t0;
  std::uint64_t last_draw = 0, end = 0;
  for (const auto* t : good) {
    t0 = std::min(t0, t->ns[kDrawn]);
    first_agg = std::min(first_agg, t->ns[kAggregate]);
    last_draw = std::max(last_draw, t->ns[kDrawn]);
    end = std::max(end, t->ns[kStored]);
  }
  const auto us = [&](std::uint64_t ns) { return static_cast<double>(ns - t0) / 1000.0; };
  s.span_us = us(end);
  s.first_input_us = us(first_agg);
  s.last_draw_us = us(last_draw);
  s.tail_us = s.span_us - s.last_draw_us;

  s.timer_step_ns = detail::smallest_gap_ns(good);  // timer_step_ns, on the tiles in hand

  std::vector<double> load, look, store;
  for (const auto* t : good) {
    load.push_back(static_cast<double>(t->ns[kAggregate] - t->ns[kDrawn]) / 1000.0);
    look.push_back(static_cast<double>(t->ns[kPrefix] - t->ns[kAggregate]) / 1000.0);
    store.push_back(static_cast<double>(t->ns[kStored] - t->ns[kPrefix]) / 1000.0);
  }
  s.load = detail::step_times(std::move(load));
  s.lookback = detail::step_times(std::move(look));
  s.store = detail::step_times(std::move(store));

  if (!std::isfinite(bucket_us) || bucket_us <= 0) return s;
  if (s.span_us / bucket_us >= static_cast<double>(kMaxTimelineBuckets))
    bucket_us = s.span_us / static_cast<double>(kMaxTimelineBuckets - 1);
  s.bucket_us = bucket_us;
  const auto buckets = static_cast<std::size_t>(s.span_us / bucket_us) + 1;
  s.timeline.resize(buckets);
  for (std::size_t b = 0; b < buckets; ++b)
    s.timeline[b].start_us = bucket_us * b;
  const auto bucket_of = [&](std::uint64_t ns) {
    return std::min(static_cast<std::size_t>(us(ns) / bucket_us), buckets - 1);
  };
  // In flight at a bucket's start: between two points, the later excluded,
  // so from the first bucket that starts at or after `from` to the last one
  // that starts before `to`: +1 / -1 at those edges, summed once.
  const auto first_start_at_or_after = [&](std::uint64_t ns) {
    return std::min(static_cast<std::size_t>(std::ceil(us(ns) / bucket_us)), buckets);
  };
  std::vector<std::int64_t> loading(buckets + 1), looking(buckets + 1), storing(buckets + 1);
  const auto add = [&](std::vector<std::int64_t>& edges, std::uint64_t from, std::uint64_t to) {
    ++edges[first_start_at_or_after(from)];
    --edges[first_start_at_or_after(to)];
  };
  for (const auto* t : good) {
    ++s.timeline[bucket_of(t->ns[kDrawn])].drawn;
    ++s.timeline[bucket_of(t->ns[kAggregate])].aggregated;
    ++s.timeline[bucket_of(t->ns[kStored])].stored;
    add(loading, t->ns[kDrawn], t->ns[kAggregate]);
    add(looking, t->ns[kAggregate], t->ns[kPrefix]);
    add(storing, t->ns[kPrefix], t->ns[kStored]);
  }
  std::int64_t in_loading = 0, in_looking = 0, in_storing = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    s.timeline[b].loading = static_cast<std::uint32_t>(in_loading += loading[b]);
    s.timeline[b].looking = static_cast<std::uint32_t>(in_looking += looking[b]);
    s.timeline[b].storing = static_cast<std::uint32_t>(in_storing += storing[b]);
  }
  return s;
}

}  // namespace lookback
