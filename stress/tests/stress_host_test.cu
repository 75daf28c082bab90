// Host-side tests of the stress harness (no GPU needed): the tile maps are
// bijections that stay inside their windows, the knobs are what the report
// says they are, every catalogue entry has a kernel, the command line, the
// reproducibility estimates, and the report writers and plots put every
// number where it belongs.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <vector>

#include "lookback/device/perturb.cuh"
#include "lookback/protocol/catalogue.hpp"
#include "stress/cli.hpp"
#include "stress/entries.hpp"
#include "stress/estimate.hpp"
#include "stress/harness.hpp"
#include "stress/knobs.hpp"
#include "stress/report.hpp"

namespace {

using lookback::device::perturb_tile;
using lookback::device::Perturbation;
using lookback::device::PerturbPoint;
using lookback::device::TileMap;
using namespace lookback::stress;

std::vector<std::uint32_t> mapped(const Perturbation& q, std::uint32_t tiles) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t t = 0; t < tiles; ++t)
    out.push_back(perturb_tile(q, t, tiles));
  return out;
}

TEST(TileMap, EveryMapIsABijectionThatKeepsTilesInTheirWindow) {
  for (TileMap map : {TileMap::Identity, TileMap::Reversed, TileMap::Shuffled}) {
    for (std::uint32_t window : {0u, 1u, 7u, 32u}) {
      for (std::uint32_t tiles : {1u, 2u, 31u, 32u, 33u, 100u, 1025u}) {
        for (std::uint32_t seed : {0u, 1u, 0xdeadbeefu}) {
          Perturbation q;
          q.tile_map = map;
          q.map_window = window;
          q.seed = seed;
          const auto m = mapped(q, tiles);
          std::vector<std::uint32_t> sorted = m;
          std::sort(sorted.begin(), sorted.end());
          for (std::uint32_t t = 0; t < tiles; ++t) {
            ASSERT_EQ(sorted[t], t) << "not a bijection: map " << static_cast<int>(map)
                                    << " window " << window << " tiles " << tiles;
            if (window != 0) ASSERT_EQ(m[t] / window, t / window) << "tile left its window";
          }
        }
      }
    }
  }
}

TEST(TileMap, ReversedAndShuffledActuallyMoveTiles) {
  Perturbation q;
  q.map_window = 32;
  q.tile_map = TileMap::Reversed;
  EXPECT_EQ(perturb_tile(q, 0, 64), 31u);
  EXPECT_EQ(perturb_tile(q, 32, 40), 39u);  // the last, partial window: 8 tiles
  q.tile_map = TileMap::Shuffled;
  int moved = 0;
  for (std::uint32_t seed = 0; seed < 16; ++seed) {
    q.seed = seed;
    const auto m = mapped(q, 64);
    for (std::uint32_t t = 0; t < 64; ++t)
      moved += m[t] != t;
  }
  EXPECT_GT(moved, 16 * 64 / 2);  // a shuffle that mostly moves things
  q.tile_map = TileMap::Identity;
  EXPECT_EQ(perturb_tile(q, 5, 64), 5u);
  q.tile_map = TileMap::Reversed;
  EXPECT_EQ(perturb_tile(q, 70, 64), 70u)
      << "an overflowing ticket is left for the kernel to report";
}

TEST(Perturb, HashSpreadsAdjacentTiles) {
  std::set<std::uint32_t> low16;
  for (std::uint32_t t = 0; t < 1000; ++t)
    low16.insert(lookback::device::perturb_hash(1, t, 0) & 0xffffu);
  EXPECT_GT(low16.size(), 980u);
}

