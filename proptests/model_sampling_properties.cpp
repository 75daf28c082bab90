// Sampled schedules of the protocol at 64 tiles (label `proptest`), far past
// what the explorer enumerates (3-4 tiles). A schedule is a vector of choices
// RapidCheck generates and shrinks; the sampler (sampler.hpp) builds the one
// execution it steers under PTX, with the explorer's semantics and safety
// checks (the blocks' own correct-prefix and no-torn-descriptor checks,
// no-data-race, monotone-status). Termination is not decided here: it is a
// property of all executions under a progress model, not of one.
//
//  - Every production variant: no sampled execution violates a safety
//    property, and every one that runs to its end wrote the scan.
//  - Every mutant built to break a safety property: RapidCheck finds a
//    schedule that breaks it, and shrinks it to a short one.
//
// Seeds are printed at the start (and by RapidCheck on failure); replay one
// with RC_PARAMS="reproduce=..." as RapidCheck prints at exit. For the
// mutants, where a counterexample is the expected outcome, that line replays
// the counterexample found.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "lookback/model/counterexample.hpp"
#include "lookback/model/protocol_model.hpp"
#include "lookback/model/sampler.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace lookback::protocol {
// How RapidCheck prints a generated layout.
inline void showValue(Layout l, std::ostream& os) {
  os << to_string(l);
}
}  // namespace lookback::protocol

namespace {

using namespace lookback::model;
namespace protocol = lookback::protocol;
using protocol::Layout;
using protocol::NamedVariant;

// The sampled instance: 64 tiles (blocks), at most 8 resident at a time.
// Executions have 600 to 1,600 events with one launch and up to about 2,600
// with two (64 tiles after 32), within the sampler's kMaxSampledEvents.
constexpr int kTiles = 64;
constexpr int kMaxResident = 8;
// About the decisions of the longest runs (2,400 with one launch, up to
// 4,000 with two and window 4); past a vector's end every choice is 0.
constexpr int kMaxChoices = 4096;

class PrintSeed : public testing::Environment {
 public:
  void SetUp() override {
    const auto seed = rc::detail::configuration().testParams.seed;
    std::cout << "RapidCheck seed " << seed << " (RC_PARAMS=\"seed=<seed>\" replays this run)"
              << std::endl;
  }
};
testing::Environment* const kPrintSeed = testing::AddGlobalTestEnvironment(new PrintSeed);

// ------------------------------------------------------------- schedules
//
// A schedule is a vector of choices; past its end the sampler takes 0 (keep
// running the same block, read the newest write). Its length grows with
// RapidCheck's size, up to `max_length` at size 100 (sizes go from 0 to 100
// over a run): the first cases deviate from the default schedule only in
// their first decisions, the last throughout. A choice is 0 or uniform in
// [0, 256), each with probability 1/2. So the first failing schedule tends
// to be short, and shrinks to a shorter one.
//
// It has its own shrinker: RapidCheck's for vectors tries removing every
// chunk, quadratic in the length, and each schedule it rejects costs a run of
// the protocol. Shrinks, in order:
//  - a prefix (the choices past it become 0): lengths 0, n/2, 3n/4, ...;
//  - a block of n/2, n/4, ..., 2 aligned choices set to 0;
//  - one choice lowered (to 0 first, then halfway, ...);
//  - one choice removed (the later ones move up a decision).
// The first two are offered until one of the others is taken; those go on
// from the choice the previous shrink changed, so a pass over n choices
// costs about n runs, not n per shrink taken.
using Schedule = std::vector<int>;

struct Move {
  enum Kind : std::uint8_t { Prefix, Clear, Lower, Remove } kind;
  std::size_t index;  // Prefix: the length kept; Clear: the first choice set to 0
  int value;          // Lower: the new choice; Clear: how many set to 0
};

rc::Shrinkable<Schedule> schedule_node(std::shared_ptr<const Schedule> v, std::size_t from,
                                       bool coarse);

std::vector<Move> moves(const Schedule& v, std::size_t from, bool coarse) {
  std::vector<Move> out;
  const std::size_t n = v.size();
  if (coarse) {
    for (auto seq = rc::shrink::towards<std::size_t>(n, 0); auto k = seq.next();)
      out.push_back({Move::Prefix, *k, 0});
    for (std::size_t width = n / 2; width >= 2; width /= 2)
      for (std::size_t at = 0; at + width <= n; at += width)
        if (std::any_of(v.begin() + static_cast<std::ptrdiff_t>(at),
                        v.begin() + static_cast<std::ptrdiff_t>(at + width),
                        [](int c) { return c != 0; }))
          out.push_back({Move::Clear, at, static_cast<int>(width)});
  }
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t i = (from + step) % n;
    if (v[i] == 0) continue;
    for (auto seq = rc::shrink::towards<int>(v[i], 0); auto c = seq.next();)
      out.push_back({Move::Lower, i, *c});
  }
  for (std::size_t step = 0; step < n; ++step)
    out.push_back({Move::Remove, (from + step) % n, 0});
  return out;
}

