#include "lookback/model/incremental_ptx.hpp"

namespace lookback::model {

namespace {
bool releasing_fence(const Event& e) {
  return e.is_fence() && (e.fence == Fence::AcqRel || e.fence == Fence::Sc);
}
bool acquiring_fence(const Event& e) {
  return releasing_fence(e);
}
}  // namespace

bool morally_strong(const ExecutionGraph& g, int a, int b) {
  const Event& x = g.event(a);
  const Event& y = g.event(b);
  if (x.thread == y.thread) return true;
  if (!x.is_strong() || !y.is_strong()) return false;
  auto covers = [&](const Event& e, const Event& other) {
    return e.scope != Scope::Cta || g.thread(e.thread).cta == g.thread(other.thread).cta;
  };
  return covers(x, y) && covers(y, x);
}

template <int MaxEvents>
const char* BasicIncrementalPtx<MaxEvents>::append(const ExecutionGraph& g) {
  const int e = g.size() - 1;
  s_.resize(static_cast<std::size_t>(e) + 1);
  const Event& x = g.event(e);
  const auto& mine = g.thread_events(x.thread);
  const int older = static_cast<int>(mine.size()) - 1;  // mine[older] == e
  Sets& S = s_[e];
  S = Sets{};

  // Release prefix ending at e (e a write): e itself if it releases, an
  // earlier release write to the same location, or an earlier release fence.
  if (x.is_write()) {
    if (x.is_release()) S.prefix.set(e);
    for (int k = 0; k < older; ++k) {
      const Event& y = g.event(mine[k]);
      if ((y.is_release() && y.loc == x.loc) || releasing_fence(y)) S.prefix.set(mine[k]);
    }
  }
  // Observation: strong reads-from, extended through the RMW read from.
  if (x.is_read() && x.rf != kInit && morally_strong(g, x.rf, e)) {
    S.obs = s_[x.rf].obs;
    S.obs.set(x.rf);
  }

  // Base causality edges into e: synchronisation, fence-SC order, launches.
  Bits base;
  const bool acquirer = x.is_acquire() || acquiring_fence(x);
  if (acquirer) {
    Bits heads;
    auto from_read = [&](int r) { s_[r].obs.for_each([&](int w) { heads |= s_[w].prefix; }); };
    if (x.is_acquire()) from_read(e);
    for (int k = 0; k < older; ++k) {
      const Event& y = g.event(mine[k]);
      if (!y.is_read() || y.same_group(x)) continue;
      if (acquiring_fence(x) || (x.is_acquire() && y.loc == x.loc)) from_read(mine[k]);
    }
    heads.for_each([&](int h) {
      if (morally_strong(g, h, e)) base.set(h);
    });
  }
  if (x.is_fence() && x.fence == Fence::Sc)
    for (int f : g.sc_order())
      if (f != e && morally_strong(g, f, e)) base.set(f);
  // Launches: every event of an earlier launch precedes e. So does all that
  // precedes those (only events of earlier launches), so they join
  // cause_base as one set, not one base edge each.
  const int phase = g.thread(x.thread).phase;
  Bits earlier;
  if (phase > 0)
    for (int a = 0; a < e; ++a)
      if (g.thread(g.event(a).thread).phase < phase) earlier.set(a);

  // cause_base = (po*; base; po*)+, predecessors of e: those of e's
  // immediate program-order predecessors, the thread's last event before e
  // or, if that is a lane of a window read, every lane of its group (e's own
  // groupmates do not precede it: Event::group).
  int pred = older - 1;
  while (pred >= 0 && g.event(mine[pred]).same_group(x))
    --pred;
  for (int k = pred; k >= 0; --k) {
    S.cbase |= s_[mine[k]].cbase;
    if (k == 0 || !g.event(mine[k - 1]).same_group(g.event(mine[k]))) break;
  }
  S.cbase |= earlier;
  base.for_each([&](int b) {
    S.cbase.set(b);
    S.cbase |= s_[b].cbase;
    const Event& y = g.event(b);
    for (int id : g.thread_events(y.thread)) {
      if (id == b) break;
      S.cbase.set(id);
    }
  });
  // cause = cause_base | obs; (po_loc | cause_base)
  S.cause = S.cbase;
  Bits via = S.cbase;
  if (x.is_mem())
    for (int k = 0; k < older; ++k) {
      const Event& y = g.event(mine[k]);
      if (y.is_mem() && y.loc == x.loc && !y.same_group(x)) via.set(mine[k]);
    }
  // A read z observes its source w (if strong) and what w observes, so the
  // union over `via` is that over the distinct sources: one set union per
  // source rather than per read. What an event of an earlier launch
  // observes is in `earlier` already.
  Bits sources;
  via.for_each([&](int z) {
    const Event& y = g.event(z);
    if (y.is_read() && y.rf != kInit && !earlier.test(z) && morally_strong(g, y.rf, z))
      sources.set(y.rf);
  });
  sources.for_each([&](int w) {
    S.cause.set(w);
    if (g.event(w).is_read()) S.cause |= s_[w].obs;
  });

  if (!x.is_mem()) {
    if (undoable_) marks_.push_back(changes_.size());
    return nullptr;
  }
  const auto& co = g.co(x.loc);
  const int len = static_cast<int>(co.size());
  auto position = [&](int w) {
    for (int i = 0; i < len; ++i)
      if (co[i] == w) return i;
    return -1;
  };
  const int src_pos = x.is_read() ? (x.rf == kInit ? -1 : position(x.rf)) : -2;
  const int my_pos = x.is_write() ? position(e) : -2;

  // Causality: a write e reads-before (from-reads) must not precede e.
  if (x.is_read())
    for (int i = src_pos + 1; i < len; ++i)
      if (co[i] != e && S.cause.test(co[i])) return "causality";
  // Coherence: writes preceding e in causality precede it in coherence.
  if (x.is_write()) {
    bool bad = false;
    S.cause.for_each([&](int a) {
      const Event& y = g.event(a);
      if (y.is_write() && y.loc == x.loc && position(a) > my_pos) bad = true;
    });
    if (bad) return "coherence";
  }
  // Atomicity: every RMW on this location still reads its immediate
  // coherence predecessor (among the writes it is morally strong with).
  if (x.is_write()) {
    for (int i = 0; i < len; ++i) {
      const Event& r = g.event(co[i]);
      if (r.kind != EventKind::Rmw) continue;
      const int from = r.rf == kInit ? -1 : position(r.rf);
      for (int k = from + 1; k < i; ++k)
        if (morally_strong(g, co[k], co[i])) return "atomicity";
    }
  }

  // SC per location: acyclic(strong(rf | co | fr) | po-loc) via reachability.
  Bits in, out;
  for (int k = 0; k < older; ++k) {
    const Event& y = g.event(mine[k]);
    if (y.is_mem() && y.loc == x.loc && !y.same_group(x)) in.set(mine[k]);
  }
  if (x.is_read()) {
    if (x.rf != kInit && morally_strong(g, x.rf, e)) in.set(x.rf);
    for (int i = src_pos + 1; i < len; ++i)
      if (co[i] != e && morally_strong(g, e, co[i])) out.set(co[i]);
  }
  if (x.is_write()) {
    for (int i = 0; i < len; ++i) {
      if (co[i] == e || !morally_strong(g, e, co[i])) continue;
      if (i < my_pos)
        in.set(co[i]);
      else
        out.set(co[i]);
    }
    for (int r = 0; r < e; ++r) {  // older reads whose source precedes e
      const Event& y = g.event(r);
      if (!y.is_read() || y.loc != x.loc || !morally_strong(g, r, e)) continue;
      const int from = y.rf == kInit ? -1 : position(y.rf);
      if (from < my_pos) in.set(r);
    }
  }
  bool cycle = false;
  out.for_each([&](int o) { cycle |= in.test(o) || s_[o].reach.intersects(in); });
  if (cycle) return "sc-per-location";
  if (undoable_) marks_.push_back(changes_.size());
  out.for_each([&](int o) {
    S.reach.set(o);
    S.reach |= s_[o].reach;
  });
  // Older events that reach `in` now reach e. Every edge here joins two
  // accesses to one location, so only those to x's location can.
  for (int a = 0; a < e; ++a) {
    const Event& y = g.event(a);
    if (!y.is_mem() || y.loc != x.loc) continue;
    if (in.test(a) || s_[a].reach.intersects(in)) {
      if (undoable_) changes_.push_back({a, s_[a].reach});
      s_[a].reach.set(e);
      s_[a].reach |= S.reach;
    }
  }
  return nullptr;
}

template <int MaxEvents>
void BasicIncrementalPtx<MaxEvents>::undo_last() {
  const std::size_t mark = marks_.back();
  marks_.pop_back();
  for (; changes_.size() > mark; changes_.pop_back())
    s_[changes_.back().event].reach = changes_.back().reach;
  s_.pop_back();
}

template <int MaxEvents>
std::optional<std::pair<int, int>> BasicIncrementalPtx<MaxEvents>::race(
    const ExecutionGraph& g) const {
  const int e = g.size() - 1;
  const Event& x = g.event(e);
  if (!x.is_mem()) return std::nullopt;
  for (int a = 0; a < e; ++a) {
    const Event& y = g.event(a);
    if (!y.is_mem() || y.thread == x.thread || y.loc != x.loc) continue;
    if (!x.is_write() && !y.is_write()) continue;
    if (morally_strong(g, a, e) || s_[e].cause.test(a)) continue;
    return std::make_pair(a, e);
  }
  return std::nullopt;
}

template class BasicIncrementalPtx<kMaxEvents>;
template class BasicIncrementalPtx<kMaxSampledEvents>;

}  // namespace lookback::model