TEST(Knobs, NoneFirstChaosThenTargetedNamesUniqueAndSafeForCorrectVariants) {
  const auto knobs = default_knobs();
  ASSERT_GE(knobs.size(), 12u);
  EXPECT_EQ(knobs.front().name, "none");
  EXPECT_FALSE(knobs.front().perturb.any());
  EXPECT_EQ(knobs.front().hog_blocks_per_sm, 0);
  EXPECT_FALSE(knobs.front().concurrent);
  // chaos closes the general knobs; the targeted ones follow it.
  const auto chaos =
      std::find_if(knobs.begin(), knobs.end(), [](const Knob& k) { return k.name == "chaos"; });
  ASSERT_NE(chaos, knobs.end());
  std::vector<std::string> targeted;
  for (auto it = chaos + 1; it != knobs.end(); ++it)
    targeted.push_back(it->name);
  EXPECT_EQ(targeted,
            (std::vector<std::string>{"fallback-race", "starved-tile", "dispatch-reversed"}));
  std::set<std::string> names;
  for (const auto& k : knobs) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_FALSE(k.description.empty());
    // A whole-grid permutation would deadlock a ticket-ordered variant when
    // the grid exceeds the resident blocks: never in a knob's perturbation
    // (dispatch-reversed applies one to blockIdx variants only, in the harness).
    if (k.perturb.tile_map != TileMap::Identity) {
      EXPECT_GT(k.perturb.map_window, 0u) << k.name;
      EXPECT_LE(k.perturb.map_window, 32u) << k.name;
    }
    EXPECT_LE(k.perturb.stall_ns, 1'000'000u)
        << k.name << ": stalls must stay short of the watchdog";
    for (int point = 0; point < lookback::device::kPerturbPoints; ++point)
      EXPECT_LE(k.perturb.delay_ns[point], 1'000'000u) << k.name;
    // Starvation waits on everyone else: only a wait-free variant survives it.
    if (k.starve || k.perturb.starve_ns != 0) {
      EXPECT_TRUE(k.fallback_only) << k.name;
      EXPECT_TRUE(k.starve && k.perturb.starve_ns > 0) << k.name;
    }
    EXPECT_EQ(k.perturb.starve_tile, lookback::device::kNoTile)
        << k.name << ": the harness picks the starved tile per launch";
    EXPECT_TRUE(k.applies_to(true)) << k.name;
    EXPECT_EQ(k.applies_to(false), !k.fallback_only) << k.name;
  }
  // Every mechanism the issue lists is exercised by some knob.
  auto some = [&](auto pred) { return std::any_of(knobs.begin(), knobs.end(), pred); };
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.delay_chance > 0; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.tile_map == TileMap::Reversed; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.tile_map == TileMap::Shuffled; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.stall_ns > 0; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.hog_blocks_per_sm > 0 && !k.memory_stress; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.memory_stress; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.descriptor_readers; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.perturb.prestress_rounds > 0; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.concurrent; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.starve; }));
  EXPECT_TRUE(some([](const Knob& k) { return k.reverse_dispatch && k.beyond_residency; }));
  EXPECT_TRUE(some([](const Knob& k) {
    return k.perturb.max_delay_ns(PerturbPoint::BeforeFallbackPublish) > 0;
  }));
}

TEST(Knobs, TargetedKnobsAimWhereTheirMutantsBite) {
  const auto knobs = default_knobs();
  const Knob* race = find_knob(knobs, "fallback-race");
  ASSERT_NE(race, nullptr);
  // The owner's stall must be able to outlast a waiter's spin bound and the
  // fallback's reduction, and the fallback's publish must be able to come
  // after the owner's PREFIX.
  EXPECT_GE(race->perturb.max_delay_ns(PerturbPoint::BeforeAggregate), 100000u);
  EXPECT_GE(race->perturb.max_delay_ns(PerturbPoint::BeforeFallbackPublish), 50000u);
  EXPECT_GT(race->perturb.delay_chance, 0u);
  EXPECT_FALSE(race->fallback_only) << "long delays are safe for every variant";
  const Knob* starved = find_knob(knobs, "starved-tile");
  ASSERT_NE(starved, nullptr);
  EXPECT_TRUE(starved->starve);
  EXPECT_TRUE(starved->fallback_only);
  EXPECT_GE(starved->perturb.starve_ns, 100'000'000u) << "must outlast the watchdog";
  const Knob* dispatch = find_knob(knobs, "dispatch-reversed");
  ASSERT_NE(dispatch, nullptr);
  EXPECT_TRUE(dispatch->reverse_dispatch);
  EXPECT_TRUE(dispatch->beyond_residency);
  EXPECT_EQ(dispatch->perturb.tile_map, TileMap::Identity) << "applied per entry by the harness";
  EXPECT_EQ(find_knob(knobs, "no-such-knob"), nullptr);
  EXPECT_NE(knob_names(knobs).find("none, delays, "), std::string::npos);
}