rc::Shrinkable<Schedule> apply(const Schedule& v, const Move& m) {
  Schedule w;
  std::size_t from = 0;
  switch (m.kind) {
    case Move::Prefix:
      w.assign(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m.index));
      break;
    case Move::Clear:
      w = v;
      std::fill_n(w.begin() + static_cast<std::ptrdiff_t>(m.index), m.value, 0);
      break;
    case Move::Lower:
      w = v;
      w[m.index] = m.value;
      from = m.index;
      break;
    case Move::Remove:
      w = v;
      w.erase(w.begin() + static_cast<std::ptrdiff_t>(m.index));
      from = m.index;
      break;
  }
  while (!w.empty() && w.back() == 0)
    w.pop_back();  // past the end is 0 anyway
  return schedule_node(std::make_shared<const Schedule>(std::move(w)), from,
                       m.kind == Move::Prefix || m.kind == Move::Clear);
}

rc::Shrinkable<Schedule> schedule_node(std::shared_ptr<const Schedule> v, std::size_t from,
                                       bool coarse) {
  return rc::shrinkable::lambda([v] { return *v; },
                                [v, from, coarse] {
                                  return rc::seq::map(
                                      rc::seq::fromContainer(moves(*v, from, coarse)),
                                      [v](const Move& m) { return apply(*v, m); });
                                });
}

rc::Gen<Schedule> gen_schedule(int max_length) {
  return rc::Gen<Schedule>([max_length](const rc::Random& random, int size) {
    rc::Random r(random);
    const int percent = std::clamp(size, 1, rc::kNominalSize);
    Schedule v(
        static_cast<std::size_t>((max_length * percent + rc::kNominalSize - 1) / rc::kNominalSize));
    for (int& c : v)
      c = r.next() % 2 == 0 ? 0 : static_cast<int>(r.next() % 256);
    return schedule_node(std::make_shared<const Schedule>(std::move(v)), 0, true);
  });
}

// Uniform in [lo, hi] at every size.
rc::Gen<int> uniform(int lo, int hi) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange(lo, hi + 1));
}

std::string describe(const protocol::Protocol& p, const Instance& inst) {
  std::ostringstream os;
  os << to_string(inst.layout) << ", " << inst.tiles << " tiles, " << inst.launches
     << (inst.launches > 1 ? " launches" : " launch") << ", window " << inst.window << ", "
     << inst.resident << " resident";
  if (inst.blocks) os << ", " << inst.blocks << " blocks";
  if (wrap_launches(p, inst.launches).size() > 1) os << ", launch " << inst.wrap_launch << " wraps";
  return os.str();
}

// The counterexample as lookback-check prints it, less the blocks that never
// started (most of 64).
std::string counterexample(const System& sys, const Violation& v) {
  std::ostringstream full;
  print_counterexample(full, sys, v);
  std::istringstream lines(full.str());
  std::ostringstream out;
  int idle = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("(not started)") != std::string::npos) {
      ++idle;
      continue;
    }
    out << line << "\n";
  }
  if (idle > 0) out << "  (" << idle << " blocks not started)\n";
  return out.str();
}

// ------------------------------------------------------------ production

// The production variants, each sampled by one property below.
constexpr const char* kProduction[] = {"warp-lookback",
                                       "coarsened",
                                       "pipelined",
                                       "fallback",
                                       "fallback-inplace",
                                       "fenced-lookback",
                                       "warp-lookback-deterministic",
                                       "coarsened-deterministic",
                                       "pipelined-deterministic",
                                       "fallback-deterministic",
                                       "fallback-inplace-deterministic"};

