#include "lookback/model/explorer.hpp"

#include "lookback/model/incremental_ptx.hpp"

#include "eager_stores.hpp"
#include "eager_writes.hpp"
#include "execution_step.hpp"
#include "fingerprint_set.hpp"
#include "interchangeable.hpp"
#include "read_blocks.hpp"
#include "shared_fingerprint_set.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace lookback::model {

namespace {

using detail::ThreadState;

struct Node {
  ExecutionGraph g;
  std::vector<ThreadState> ts;
  std::vector<int> schedule;
  IncrementalPtx ptx;  // PTX relations of g (PTX model only)
};

// One way to extend a visited graph: the event thread `thread` adds, found
// consistent. The search visits the child graph in place: it applies the
// step to the parent node, visits, and takes the step back.
struct Step {
  detail::Candidate candidate;
  int thread = -1;
  std::pair<std::uint64_t, std::uint64_t> fp;
  std::optional<std::pair<int, int>> race;
  bool in_read_block = false;  // the thread's read-block state after the step
  // The step was a forced eager write (eager_writes.hpp): it must leave its
  // thread running and unfailed, else the reduction does not hold.
  bool eager_write = false;
};

// A step handed to another worker, with a copy of the graph it extends.
struct Task {
  Node parent;
  Step step;
};

// What the workers of a parallel search share: the visited set, the graphs
// still to visit that a busy worker handed over, and the stop flag. Every
// graph is visited once, by whichever worker inserts its fingerprint first;
// what a node's visit finds depends only on the node, so the counts do not
// depend on which worker visits what (canonical fingerprints: see
// Search::fingerprint).
class Pool {
 public:
  explicit Pool(int workers) : workers_(workers) {}

  detail::SharedFingerprintSet seen;
  std::atomic<std::uint64_t> graphs{0}, executions{0};  // for progress lines
  std::mutex hook_mutex;  // ExploreOptions::on_execution is called under it

  bool stopped() const { return stop_.load(std::memory_order_relaxed); }
  void halt() {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true, std::memory_order_relaxed);
    ready_.notify_all();
  }
  // Some worker waits for work: a busy one should hand over part of its own.
  // (More waiting workers than handed-over steps still queued: a step handed
  // over a moment ago feeds a worker that has not woken yet.)
  bool hungry() const {
    return idle_.load(std::memory_order_relaxed) > queued_.load(std::memory_order_relaxed);
  }
  // Hands over steps [from, end) of `parent`'s, each with its own copy of
  // the parent, and drops them from `steps`.
  void give(const Node& parent, std::vector<Step>& steps, std::size_t from) {
    std::vector<Task> tasks;
    for (std::size_t i = from; i < steps.size(); ++i)
      tasks.push_back(Task{parent, steps[i]});
    steps.resize(from);
    std::lock_guard<std::mutex> lock(mutex_);
    for (Task& task : tasks)
      queue_.push_back(std::move(task));
    queued_.store(static_cast<int>(queue_.size()), std::memory_order_relaxed);
    ready_.notify_all();
  }
  // Waits for a graph to visit; false once every worker waits with nothing
  // left (the search is complete) or the search was halted.
  bool take(Task& out) {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
      if (stopped() || drained_) break;
      if (!queue_.empty()) {
        idle_.fetch_sub(1, std::memory_order_relaxed);
        out = std::move(queue_.back());
        queue_.pop_back();
        queued_.store(static_cast<int>(queue_.size()), std::memory_order_relaxed);
        return true;
      }
      if (idle_.load(std::memory_order_relaxed) == workers_) {
        drained_ = true;
        ready_.notify_all();
        break;
      }
      ready_.wait(lock);
    }
    return false;
  }

 private:
  const int workers_;
  std::atomic<bool> stop_{false};
  std::atomic<int> idle_{0};
  std::atomic<int> queued_{0};  // queue_.size(), for hungry()
  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<Task> queue_;  // taken last-in first-out: deep graphs first
  bool drained_ = false;
};