TEST(TileRange, OrdinaryKnobsDrawUpToMaxTilesAndTheBuffers) {
  Knob k;
  k.max_tiles = 512;
  TileRange r = tile_range(k, 3072, std::int64_t{1} << 24, 2000);
  EXPECT_EQ(r.lo, 1);
  EXPECT_EQ(r.hi, 512);
  EXPECT_TRUE(r.note.empty());
  r = tile_range(k, 1 << 20, std::int64_t{1} << 24, 2000);  // the buffers hold 16 tiles
  EXPECT_EQ(r.hi, 16);
  r = tile_range(k, 1 << 25, std::int64_t{1} << 24, 2000);  // not even one full tile
  EXPECT_EQ(r.hi, 1);
}

TEST(TileRange, BeyondResidencyDrawsGridsLargerThanTheResidentBlocks) {
  Knob k;
  k.beyond_residency = true;
  TileRange r = tile_range(k, 3072, std::int64_t{1} << 24, 2000);  // room: 5461 tiles
  EXPECT_EQ(r.lo, 2001);
  EXPECT_EQ(r.hi, 4064);
  EXPECT_TRUE(r.note.empty());
  r = tile_range(k, 16384, std::int64_t{1} << 24, 528);  // room: 1024 tiles
  EXPECT_EQ(r.lo, 529);
  EXPECT_EQ(r.hi, 1024);
  r = tile_range(k, 16384, std::int64_t{1} << 24, 5000);  // cannot exceed: says so
  EXPECT_EQ(r.hi, 1024);
  EXPECT_LE(r.lo, r.hi);
  EXPECT_NE(r.note.find("not beyond the 5000 resident blocks"), std::string::npos) << r.note;
  r = tile_range(k, 16384, std::int64_t{1} << 24, 0);  // occupancy unknown
  EXPECT_EQ(r.lo, 512);
  EXPECT_EQ(r.hi, 1024);
  EXPECT_FALSE(r.note.empty());
}

TEST(Knobs, ParametersNameEveryField) {
  for (const Knob& k : default_knobs()) {
    const std::string p = describe_parameters(k);
    for (const char* key :
         {"delay_chance=", "delay_ns=", "stall_ns=", "stall_chance=", "tile_map=", "map_window=",
          "prestress_rounds=", "hog_blocks_per_sm=", "hog_ns=", "memory_stress=",
          "descriptor_readers=", "concurrent=", "max_tiles=", "starve=", "starve_ns=",
          "reverse_dispatch=", "beyond_residency=", "fallback_only="})
      EXPECT_NE(p.find(key), std::string::npos) << key << " missing from " << p;
  }
  const auto knobs = default_knobs();
  const std::string chaos = describe_parameters(*find_knob(knobs, "chaos"));
  for (const char* key :
       {"tile_map=shuffled", "map_window=32", "memory_stress=1", "descriptor_readers=1",
        "concurrent=1", "delay_ns=4000,500,4000,4000,2000"})
    EXPECT_NE(chaos.find(key), std::string::npos) << key << " missing from " << chaos;
  EXPECT_NE(describe_parameters(*find_knob(knobs, "starved-tile")).find("starve=1"),
            std::string::npos);
}

TEST(Entries, EveryCatalogueEntryHasAKernelWithItsProtocolsShape) {
  const auto entries = all_entries();
  ASSERT_EQ(entries.size(), lookback::protocol::kCatalogue.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    const auto& v = lookback::protocol::kCatalogue[i];
    EXPECT_EQ(e.index, static_cast<int>(i));
    EXPECT_STREQ(e.name, v.name);
    EXPECT_EQ(e.in_place, v.protocol.in_place) << e.name;
    EXPECT_EQ(e.fallback, v.protocol.fallback) << e.name;
    EXPECT_EQ(e.blockidx_tiles, v.protocol.tile_id == lookback::protocol::TileIdSource::BlockIdx)
        << e.name;
    EXPECT_NE(e.blocks_per_sm, nullptr) << e.name;
    EXPECT_NE(e.check_final, nullptr) << e.name;
    EXPECT_GT(e.tile_items, 0) << e.name;
    ASSERT_NE(e.run, nullptr);
    // Temp storage grows by a group of 32 descriptors per 32 tiles (a size
    // query: no GPU; u32 values, so every layout's arrays fill whole lines).
    const std::int64_t group = 32 * e.tile_items;
    const std::size_t one = e.temp_bytes(1), many = e.temp_bytes(100 * e.tile_items);
    EXPECT_GT(one, 0u) << e.name;
    EXPECT_GT(many, one) << e.name;
    EXPECT_EQ(e.temp_bytes(group), one) << e.name;
    EXPECT_EQ(e.temp_bytes(2 * group) - e.temp_bytes(group),
              e.temp_bytes(3 * group) - e.temp_bytes(2 * group))
        << e.name;
  }
}

