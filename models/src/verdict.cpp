#include "lookback/model/verdict.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace lookback::model {

using namespace protocol;

std::vector<Property> CheckRun::violated() const {
  std::vector<Property> out;
  for (const auto& r : runs)
    for (const auto& [p, v] : r.result.violations)
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  std::sort(out.begin(), out.end());
  return out;
}

const Violation* CheckRun::counterexample(Property p, const InstanceRun** where) const {
  const Violation* best = nullptr;
  for (const auto& r : runs) {
    auto it = r.result.violations.find(p);
    if (it == r.result.violations.end()) continue;
    if (!best || it->second.graph.size() < best->graph.size()) {
      best = &it->second;
      if (where) *where = &r;
    }
  }
  return best;
}

bool CheckRun::as_expected() const {
  const auto v = violated();
  if (variant.kind == Kind::Production) return v.empty() && complete();
  return std::find(v.begin(), v.end(), variant.expected) != v.end();
}
bool CheckRun::inconclusive() const {
  return violated().empty() && !complete();
}

std::uint64_t CheckRun::executions() const {
  std::uint64_t n = 0;
  for (const auto& r : runs)
    n += r.result.executions;
  return n;
}
std::uint64_t CheckRun::graphs() const {
  std::uint64_t n = 0;
  for (const auto& r : runs)
    n += r.result.graphs;
  return n;
}
double CheckRun::seconds() const {
  double s = 0;
  for (const auto& r : runs)
    s += r.result.seconds;
  return s;
}
bool CheckRun::complete() const {
  return std::all_of(runs.begin(), runs.end(), [](const auto& r) { return r.result.complete; });
}

int default_tiles(const Protocol& p, Kind kind, Layout layout, int launches) {
  if (launches > 1) return persistent(p) ? kDefaultPersistentReuseTiles : kDefaultReuseTiles;
  if (p.fallback && kind == Kind::Mutant && (p.in_place || layout == Layout::Split))
    return kDefaultFallbackTiles;
  if (persistent(p)) return p.fallback ? kDefaultPersistentFallbackTiles : kDefaultPersistentTiles;
  return kDefaultTiles;
}

namespace {

// "name (split, 2 launches, launch 1 wraps)": names a run in progress lines
// and in errors about its instance.
std::string run_label(const NamedVariant& v, const Protocol& p, const Instance& inst) {
  std::string s = std::string(v.name) + " (" + to_string(inst.layout) + ", " +
                  std::to_string(inst.launches) + " launch" + (inst.launches > 1 ? "es" : "");
  if (has_wrap_launch(p, inst.launches))
    s += ", launch " + std::to_string(inst.wrap_launch) + " wraps";
  return s + ")";
}

}  // namespace

Protocol overridden_protocol(const NamedVariant& v, const Settings& s) {
  Protocol p = v.protocol;
  if (s.tile_id) p.tile_id = *s.tile_id;
  if (s.held_windows) {
    if (!has_second_pass(p))
      throw std::invalid_argument(
          "--held-windows applies to left-fold (deterministic) variants with a second pass only");
    p.held_windows = *s.held_windows;
  }
  return p;
}

std::vector<InstanceRun> plan_variant(const NamedVariant& v, const Settings& s,
                                      bool wrap_launch_where_it_fits) {
  const Protocol p = overridden_protocol(v, s);

  std::vector<Layout> layouts;
  if (s.layout)
    layouts = {*s.layout};
  else if (p.layout == Layout::BySize)
    layouts = {Layout::Packed, Layout::Split};
  else
    layouts = {p.layout};

  // Launch counts: what the user asked for; else one launch, plus a reuse
  // check over two launches for variants that reset (and for mutants whose
  // flaw needs two).
  std::vector<int> launch_counts;
  if (s.launches)
    launch_counts = {*s.launches};
  else if (v.launches > 1)
    launch_counts = {v.launches};
  else if (v.kind == Kind::Production && p.reset != Reset::None)
    launch_counts = {1, 2};
  else
    launch_counts = {1};

  // Two launches under the epoch reset: each launch wraps in one run, so
  // both hand-overs are read by a later launch. --wrap-launch picks one for
  // those runs only, and the variant must have one (with --all: it picks
  // where there is a choice, and --all checks that some run has one).
  bool wrap_chosen = false;
  auto wrap_launches_of = [&](int launches) -> std::vector<int> {
    const bool choice = wrap_launches(p, launches).size() > 1;
    if (!s.wrap_launch || !has_wrap_launch(p, launches) || (wrap_launch_where_it_fits && !choice))
      return wrap_launches(p, launches);
    wrap_chosen = true;
    return {*s.wrap_launch};
  };
  std::vector<InstanceRun> runs;
  for (Layout layout : layouts) {
    for (int launches : launch_counts) {
      for (int wrap_launch : wrap_launches_of(launches)) {
        InstanceRun run;
        run.instance.layout = layout;
        run.instance.launches = launches;
        run.instance.wrap_launch = wrap_launch;
        run.instance.tiles = s.tiles.value_or(default_tiles(p, v.kind, layout, launches));
        run.instance.window = s.window.value_or(kDefaultWindow);
        run.instance.resident = s.resident.value_or(0);
        run.instance.blocks = s.blocks.value_or(0);
        run.protocol = p;
        run.model = s.model.value_or(MemoryModel::Ptx);
        run.progress = s.progress.value_or(v.claims);
        try {
          run.system = build_protocol_system(p, run.instance);
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument(run_label(v, p, run.instance) + ": " + e.what());
        }
        runs.push_back(std::move(run));
      }
    }
  }
  if (s.wrap_launch && !wrap_chosen && !wrap_launch_where_it_fits)
    throw std::invalid_argument(std::string(v.name) +
                                ": --wrap-launch needs a run of two launches under the epoch "
                                "reset, and this variant has none (see --launches)");
  return runs;
}

CheckRun explore_variant(const NamedVariant& v, std::vector<InstanceRun> runs, const Settings& s) {
  CheckRun out{v, std::move(runs)};
  for (InstanceRun& run : out.runs) {
    ExploreOptions opt;
    opt.model = run.model;
    opt.progress = run.progress;
    opt.stop_at_first = s.stop_at_first;
    // A mutant is killed by its expected property: stopping at another one
    // would report it as not killed.
    if (v.kind == Kind::Mutant) opt.stop_only_at = v.expected;
    // Variants that claim termination without any fairness must also be
    // wait-free: no wait of theirs may depend on another block.
    opt.check_wait_free = v.claims == Progress::Unfair;
    opt.max_graphs = s.max_graphs;
    opt.jobs = s.jobs;
    if (s.on_progress) {
      opt.on_progress = [&s, what = run_label(v, run.protocol, run.instance)](
                            std::uint64_t g, std::uint64_t e) { s.on_progress(what, g, e); };
    }
    run.result = explore(run.system, opt);
  }
  return out;
}

CheckRun check_variant(const NamedVariant& v, const Settings& s) {
  return explore_variant(v, plan_variant(v, s), s);
}

}  // namespace lookback::model