class Search {
 public:
  // `pool`: a worker of a parallel search (nullptr: the whole search, alone).
  Search(const System& sys, const ExploreOptions& opt, Pool* pool = nullptr, int worker = 0)
      : sys_(sys),
        opt_(opt),
        pool_(pool),
        worker_(worker),
        // Symmetry needs a progress model that does not look at block ids.
        symmetric_(opt.symmetry && !sys.symmetry_class.empty() && opt.progress != Progress::Hsa &&
                   opt.progress != Progress::Lobe),
        interchangeable_(opt.interchangeable && opt.model == MemoryModel::Ptx &&
                                 std::find(sys.interchangeable.begin(), sys.interchangeable.end(),
                                           true) != sys.interchangeable.end()
                             ? sys.interchangeable
                             : std::vector<bool>{}),
        // Under hsa the lowest unfinished block hangs when it cannot start for
        // want of a resident slot, even while a higher block can still run. A
        // forced step that finishes its thread frees a slot, so forcing could
        // skip the one state where the hang shows. (Every other model obliges
        // the scheduler to run a started block that can step, so a state with
        // a forced step never hangs under them.)
        forcing_(sys.resident <= 0 || opt.progress != Progress::Hsa),
        eager_(forcing_ && opt.eager_writes && opt.model == MemoryModel::Ptx &&
               std::find(sys.eager_writes.begin(), sys.eager_writes.end(), true) !=
                   sys.eager_writes.end()),
        stores_(forcing_ && opt.eager_stores && opt.model == MemoryModel::Ptx),
        blocks_(opt.read_blocks && opt.model == MemoryModel::Ptx && sys.resident <= 0),
        trusting_(stores_ || blocks_) {}

  // Set when a program broke System::interchangeable or eager_writes: the
  // result is void and the caller explores again without the broken one.
  bool broke_interchangeable() const { return broke_interchangeable_; }
  bool broke_eager() const { return broke_eager_; }
  // Set when the eager-stores search met something it cannot vouch for
  // (eager_stores.hpp): the caller explores again without it.
  bool voided_stores() const { return voided_stores_; }
  // A worker of a parallel search met a violation: the search stopped, and
  // the caller runs it again alone for a reproducible counterexample.
  bool violated() const { return violated_; }

  ExploreResult run() {
    const auto start = std::chrono::steady_clock::now();
    visit_root();
    res_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(res_);
  }

  // Parallel search: worker 0 visits the root, and then every worker visits
  // what the others hand over until the pool is drained.
  void visit_root() {
    last_report_ = std::chrono::steady_clock::now();
    Node root{ExecutionGraph(sys_.threads, sys_.locations(), sys_.init),
              std::vector<ThreadState>(sys_.threads.size()),
              {},
              {}};
    root.ptx.keep_undo_log();  // children are visited in place (apply, take_back)
    for (int t = 0; t < root.g.threads(); ++t) {
      if (auto v = advance(root, t)) record(v->property, v->message, root, t);
    }
    seen_insert(fingerprint(root.g));
    count_graph();
    visit(root);
  }
  void work() {
    last_report_ = std::chrono::steady_clock::now();
    Task task;
    while (pool_->take(task))
      visit_child(task.parent, task.step);
  }
  const ExploreResult& result() const { return res_; }

 private:
  // Re-runs thread t's program over its events: finds its next operation,
  // or that it finished, or a property it found violated.
  std::optional<PropertyViolation> advance(Node& n, int t) {
    return detail::advance(sys_, n.g, t, n.ts[t]);
  }

  bool started(const Node& n, int t) const { return detail::started(n.g, t); }
  bool done(const Node& n, int t) const { return detail::done(n.ts[t]); }
  int current_phase(const Node& n) const { return detail::current_phase(n.g, n.ts); }
  bool may_start(const Node& n, int t) const { return detail::may_start(sys_, n.g, n.ts, t); }