Report sample_report() {
  Report r;
  r.gpu = "Test GPU \"X\"";
  r.sm_count = 4;
  r.knobs = default_knobs();
  CellResult ok{"warp-lookback", "none", 1000, 0, 0, 0, 1.0, -1, ""};
  CellResult bad{
      "coarsened", "delays", 500, 2, 1, 0, 1.0, 0.25, "n=10 (1 tiles): 3 wrong elements"};
  bad.status_regressions = 4;
  r.correct = {ok, bad};
  MutantResult m;
  m.name = "stop-at-aggregate";
  m.expected_property = "correct-prefix";
  m.model_verdict = "killed: correct-prefix";
  m.model_sc_verdict = "killed: correct-prefix";
  m.flaw = FlawClass::Interleaving;
  m.gpu_killed = true;
  m.first_knob = "none";
  m.time_to_first_kill = 0.01;
  m.first_failure = "n=5 (1 tiles): 2 wrong elements";
  CellResult none{"stop-at-aggregate", "none", 300, 30, 0, 0, 3.0, 0.01, "x"};
  CellResult delays{"stop-at-aggregate", "delays", 100, 0, 0, 0, 2.0, -1, ""};
  CellResult race{"stop-at-aggregate", "fallback-race", 100, 0, 0, 0, 1.0, 0.5, "y"};
  race.status_regressions = 50;
  m.tries = {none, delays, race};
  m.trial_knob = "fallback-race";
  m.trial_cap_seconds = 2;
  m.trials = {{true, 0.5, 10}, {true, 1.5, 30}, {false, 2.0, 40}};
  MutantResult survivor;
  survivor.name = "no-writer-release";
  survivor.model_verdict = "killed: no-data-race";
  survivor.model_sc_verdict = "killed: no-data-race";
  survivor.flaw = FlawClass::WeakMemory;
  survivor.tries = {CellResult{"no-writer-release", "none", 70, 0, 0, 0, 1.5, -1, ""}};
  survivor.extra_tries = {CellResult{"no-writer-release", "delays", 30, 0, 0, 0, 0.5, -1, ""}};
  r.mutants = {m, survivor};
  r.litmus = {{"MP", "r0=1 r1=0", true, 2'000'000, 7, 1.0}};
  return r;
}

TEST(Report, TotalsAndRatesAreComputedFromTheCells) {
  const Report r = sample_report();
  EXPECT_EQ(r.correct_launches(), 1500u);
  EXPECT_EQ(r.correct_failures(), 7u) << "wrong 2 + watchdog 1 + regressions 4";
  const MutantResult& m = r.mutants[0];
  EXPECT_DOUBLE_EQ(m.kills_per_second("none"), 10.0);
  EXPECT_DOUBLE_EQ(m.kills_per_second("delays"), 0.0);
  EXPECT_DOUBLE_EQ(m.kills_per_second("fallback-race"), 50.0);
  EXPECT_DOUBLE_EQ(m.kills_per_second("starved-tile"), -1.0) << "not run";
  EXPECT_EQ(m.best_knob(), "fallback-race");
  // 2 kills in 0.5 + 1.5 + 2.0 = 4 s of stress.
  const KillEstimate e = m.estimate();
  EXPECT_EQ(e.trials, 3);
  EXPECT_EQ(e.killed, 2);
  EXPECT_DOUBLE_EQ(e.exposure_seconds, 4.0);
  EXPECT_DOUBLE_EQ(e.rate, 0.5);
  EXPECT_NEAR(m.kill_within_60s(), 1 - std::exp(-30.0), 1e-12);
  EXPECT_DOUBLE_EQ(e.median_time_to_kill, 1.0);
  EXPECT_DOUBLE_EQ(e.longest_trial_seconds, 2.0);
  EXPECT_EQ(r.mutants[1].launches(), 100u);
  EXPECT_DOUBLE_EQ(r.mutants[1].seconds(), 2.0);
  EXPECT_EQ(r.mutants[1].best_knob(), "");
  MutantResult never;
  EXPECT_EQ(never.kill_within_60s(), 0.0);
}

