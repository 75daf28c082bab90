#include "lookback/model/explorer.hpp"

#include "lookback/model/incremental_ptx.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <sstream>
#include <unordered_set>

namespace lookback::model {

namespace {

struct ThreadState {
  bool finished = false;
  bool failed = false;
  std::optional<Op> next;
};

struct Node {
  ExecutionGraph g;
  std::vector<ThreadState> ts;
  std::vector<int> schedule;
  IncrementalPtx ptx;  // PTX relations of g (PTX model only)
};

struct FpHash {
  std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& p) const {
    return static_cast<std::size_t>(p.first ^ (p.second * 0x9e3779b97f4a7c15ull));
  }
};

class Search {
 public:
  Search(const System& sys, const ExploreOptions& opt)
      : sys_(sys),
        opt_(opt),
        // Symmetry needs a progress model that does not look at block ids.
        symmetric_(opt.symmetry && !sys.symmetry_class.empty() &&
                   opt.progress != Progress::Hsa && opt.progress != Progress::Lobe) {}

  ExploreResult run() {
    const auto start = std::chrono::steady_clock::now();
    last_report_ = start;
    Node root{ExecutionGraph(sys_.threads, sys_.locations(), sys_.init),
              std::vector<ThreadState>(sys_.threads.size()), {}};
    for (int t = 0; t < root.g.threads(); ++t) {
      if (auto v = advance(root, t)) record(v->property, v->message, root, t);
    }
    seen_.insert(fingerprint(root.g));
    ++res_.graphs;
    visit(root);
    res_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(res_);
  }

 private:
  // Re-runs thread t's program over its events: finds its next operation,
  // or that it finished, or a property it found violated.
  std::optional<PropertyViolation> advance(Node& n, int t) {
    Ctx ctx(n.g, t);
    try {
      sys_.programs[t](ctx);
      if (ctx.suspended()) {
        n.ts[t].next = std::move(ctx.next());
      } else {
        n.ts[t].finished = true;
        n.ts[t].next.reset();
      }
    } catch (Ctx::Suspend&) {
      n.ts[t].next = std::move(ctx.next());
    } catch (PropertyViolation& v) {
      n.ts[t].failed = true;
      n.ts[t].next.reset();
      return v;
    }
    return std::nullopt;
  }

  bool started(const Node& n, int t) const { return !n.g.thread_events(t).empty(); }
  bool done(const Node& n, int t) const { return n.ts[t].finished || n.ts[t].failed; }

  int current_phase(const Node& n) const {
    int phase = -1;
    for (int t = 0; t < n.g.threads(); ++t)
      if (!done(n, t) && (phase < 0 || n.g.thread(t).phase < phase)) phase = n.g.thread(t).phase;
    return phase;
  }

  bool may_start(const Node& n, int t) const {
    if (started(n, t) || sys_.resident <= 0) return true;
    int busy = 0;
    for (int u = 0; u < n.g.threads(); ++u)
      if (n.g.thread(u).phase == n.g.thread(t).phase && started(n, u) && !done(n, u)) ++busy;
    return busy < sys_.resident;
  }

  // Every way for thread t to perform its next operation (consistency is
  // checked by the caller, after the cheaper already-visited test).
  std::vector<Node> successors(const Node& n, int t) const {
    std::vector<Node> out;
    const Op& op = *n.ts[t].next;
    const bool sc = opt_.model == MemoryModel::Sc;
    auto make = [&](EventKind kind, int rf, const Value& wval, int co_pos) {
      Node child = n;
      Event e;
      e.kind = kind;
      e.order = op.order;
      e.fence = op.fence;
      e.scope = op.scope;
      e.loc = op.loc;
      e.thread = static_cast<std::uint8_t>(t);
      e.step = op.step;
      e.tile = op.tile;
      e.await = static_cast<bool>(op.exits);
      if (kind == EventKind::Read || kind == EventKind::Rmw) {
        e.rf = rf;
        e.rval = n.g.value_of(rf, op.loc);
      }
      if (kind == EventKind::Write || kind == EventKind::Rmw) e.wval = wval;
      child.g.add(e, co_pos);
      if (opt_.model == MemoryModel::Ptx && child.ptx.append(child.g) != nullptr) {
        if (opt_.cross_check && Derived(child.g, MemoryModel::Ptx).check(false).consistent)
          throw std::logic_error("incremental PTX rejected a graph Derived accepts");
        return;
      }
      child.ts[t].next.reset();
      child.schedule.push_back(t);
      out.push_back(std::move(child));
    };
    if (op.kind == EventKind::Fence) {
      make(EventKind::Fence, kInit, {}, -1);
      return out;
    }
    const auto& order = n.g.co(op.loc);
    const int len = static_cast<int>(order.size());
    if (op.kind == EventKind::Write) {
      for (int pos = sc ? len : 0; pos <= len; ++pos) make(EventKind::Write, kInit, op.wval, pos);
      return out;
    }
    // Reads and RMWs: choose the write read from (SC: only the latest).
    std::vector<int> sources{kInit};
    sources.insert(sources.end(), order.begin(), order.end());
    if (sc) sources.erase(sources.begin(), sources.end() - 1);
    for (int src : sources) {
      const Value& seen = n.g.value_of(src, op.loc);
      const int after = src == kInit ? 0 : n.g.co_position(src) + 1;
      if (op.rmw == Op::Rmw::FetchAdd) {
        Value w = seen;
        w.num += op.add;
        make(EventKind::Rmw, src, w, after);
      } else if (op.rmw == Op::Rmw::Cas) {
        if (seen == op.expected)
          make(EventKind::Rmw, src, op.wval, after);
        else
          make(EventKind::Read, src, {}, -1);
      } else if (!op.exits || op.exits(seen)) {
        make(EventKind::Read, src, {}, -1);
      }
    }
    return out;
  }