  // Every way for thread t to perform its next operation that leads to a
  // graph not visited yet and, under PTX, consistent. Each candidate is
  // fingerprinted first, on `n`'s own graph (added, then removed again), so
  // a graph visited before costs no copy and no consistency check; it was
  // consistent, so it counts for `seen_one` (thread t can step).
  std::vector<Step> successors(Node& n, int t, bool& seen_one) {
    std::vector<Step> out;
    const Op& op = *n.ts[t].next;
    const bool valued =
        !interchangeable_.empty() && op.kind != EventKind::Fence && interchangeable_[op.loc];
    if (valued && !detail::keeps_interchangeable(sys_, n.g, t, op)) {
      broke_interchangeable_ = true;
      halt();
    }
    if (eager_ && !detail::keeps_eager(sys_, op)) {
      broke_eager_ = true;
      halt();
    }
    if (stopped()) return out;
    // A local step neither starts nor ends a read block (read_blocks.hpp).
    auto in_read_block = [&](const detail::Candidate& c) {
      return is_local(op) ? n.ts[t].in_read_block : c.event.kind == EventKind::Read;
    };
    for (const detail::Candidate& c : detail::candidates(sys_, n.g, t, op, opt_.model)) {
      if (valued && !detail::kept_interchangeable(n.g, c)) continue;
      n.g.add(c.event, c.co_pos);
      Step step;
      step.candidate = c;
      step.thread = t;
      step.fp = step_fingerprint(n.g, t);
      if (seen_contains(step.fp)) {
        seen_one = true;
      } else if (consistent_last(n, step)) {
        step.in_read_block = in_read_block(c);
        out.push_back(step);
      }
      n.g.remove_last();
    }
    return out;
  }

  // Whether n.g, whose last event is `step`'s, is consistent; if so, the
  // step's race (if any) is filled in. Leaves n.ptx as it was.
  bool consistent_last(Node& n, Step& step) {
    const int id = n.g.size() - 1;
    if (opt_.model != MemoryModel::Ptx) {
      Derived d(n.g, opt_.model);
      if (!d.check(false).consistent) return false;
      if (opt_.check_races && n.g.event(id).is_mem()) step.race = d.race(id);
      return true;
    }
    if (n.ptx.append(n.g) != nullptr) {
      if (opt_.cross_check && Derived(n.g, MemoryModel::Ptx).check(false).consistent)
        throw std::logic_error("incremental PTX rejected a graph Derived accepts");
      return false;
    }
    if (opt_.check_races) step.race = n.ptx.race(n.g);
    if (opt_.cross_check) cross_check(n.g, step.race);
    n.ptx.undo_last();
    return true;
  }

  // Makes n the child graph of `step` (its thread state saved in `saved`),
  // and back.
  void apply(Node& n, const Step& step, ThreadState& saved) {
    const int t = step.thread;
    n.g.add(step.candidate.event, step.candidate.co_pos);
    if (opt_.model == MemoryModel::Ptx && n.ptx.append(n.g) != nullptr)
      throw std::logic_error("a step found consistent is not");
    saved = std::move(n.ts[t]);
    n.ts[t] = ThreadState{saved.finished, saved.failed, std::nullopt, step.in_read_block};
    n.schedule.push_back(t);
  }
  void take_back(Node& n, const Step& step, ThreadState& saved) {
    n.schedule.pop_back();
    n.ts[step.thread] = std::move(saved);
    if (opt_.model == MemoryModel::Ptx) n.ptx.undo_last();
    n.g.remove_last();
  }

  void record(Property p, const std::string& message, const Node& n, int thread) {
    if (trusting_) {
      voided_stores_ = true;
      halt();
      return;
    }
    if (pool_) {
      // Which worker meets which violation first depends on timing; the
      // search alone makes the counterexample reproducible.
      violated_ = true;
      halt();
      return;
    }
    auto it = res_.violations.find(p);
    if (it != res_.violations.end() && it->second.graph.size() <= n.g.size()) return;
    res_.violations[p] = Violation{p, message, n.g, n.schedule, thread};
    if (opt_.stop_at_first && (!opt_.stop_only_at || *opt_.stop_only_at == p)) stop_ = true;
  }