TEST(Report, MarkdownShowsTheFailuresTheMatrixTheReproducibilityAndTheLitmusRates) {
  std::ostringstream os;
  write_markdown(os, sample_report());
  const std::string md = os.str();
  EXPECT_NE(md.find("1500 launches, 7 failures"), std::string::npos) << md;
  EXPECT_NE(md.find("500 (**2/1/0/4**)"), std::string::npos) << md;
  EXPECT_NE(md.find("FAILURE coarsened under delays: n=10"), std::string::npos);
  EXPECT_NE(md.find("| stop-at-aggregate | interleaving | correct-prefix | killed: correct-prefix "
                    "| killed: correct-prefix | **killed** | none | 0.010 s | fallback-race | "
                    "2/3 (cap 2.000 s) | 1.000 s | 0.5 | 1.000 ["),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("P(kill in 60 s) = 1 - exp(-60"), std::string::npos) << "says which estimate";
  // The per-knob table: a rate, a zero, a knob that was not run.
  EXPECT_NE(md.find("| stop-at-aggregate | **10** | 0 | - |"), std::string::npos) << md;
  EXPECT_NE(md.find("- no-writer-release (weak memory): 100 launches over 2.0 s"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| MP | r0=1 r1=0 | allowed | 2000000 | 7 | 3.5 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("## Plots"), std::string::npos) << "no plot section without plots";
  Report with_plots = sample_report();
  with_plots.plots.pngs = {"a.png"};
  with_plots.plots.note = "Plots not rendered here";
  std::ostringstream os2;
  write_markdown(os2, with_plots);
  EXPECT_NE(os2.str().find("## Plots\n\nPlots not rendered here\n\n![a.png](a.png)"),
            std::string::npos)
      << os2.str();
}

TEST(Report, JsonEscapesStringsAndCarriesEveryCell) {
  std::ostringstream os;
  write_json(os, sample_report());
  const std::string js = os.str();
  EXPECT_NE(js.find("\"gpu\":\"Test GPU \\\"X\\\"\""), std::string::npos) << js;
  EXPECT_NE(js.find("\"correct\":{\"launches\":1500,\"failures\":7"), std::string::npos);
  EXPECT_NE(js.find("\"wrong_launches\":2,\"watchdog_trips\":1"), std::string::npos);
  EXPECT_NE(js.find("\"status_regressions\":4"), std::string::npos);
  EXPECT_NE(js.find("\"flaw\":\"interleaving\""), std::string::npos);
  EXPECT_NE(js.find("\"model_sc_verdict\":\"killed: no-data-race\""), std::string::npos);
  EXPECT_NE(js.find("\"knob\":\"fallback-race\",\"trial_cap_seconds\":2,\"trials\":3,\"killed\":2"),
            std::string::npos)
      << js;
  EXPECT_NE(js.find("\"kills_per_second\":0.5"), std::string::npos);
  EXPECT_NE(js.find("\"trial_times\":[[1,0.5],[1,1.5],[0,2]]"), std::string::npos) << js;
  EXPECT_NE(js.find("\"extra_tries\":[{\"entry\":\"no-writer-release\",\"knob\":\"delays\""),
            std::string::npos);
  EXPECT_NE(js.find("\"plots\":{\"rendered\":false"), std::string::npos);
  EXPECT_EQ(std::count(js.begin(), js.end(), '{'), std::count(js.begin(), js.end(), '}'));
  EXPECT_EQ(std::count(js.begin(), js.end(), '['), std::count(js.begin(), js.end(), ']'));
  EXPECT_EQ(js.find("inf"), std::string::npos);
  EXPECT_EQ(js.find("nan"), std::string::npos);
}

TEST(Report, FlawClassComesFromTheInterleavingVerdict) {
  EXPECT_EQ(classify_flaw(true, {"correct-prefix"}), FlawClass::Interleaving);
  EXPECT_EQ(classify_flaw(true, {"no-data-race", "monotone-status"}), FlawClass::Interleaving);
  EXPECT_EQ(classify_flaw(true, {"no-data-race"}), FlawClass::WeakMemory);
  EXPECT_EQ(classify_flaw(true, {}), FlawClass::WeakMemory);
  EXPECT_EQ(classify_flaw(false, {}), FlawClass::NotKilled);
  EXPECT_STREQ(to_string(FlawClass::WeakMemory), "weak memory");
}

TEST(Plots, DataAndScriptAlwaysPngsWhereGnuplotRuns) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lookback_plots_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const Report r = sample_report();
  const PlotOutcome skipped = write_plots(dir.string(), r, /*render=*/false);
  EXPECT_FALSE(skipped.rendered);
  EXPECT_NE(skipped.note.find("gnuplot plots.gp"), std::string::npos) << skipped.note;
  for (const char* f : {"plots.gp", "plot_kill_matrix.dat", "plot_kill_labels.dat",
                        "plot_mutants.dat", "plot_litmus.dat"})
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  EXPECT_EQ(skipped.pngs.size(), 4u);
  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    const PlotOutcome drawn = write_plots(dir.string(), r, /*render=*/true);
    EXPECT_TRUE(drawn.rendered) << drawn.note;
    for (const auto& png : drawn.pngs)
      EXPECT_GT(std::filesystem::file_size(dir / png), 1000u) << png;
  }
  // Kept for a look on failure, or with LOOKBACK_KEEP_PLOTS set.
  if (!HasFailure() && std::getenv("LOOKBACK_KEEP_PLOTS") == nullptr)
    std::filesystem::remove_all(dir);
}

