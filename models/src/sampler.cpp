#include "lookback/model/sampler.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "execution_step.hpp"
#include "lookback/model/incremental_ptx.hpp"

namespace lookback::model {

namespace {

using detail::ThreadState;

class Sampler {
 public:
  Sampler(const System& sys, std::span<const int> choices, const SampleOptions& opt)
      : sys_(sys), choices_(choices), opt_(opt), ts_(sys.threads.size()) {
    out_.graph = ExecutionGraph(sys.threads, sys.locations(), sys.init);
    // Under PTX the incremental state has rows for kMaxSampledEvents; the
    // from-scratch axioms (RC11, SC) hold kMaxEvents, the graph's default.
    if (opt.model == MemoryModel::Ptx) out_.graph.set_max_events(kMaxSampledEvents);
  }

  Sample run() {
    ExecutionGraph& g = out_.graph;
    for (int t = 0; t < g.threads(); ++t)
      if (auto v = detail::advance(sys_, g, t, ts_[t])) {
        fail(v->property, v->message, t);
        return std::move(out_);
      }
    while (!out_.violation) {
      const int phase = detail::current_phase(g, ts_);
      if (phase < 0) {
        out_.finished = true;
        break;
      }
      if (opt_.max_events > 0 && g.size() >= opt_.max_events) {
        out_.cut = true;
        break;
      }
      const std::vector<int> order = runnable(phase);
      // A step that commutes with everything runs first and alone (as in the
      // explorer); if it cannot run, nothing else may.
      int forced = -1;
      for (int t : order)
        if (forced < 0 && detail::started(g, t) && detail::is_local(sys_, *ts_[t].next)) forced = t;
      bool stepped = false;
      if (forced >= 0) {
        stepped = step(forced, /*choose=*/false);
      } else if (!order.empty()) {
        const int k = static_cast<int>(order.size());
        const int first = choose(k);
        for (int i = 0; i < k && !stepped; ++i)
          stepped = step(order[(first + i) % k], true);
      }
      if (!stepped) {
        out_.stuck = true;
        break;
      }
    }
    return std::move(out_);
  }

 private:
  // The next decision among `n` alternatives (none taken when n < 2).
  int choose(int n) {
    if (n < 2) return 0;
    const std::size_t at = static_cast<std::size_t>(out_.decisions++);
    const long long c = at < choices_.size() ? choices_[at] : 0;
    return static_cast<int>(((c % n) + n) % n);
  }

  // Threads the scheduler may run now, in rotation from the one that ran
  // last. Of the interchangeable threads not yet started, only the lowest.
  std::vector<int> runnable(int phase) const {
    const ExecutionGraph& g = out_.graph;
    const int threads = g.threads();
    std::vector<int> out;
    for (int i = 0; i < threads; ++i) {
      const int t = (last_ + i + threads) % threads;
      if (detail::done(ts_[t]) || g.thread(t).phase != phase || !ts_[t].next) continue;
      if (!detail::may_start(sys_, g, ts_, t)) continue;
      if (!detail::started(g, t) && !sys_.symmetry_class.empty()) {
        const int c = sys_.symmetry_class[t];
        if (c >= 0 && lower_unstarted_twin(t, c)) continue;
      }
      out.push_back(t);
    }
    return out;
  }
  bool lower_unstarted_twin(int t, int cls) const {
    for (int u = 0; u < t; ++u)
      if (sys_.symmetry_class[u] == cls && !detail::started(out_.graph, u) && !detail::done(ts_[u]))
        return true;
    return false;
  }

  // Performs thread t's next operation with the first consistent candidate
  // from the chosen one on (newest source / last coherence position first).
  // False when no candidate is consistent (nothing added).
  bool step(int t, bool choose_candidate) {
    ExecutionGraph& g = out_.graph;
    std::vector<detail::Candidate> cands = detail::candidates(sys_, g, t, *ts_[t].next, opt_.model);
    std::reverse(cands.begin(), cands.end());
    const int k = static_cast<int>(cands.size());
    const int first = choose_candidate ? choose(k) : 0;
    for (int i = 0; i < k; ++i) {
      const detail::Candidate& c = cands[static_cast<std::size_t>((first + i) % k)];
      g.add(c.event, c.co_pos);
      if (!consistent()) {
        g.remove_last();
        continue;
      }
      ts_[t].next.reset();
      out_.schedule.push_back(t);
      last_ = t;
      check(t);
      return true;
    }
    return false;
  }

  bool consistent() {
    const ExecutionGraph& g = out_.graph;
    if (opt_.model == MemoryModel::Ptx) return ptx_.append(g) == nullptr;
    return Derived(g, opt_.model).check(false).consistent;
  }

  // The explorer's safety checks on the event just added by t.
  void check(int t) {
    const ExecutionGraph& g = out_.graph;
    const int id = g.size() - 1;
    if (opt_.check_races && g.event(id).is_mem()) {
      const auto race =
          opt_.model == MemoryModel::Ptx ? ptx_.race(g) : Derived(g, opt_.model).race(id);
      if (race) {
        fail(Property::NoDataRace, detail::race_message(sys_, g, *race), t);
        return;
      }
    }
    if (auto down = detail::monotone_violation(sys_, g)) {
      fail(Property::MonotoneStatus, *down, t);
      return;
    }
    if (auto v = detail::advance(sys_, g, t, ts_[t])) fail(v->property, v->message, t);
  }

  void fail(Property p, std::string message, int t) {
    out_.violation = Violation{p, std::move(message), out_.graph, out_.schedule, t};
  }

  const System& sys_;
  std::span<const int> choices_;
  const SampleOptions& opt_;
  std::vector<ThreadState> ts_;
  BasicIncrementalPtx<kMaxSampledEvents> ptx_;
  Sample out_;
  int last_ = 0;
};

}  // namespace

Sample sample_execution(const System& sys, std::span<const int> choices, const SampleOptions& opt) {
  return Sampler(sys, choices, opt).run();
}

std::optional<std::string> scan_output_error(const Sample& s, const std::vector<int>& tiles_of) {
  const ExecutionGraph& g = s.graph;
  std::map<std::pair<int, int>, int> written;  // (launch, tile) -> outputs
  for (const Event& e : g.events()) {
    if (e.step != Step::StoreOutput) continue;
    const int launch = g.thread(e.thread).phase / 2;  // the host between launches: odd phases
    ++written[{launch, e.tile}];
    if (e.wval.iv != Interval::range(0, e.tile, launch))
      return "launch " + std::to_string(launch) + " tile " + std::to_string(e.tile) + " output " +
             to_string(e.wval.iv);
  }
  for (int launch = 0; launch < static_cast<int>(tiles_of.size()); ++launch)
    for (int k = 0; k < tiles_of[static_cast<std::size_t>(launch)]; ++k)
      if (written[{launch, k}] != 1)
        return "launch " + std::to_string(launch) + " tile " + std::to_string(k) +
               " output written " + std::to_string(written[{launch, k}]) + " times";
  return std::nullopt;
}

}  // namespace lookback::model