  // Safety checks on the event just added by thread t (its id is the last).
  bool check_new_event(Node& child, int t, const std::optional<std::pair<int, int>>& race) {
    if (race) {
      record(Property::NoDataRace, detail::race_message(sys_, child.g, *race), child, t);
      return false;
    }
    if (trusting_ && detail::out_of_status_order(sys_, child.g)) {
      voided_stores_ = true;
      halt();
      return false;
    }
    if (auto down = detail::monotone_violation(sys_, child.g)) {
      record(Property::MonotoneStatus, *down, child, t);
      return false;
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
        hang =
            std::none_of(unfinished.begin(), unfinished.end(), [&](int t) { return can_step[t]; });
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
        // Obliged: every block up to the highest one that took a step,
        // finished or not (LOBE: a block that ran obliges all below it), or
        // that is started now to spin. Hang iff some such prefix is all
        // stuck with one block waiting; past the last unfinished block below
        // a finished top the prefix is all the unfinished blocks.
        int top = -1;
        for (int t = 0; t < n.g.threads(); ++t)
          if (n.g.thread(t).phase == phase && started(n, t)) top = t;
        const auto waits = [&] { return std::any_of(obliged.begin(), obliged.end(), blocked); };
        bool all_stuck = true;
        for (int t : unfinished) {
          // Past top only a block started now to spin joins the prefix: one
          // that could run is not obliged to (the scheduler may never start it).
          if (t > top && !blocked(t)) break;
          if (!blocked(t) && !unstartable(t)) {
            all_stuck = false;
            break;
          }
          obliged.push_back(t);
          if (t >= top && waits()) break;
        }
        hang = all_stuck && waits();
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
    count_graph();
  }
  void count_graph() {
    ++res_.graphs;
    if (pool_) pool_->graphs.fetch_add(1, std::memory_order_relaxed);
    if (opt_.max_graphs && res_.graphs >= opt_.max_graphs) {
      res_.complete = false;
      halt();
    }
    // One reporter: the search alone, or worker 0 with the pool's count.
    if (opt_.on_progress && worker_ == 0 && (res_.graphs & 1023) == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last_report_ > std::chrono::seconds(1)) {
        last_report_ = now;
        if (pool_)
          opt_.on_progress(pool_->graphs.load(std::memory_order_relaxed),
                           pool_->executions.load(std::memory_order_relaxed));
        else
          opt_.on_progress(res_.graphs, res_.executions);
      }
    }
  }

  // Test hook: the incremental PTX verdicts must equal Derived's.
  void cross_check(const ExecutionGraph& g, const std::optional<std::pair<int, int>>& race) const {
    Derived d(g, MemoryModel::Ptx);
    if (!d.check(false).consistent)
      throw std::logic_error("incremental PTX accepted a graph Derived rejects");
    const auto full = d.race(g.size() - 1);
    if (full.has_value() != race.has_value())
      throw std::logic_error("incremental PTX and Derived disagree on a race");
  }

  bool is_local(const Op& op) const { return detail::is_local(sys_, op); }

