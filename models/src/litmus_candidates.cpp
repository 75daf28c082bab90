#include "lookback/model/litmus_candidates.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "lookback/model/relation.hpp"

namespace lookback::model {

std::vector<Event> litmus_events(const LitmusTest& test, int t) {
  const LitmusThread& th = test.threads.at(static_cast<std::size_t>(t));
  std::vector<Event> events;
  for (const Instruction& in : th.code) {
    Event e;
    switch (in.op) {
      case LitmusOp::Load:
        e.kind = EventKind::Read;
        break;
      case LitmusOp::Store:
        e.kind = EventKind::Write;
        break;
      case LitmusOp::Rmw:
        e.kind = EventKind::Rmw;
        break;
      case LitmusOp::Fence:
        e.kind = EventKind::Fence;
        break;
    }
    e.order = in.op == LitmusOp::Fence ? Order::Weak : in.order;
    e.fence = in.op == LitmusOp::Fence ? in.fence : Fence::None;
    e.scope = in.scope;
    e.loc = in.op == LitmusOp::Fence ? 0 : in.loc;
    e.thread = static_cast<std::uint8_t>(t);
    e.index = static_cast<std::uint16_t>(events.size());
    e.step = Step::Litmus;
    e.deps = in.deps;
    events.push_back(e);
  }
  return events;
}

namespace {

// An event of the program, named by position.
struct Ref {
  int thread = 0, index = 0;
};

// The reads-from and coherence choices of one location.
struct LocationChoice {
  std::vector<int> co;  // writes (indices into Program::refs), coherence order
  std::vector<int> rf;  // per read of the location: a write index, or -1 = init
};

// The choices of one location that passed its filter, kept flat, a byte an
// index: each is the location's co, then its rf. A litmus test has at most
// kMaxEvents events, so every index fits. Up to kMaxLitmusCandidates choices
// are kept before a test is refused: as vectors they took about 170 bytes
// each (0.7 GB), here one byte per write and read of the location.
class LocationChoices {
 public:
  static_assert(kMaxEvents <= 128, "write indices must fit in a signed byte");
  LocationChoices(std::size_t writes, std::size_t reads)
      : writes_(writes), stride_(writes + reads) {}
  void push(const LocationChoice& c) {
    for (const auto* part : {&c.co, &c.rf})
      for (int index : *part)
        bytes_.push_back(static_cast<std::int8_t>(index));
    ++count_;
  }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // Choice i's k-th write in coherence order; the source of its k-th read.
  int co(std::size_t i, std::size_t k) const { return bytes_[i * stride_ + k]; }
  int rf(std::size_t i, std::size_t k) const { return bytes_[i * stride_ + writes_ + k]; }

 private:
  std::size_t writes_, stride_, count_ = 0;
  std::vector<std::int8_t> bytes_;
};

// The program's events with the facts the per-location filters need.
struct Program {
  std::vector<Ref> refs;
  std::vector<Event> events;                    // parallel to refs
  std::vector<int> cta;                         // of each event's thread
  std::vector<std::vector<int>> writes, reads;  // per location
};

Program program_of(const LitmusTest& test) {
  Program p;
  p.writes.resize(static_cast<std::size_t>(test.locations()));
  p.reads.resize(static_cast<std::size_t>(test.locations()));
  for (int t = 0; t < static_cast<int>(test.threads.size()); ++t) {
    const auto events = litmus_events(test, t);
    for (int i = 0; i < static_cast<int>(events.size()); ++i) {
      const int id = static_cast<int>(p.refs.size());
      p.refs.push_back({t, i});
      p.events.push_back(events[static_cast<std::size_t>(i)]);
      p.cta.push_back(test.threads[static_cast<std::size_t>(t)].cta);
      const Event& e = p.events.back();
      if (e.is_write()) p.writes[e.loc].push_back(id);
      if (e.is_read()) p.reads[e.loc].push_back(id);
    }
  }
  return p;
}

// PTX "morally strong" for two events of the program (Derived::strong's rule).
bool ptx_strong(const Program& p, int a, int b) {
  const Event& x = p.events[static_cast<std::size_t>(a)];
  const Event& y = p.events[static_cast<std::size_t>(b)];
  if (x.thread == y.thread) return true;
  if (!x.is_strong() || !y.is_strong()) return false;
  const bool x_covers = x.scope != Scope::Cta ||
                        p.cta[static_cast<std::size_t>(a)] == p.cta[static_cast<std::size_t>(b)];
  const bool y_covers = y.scope != Scope::Cta ||
                        p.cta[static_cast<std::size_t>(a)] == p.cta[static_cast<std::size_t>(b)];
  return x_covers && y_covers;
}

// The coherence condition of one location, on that location's events alone
// (a necessary condition of the model's consistency; see the header).
class LocationFilter {
 public:
  LocationFilter(const Program& p, MemoryModel m, Loc l)
      : p_(p), m_(m), writes_(p.writes[l]), reads_(p.reads[l]), local_(p.refs.size(), -1) {
    for (const auto* ids : {&writes_, &reads_})
      for (int id : *ids)
        if (local_[static_cast<std::size_t>(id)] < 0) {
          local_[static_cast<std::size_t>(id)] = static_cast<int>(ids_.size());
          ids_.push_back(id);
        }
    po_loc_.assign(ids_.size(), 0);
    for (std::size_t a = 0; a < ids_.size(); ++a)
      for (std::size_t b = 0; b < ids_.size(); ++b) {
        const Ref& x = p.refs[static_cast<std::size_t>(ids_[a])];
        const Ref& y = p.refs[static_cast<std::size_t>(ids_[b])];
        if (x.thread == y.thread && x.index < y.index) po_loc_[a] |= bit(b);
      }
  }