  void record(Property p, const std::string& message, const Node& n, int thread) {
    auto it = res_.violations.find(p);
    if (it != res_.violations.end() && it->second.graph.size() <= n.g.size()) return;
    res_.violations[p] = Violation{p, message, n.g, n.schedule, thread};
    if (opt_.stop_at_first) stop_ = true;
  }

  // Safety checks on the event just added by thread t (its id is the last).
  bool check_new_event(Node& child, int t, const std::optional<std::pair<int, int>>& race) {
    const int id = child.g.size() - 1;
    const Event& e = child.g.event(id);
    {
      if (race) {
        const Event& a = child.g.event(race->first);
        const Event& b = child.g.event(race->second);
        std::ostringstream os;
        os << "data race on " << sys_.loc_names[e.loc] << ": " << child.g.thread(a.thread).name
           << " #" << a.index << " and " << child.g.thread(b.thread).name << " #" << b.index
           << " are unordered and not both strong";
        record(Property::NoDataRace, os.str(), child, t);
        return false;
      }
    }
    if (e.is_write() && sys_.descriptor[e.loc]) {
      const auto& order = child.g.co(e.loc);
      const int pos = child.g.co_position(id);
      auto same_launch = [&](int a, int b) {
        const Event& x = child.g.event(a);
        const Event& y = child.g.event(b);
        return child.g.thread(x.thread).phase == child.g.thread(y.thread).phase &&
               x.wval.epoch == y.wval.epoch;
      };
      auto down = [&](int a, int b) {
        return same_launch(a, b) && child.g.event(a).wval.status > child.g.event(b).wval.status;
      };
      const int before = pos > 0 ? order[pos - 1] : -1;
      const int after = pos + 1 < static_cast<int>(order.size()) ? order[pos + 1] : -1;
      if ((before >= 0 && down(before, id)) || (after >= 0 && down(id, after))) {
        const int hi = (before >= 0 && down(before, id)) ? before : id;
        const int lo = hi == id ? after : id;
        std::ostringstream os;
        os << sys_.loc_names[e.loc] << " moved down from "
           << protocol::to_string(child.g.event(hi).wval.status) << " to "
           << protocol::to_string(child.g.event(lo).wval.status);
        record(Property::MonotoneStatus, os.str(), child, t);
        return false;
      }
    }
    if (auto v = advance(child, t)) {
      record(v->property, v->message, child, t);
      return false;
    }
    return true;
  }