  // Canonical renaming of interchangeable threads: within a symmetry class,
  // order threads by what they did (their events without reads-from names),
  // breaking ties by index. Equal fingerprints then still mean isomorphic
  // graphs; least_fingerprint tries the orders of the ties, so isomorphic
  // graphs always get equal ones.
  // Fills rank_ (left empty without symmetry); the buffers are members, as
  // this runs for every candidate step.
  const std::vector<int>& canonical_rank(const ExecutionGraph& g) const {
    rank_.clear();
    if (!symmetric_) return rank_;
    key_.resize(static_cast<std::size_t>(g.threads()));
    for (int t = 0; t < g.threads(); ++t)
      key_[t] = thread_key(g, t);
    return rank_from_keys();
  }
  std::uint64_t thread_key(const ExecutionGraph& g, int t) const {
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
      for (std::uint64_t part : parts)
        k = (k ^ part) * 0x100000001b3ull;
    }
    return k;
  }
  // rank_ from the thread keys in key_.
  const std::vector<int>& rank_from_keys() const {
    const std::vector<std::uint64_t>& key = key_;
    const int threads = static_cast<int>(key.size());
    auto before = [&](int a, int b) {
      const int ca = sys_.symmetry_class[a], cb = sys_.symmetry_class[b];
      // Only threads of one class move relative to each other: classes keep
      // the position of their first member.
      if (ca != cb) return first_of_class(a) < first_of_class(b);
      if (ca < 0) return a < b;
      return key[a] < key[b];
    };
    // A stable insertion sort: a handful of threads, no allocation.
    std::vector<int>& order = order_;
    order.resize(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) {
      int pos = t;
      for (; pos > 0 && before(t, order[pos - 1]); --pos)
        order[pos] = order[pos - 1];
      order[pos] = t;
    }
    rank_.resize(static_cast<std::size_t>(threads));
    for (int pos = 0; pos < threads; ++pos)
      rank_[order[pos]] = pos;
    return rank_;
  }
  int first_of_class(int t) const {
    const int c = sys_.symmetry_class[t];
    if (c < 0) return t;
    for (int u = 0; u < t; ++u)
      if (sys_.symmetry_class[u] == c) return u;
    return t;
  }
  // The fingerprint of g's class under permutations of interchangeable
  // threads. canonical_rank orders threads by what they did; threads it
  // cannot tell apart (same class, same key, both started) may still differ
  // in whom they read from, so every order of each such tie is tried and the
  // least fingerprint taken. That makes the fingerprint a function of the
  // class alone: which member of a class the search meets first (an order
  // that varies between the workers of a parallel search) changes nothing.
  std::pair<std::uint64_t, std::uint64_t> fingerprint(const ExecutionGraph& g) const {
    canonical_rank(g);
    return least_fingerprint(g);
  }
  // The least fingerprint of g over the orders of the ties of rank_ (filled
  // from key_ by canonical_rank or rank_from_keys).
  std::pair<std::uint64_t, std::uint64_t> least_fingerprint(const ExecutionGraph& g) const {
    ties_.clear();
    if (symmetric_) {
      const int threads = g.threads();
      for (int pos = 0; pos + 1 < threads;) {
        int end = pos + 1;
        const int t = order_[pos];
        while (end < threads && same_rank_key(g, t, order_[end]))
          ++end;
        if (end - pos > 1 && !g.thread_events(t).empty()) ties_.emplace_back(pos, end);
        pos = end;
      }
    }
    auto best = g.fingerprint(rank_, interchangeable_);
    if (ties_.empty()) return best;
    // Odometer over the orders of each tie (each starts sorted by index).
    for (;;) {
      std::size_t k = 0;
      for (; k < ties_.size(); ++k)
        if (std::next_permutation(order_.begin() + ties_[k].first,
                                  order_.begin() + ties_[k].second))
          break;
      if (k == ties_.size()) break;  // every order tried: order_ is back to the first
      for (int pos = 0; pos < g.threads(); ++pos)
        rank_[order_[pos]] = pos;
      best = std::min(best, g.fingerprint(rank_, interchangeable_));
    }
    for (int pos = 0; pos < g.threads(); ++pos)  // rank_ matches order_ again
      rank_[order_[pos]] = pos;
    return best;
  }
  bool same_rank_key(const ExecutionGraph& g, int a, int b) const {
    const int c = sys_.symmetry_class[a];
    return c >= 0 && c == sys_.symmetry_class[b] && key_[a] == key_[b] &&
           g.thread_events(a).size() == g.thread_events(b).size();
  }
  // Before fingerprinting the candidate steps of graph g: the keys of its
  // threads, of which a step changes one.
  void begin_steps(const ExecutionGraph& g) {
    if (!symmetric_) return;
    canonical_rank(g);
    base_key_ = key_;
  }
  // fingerprint(g) for g = the graph begin_steps saw plus one event of
  // thread t.
  std::pair<std::uint64_t, std::uint64_t> step_fingerprint(const ExecutionGraph& g, int t) const {
    if (!symmetric_) return g.fingerprint({}, interchangeable_);
    key_ = base_key_;
    key_[t] = thread_key(g, t);
    rank_from_keys();
    return least_fingerprint(g);
  }

  void visit(Node& n) {
    if (stopped()) return;
    const int phase = current_phase(n);
    const int threads = n.g.threads();
    std::vector<bool> can_step(threads, false), runnable(threads, false);
    for (int t = 0; t < threads; ++t)
      runnable[t] = !done(n, t) && n.g.thread(t).phase == phase && n.ts[t].next && may_start(n, t);
    if (trusting_) {
      // An await anywhere: termination looks at partial graphs, which eager
      // stores do not all visit (eager_stores.hpp).
      for (int t = 0; t < threads; ++t)
        if (!done(n, t) && n.ts[t].next && n.ts[t].next->exits) {
          voided_stores_ = true;
          halt();
          return;
        }
    }
    int forced = -1;
    for (int t = 0; t < threads && forced < 0 && forcing_; ++t)
      if (runnable[t] && started(n, t) &&
          (is_local(*n.ts[t].next) || (eager_ && detail::is_eager_write(sys_, *n.ts[t].next)) ||
           (stores_ && detail::is_plain_store(*n.ts[t].next))))
        forced = t;
    // Read blocks: a thread in the middle of one goes on alone until its
    // next step that is not a shared read (read_blocks.hpp).
    if (blocks_ && forced < 0 && detail::blocks_apply(n.g, n.ts, runnable)) {
      for (int t = 0; t < threads && forced < 0; ++t)
        if (runnable[t] && n.ts[t].in_read_block) forced = t;
    }

    std::vector<Step> steps;
    begin_steps(n.g);  // once for the steps of every thread
    for (int t = 0; t < threads; ++t) {
      if (!runnable[t] || (forced >= 0 && t != forced)) continue;
      if (opt_.check_wait_free && n.ts[t].next->exits) {
        record(Property::FallbackWaitFree,
               n.g.thread(t).name + " can wait without bound on " +
                   sys_.loc_names[n.ts[t].next->loc] + ": its progress depends on other blocks",
               n, t);
      }
      bool seen_one = false;
      const bool eager_write =
          eager_ && !stores_ && forced >= 0 && detail::is_eager_write(sys_, *n.ts[t].next);
      for (Step& step : successors(n, t, seen_one)) {
        can_step[t] = true;
        step.eager_write = eager_write;
        steps.push_back(std::move(step));
      }
      if (seen_one) can_step[t] = true;
    }
    if (opt_.check_termination && forced < 0) check_termination(n, can_step, runnable);
    const bool any = std::any_of(can_step.begin(), can_step.end(), [](bool b) { return b; });
    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (stopped()) return;
      // A worker waits: hand it the siblings still to visit.
      if (pool_ && i + 1 < steps.size() && pool_->hungry()) pool_->give(n, steps, i + 1);
      visit_child(n, steps[i]);
    }
    if (!any) {
      ++res_.executions;
      if (pool_) pool_->executions.fetch_add(1, std::memory_order_relaxed);
      if (opt_.on_execution) {
        if (pool_) {
          std::lock_guard<std::mutex> lock(pool_->hook_mutex);
          opt_.on_execution(n.g);
        } else {
          opt_.on_execution(n.g);
        }
      }
      for (int t = 0; t < threads; ++t)
        if (!done(n, t)) {
          ++res_.stuck;
          break;
        }
    }
  }

  // Visits the child of n that `step` makes, unless some worker visited its
  // graph first, in place: n is n again afterwards.
  void visit_child(Node& n, const Step& step) {
    if (stopped()) return;
    if (!seen_insert(step.fp)) return;
    ThreadState saved;
    apply(n, step, saved);
    const int t = step.thread;
    tick(n.g, t);
    if (!stopped()) {
      const bool checked = check_new_event(n, t, step.race);
      // An eager store must leave its thread running and unfailed
      // (eager_writes.hpp): else explore again without the reduction.
      if (step.eager_write && done(n, t)) {
        broke_eager_ = true;
        halt();
      } else if (checked) {
        visit(n);
      }
    }
    take_back(n, step, saved);
  }

  bool seen_contains(const std::pair<std::uint64_t, std::uint64_t>& fp) const {
    return pool_ ? pool_->seen.contains(fp) : seen_.contains(fp);
  }
  bool seen_insert(const std::pair<std::uint64_t, std::uint64_t>& fp) {
    return pool_ ? pool_->seen.insert(fp) : seen_.insert(fp);
  }
  bool stopped() const { return stop_ || (pool_ && pool_->stopped()); }
  void halt() {
    stop_ = true;
    if (pool_) pool_->halt();
  }

  const System& sys_;
  const ExploreOptions& opt_;
  Pool* pool_;
  int worker_;
  ExploreResult res_;
  detail::FingerprintSet seen_;  // the search alone; a pool's workers share pool_->seen
  std::chrono::steady_clock::time_point last_report_;
  bool symmetric_;
  std::vector<bool> interchangeable_;      // empty: the reduction is off
  bool forcing_;                           // steps may be forced (run alone, no termination check)
  bool eager_;                             // eager writes (eager_writes.hpp) on
  bool stores_;                            // eager stores (eager_stores.hpp) on
  bool blocks_;                            // read blocks (read_blocks.hpp) on
  bool trusting_;                          // a reduction voided by any violation or await is on
  mutable std::vector<int> rank_, order_;  // canonical_rank's buffers
  mutable std::vector<std::uint64_t> key_;
  mutable std::vector<std::pair<int, int>> ties_;  // fingerprint's: ranges of order_
  std::vector<std::uint64_t> base_key_;            // key_ of the graph before a step (begin_steps)
  bool broke_interchangeable_ = false;
  bool broke_eager_ = false;
  bool voided_stores_ = false;
  bool violated_ = false;
  bool stop_ = false;
};

