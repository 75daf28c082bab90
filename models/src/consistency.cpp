#include "lookback/model/consistency.hpp"

#include <stdexcept>
#include <string>

namespace lookback::model {

const char* to_string(MemoryModel m) {
  switch (m) {
    case MemoryModel::Ptx:
      return "ptx";
    case MemoryModel::Rc11:
      return "rc11";
    case MemoryModel::Sc:
      return "sc";
  }
  return "?";
}

namespace {

bool same_loc(const Event& a, const Event& b) {
  return a.is_mem() && b.is_mem() && a.loc == b.loc;
}

bool fence_releases(const Event& e) {
  return e.is_fence() && (e.fence == Fence::AcqRel || e.fence == Fence::Sc);
}
bool fence_acquires(const Event& e) {
  return fence_releases(e);
}

}  // namespace

bool Derived::strong(int a, int b) const {
  const Event& x = g_.event(a);
  const Event& y = g_.event(b);
  if (m_ != MemoryModel::Ptx) return x.is_strong() && y.is_strong();
  if (x.thread == y.thread) return true;  // a thread's own events are always in scope
  if (!x.is_strong() || !y.is_strong()) return false;
  auto covers = [&](const Event& e, const Event& other) {
    return e.scope != Scope::Cta || g_.thread(e.thread).cta == g_.thread(other.thread).cta;
  };
  return covers(x, y) && covers(y, x);
}

Derived::Derived(const ExecutionGraph& g, MemoryModel m)
    : g_(g),
      m_(m),
      n_(g.size()),
      po_(n_),
      po_loc_(n_),
      rf_(n_),
      co_(n_),
      fr_(n_),
      order_(n_),
      ptx_cause_base_(0) {
  // Relations hold kMaxEvents-bit rows; a larger graph (the sampler's) would
  // overflow them.
  if (n_ > kMaxEvents)
    throw std::invalid_argument("the from-scratch axioms take at most " +
                                std::to_string(kMaxEvents) + " events, not " + std::to_string(n_));
  const auto& ev = g.events();
  for (int t = 0; t < g.threads(); ++t) {
    const auto& ids = g.thread_events(t);
    for (std::size_t i = 0; i < ids.size(); ++i)
      for (std::size_t j = i + 1; j < ids.size(); ++j) {
        if (ev[ids[i]].same_group(ev[ids[j]])) continue;  // concurrent lanes
        po_.add(ids[i], ids[j]);
        if (same_loc(ev[ids[i]], ev[ids[j]])) po_loc_.add(ids[i], ids[j]);
      }
  }
  for (Loc l = 0; l < g.locations(); ++l) {
    const auto& order = g.co(l);
    for (std::size_t i = 0; i < order.size(); ++i)
      for (std::size_t j = i + 1; j < order.size(); ++j)
        co_.add(order[i], order[j]);
  }
  for (int r = 0; r < n_; ++r) {
    const Event& e = ev[r];
    if (!e.is_read()) continue;
    if (e.rf != kInit) rf_.add(e.rf, r);
    const auto& order = g.co(e.loc);
    bool after = e.rf == kInit;
    for (int w : order) {
      if (after && w != r) fr_.add(r, w);
      if (w == e.rf) after = true;
    }
  }

  // Phase (launch) boundaries order everything before against everything after.
  Relation boundary(n_);
  bool phased = false;
  for (int t = 0; t < g.threads(); ++t)
    phased |= g.thread(t).phase != 0;
  if (phased) {
    std::vector<int> phase(static_cast<std::size_t>(n_));
    for (int a = 0; a < n_; ++a)
      phase[a] = g.thread(ev[a].thread).phase;
    for (int a = 0; a < n_; ++a)
      for (int b = 0; b < n_; ++b)
        if (phase[a] < phase[b]) boundary.add(a, b);
  }

  if (m_ == MemoryModel::Ptx) {
    // observation: strong reads-from, extended through RMW chains.
    Relation srf(n_);
    for (int w = 0; w < n_; ++w)
      rf_.row(w).for_each([&](int r) {
        if (strong(w, r)) srf.add(w, r);
      });
    const Relation obs = srf.plus();
    // Release prefix: a release write (then same-location writes after it), or
    // a release fence then any later write. Acquire suffix: mirror image.
    Relation prefix(n_), suffix(n_);
    for (int a = 0; a < n_; ++a) {
      const Event& x = ev[a];
      if (x.is_release()) {
        prefix.add(a, a);
        po_loc_.row(a).for_each([&](int b) {
          if (ev[b].is_write()) prefix.add(a, b);
        });
      }
      if (fence_releases(x))
        po_.row(a).for_each([&](int b) {
          if (ev[b].is_write()) prefix.add(a, b);
        });
      if (x.is_read()) {
        if (x.is_acquire()) suffix.add(a, a);
        po_.row(a).for_each([&](int b) {
          const Event& y = ev[b];
          if ((y.is_acquire() && same_loc(x, y)) || fence_acquires(y)) suffix.add(a, b);
        });
      }
    }
    const Relation pos = prefix.then(obs).then(suffix);
    Relation base = boundary;
    for (int a = 0; a < n_; ++a) {
      const bool releaser = ev[a].is_release() || fence_releases(ev[a]);
      if (!releaser) continue;
      pos.row(a).for_each([&](int b) {
        const bool acquirer = ev[b].is_acquire() || fence_acquires(ev[b]);
        if (acquirer && strong(a, b)) base.add(a, b);
      });
    }
    const auto& sc = g.sc_order();
    for (std::size_t i = 0; i < sc.size(); ++i)
      for (std::size_t j = i + 1; j < sc.size(); ++j)
        if (strong(sc[i], sc[j])) base.add(sc[i], sc[j]);
    const Relation po_star = po_.star();
    const Relation cause_base = po_star.then(base).then(po_star).plus();
    Relation extra = po_loc_;
    extra |= cause_base;
    order_ = cause_base;
    ptx_cause_base_ = cause_base;
    order_ |= obs.then(extra);
  } else {
    // RC11 happens-before: po | sw, with release sequences.
    Relation rmw_rf(n_);  // rf into an RMW
    for (int w = 0; w < n_; ++w)
      rf_.row(w).for_each([&](int r) {
        if (ev[r].kind == EventKind::Rmw) rmw_rf.add(w, r);
      });
    Relation rs0(n_);
    for (int a = 0; a < n_; ++a) {
      if (!ev[a].is_write()) continue;
      if (ev[a].is_strong()) rs0.add(a, a);
      po_loc_.row(a).for_each([&](int b) {
        if (ev[b].is_write() && ev[b].is_strong()) rs0.add(a, b);
      });
    }
    const Relation rs = rs0.then(rmw_rf.star());
    Relation sw(n_);
    for (int a = 0; a < n_; ++a) {
      Bits heads;  // writes starting a release sequence on behalf of a
      if (ev[a].is_release()) heads.set(a);
      if (fence_releases(ev[a]))
        po_.row(a).for_each([&](int w) {
          if (ev[w].is_write()) heads.set(w);
        });
      heads.for_each([&](int w) {
        rs.row(w).for_each([&](int w2) {
          rf_.row(w2).for_each([&](int r) {
            if (!ev[r].is_strong()) return;
            if (ev[r].is_acquire()) sw.add(a, r);
            po_.row(r).for_each([&](int f) {
              if (fence_acquires(ev[f])) sw.add(a, f);
            });
          });
        });
      });
    }
    Relation hb = po_;
    hb |= sw;
    hb |= boundary;
    order_ = hb.plus();
  }
}

Verdict Derived::check(bool thin_air) const {
  const auto& ev = g_.events();
  // Atomicity: an RMW reads the write immediately before it in coherence
  // order (among the writes it is morally strong with).
  for (int e = 0; e < n_; ++e) {
    if (ev[e].kind != EventKind::Rmw) continue;
    const auto& order = g_.co(ev[e].loc);
    bool between = ev[e].rf == kInit;
    for (int w : order) {
      if (w == e) break;
      if (between && strong(e, w)) return {false, "atomicity"};
      if (w == ev[e].rf) between = true;
    }
  }
  Relation com = rf_;
  com |= co_;
  com |= fr_;

  if (m_ == MemoryModel::Sc) {
    // order_ is RC11's hb here: po, launch boundaries (which a window read's
    // lanes, reading older writes, need) and sw, whose edges po | com hold.
    Relation all = order_;
    all |= com;
    if (!all.acyclic()) return {false, "sequential-consistency"};
    return {};
  }

  if (m_ == MemoryModel::Ptx) {
    Relation loc_sc = po_loc_;
    for (int a = 0; a < n_; ++a)
      com.row(a).for_each([&](int b) {
        if (strong(a, b)) loc_sc.add(a, b);
      });
    if (!loc_sc.acyclic()) return {false, "sc-per-location"};
    if (!order_.irreflexive()) return {false, "causality"};
    for (int a = 0; a < n_; ++a) {
      bool bad = false;
      // An RMW is one event here but two in ptx.als, a read then a write.
      // rf enters its read half, and cause leaves a read only through
      // cause_base (observation starts at writes), not observation.
      rf_.row(a).for_each([&](int b) {
        bad |= (ev[b].kind == EventKind::Rmw ? ptx_cause_base_ : order_).has(b, a);
      });
      fr_.row(a).for_each([&](int b) { bad |= order_.has(b, a); });
      if (bad) return {false, "causality"};
    }
    for (int a = 0; a < n_; ++a) {
      bool bad = false;
      co_.row(a).for_each([&](int b) { bad |= order_.has(b, a); });
      if (bad) return {false, "coherence"};
    }
    if (thin_air) {
      Relation rf_dep = rf_;
      for (int t = 0; t < g_.threads(); ++t) {
        const auto& ids = g_.thread_events(t);
        for (int id : ids)
          for (std::size_t k = 0; k < ids.size() && k < 64; ++k)
            if ((ev[id].deps >> k) & 1ull) rf_dep.add(ids[k], id);
      }
      if (!rf_dep.acyclic()) return {false, "no-thin-air"};
    }
    return {};
  }

  // RC11.
  const Relation eco = com.plus();
  // An RMW is one event here but two in RC11, a read then a write, with
  // po (so hb) between them: irreflexive(hb ; eco?) then forbids eco from the
  // write back to the read (reading from a co-later write), and atomicity
  // forbids rb ; mo from the read to the write. Both are an eco cycle on the
  // one event (whatever the accesses' modes, unlike the check above).
  if (!eco.irreflexive()) return {false, "atomicity"};
  if (!order_.irreflexive()) return {false, "coherence"};
  for (int a = 0; a < n_; ++a) {
    bool bad = false;
    order_.row(a).for_each([&](int b) { bad |= eco.has(b, a); });
    if (bad) return {false, "coherence"};
  }
  // SC fences: acyclic(psc) with psc = [Fsc];hb?;scb;hb?;[Fsc] | [Fsc];(hb | hb;eco;hb);[Fsc].
  const auto& fsc = g_.sc_order();
  if (fsc.size() > 1) {
    Relation hb_opt = order_;
    for (int i = 0; i < n_; ++i)
      hb_opt.add(i, i);
    Relation po_nloc(n_);
    for (int a = 0; a < n_; ++a)
      po_.row(a).for_each([&](int b) {
        if (!po_loc_.has(a, b)) po_nloc.add(a, b);
      });
    Relation scb = po_;
    scb |= po_nloc.then(order_).then(po_nloc);
    for (int a = 0; a < n_; ++a)
      order_.row(a).for_each([&](int b) {
        if (same_loc(ev[a], ev[b])) scb.add(a, b);
      });
    scb |= co_;
    scb |= fr_;
    const Relation base = hb_opt.then(scb).then(hb_opt);
    Relation viaeco = order_;
    viaeco |= order_.then(eco).then(order_);
    Relation psc(n_);
    for (int a : fsc)
      for (int b : fsc)
        if (base.has(a, b) || viaeco.has(a, b)) psc.add(a, b);
    if (!psc.acyclic()) return {false, "sc-fences"};
  }
  if (thin_air) {
    Relation porf = po_;
    porf |= rf_;
    if (!porf.acyclic()) return {false, "no-thin-air"};
  }
  return {};
}

std::optional<std::pair<int, int>> Derived::race(int e) const {
  const auto& ev = g_.events();
  auto conflicting = [&](int a, int b) {
    const Event& x = ev[a];
    const Event& y = ev[b];
    return x.thread != y.thread && same_loc(x, y) && (x.is_write() || y.is_write());
  };
  auto check = [&](int a, int b) { return conflicting(a, b) && !strong(a, b) && !ordered(a, b); };
  if (e >= 0) {
    for (int b = 0; b < n_; ++b)
      if (b != e && check(b, e)) return std::make_pair(std::min(b, e), std::max(b, e));
    return std::nullopt;
  }
  for (int a = 0; a < n_; ++a)
    for (int b = a + 1; b < n_; ++b)
      if (check(a, b)) return std::make_pair(a, b);
  return std::nullopt;
}

}  // namespace lookback::model