  void check_termination(const Node& n, const std::vector<bool>& can_step,
                         const std::vector<bool>& runnable) {
    const int phase = current_phase(n);
    if (phase < 0) return;
    std::vector<int> unfinished;
    for (int t = 0; t < n.g.threads(); ++t)
      if (!done(n, t) && n.g.thread(t).phase == phase) unfinished.push_back(t);
    // A thread is blocked when the scheduler can run it but its next step is
    // a wait no write in the graph ends; being run, it spins, so it counts
    // as started from then on.
    auto blocked = [&](int t) {
      return runnable[t] && !can_step[t] && n.ts[t].next && n.ts[t].next->exits;
    };
    auto unstartable = [&](int t) { return !started(n, t) && !runnable[t]; };
    const bool some_blocked = std::any_of(unfinished.begin(), unfinished.end(), blocked);
    std::vector<int> obliged;  // blocks the progress model makes the scheduler run
    bool hang = false;
    switch (opt_.progress) {
      case Progress::Fair:
        obliged = unfinished;
        hang = std::none_of(unfinished.begin(), unfinished.end(), [&](int t) { return can_step[t]; });
        break;
      case Progress::Obe:
        // Obliged: blocks that took a step. A blocked block that never took
        // one may be started to spin; blocks never started may stay so.
        for (int t : unfinished)
          if (started(n, t)) obliged.push_back(t);
        hang = some_blocked &&
               std::all_of(obliged.begin(), obliged.end(), [&](int t) { return blocked(t); });
        break;
      case Progress::Hsa:
        obliged = {unfinished.front()};
        hang = blocked(obliged[0]) || unstartable(obliged[0]);
        break;
      case Progress::Lobe: {
        // Obliged: every block up to the highest one that took a step (or is
        // started now to spin). Hang iff some such prefix is all stuck.
        int top = -1;
        for (int t : unfinished)
          if (started(n, t)) top = t;
        for (int t : unfinished) {
          if (!blocked(t) && !unstartable(t)) break;
          obliged.push_back(t);
          if (t >= top && some_blocked &&
              std::any_of(obliged.begin(), obliged.end(), blocked)) {
            hang = true;
            break;
          }
        }
        break;
      }
      case Progress::Unfair:
        hang = some_blocked;
        break;
    }
    if (!hang) return;
    std::ostringstream os;
    os << "hang under " << protocol::to_string(opt_.progress) << ":";
    for (int t : unfinished) {
      if (!blocked(t)) continue;
      const Op& op = *n.ts[t].next;
      os << " " << n.g.thread(t).name << " waits on " << sys_.loc_names[op.loc] << ";";
    }
    bool any_starved = false;
    for (int t : unfinished) {
      if (blocked(t)) continue;
      if (std::find(obliged.begin(), obliged.end(), t) != obliged.end()) continue;
      os << (any_starved ? ", " : " starved (never scheduled again): ") << n.g.thread(t).name;
      any_starved = true;
    }
    int waiter = -1;
    for (int t : unfinished)
      if (blocked(t)) waiter = t;
    record(Property::Termination, os.str(), n, waiter);
  }

  void tick(const ExecutionGraph& g, int t) {
    res_.max_thread_steps =
        std::max(res_.max_thread_steps, static_cast<int>(g.thread_events(t).size()));
    ++res_.graphs;
    if (opt_.max_graphs && res_.graphs >= opt_.max_graphs) {
      res_.complete = false;
      stop_ = true;
    }
    if (opt_.on_progress && (res_.graphs & 1023) == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last_report_ > std::chrono::seconds(1)) {
        last_report_ = now;
        opt_.on_progress(res_.graphs, res_.executions);
      }
    }
  }

  // Test hook: the incremental PTX verdicts must equal Derived's.
  void cross_check(const Node& child, const std::optional<std::pair<int, int>>& race) const {
    Derived d(child.g, MemoryModel::Ptx);
    if (!d.check(false).consistent)
      throw std::logic_error("incremental PTX accepted a graph Derived rejects");
    const auto full = d.race(child.g.size() - 1);
    if (full.has_value() != race.has_value())
      throw std::logic_error("incremental PTX and Derived disagree on a race");
  }

  // An operation that commutes with every other thread's: a fence.acq_rel
  // (no choice to make, no order it joins) or an access to a location only
  // one thread touches or nobody writes. Running such operations first, and
  // alone, prunes interleavings without losing any graph, violation or hang
  // (a local step never unblocks another thread).
  bool is_local(const Op& op) const {
    if (op.kind == EventKind::Fence) return op.fence == Fence::AcqRel;
    return op.commutes || (!sys_.local.empty() && sys_.local[op.loc]);
  }