void every_sampled_schedule_is_safe(const char* name) {
  const NamedVariant v = *protocol::find_variant(name);
  Instance inst;
  inst.tiles = kTiles;
  inst.layout = v.protocol.layout != Layout::BySize
                    ? v.protocol.layout
                    : *rc::gen::element(Layout::Packed, Layout::Split);
  // The reuse of the temp storage by a second launch, one sample in four.
  inst.launches = *rc::gen::weightedElement<int>({{3, 1}, {1, 2}});
  // Which launch wraps the epoch: the other one hands its word over to the
  // next (verdict.cpp checks both).
  const std::vector<int> wraps = wrap_launches(v.protocol, inst.launches);
  inst.wrap_launch = *rc::gen::elementOf(wraps);
  inst.window = *uniform(1, 4);
  inst.resident = *uniform(2, kMaxResident);
  // Persistent variants: from one block doing every tile to one per tile.
  if (protocol::persistent(v.protocol)) inst.blocks = *uniform(1, kTiles);
  const Schedule choices = *gen_schedule(kMaxChoices);

  const System sys = build_protocol_system(v.protocol, inst);
  const Sample s = sample_execution(sys, choices);
  RC_TAG(to_string(inst.layout), inst.launches > 1 ? "2 launches" : "1 launch",
         s.finished ? "ran to the end" : "stuck (all blocks waiting)");
  if (s.violation)
    RC_FAIL(std::string(name) + " (" + describe(v.protocol, inst) + "):\n" +
            counterexample(sys, *s.violation));
  if (s.finished) {
    if (auto error = scan_output_error(s, launch_tiles(inst)))
      RC_FAIL(std::string(name) + " (" + describe(v.protocol, inst) +
              ") finished with a wrong scan: " + *error);
  }
}

TEST(ModelSampling, EveryProductionVariantIsSampled) {
  std::vector<std::string> catalogue, sampled(std::begin(kProduction), std::end(kProduction));
  for (const NamedVariant& v : protocol::kCatalogue)
    if (v.kind == protocol::Kind::Production) catalogue.push_back(v.name);
  std::sort(catalogue.begin(), catalogue.end());
  std::sort(sampled.begin(), sampled.end());
  EXPECT_EQ(catalogue, sampled);
}

RC_GTEST_PROP(ModelSampling, WarpLookbackIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("warp-lookback");
}
RC_GTEST_PROP(ModelSampling, CoarsenedIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("coarsened");
}
RC_GTEST_PROP(ModelSampling, PipelinedIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("pipelined");
}
RC_GTEST_PROP(ModelSampling, FallbackIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("fallback");
}
RC_GTEST_PROP(ModelSampling, FallbackInplaceIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("fallback-inplace");
}
RC_GTEST_PROP(ModelSampling, FencedLookbackIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("fenced-lookback");
}
// Deterministic mode: at 64 tiles its look-backs pass many windows and
// refold them, which the exhaustive runs (4-6 tiles) reach only once or
// twice per look-back.
RC_GTEST_PROP(ModelSampling, WarpLookbackDeterministicIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("warp-lookback-deterministic");
}
RC_GTEST_PROP(ModelSampling, CoarsenedDeterministicIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("coarsened-deterministic");
}
RC_GTEST_PROP(ModelSampling, PipelinedDeterministicIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("pipelined-deterministic");
}
RC_GTEST_PROP(ModelSampling, FallbackDeterministicIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("fallback-deterministic");
}
RC_GTEST_PROP(ModelSampling, FallbackInplaceDeterministicIsSafeOnSampledSchedules, ()) {
  every_sampled_schedule_is_safe("fallback-inplace-deterministic");
}

// --------------------------------------------------------------- mutants
//
// The search: only the first kSearchEvents events of each sampled execution
// are checked (a safety violation has a finite witness), which bounds what a
// schedule that finds nothing costs while shrinking; kSearchChoices covers
// the decisions of that many events. Mutants that need two launches run 8
// tiles (4, then 8): the first launch only leaves stale descriptors behind,
// and a longer one would only lengthen the prefix a counterexample has to
// spell out before the second launch starts. (One more mutant runs on few
// tiles for another reason: mutant_search.)
constexpr int kSearchEvents = 400;
constexpr int kSearchChoices = 600;
constexpr int kReuseTiles = 8;