TEST(Estimate, IncompleteGammaAndItsQuantile) {
  // P(1, x) = 1 - e^-x; P(a, x) for integer a: the Poisson tail.
  EXPECT_NEAR(gamma_p(1, 2), 1 - std::exp(-2.0), 1e-12);
  EXPECT_NEAR(gamma_p(3, 2), 1 - std::exp(-2.0) * (1 + 2 + 2), 1e-12);
  EXPECT_NEAR(gamma_p(50, 60), 0.9156, 1e-3);  // the continued-fraction branch
  EXPECT_EQ(gamma_p(2, 0), 0.0);
  for (double a : {1.0, 2.0, 10.0, 1000.0, 1e5})
    for (double p : {0.025, 0.5, 0.975})
      EXPECT_NEAR(gamma_p(a, gamma_quantile(p, a)), p, 1e-9) << a << " " << p;
}

TEST(Estimate, ExactPoissonIntervals) {
  // Garwood intervals (standard tables).
  auto [lo0, hi0] = poisson_rate_interval(0, 1);
  EXPECT_EQ(lo0, 0.0);
  EXPECT_NEAR(hi0, 3.689, 1e-3);
  auto [lo1, hi1] = poisson_rate_interval(1, 1);
  EXPECT_NEAR(lo1, 0.0253, 1e-4);
  EXPECT_NEAR(hi1, 5.572, 1e-3);
  auto [lo10, hi10] = poisson_rate_interval(10, 2);  // per unit of exposure: halved
  EXPECT_NEAR(lo10, 4.795 / 2, 1e-3);
  EXPECT_NEAR(hi10, 18.390 / 2, 1e-3);
  EXPECT_NEAR(kill_probability(1.0 / 60, 60), 1 - std::exp(-1.0), 1e-12);
  EXPECT_EQ(kill_probability(0, 60), 0.0);
}