// Why a search did not give the final result, if it did not.
struct Outcome {
  ExploreResult result;
  bool broke_interchangeable = false, broke_eager = false, voided_stores = false, violated = false;
  bool settled() const {
    return !broke_interchangeable && !broke_eager && !voided_stores && !violated;
  }
};

Outcome search_alone(const System& sys, const ExploreOptions& o) {
  Search search(sys, o);
  Outcome out{search.run()};
  out.broke_interchangeable = search.broke_interchangeable();
  out.broke_eager = search.broke_eager();
  out.voided_stores = search.voided_stores();
  return out;
}

// `jobs` workers over one shared visited set. Counts are those of the search
// alone; a violation stops every worker (the caller then searches alone).
Outcome search_in_parallel(const System& sys, const ExploreOptions& o, int jobs) {
  const auto start = std::chrono::steady_clock::now();
  Pool pool(jobs);
  std::vector<std::unique_ptr<Search>> workers;
  for (int w = 0; w < jobs; ++w)
    workers.push_back(std::make_unique<Search>(sys, o, &pool, w));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(jobs));
  auto guarded = [&](int w, auto&& body) {
    try {
      body();
    } catch (...) {
      errors[static_cast<std::size_t>(w)] = std::current_exception();
      pool.halt();
    }
  };
  std::vector<std::thread> threads;
  // Worker 0 is this thread; a worker that could not be started is halted
  // like one that failed, so the others stop and are joined.
  guarded(0, [&] {
    for (int w = 1; w < jobs; ++w)
      threads.emplace_back([&, w] { guarded(w, [&] { workers[w]->work(); }); });
    workers[0]->visit_root();
    workers[0]->work();
  });
  for (std::thread& t : threads)
    t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);

  Outcome out;
  ExploreResult& r = out.result;
  for (const auto& w : workers) {
    const ExploreResult& part = w->result();
    r.graphs += part.graphs;
    r.executions += part.executions;
    r.stuck += part.stuck;
    r.max_thread_steps = std::max(r.max_thread_steps, part.max_thread_steps);
    out.broke_interchangeable |= w->broke_interchangeable();
    out.broke_eager |= w->broke_eager();
    out.voided_stores |= w->voided_stores();
    out.violated |= w->violated();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace

ExploreResult explore(const System& sys, const ExploreOptions& opt) {
  ExploreOptions o = opt;
  double seconds = 0;
  bool again = false;
  // A search cut short (first violation, graph budget) depends on the order
  // of the visits: those run alone.
  bool parallel = opt.jobs > 1 && !opt.stop_at_first && opt.max_graphs == 0;
  for (;;) {
    Outcome out = parallel ? search_in_parallel(sys, o, opt.jobs) : search_alone(sys, o);
    seconds += out.result.seconds;
    if (out.settled()) {
      out.result.seconds = seconds;
      out.result.reexplored = again;
      return std::move(out.result);
    }
    if (opt.on_restart) opt.on_restart();
    if (out.violated) {
      // The same search alone, for a reproducible counterexample.
      parallel = false;
      continue;
    }
    // A declaration did not hold: explore again without it.
    if (out.broke_interchangeable) o.interchangeable = false;
    if (out.broke_eager) o.eager_writes = false;
    if (out.voided_stores) o.eager_stores = o.read_blocks = false;
    again = true;
  }
}

}  // namespace lookback::model