// Bounds on the shrunk counterexample: the choices it spells out (its
// length), those that differ from the default 0, and its events up to the
// violation. For scale: a whole 64-tile run has 600 to 1,600 events and up to
// 2,400 decisions, and a schedule found by the search (400 events, about 600
// decisions) has half its choices non-zero before shrinking.
//
// The bounds are about 1.4 times the largest of many seeds (model of
// 4158671, RC_PARAMS="seed=S"), so a run fails only when the shrinker has
// got worse, not on an unlucky seed. The shrinker stops at a local minimum:
// a choice is relative to the thread that ran last, so setting one switch to
// 0 moves every later event to another thread, and a detour needs both of
// its switches gone at once; how deep the minimum is depends on the schedule
// the search met first.
//  - fallback-inplace-no-validation, seeds 1-300: at most 235 choices, 35
//    non-zero and 192 events (median 80, 13, 70). Its flaw needs a stale
//    INVALID, then a fallback that reads an input tile its owner has
//    already overwritten. (The bounds were 200 / 24 / 200 for every mutant,
//    set from 150 seeds when the sampler came, c65520f; the protocols have
//    changed since, and 17 of these 300 seeds broke them, as did a CI run
//    of 4158671.)
//  - fallback-inplace-fence-odd-tiles: mutant_search.
//  - every other mutant, seeds 1000-1199: at most 75 choices, 12 non-zero
//    (fallback-plain-store; epoch-wrap-not-cleared 9, the rest 3 or fewer)
//    and 107 events.
struct ShrunkBounds {
  int choices;
  int deviations;
  int events;
};
// The instance a mutant is searched on, how many samples the search gets
// (at least; RC_PARAMS may ask for more) and what its shrunk counterexample
// must stay within.
struct MutantSearch {
  int tiles;
  int samples;
  ShrunkBounds bounds;
};
// Of the mutants searched on 64 tiles, the hardest to hit
// (fallback-inplace-no-validation) took up to 63 samples over 296 of seeds
// 1-300 (median 32), every other one up to 24 over 200; a search that is
// expected to succeed gets at least this many before the test gives up.
constexpr int kMinSearchSamples = 300;
constexpr int kFenceOddTilesSearchTiles = 8;
constexpr int kFenceOddTilesSearchSamples = 6000;
MutantSearch mutant_search(const NamedVariant& v) {
  if (v.name == std::string_view("fallback-inplace-no-validation"))
    return {kTiles, kMinSearchSamples, {320, 50, 260}};
  // Its flaw needs a fallback that reads a block's first output while both
  // its look-back reads and its validating re-read still see the owner's
  // descriptor INVALID: stale reads, spin_bound rounds of them. At 64 tiles
  // seeds 1-5 needed 78-284 samples and shrank to up to 295 choices (63
  // non-zero). At 8 tiles (4 persistent blocks, all resident) a sample
  // costs under a millisecond: seeds 1-120 found it after at most 1,614
  // samples (median 236, mean 346), so 6,000 miss with a probability of
  // about e^-17, and shrank to at most 106 choices, 31 non-zero and 82
  // events (median 73, 16, 57); the bounds are 1.4 times those.
  if (v.name == std::string_view("fallback-inplace-fence-odd-tiles"))
    return {kFenceOddTilesSearchTiles, kFenceOddTilesSearchSamples, {150, 44, 115}};
  return {v.launches > 1 ? kReuseTiles : kTiles, kMinSearchSamples, {110, 18, 150}};
}

bool is_safety(protocol::Property p) {
  return p != protocol::Property::None && p != protocol::Property::Termination &&
         p != protocol::Property::FallbackWaitFree;
}

std::vector<std::string> safety_mutants() {
  std::vector<std::string> out;
  for (const NamedVariant& v : protocol::kCatalogue)
    if (v.kind == protocol::Kind::Mutant && is_safety(v.expected)) out.push_back(v.name);
  return out;
}

class MutantSampling : public testing::TestWithParam<std::string> {};