  bool ok(const LocationChoice& c) const {
    const std::size_t n = ids_.size();
    if (n > 64) return true;                // too big for the bit rows: leave it to Derived
    std::vector<int> rank(writes_.size());  // position of each write in co
    for (std::size_t k = 0; k < c.co.size(); ++k)
      rank[static_cast<std::size_t>(c.co[k])] = static_cast<int>(k);
    // com = rf | co | fr, over local indices.
    std::vector<std::uint64_t> com(n, 0);
    for (std::size_t i = 0; i < c.co.size(); ++i)
      for (std::size_t j = i + 1; j < c.co.size(); ++j)
        com[local(writes_[static_cast<std::size_t>(c.co[i])])] |=
            bit(local(writes_[static_cast<std::size_t>(c.co[j])]));
    for (std::size_t k = 0; k < reads_.size(); ++k) {
      const int r = reads_[k];
      const int src = c.rf[k];
      if (src >= 0) com[local(writes_[static_cast<std::size_t>(src)])] |= bit(local(r));
      for (std::size_t w = 0; w < writes_.size(); ++w) {
        const bool after_src = src < 0 || rank[w] > rank[static_cast<std::size_t>(src)];
        if (writes_[w] != r && after_src) com[local(r)] |= bit(local(writes_[w]));
      }
      if (m_ == MemoryModel::Ptx && !atomic_ok(r, src, rank)) return false;
    }
    if (m_ == MemoryModel::Rc11) {
      const auto eco = closure(com);
      for (std::size_t a = 0; a < n; ++a) {
        if (eco[a] & bit(a)) return false;
        for (std::size_t b = 0; b < n; ++b)
          if ((po_loc_[a] & bit(b)) && (eco[b] & bit(a))) return false;
      }
      return true;
    }
    std::vector<std::uint64_t> g = po_loc_;
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b)
        if ((com[a] & bit(b)) && (m_ == MemoryModel::Sc || ptx_strong(p_, ids_[a], ids_[b])))
          g[a] |= bit(b);
    const auto plus = closure(g);
    for (std::size_t a = 0; a < n; ++a)
      if (plus[a] & bit(a)) return false;
    return true;
  }

 private:
  static std::uint64_t bit(std::size_t k) { return 1ull << k; }
  std::size_t local(int id) const {
    return static_cast<std::size_t>(local_[static_cast<std::size_t>(id)]);
  }

  // PTX atomicity: no write morally strong with RMW `r` lies between r's
  // source and r in coherence order.
  bool atomic_ok(int r, int src, const std::vector<int>& rank) const {
    if (p_.events[static_cast<std::size_t>(r)].kind != EventKind::Rmw) return true;
    const auto self =
        static_cast<std::size_t>(std::find(writes_.begin(), writes_.end(), r) - writes_.begin());
    for (std::size_t w = 0; w < writes_.size(); ++w) {
      const bool after_src = src < 0 || rank[w] > rank[static_cast<std::size_t>(src)];
      if (w != self && after_src && rank[w] < rank[self] && ptx_strong(p_, r, writes_[w]))
        return false;
    }
    return true;
  }