TEST(Estimate, TrialsGiveTheCensoredMleAndAnInterval) {
  EXPECT_EQ(estimate_kills({}).trials, 0);
  EXPECT_EQ(estimate_kills({}).p, 0.0);
  // No kill in 10 s: rate 0, but the interval says a rate up to 0.37/s is
  // not ruled out.
  KillEstimate none = estimate_kills({{false, 5, 1}, {false, 5, 1}});
  EXPECT_EQ(none.rate, 0.0);
  EXPECT_EQ(none.p, 0.0);
  EXPECT_NEAR(none.rate_high, 0.3689, 1e-3);
  EXPECT_GT(none.p_high, 0.99);
  EXPECT_EQ(none.median_time_to_kill, -1.0);
  // One slow kill (30 s) in 90 s: 1/90 per second, P60 = 1 - e^(-2/3).
  KillEstimate slow = estimate_kills({{true, 30, 5}, {false, 60, 9}});
  EXPECT_NEAR(slow.rate, 1.0 / 90, 1e-12);
  EXPECT_NEAR(slow.p, 1 - std::exp(-60.0 / 90), 1e-12);
  EXPECT_LT(slow.p_low, slow.p);
  EXPECT_GT(slow.p_high, slow.p);
  EXPECT_DOUBLE_EQ(slow.killed_fraction(), 0.5);
  // Fast kills: P60 is 1 to printing precision, interval included.
  std::vector<KillTrial> fast(40, KillTrial{true, 0.001, 4});
  const KillEstimate f = estimate_kills(fast);
  EXPECT_NEAR(f.rate, 1000, 1e-9);
  EXPECT_GT(f.p_low, 0.9999);
  EXPECT_DOUBLE_EQ(f.median_time_to_kill, 0.001);
}

TEST(Cli, ParsesKnobsTrialsAndSwitches) {
  const Args a = parse_args({"lookback-stress", "--report", "out", "--budget", "60", "--knob",
                             "starved-tile", "--knob", "none", "--knob", "none", "--trials", "7",
                             "--no-plots", "--only", "fallback-unbounded-spin"});
  EXPECT_EQ(a.report, "out");
  EXPECT_EQ(a.budget, 60);
  EXPECT_EQ(a.knobs, (std::vector<std::string>{"starved-tile", "none"}));
  EXPECT_EQ(a.max_trials, 7);
  EXPECT_FALSE(a.plots);
  EXPECT_TRUE(a.model);
  EXPECT_EQ(a.only, (std::vector<std::string>{"fallback-unbounded-spin"}));
  EXPECT_EQ(a.command.rfind("lookback-stress --report out --budget 60", 0), 0u);
  // Selected knobs keep the default order.
  std::vector<std::string> names;
  for (const auto& k : selected_knobs(a.knobs))
    names.push_back(k.name);
  EXPECT_EQ(names, (std::vector<std::string>{"none", "starved-tile"}));
  EXPECT_EQ(selected_knobs({}).size(), default_knobs().size());
  EXPECT_TRUE(parse_args({"lookback-stress", "--help"}).help);
}

TEST(Cli, RejectsWhatItCannotRun) {
  auto fails = [](std::vector<std::string> argv, const std::string& says) {
    argv.insert(argv.begin(), "lookback-stress");
    try {
      parse_args(argv);
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted: " << says;
  };
  fails({"--budget", "60"}, "--report DIR is required");
  fails({"--report", "d", "--knob", "tornado"}, "no knob named 'tornado' (knobs: none, delays");
  fails({"--report", "d", "--only", "nope"}, "no catalogue entry named 'nope'");
  fails({"--report", "d", "--trials", "0"}, "--trials wants a number");
  fails({"--report", "d", "--budget", "abc"}, "--budget wants a number");
  fails({"--report", "d", "--knob"}, "--knob needs a value");
  fails({"--report", "d", "--fast"}, "unknown option '--fast'");
  EXPECT_NE(usage().find("dispatch-reversed"), std::string::npos) << "usage names the knobs";
}

TEST(Entries, RegressionWordsKeepTheFirstTileAndItsStatus) {
  const std::uint32_t a = encode_regression(5, 1), b = encode_regression(9, 0);
  EXPECT_GT(a, b) << "atomicMax keeps the lowest tile";
  EXPECT_EQ(regression_tile(a), 5u);
  EXPECT_EQ(regression_status(a), 1u);
  EXPECT_EQ(regression_tile(encode_regression(0, 2)), 0u);
  EXPECT_NE(encode_regression(0, 0), 0u) << "0 means none";
}

}  // namespace