TEST_P(MutantSampling, RapidCheckFindsAShortViolatingSchedule) {
  const NamedVariant v = *protocol::find_variant(GetParam());
  const auto& config = rc::detail::configuration();
  rc::detail::TestMetadata metadata;
  metadata.id = "ModelSamplingMutants/" + GetParam();
  metadata.description = GetParam() + " violates " + protocol::to_string(v.expected);
  if (!config.reproduce.empty() && config.reproduce.count(metadata.id) == 0)
    GTEST_SKIP() << "RC_PARAMS reproduces other properties";

  Instance inst;
  const MutantSearch search = mutant_search(v);
  inst.tiles = search.tiles;
  inst.resident = kMaxResident;
  inst.window = 2;
  inst.launches = v.launches;
  inst.layout = v.protocol.layout == Layout::BySize ? Layout::Packed : v.protocol.layout;
  // Two launches under the epoch reset: each sample also picks the launch
  // whose epoch wraps (as the verdict runs both), so a flaw in either
  // hand-over can be reached.
  // (A flaw only one of them shows gets half the samples: the search
  // budget, mutant_search's samples, leaves room for that.)
  std::vector<System> systems;
  for (int wrap : wrap_launches(v.protocol, inst.launches)) {
    inst.wrap_launch = wrap;
    systems.push_back(build_protocol_system(v.protocol, inst));
  }
  SampleOptions opt;
  opt.max_events = kSearchEvents;

  // RapidCheck accepts every failing shrink and ends by re-running the
  // smallest one, so the last failing schedule is the shrunk counterexample.
  Schedule last_failing;
  int last_wrap = 0;
  const auto property = [&] {
    const int wrap = systems.size() > 1 ? *uniform(0, 1) : 0;
    const Schedule choices = *gen_schedule(kSearchChoices);
    const Sample s = sample_execution(systems[wrap], choices, opt);
    if (!s.violation) return;
    last_failing = choices;
    last_wrap = wrap;
    RC_FAIL(counterexample(systems[wrap], *s.violation));
  };
  rc::detail::TestParams params = config.testParams;
  params.maxSuccess = std::max(params.maxSuccess, search.samples);
  const rc::detail::TestResult result = rc::detail::checkTestable(property, metadata, params);
  ASSERT_TRUE(result.template is<rc::detail::FailureResult>())
      << GetParam() << " (" << describe(v.protocol, inst)
      << (systems.size() > 1 ? ", or launch 0 wraps" : "") << "): no violating schedule in "
      << params.maxSuccess << " samples";
  inst.wrap_launch = last_wrap;
  std::cout << GetParam() << " (" << describe(v.protocol, inst)
            << "), expected to fail; RapidCheck's report:\n";
  rc::detail::printResultMessage(result, std::cout);
  std::cout << std::endl;

  // Replay the shrunk schedule and measure it.
  const Sample s = sample_execution(systems[last_wrap], last_failing, opt);
  ASSERT_TRUE(s.violation);
  EXPECT_EQ(s.violation->property, v.expected) << s.violation->message;
  const int length = static_cast<int>(last_failing.size());
  const int deviations = static_cast<int>(
      std::count_if(last_failing.begin(), last_failing.end(), [](int c) { return c != 0; }));
  std::cout << "shrunk counterexample of " << GetParam() << ": " << length << " choices ("
            << deviations << " non-zero), " << s.graph.size() << " events, " << s.decisions
            << " decisions" << std::endl;
  const ShrunkBounds& bounds = search.bounds;
  EXPECT_LE(length, bounds.choices);
  EXPECT_LE(deviations, bounds.deviations);
  EXPECT_LE(s.graph.size(), static_cast<std::size_t>(bounds.events));
}

INSTANTIATE_TEST_SUITE_P(ModelSampling, MutantSampling, testing::ValuesIn(safety_mutants()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(ModelSampling, TheMutantsCoverEverySafetyProperty) {
  std::vector<protocol::Property> covered;
  for (const std::string& name : safety_mutants())
    covered.push_back(protocol::find_variant(name)->expected);
  for (protocol::Property p : {protocol::Property::CorrectPrefix,
                               protocol::Property::NoTornDescriptor, protocol::Property::NoDataRace,
                               protocol::Property::MonotoneStatus, protocol::Property::LeftFold})
    EXPECT_NE(std::find(covered.begin(), covered.end(), p), covered.end())
        << protocol::to_string(p);
}

}  // namespace