  static std::vector<std::uint64_t> closure(std::vector<std::uint64_t> r) {
    for (std::size_t k = 0; k < r.size(); ++k)
      for (std::size_t i = 0; i < r.size(); ++i)
        if (r[i] & bit(k)) r[i] |= r[k];
    return r;
  }

  const Program& p_;
  MemoryModel m_;
  const std::vector<int>& writes_;
  const std::vector<int>& reads_;
  std::vector<int> ids_;    // the location's events
  std::vector<int> local_;  // program id -> index into ids_, or -1
  std::vector<std::uint64_t> po_loc_;
};

std::runtime_error too_many_candidates() {
  return std::runtime_error("more than " + std::to_string(kMaxLitmusCandidates) +
                            " candidate executions: make the test smaller");
}

// Sequences of distinct elements to interleave, each kept in its order.
using Sequences = std::vector<std::vector<int>>;

// The number of interleavings of `seqs` (a multinomial; a double, as it may
// be far past any cap).
double interleaving_count(const Sequences& seqs) {
  double count = 1;
  std::size_t placed = 0;
  for (const auto& seq : seqs)
    for (std::size_t k = 1; k <= seq.size(); ++k)
      count = count * static_cast<double>(++placed) / static_cast<double>(k);
  return count;
}

// Calls visit(order) for each interleaving of `seqs`, in lexicographic order
// of the elements, one at a time (none is stored).
template <class Visit>
void for_each_interleaving(const Sequences& seqs, Visit&& visit) {
  std::size_t total = 0;
  for (const auto& seq : seqs)
    total += seq.size();
  std::vector<int> order;
  std::vector<std::size_t> next(seqs.size(), 0);
  // Depth first, the smallest next element first: lexicographic.
  const auto extend = [&](const auto& self) -> void {
    if (order.size() == total) {
      visit(order);
      return;
    }
    std::vector<std::size_t> ready;
    for (std::size_t t = 0; t < seqs.size(); ++t)
      if (next[t] < seqs[t].size()) ready.push_back(t);
    std::sort(ready.begin(), ready.end(),
              [&](std::size_t a, std::size_t b) { return seqs[a][next[a]] < seqs[b][next[b]]; });
    for (const std::size_t t : ready) {
      order.push_back(seqs[t][next[t]++]);
      self(self);
      --next[t];
      order.pop_back();
    }
  };
  extend(extend);
}

// What one location's choices range over before its filter.
struct LocationSpace {
  // Coherence orders: with pruning, only those that keep each thread's
  // writes in program order (every model's coherence requires it: the filter
  // drops the rest, and Derived where a location has too many events for the
  // filter), so a thread's dozen writes to one location have one order, not
  // 12!. Without pruning (tests of Derived alone), all of them: each write is
  // its own sequence. Elements are indices into Program::writes[l].
  Sequences co;
  double sources = 1;  // reads-from per coherence order: each read, init or a write
  double choices() const { return interleaving_count(co) * sources; }
};

LocationSpace location_space(const Program& p, Loc l, bool prune) {
  const auto& writes = p.writes[l];
  LocationSpace space;
  for (std::size_t k = 0; k < writes.size(); ++k) {
    const int thread = p.refs[static_cast<std::size_t>(writes[k])].thread;
    const bool same = prune && !space.co.empty() &&
                      p.refs[static_cast<std::size_t>(writes[k - 1])].thread == thread;
    if (!same) space.co.emplace_back();
    space.co.back().push_back(static_cast<int>(k));  // writes are in program order per thread
  }
  for (std::size_t k = 0; k < p.reads[l].size(); ++k)
    space.sources *= static_cast<double>(writes.size() + 1);
  return space;
}

// The choices of location `l` that pass its filter (all of them without
// pruning), enumerated from `space` one at a time.
LocationChoices location_choices(const Program& p, MemoryModel m, Loc l, const LocationSpace& space,
                                 bool prune, const CandidateHooks& hooks) {
  const auto& writes = p.writes[l];
  const auto& reads = p.reads[l];
  const LocationFilter filter(p, m, l);
  LocationChoices out(writes.size(), reads.size());
  LocationChoice c;
  const auto total = static_cast<std::uint64_t>(space.choices());
  std::uint64_t done = 0;
  for_each_interleaving(space.co, [&](const std::vector<int>& co) {
    c.co = co;
    // Odometer over the reads' sources: -1 (init), then each write.
    c.rf.assign(reads.size(), -1);
    for (;;) {
      if (hooks.on_choices && ++done % 65536 == 0) hooks.on_choices(l, done, total);
      bool self = false;
      for (std::size_t k = 0; k < reads.size(); ++k)
        self |= c.rf[k] >= 0 && writes[static_cast<std::size_t>(c.rf[k])] == reads[k];
      if (!self && (!prune || filter.ok(c))) {
        // Every location has a choice (the program has an SC execution), so
        // one location's choices bound the candidates from below.
        if (out.size() == kMaxLitmusCandidates) throw too_many_candidates();
        out.push(c);
      }
      std::size_t k = 0;
      while (k < reads.size() && ++c.rf[k] == static_cast<int>(writes.size()))
        c.rf[k++] = -1;
      if (k == reads.size()) break;
    }
  });
  return out;
}

// Orders of the fence.sc events (ids into Program) that keep each thread's
// fences in program order, in lexicographic order of the ids. RC11 and SC
// need only one. Built as interleavings of the threads' fence sequences, not
// by filtering all k! permutations: a dozen fences in one thread have one
// order.
std::vector<std::vector<int>> sc_orders(const Program& p, MemoryModel m) {
  std::vector<int> fences;
  for (int id = 0; id < static_cast<int>(p.events.size()); ++id)
    if (p.events[static_cast<std::size_t>(id)].is_fence() &&
        p.events[static_cast<std::size_t>(id)].fence == Fence::Sc)
      fences.push_back(id);
  if (m != MemoryModel::Ptx) return {fences};
  std::vector<std::vector<int>> per_thread;  // each thread's fences in program order
  for (const int id : fences) {
    const Ref& r = p.refs[static_cast<std::size_t>(id)];
    if (static_cast<int>(per_thread.size()) <= r.thread)
      per_thread.resize(static_cast<std::size_t>(r.thread) + 1);
    per_thread[static_cast<std::size_t>(r.thread)].push_back(id);
  }
  for (auto& seq : per_thread)
    std::sort(seq.begin(), seq.end(), [&](int a, int b) {
      return p.refs[static_cast<std::size_t>(a)].index < p.refs[static_cast<std::size_t>(b)].index;
    });
  if (interleaving_count(per_thread) > static_cast<double>(kMaxLitmusCandidates))
    throw std::runtime_error("more than " + std::to_string(kMaxLitmusCandidates) +
                             " orders of the fence.sc events: make the test smaller");
  std::vector<std::vector<int>> out;
  for_each_interleaving(per_thread, [&](const std::vector<int>& order) { out.push_back(order); });
  return out;
}

// An order of adding the events to a graph: program order per thread, and
// the fence.sc events in `sc` order (ExecutionGraph's sc order is the order
// of addition).
std::vector<int> addition_order(const Program& p, const std::vector<int>& sc) {
  std::vector<std::vector<int>> per_thread;
  for (int id = 0; id < static_cast<int>(p.refs.size()); ++id) {
    const Ref& r = p.refs[static_cast<std::size_t>(id)];
    if (static_cast<int>(per_thread.size()) <= r.thread)
      per_thread.resize(static_cast<std::size_t>(r.thread) + 1);
    per_thread[static_cast<std::size_t>(r.thread)].push_back(id);
  }
  std::vector<std::size_t> next(per_thread.size(), 0);
  std::vector<int> order;
  std::size_t next_sc = 0;
  while (order.size() < p.refs.size()) {
    bool progressed = false;
    for (std::size_t t = 0; t < per_thread.size(); ++t) {
      while (next[t] < per_thread[t].size()) {
        const int id = per_thread[t][next[t]];
        const Event& e = p.events[static_cast<std::size_t>(id)];
        const bool sc_fence = e.is_fence() && e.fence == Fence::Sc;
        if (sc_fence && sc[next_sc] != id) break;
        if (sc_fence) ++next_sc;
        order.push_back(id);
        ++next[t];
        progressed = true;
      }
    }
    if (!progressed) throw std::logic_error("fence.sc order against program order");
  }
  return order;
}

}  // namespace

