// Tile timelines (Options::trace, instrumented kernels): every variant stamps
// every tile once per point, in order, from a real multiprocessor and block,
// and the scan stays exact; a forced stall shows up where it was put. The
// summary's arithmetic is tested on the CPU (trace_summary_test).
#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "lookback/trace_summary.hpp"
#include "resident_blocks.hpp"
#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lookback::device::TileStamps;
using lookback::device::TracePoint;
using lt::Kind;

namespace {

constexpr int at(TracePoint p) {
  return static_cast<int>(p);
}

// Runs one traced scan of n u32 items (in place or not) and returns the
// stamps; the output is checked against the CPU reference.
template <class Cfg>
std::vector<TileStamps> traced_scan(std::int64_t n, bool in_place,
                                    lookback::device::Perturbation perturb = {}) {
  using T = std::uint32_t;
  const auto tiles = static_cast<std::size_t>(lookback::detail::tiles_for<Cfg, T>(n));
  const std::vector<T>& in = lt::cached_input<T>(n);
  const std::vector<T>& want = lt::cached_reference<T>(n, Kind::Inclusive);
  lt::DeviceBuffer<T> a(in.size()), b(in.size());
  // A few entries past the last tile: the launch clamps the trace to its
  // tiles, so they must stay zero (a persistent block's draw past the end).
  constexpr std::size_t kSpare = 4;
  lt::DeviceBuffer<TileStamps> stamps(tiles + kSpare);
  EXPECT_TRUE(a && b && stamps);
  if (!a || !b || !stamps) return {};
  T* d_out = in_place ? a.get() : b.get();
  // Poison under an out-of-place output: a reused allocation may hold an
  // earlier test's output of the same input.
  EXPECT_EQ(cudaMemset(b.get(), 0xA5, n * sizeof(T)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemset(stamps.get(), 0, (tiles + kSpare) * sizeof(TileStamps)), cudaSuccess);
  lookback::ScanPlan<T, Cfg> plan;
  EXPECT_EQ(plan.init(n), cudaSuccess) << lookback::last_error_message();
  lookback::Options o;
  o.perturb = perturb;
  o.trace = {stamps.get(), static_cast<std::uint32_t>(tiles + kSpare)};
  EXPECT_EQ(lt::plan_scan(plan, a.get(), d_out, n, Kind::Inclusive, o), cudaSuccess)
      << lookback::last_error_message();
  std::vector<T> got(in.size());
  EXPECT_EQ(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(lt::equal_exactly(want, got, lookback::detail::tile_items<Cfg, T>()));
  std::vector<TileStamps> out(tiles + kSpare);
  EXPECT_EQ(
      cudaMemcpy(out.data(), stamps.get(), out.size() * sizeof(TileStamps), cudaMemcpyDeviceToHost),
      cudaSuccess);
  for (std::size_t i = tiles; i < out.size(); ++i) {
    const TileStamps& x = out[i];
    EXPECT_TRUE(x.ns[0] == 0 && x.ns[1] == 0 && x.ns[2] == 0 && x.ns[3] == 0 && x.sm == 0 &&
                x.block == 0)
        << "a stamp past the last tile, at " << i;
  }
  out.resize(tiles);
  return out;
}

// Every tile complete and in order, on a real SM; one-tile variants: one
// block per tile.
void expect_whole_timeline(const std::vector<TileStamps>& stamps, bool one_tile_blocks) {
  ASSERT_FALSE(stamps.empty());
  const auto s = lookback::summarize_trace(stamps, 1.0);
  EXPECT_EQ(s.incomplete, 0u);
  EXPECT_EQ(s.out_of_order, 0u);
  EXPECT_GT(s.span_us, 0.0);
  const auto sms = static_cast<std::uint32_t>(lt::device_sms());
  std::set<std::uint32_t> blocks;
  for (const auto& t : stamps) {
    EXPECT_LT(t.sm, sms);
    EXPECT_LT(t.block, stamps.size());
    blocks.insert(t.block);
  }
  if (one_tile_blocks) EXPECT_EQ(blocks.size(), stamps.size());
}

// 2^22 + 5 items: many tiles, a partial last one.
constexpr std::int64_t kN = (std::int64_t{1} << 22) + 5;

template <class C>
using I = lookback::Instrumented<C>;

}  // namespace

TEST(ScanTrace, WarpLookbackStampsEveryTile) {
  LOOKBACK_REQUIRE_GPU();
  expect_whole_timeline(traced_scan<I<lookback::WarpLookback>>(kN, false), true);
}
TEST(ScanTrace, WarpLookbackSmallStampsEveryTile) {
  LOOKBACK_REQUIRE_GPU();
  expect_whole_timeline(traced_scan<I<lookback::WarpLookbackSmall>>(kN, false), true);
}
TEST(ScanTrace, CoarsenedStampsEveryTile) {
  LOOKBACK_REQUIRE_GPU();
  expect_whole_timeline(traced_scan<I<lookback::Coarsened>>(kN, false), true);
}
TEST(ScanTrace, PipelinedStampsEveryTile) {
  LOOKBACK_REQUIRE_GPU();
  expect_whole_timeline(traced_scan<I<lookback::Pipelined>>(kN, false), false);
}
// A persistent grid is as many blocks as the device holds at once: with four
// tiles per resident block, every tile is drawn by a block below that count,
// and (timing permitting: a block that starts late may find every ticket
// drawn) the last of them draws too. The block ids come from the kernel, so
// this catches a grid smaller than the resident count; a larger one would
// go unseen (its extra blocks start only once a resident block has exited,
// after the last ticket was drawn).
TEST(ScanTrace, PipelinedGridIsTheResidentBlocks) {
  LOOKBACK_REQUIRE_GPU();
  using Cfg = I<lookback::Pipelined>;
  const std::uint32_t resident = lt::resident_blocks<Cfg, Cfg::protocol>();
  ASSERT_GT(resident, 0u);
  const std::int64_t n =
      4 * std::int64_t{resident} * lookback::detail::tile_items<Cfg, std::uint32_t>() + 5;
  const auto stamps = traced_scan<Cfg>(n, false);
  expect_whole_timeline(stamps, false);
  std::uint32_t highest = 0;
  for (const auto& t : stamps)
    highest = std::max(highest, t.block);
  EXPECT_LT(highest, resident);
  if (lt::timing_checked("which blocks drew tiles")) EXPECT_EQ(highest + 1, resident);
}
TEST(ScanTrace, FallbackStampsEveryTileInPlaceToo) {
  LOOKBACK_REQUIRE_GPU();
  expect_whole_timeline(traced_scan<I<lookback::Fallback>>(kN, false), false);
  expect_whole_timeline(traced_scan<I<lookback::Fallback>>(kN, true), false);
}
TEST(ScanTrace, OneTileScan) {
  LOOKBACK_REQUIRE_GPU();
  const auto stamps = traced_scan<I<lookback::Pipelined>>(1000, false);
  ASSERT_EQ(stamps.size(), 1u);
  expect_whole_timeline(stamps, true);
}

// Every second tile sleeps 20 us before publishing its aggregate
// (Perturbation::stall_every): those tiles take that much longer from their
// draw to their aggregate than the others. (__nanosleep promises only a
// sleep of up to twice its argument, so the bound is on the medians.)
TEST(ScanTrace, AStallShowsWhereItWasPut) {
  LOOKBACK_REQUIRE_GPU();
  lookback::device::Perturbation q{};
  q.stall_ns = 20000;
  q.stall_every = 2;
  const auto stamps = traced_scan<I<lookback::Coarsened>>(kN, false, q);
  expect_whole_timeline(stamps, true);
  std::vector<double> stalled, others;
  for (std::size_t t = 0; t < stamps.size(); ++t) {
    const double us = static_cast<double>(stamps[t].ns[at(TracePoint::Aggregate)] -
                                          stamps[t].ns[at(TracePoint::Drawn)]) /
                      1000.0;
    (t % 2 == 1 ? stalled : others).push_back(us);
  }
  ASSERT_FALSE(stalled.empty());
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  EXPECT_GE(median(stalled) - median(others), 10.0);
}

// A paced first wave (TilePolicy::kFirstWavePaceGBps, first_wave.cuh): the
// block of ticket t waits t x tile bytes / pace before it loads. At 10 GB/s
// that is 3.2-6.6 us a ticket for these tiles, more than a tile's own load
// takes unpaced (2-5 us on an H200), so each of the first tiles has its
// aggregate at least its wait after its draw, and (timing: not under the
// sanitizer) later than the tile before it. The first tickets are in the first wave on any GPU (it
// holds a block per SM at least); a persistent block paces its first draw only.
template <lookback::Variant V, class Policy>
void expect_paced_first_wave() {
  constexpr int kGBps = 10;
  using Cfg = lookback::ScanConfig<V, lookback::PacedFirstWave<Policy, kGBps>, false, true, true>;
  const auto stamps = traced_scan<Cfg>(kN, false);
  expect_whole_timeline(stamps, !lookback::protocol::persistent(Cfg::protocol));
  const double tile_bytes =
      static_cast<double>(lookback::detail::tile_items<Cfg, std::uint32_t>()) *
      sizeof(std::uint32_t);
  std::set<std::uint32_t> blocks = {stamps[0].block};
  std::uint64_t previous = stamps[0].ns[at(TracePoint::Aggregate)];
  for (std::uint32_t t = 1; t <= 8; ++t) {
    if (!blocks.insert(stamps[t].block).second) continue;  // a later draw
    const std::uint64_t aggregate = stamps[t].ns[at(TracePoint::Aggregate)];
    const double waited_ns = static_cast<double>(aggregate - stamps[t].ns[at(TracePoint::Drawn)]);
    EXPECT_GE(waited_ns, t * tile_bytes / kGBps) << "tile " << t;
    if (lt::timing_checked("paced tiles' order")) EXPECT_GT(aggregate, previous) << "tile " << t;
    previous = aggregate;
  }
}
TEST(ScanTrace, PacedFirstWaveWaitsByTicket) {
  LOOKBACK_REQUIRE_GPU();
  expect_paced_first_wave<lookback::Variant::Coarsened, lookback::CoarsenedPolicy>();
  expect_paced_first_wave<lookback::Variant::WarpLookback, lookback::WarpLookbackPolicy>();
  expect_paced_first_wave<lookback::Variant::Pipelined, lookback::PipelinedPolicy>();
}