  // Canonical renaming of interchangeable threads: within a symmetry class,
  // order threads by what they did (their events without reads-from names),
  // breaking ties by index. Equal fingerprints then still mean isomorphic
  // graphs, and isomorphic graphs usually get equal ones.
  std::vector<int> canonical_rank(const ExecutionGraph& g) const {
    if (!symmetric_) return {};
    const int threads = g.threads();
    std::vector<std::uint64_t> key(threads);
    for (int t = 0; t < threads; ++t) {
      std::uint64_t k = 0xcbf29ce484222325ull + g.thread_events(t).size();
      for (int id : g.thread_events(t)) {
        const Event& e = g.event(id);
        const std::uint64_t parts[] = {
            static_cast<std::uint64_t>(e.kind) | (static_cast<std::uint64_t>(e.loc) << 8),
            static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.rval.num)) ^
                (static_cast<std::uint64_t>(e.rval.status) << 40) ^
                (static_cast<std::uint64_t>(static_cast<std::uint16_t>(e.rval.iv.hi)) << 44),
            static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.wval.num)) ^
                (static_cast<std::uint64_t>(e.wval.status) << 40)};
        for (std::uint64_t part : parts) k = (k ^ part) * 0x100000001b3ull;
      }
      key[t] = k;
    }
    std::vector<int> order(threads);
    for (int t = 0; t < threads; ++t) order[t] = t;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      const int ca = sys_.symmetry_class[a], cb = sys_.symmetry_class[b];
      // Only threads of one class move relative to each other: classes keep
      // the position of their first member.
      if (ca != cb) return first_of_class(a) < first_of_class(b);
      if (ca < 0) return a < b;
      return key[a] < key[b];
    });
    std::vector<int> rank(threads);
    for (int pos = 0; pos < threads; ++pos) rank[order[pos]] = pos;
    return rank;
  }
  int first_of_class(int t) const {
    const int c = sys_.symmetry_class[t];
    if (c < 0) return t;
    for (int u = 0; u < t; ++u)
      if (sys_.symmetry_class[u] == c) return u;
    return t;
  }
  std::pair<std::uint64_t, std::uint64_t> fingerprint(const ExecutionGraph& g) const {
    return g.fingerprint(canonical_rank(g));
  }

  struct Child {
    Node node;
    std::pair<std::uint64_t, std::uint64_t> fp;
    std::optional<std::pair<int, int>> race;
    int thread;
  };

  void visit(Node& n) {
    if (stop_) return;
    const int phase = current_phase(n);
    const int threads = n.g.threads();
    std::vector<bool> can_step(threads, false), runnable(threads, false);
    for (int t = 0; t < threads; ++t)
      runnable[t] = !done(n, t) && n.g.thread(t).phase == phase && n.ts[t].next && may_start(n, t);
    int forced = -1;
    for (int t = 0; t < threads && forced < 0; ++t)
      if (runnable[t] && started(n, t) && is_local(*n.ts[t].next)) forced = t;

    std::vector<Child> children;
    for (int t = 0; t < threads; ++t) {
      if (!runnable[t] || (forced >= 0 && t != forced)) continue;
      if (opt_.check_wait_free && n.ts[t].next->exits) {
        record(Property::FallbackWaitFree,
               n.g.thread(t).name + " can wait without bound on " + sys_.loc_names[n.ts[t].next->loc] +
                   ": its progress depends on other blocks",
               n, t);
      }
      for (Node& raw : successors(n, t)) {
        auto fp = fingerprint(raw.g);
        if (seen_.count(fp)) {  // visited before, hence consistent
          can_step[t] = true;
          continue;
        }
        const int id = raw.g.size() - 1;
        std::optional<std::pair<int, int>> race;
        if (opt_.model == MemoryModel::Ptx) {  // checked incrementally already
          if (opt_.check_races) race = raw.ptx.race(raw.g);
          if (opt_.cross_check) cross_check(raw, race);
        } else {
          Derived d(raw.g, opt_.model);
          if (!d.check(false).consistent) continue;
          if (opt_.check_races && raw.g.event(id).is_mem()) race = d.race(id);
        }
        can_step[t] = true;
        children.push_back(Child{std::move(raw), fp, race, t});
      }
    }
    if (opt_.check_termination && forced < 0) check_termination(n, can_step, runnable);
    const bool any = std::any_of(can_step.begin(), can_step.end(), [](bool b) { return b; });
    for (Child& c : children) {
      if (stop_) return;
      if (!seen_.insert(c.fp).second) continue;
      tick(c.node.g, c.thread);
      if (stop_) return;
      if (!check_new_event(c.node, c.thread, c.race)) continue;
      visit(c.node);
    }
    if (!any) {
      ++res_.executions;
      for (int t = 0; t < threads; ++t)
        if (!done(n, t)) {
          ++res_.stuck;
          break;
        }
    }
  }

  const System& sys_;
  const ExploreOptions& opt_;
  ExploreResult res_;
  std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, FpHash> seen_;
  std::chrono::steady_clock::time_point last_report_;
  bool symmetric_;
  bool stop_ = false;
};

}  // namespace

ExploreResult explore(const System& sys, const ExploreOptions& opt) {
  return Search(sys, opt).run();
}

}  // namespace lookback::model