void for_each_candidate(const LitmusTest& test, MemoryModel model,
                        const std::function<void(const ExecutionGraph&)>& visit, bool prune,
                        const CandidateHooks& hooks) {
  const Program p = program_of(test);
  const int locations = test.locations();
  // Every location's choices are enumerated before its filter, so their sum
  // is bounded before any is. A location nobody reads keeps every coherence
  // order built (they agree with po-loc, and there is nothing else to
  // filter): its count is an exact factor of the candidates' and can refuse
  // a test at once.
  std::vector<LocationSpace> spaces;
  double all_choices = 0, unread_factor = 1;
  for (Loc l = 0; l < locations; ++l) {
    spaces.push_back(location_space(p, l, prune));
    all_choices += spaces.back().choices();
    if (prune && p.reads[l].empty()) unread_factor *= spaces.back().choices();
  }
  if (all_choices > static_cast<double>(kMaxLocationChoices))
    throw std::runtime_error("more than " + std::to_string(kMaxLocationChoices) +
                             " reads-from and coherence choices to filter: make the test smaller");
  if (unread_factor > static_cast<double>(kMaxLitmusCandidates)) throw too_many_candidates();
  std::vector<LocationChoices> choices;
  for (Loc l = 0; l < locations; ++l)
    choices.push_back(location_choices(p, model, l, spaces[l], prune, hooks));
  const auto orders = sc_orders(p, model);

  std::uint64_t total = orders.size();
  for (const auto& c : choices) {
    total = c.empty() ? 0 : total * c.size();
    if (total > kMaxLitmusCandidates) throw too_many_candidates();
  }
  if (hooks.on_total) hooks.on_total(total);
  if (total == 0) return;

  std::vector<ThreadInfo> threads;
  for (const auto& th : test.threads)
    threads.push_back({th.name, th.cta, 0});
  std::vector<Value> init;
  for (auto v : test.init)
    init.push_back(Value::integer(v));

  std::vector<std::size_t> pick(choices.size(), 0);
  for (const auto& sc : orders) {
    const std::vector<int> order = addition_order(p, sc);
    for (;;) {
      ExecutionGraph g(threads, locations, init);
      std::vector<int> gid(p.refs.size(), -1);  // program id -> graph id
      std::vector<int> pid;                     // graph id -> program id
      // rank[id]: position of write id in its location's chosen coherence order.
      std::vector<int> rank(p.refs.size(), -1);
      for (Loc l = 0; l < locations; ++l) {
        for (std::size_t k = 0; k < p.writes[l].size(); ++k)
          rank[static_cast<std::size_t>(
              p.writes[l][static_cast<std::size_t>(choices[l].co(pick[l], k))])] =
              static_cast<int>(k);
      }
      for (int id : order) {
        const Event& e = p.events[static_cast<std::size_t>(id)];
        int co_pos = -1;
        if (e.is_write()) {  // before the writes already there that follow it in co
          co_pos = 0;
          for (int w : g.co(e.loc))
            co_pos += rank[static_cast<std::size_t>(pid[static_cast<std::size_t>(w)])] <
                      rank[static_cast<std::size_t>(id)];
        }
        gid[static_cast<std::size_t>(id)] = g.add(e, co_pos);
        pid.push_back(id);
      }
      for (Loc l = 0; l < locations; ++l) {
        for (std::size_t k = 0; k < p.reads[l].size(); ++k) {
          const int src = choices[l].rf(pick[l], k);
          g.event(gid[static_cast<std::size_t>(p.reads[l][k])]).rf =
              src < 0 ? kInit
                      : gid[static_cast<std::size_t>(p.writes[l][static_cast<std::size_t>(src)])];
        }
      }
      visit(g);
      std::size_t l = 0;
      while (l < pick.size() && ++pick[l] == choices[l].size())
        pick[l++] = 0;
      if (l == pick.size()) break;
    }
  }
}

}  // namespace lookback::model
