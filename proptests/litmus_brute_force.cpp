#include "litmus_brute_force.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace lookback::model {

namespace {

// ---- relations as boolean matrices ----------------------------------------

using Set = std::vector<bool>;
using Matrix = std::vector<std::vector<bool>>;

Matrix none(int n) {
  return Matrix(static_cast<std::size_t>(n), Set(static_cast<std::size_t>(n)));
}
int size(const Matrix& a) {
  return static_cast<int>(a.size());
}
bool has(const Matrix& a, int i, int j) {
  return a[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
}
void put(Matrix& a, int i, int j) {
  a[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = true;
}

Matrix operator|(const Matrix& a, const Matrix& b) {
  Matrix r = a;
  for (int i = 0; i < size(a); ++i)
    for (int j = 0; j < size(a); ++j)
      if (has(b, i, j)) put(r, i, j);
  return r;
}
Matrix operator&(const Matrix& a, const Matrix& b) {
  Matrix r = none(size(a));
  for (int i = 0; i < size(a); ++i)
    for (int j = 0; j < size(a); ++j)
      if (has(a, i, j) && has(b, i, j)) put(r, i, j);
  return r;
}
Matrix minus(const Matrix& a, const Matrix& b) {
  Matrix r = none(size(a));
  for (int i = 0; i < size(a); ++i)
    for (int j = 0; j < size(a); ++j)
      if (has(a, i, j) && !has(b, i, j)) put(r, i, j);
  return r;
}
// a ; b
Matrix seq(const Matrix& a, const Matrix& b) {
  Matrix r = none(size(a));
  for (int i = 0; i < size(a); ++i)
    for (int k = 0; k < size(a); ++k)
      if (has(a, i, k))
        for (int j = 0; j < size(a); ++j)
          if (has(b, k, j)) put(r, i, j);
  return r;
}
Matrix identity(int n) {
  Matrix r = none(n);
  for (int i = 0; i < n; ++i)
    put(r, i, i);
  return r;
}
Matrix optional(const Matrix& a) {
  return a | identity(size(a));
}
Matrix inverse(const Matrix& a) {
  Matrix r = none(size(a));
  for (int i = 0; i < size(a); ++i)
    for (int j = 0; j < size(a); ++j)
      if (has(a, i, j)) put(r, j, i);
  return r;
}
// ^a: a, a;a, a;a;a, ... until nothing new.
Matrix plus(const Matrix& a) {
  Matrix r = a;
  for (;;) {
    const Matrix next = r | seq(r, a);
    if (next == r) return r;
    r = next;
  }
}
Matrix star(const Matrix& a) {
  return optional(plus(a));
}
// [d] ; a ; [e]
Matrix between(const Set& d, const Matrix& a, const Set& e) {
  Matrix r = none(size(a));
  for (int i = 0; i < size(a); ++i)
    for (int j = 0; j < size(a); ++j)
      if (d[static_cast<std::size_t>(i)] && e[static_cast<std::size_t>(j)] && has(a, i, j))
        put(r, i, j);
  return r;
}
// [d]
Matrix only(const Set& d) {
  return between(d, identity(static_cast<int>(d.size())), d);
}
bool irreflexive(const Matrix& a) {
  for (int i = 0; i < size(a); ++i)
    if (has(a, i, i)) return false;
  return true;
}
bool acyclic(const Matrix& a) {
  return irreflexive(plus(a));
}
bool is_empty(const Matrix& a) {
  return a == none(size(a));
}
bool included(const Matrix& a, const Matrix& b) {
  return is_empty(minus(a, b));
}
Set set_union(const Set& a, const Set& b) {
  Set r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    r[i] = a[i] || b[i];
  return r;
}

// ---- the program's events ---------------------------------------------------

// One event. An RMW instruction gives two: its read, then its write.
struct Ev {
  char kind = 'R';  // 'R', 'W', 'F'
  int thread = 0, instr = 0, cta = 0;
  Loc loc = 0;
  bool weak = false;     // a plain access: its scope is its own thread
  bool acquire = false;  // read with acquire semantics
  bool release = false;  // write with release semantics
  Fence fence = Fence::None;
  Scope scope = Scope::Gpu;
};

struct Events {
  std::vector<Ev> ev;
  Matrix po, po_imm, rmw, dep, same_loc;
  int n = 0;
};

Events events_of(const LitmusTest& t) {
  Events e;
  for (int th = 0; th < static_cast<int>(t.threads.size()); ++th) {
    const auto& thread = t.threads[static_cast<std::size_t>(th)];
    for (int i = 0; i < static_cast<int>(thread.code.size()); ++i) {
      const Instruction& in = thread.code[static_cast<std::size_t>(i)];
      Ev x;
      x.thread = th;
      x.instr = i;
      x.cta = thread.cta;
      x.loc = in.loc;
      x.scope = in.scope;
      x.weak = in.op != LitmusOp::Fence && in.order == Order::Weak;
      const bool acq = in.order == Order::Acquire || in.order == Order::AcqRel;
      const bool rel = in.order == Order::Release || in.order == Order::AcqRel;
      switch (in.op) {
        case LitmusOp::Load:
          x.kind = 'R';
          x.acquire = acq;
          e.ev.push_back(x);
          break;
        case LitmusOp::Store:
          x.kind = 'W';
          x.release = rel;
          e.ev.push_back(x);
          break;
        case LitmusOp::Rmw: {
          Ev r = x, w = x;
          r.kind = 'R';
          r.acquire = acq;
          w.kind = 'W';
          w.release = rel;
          e.ev.push_back(r);
          e.ev.push_back(w);
          break;
        }
        case LitmusOp::Fence:
          x.kind = 'F';
          x.fence = in.fence;
          e.ev.push_back(x);
          break;
      }
    }
  }
  e.n = static_cast<int>(e.ev.size());
  e.po = none(e.n);
  e.po_imm = none(e.n);
  e.rmw = none(e.n);
  e.dep = none(e.n);
  e.same_loc = none(e.n);
  for (int a = 0; a < e.n; ++a)
    for (int b = 0; b < e.n; ++b) {
      const Ev& x = e.ev[static_cast<std::size_t>(a)];
      const Ev& y = e.ev[static_cast<std::size_t>(b)];
      if (x.thread == y.thread && a < b) put(e.po, a, b);
      if (x.thread == y.thread && b == a + 1) put(e.po_imm, a, b);
      if (x.thread == y.thread && x.instr == y.instr && x.kind == 'R' && y.kind == 'W') {
        put(e.rmw, a, b);
        put(e.dep, a, b);  // ptx.als: rmw in dep
      }
      // Instruction.deps: bit k = depends on the value read by instruction k.
      const auto& deps = t.threads[static_cast<std::size_t>(y.thread)]
                             .code[static_cast<std::size_t>(y.instr)]
                             .deps;
      if (x.thread == y.thread && x.kind == 'R' && ((deps >> x.instr) & 1ull)) put(e.dep, a, b);
      if (x.kind != 'F' && y.kind != 'F' && x.loc == y.loc) put(e.same_loc, a, b);
    }
  return e;
}

// One candidate: the write each read reads from, and the orders.
struct Candidate {
  std::vector<int> rf_src;   // per event: source write, or -1 (init); reads only
  std::vector<int> co_rank;  // per write: position in its location's coherence order
  std::vector<int> sc_rank;  // per fence.sc: position in the fence-SC order
};

// ---- the relations of one candidate, as in the papers -----------------------

struct Rel {
  Matrix rf, co, fr, com, po_loc;
  Set reads, writes, fences;
};

Rel base_relations(const Events& e, const Candidate& c) {
  Rel r;
  const int n = e.n;
  r.rf = none(n);
  r.co = none(n);
  r.fr = none(n);
  r.reads = r.writes = r.fences = Set(static_cast<std::size_t>(n));
  for (int a = 0; a < n; ++a) {
    const char k = e.ev[static_cast<std::size_t>(a)].kind;
    r.reads[static_cast<std::size_t>(a)] = k == 'R';
    r.writes[static_cast<std::size_t>(a)] = k == 'W';
    r.fences[static_cast<std::size_t>(a)] = k == 'F';
  }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (!has(e.same_loc, a, b)) continue;
      if (r.writes[static_cast<std::size_t>(a)] && r.writes[static_cast<std::size_t>(b)] &&
          c.co_rank[static_cast<std::size_t>(a)] < c.co_rank[static_cast<std::size_t>(b)])
        put(r.co, a, b);
      if (r.reads[static_cast<std::size_t>(b)] && c.rf_src[static_cast<std::size_t>(b)] == a)
        put(r.rf, a, b);
    }
  // fr = ~rf.^co, plus a read of the initial value before every write to its location.
  r.fr = seq(inverse(r.rf), plus(r.co));
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (r.reads[static_cast<std::size_t>(a)] && c.rf_src[static_cast<std::size_t>(a)] < 0 &&
          r.writes[static_cast<std::size_t>(b)] && has(e.same_loc, a, b))
        put(r.fr, a, b);
  r.com = r.rf | plus(r.co) | r.fr;
  r.po_loc = e.po & e.same_loc;
  return r;
}

// ---- PTX (ptx.als) ----------------------------------------------------------

bool ptx_consistent(const Events& e, const Candidate& c) {
  const int n = e.n;
  const Rel r = base_relations(e, c);
  // strong_r = symmetric[scope.*subscope.start.*po]: each event's scope
  // includes the other's thread. A weak access's scope is its own thread.
  auto inside = [&](const Ev& x, const Ev& y) {
    if (x.weak) return x.thread == y.thread;
    if (x.scope == Scope::Cta) return x.cta == y.cta;
    return true;  // .gpu and .sys: the whole (single) GPU
  };
  Matrix strong_r = none(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (inside(e.ev[static_cast<std::size_t>(a)], e.ev[static_cast<std::size_t>(b)]) &&
          inside(e.ev[static_cast<std::size_t>(b)], e.ev[static_cast<std::size_t>(a)]))
        put(strong_r, a, b);
  auto strong = [&](const Matrix& m) { return m & strong_r; };

  // pred no_thin_air { acyclic[rf + dep] }
  if (!acyclic(r.rf | e.dep)) return false;
  // pred location_sc { acyclic[strong[com] + po_loc] }
  if (!acyclic(strong(r.com) | r.po_loc)) return false;
  // pred atomicity { no strong[fr].(strong[co]) & rmw }
  if (!is_empty(seq(strong(r.fr), strong(r.co)) & e.rmw)) return false;

  // observation: the least relation with strong[rf] in it and closed under
  // observation.rmw.observation (facts obs_in_rf_rmw, rf_obs, rmw_obs). The
  // axioms only get harder as observation grows, so the least one decides.
  Matrix obs = strong(r.rf);
  for (;;) {
    const Matrix next = obs | seq(seq(obs, e.rmw), obs);
    if (next == obs) break;
    obs = next;
  }
  Set release(static_cast<std::size_t>(n)), acquire(release), fence_rels(release),
      fence_acqs(release);
  for (int a = 0; a < n; ++a) {
    const Ev& x = e.ev[static_cast<std::size_t>(a)];
    release[static_cast<std::size_t>(a)] = x.kind == 'W' && x.release;
    acquire[static_cast<std::size_t>(a)] = x.kind == 'R' && x.acquire;
    // FenceSC extends FenceAcqRel; both release and acquire.
    fence_rels[static_cast<std::size_t>(a)] = x.kind == 'F';
    fence_acqs[static_cast<std::size_t>(a)] = x.kind == 'F';
  }
  // prefix = (Release <: optional[po_loc] :> Write) + (FenceRels <: ^po :> Write)
  const Matrix prefix =
      between(release, optional(r.po_loc), r.writes) | between(fence_rels, e.po, r.writes);
  // suffix = (Read <: optional[po_loc] :> Acquire) + (Read <: ^po :> FenceAcqs)
  const Matrix suffix =
      between(r.reads, optional(r.po_loc), acquire) | between(r.reads, e.po, fence_acqs);
  // Releasers = Release + FenceRels + FenceRels.po.rmw; Acquirers = Acquire + FenceAcqs
  Set releasers = set_union(release, fence_rels);
  const Matrix after_fence_rmw = seq(seq(only(fence_rels), e.po_imm), e.rmw);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (has(after_fence_rmw, a, b)) releasers[static_cast<std::size_t>(b)] = true;
  const Set acquirers = set_union(acquire, fence_acqs);
  // sync = Releasers <: strong[prefix.^observation.suffix] :> Acquirers
  const Matrix sync = between(releasers, strong(seq(seq(prefix, plus(obs)), suffix)), acquirers);
  // sc: the chosen order of fence.sc events, between morally strong pairs.
  Matrix sc = none(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (c.sc_rank[static_cast<std::size_t>(a)] >= 0 &&
          c.sc_rank[static_cast<std::size_t>(b)] >= 0 &&
          c.sc_rank[static_cast<std::size_t>(a)] < c.sc_rank[static_cast<std::size_t>(b)] &&
          has(strong_r, a, b))
        put(sc, a, b);
  // cause_base = ^(*po.(synchronizes + sc + sync).*po)   (no barriers here)
  const Matrix cause_base = plus(seq(seq(star(e.po), sc | sync), star(e.po)));
  // cause = cause_base + (observation.(po_loc + cause_base))
  const Matrix cause = cause_base | seq(obs, r.po_loc | cause_base);

  // pred coherence { location[Write <: cause :> Write] in ^co }
  if (!included(between(r.writes, cause, r.writes) & e.same_loc, plus(r.co))) return false;
  // pred causality { irreflexive[optional[fr + rf].cause] }
  if (!irreflexive(seq(optional(r.fr | r.rf), cause))) return false;
  return true;
}

// ---- RC11 (Lahav et al., PLDI 2017) -----------------------------------------

bool rc11_consistent(const Events& e, const Candidate& c) {
  const int n = e.n;
  const Rel r = base_relations(e, c);
  const Matrix& mo = r.co;
  const Matrix& rb = r.fr;
  Matrix ext = none(n);  // different threads
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (e.ev[static_cast<std::size_t>(a)].thread != e.ev[static_cast<std::size_t>(b)].thread)
        put(ext, a, b);

  // (No-thin-air) acyclic(po | rf)
  if (!acyclic(e.po | r.rf)) return false;
  // (Atomicity) rmw & (rb_e ; mo_e) = empty
  if (!is_empty(e.rmw & seq(rb & ext, mo & ext))) return false;

  Set rel(static_cast<std::size_t>(n)), acq(rel), rlx_w(rel), rlx_r(rel), f_sc(rel);
  for (int a = 0; a < n; ++a) {
    const Ev& x = e.ev[static_cast<std::size_t>(a)];
    const bool fence = x.kind == 'F';
    rel[static_cast<std::size_t>(a)] = fence || (x.kind == 'W' && x.release);  // E >= rel
    acq[static_cast<std::size_t>(a)] = fence || (x.kind == 'R' && x.acquire);  // E >= acq
    rlx_w[static_cast<std::size_t>(a)] = x.kind == 'W' && !x.weak;             // W >= rlx
    rlx_r[static_cast<std::size_t>(a)] = x.kind == 'R' && !x.weak;             // R >= rlx
    f_sc[static_cast<std::size_t>(a)] = fence && x.fence == Fence::Sc;
  }
  // rs = [W] ; po|loc? ; [W >= rlx] ; (rf ; rmw)*
  const Matrix rs =
      seq(seq(seq(only(r.writes), optional(r.po_loc)), only(rlx_w)), star(seq(r.rf, e.rmw)));
  // sw = [E >= rel] ; ([F] ; po)? ; rs ; rf ; [R >= rlx] ; (po ; [F])? ; [E >= acq]
  const Matrix sw = seq(
      seq(seq(seq(seq(seq(only(rel), optional(seq(only(r.fences), e.po))), rs), r.rf), only(rlx_r)),
          optional(seq(e.po, only(r.fences)))),
      only(acq));
  const Matrix hb = plus(e.po | sw);
  const Matrix eco = plus(r.rf | mo | rb);
  // (Coherence) irreflexive(hb ; eco?)
  if (!irreflexive(seq(hb, optional(eco)))) return false;
  // (SC) acyclic(psc_base | psc_F), with SC fences only (no SC accesses):
  //   scb = po | po|!=loc ; hb ; po|!=loc | hb|loc | mo | rb
  //   psc_base = [Fsc] ; hb? ; scb ; hb? ; [Fsc]
  //   psc_F = [Fsc] ; (hb | hb ; eco ; hb) ; [Fsc]
  const Matrix po_nloc = minus(e.po, r.po_loc);
  const Matrix scb = e.po | seq(seq(po_nloc, hb), po_nloc) | (hb & e.same_loc) | mo | rb;
  const Matrix psc_base = between(f_sc, seq(seq(optional(hb), scb), optional(hb)), f_sc);
  const Matrix psc_f = between(f_sc, hb | seq(seq(hb, eco), hb), f_sc);
  return acyclic(psc_base | psc_f);
}

// ---- SC ---------------------------------------------------------------------

bool sc_consistent(const Events& e, const Candidate& c) {
  const Rel r = base_relations(e, c);
  if (!is_empty(e.rmw & seq(r.fr, r.co))) return false;  // nothing between an RMW's halves
  return acyclic(e.po | r.rf | r.co | r.fr);
}

// ---- values and outcomes ----------------------------------------------------

Outcome outcome_of(const LitmusTest& t, const Events& e, const Candidate& c) {
  const int n = e.n;
  // Index of the read and the write event of each (thread, instruction).
  auto event_of = [&](int thread, int instr, char kind) {
    for (int a = 0; a < n; ++a) {
      const Ev& x = e.ev[static_cast<std::size_t>(a)];
      if (x.thread == thread && x.instr == instr && x.kind == kind) return a;
    }
    return -1;
  };
  std::vector<std::int32_t> value(static_cast<std::size_t>(n), 0);
  // Values flow along rf and register operands, an acyclic graph in every
  // consistent execution: n rounds of recomputing everything reach the fixpoint.
  for (int round = 0; round <= n; ++round)
    for (int a = 0; a < n; ++a) {
      const Ev& x = e.ev[static_cast<std::size_t>(a)];
      const Instruction& in =
          t.threads[static_cast<std::size_t>(x.thread)].code[static_cast<std::size_t>(x.instr)];
      auto operand = [&](const Operand& o) {
        return o.is_reg ? value[static_cast<std::size_t>(event_of(x.thread, o.def, 'R'))] : o.imm;
      };
      std::int32_t& v = value[static_cast<std::size_t>(a)];
      if (x.kind == 'R') {
        const int src = c.rf_src[static_cast<std::size_t>(a)];
        v = src < 0 ? t.init[x.loc] : value[static_cast<std::size_t>(src)];
      } else if (x.kind == 'W' && in.op == LitmusOp::Store) {
        v = operand(in.value);
      } else if (x.kind == 'W') {  // an RMW's write: from its read's value
        const std::int32_t old = value[static_cast<std::size_t>(a - 1)];
        const std::int32_t arg = operand(in.value);
        if (in.rmw == RmwOp::Add)
          v = static_cast<std::int32_t>(static_cast<std::uint32_t>(old) +
                                        static_cast<std::uint32_t>(arg));
        else if (in.rmw == RmwOp::Exch)
          v = arg;
        else
          v = old == operand(in.compare) ? arg : old;
      }
    }
  Outcome o;
  for (int th = 0; th < static_cast<int>(t.threads.size()); ++th) {
    const auto& thread = t.threads[static_cast<std::size_t>(th)];
    std::vector<std::int32_t> regs(thread.regs.size(), 0);
    for (int i = 0; i < static_cast<int>(thread.code.size()); ++i)
      if (thread.code[static_cast<std::size_t>(i)].dest >= 0)
        regs[static_cast<std::size_t>(thread.code[static_cast<std::size_t>(i)].dest)] =
            value[static_cast<std::size_t>(event_of(th, i, 'R'))];
    o.regs.push_back(regs);
  }
  for (Loc l = 0; l < t.locations(); ++l) {
    std::int32_t last = t.init[l];
    int best = -1;
    for (int a = 0; a < n; ++a) {
      const Ev& x = e.ev[static_cast<std::size_t>(a)];
      if (x.kind == 'W' && x.loc == l && c.co_rank[static_cast<std::size_t>(a)] > best) {
        best = c.co_rank[static_cast<std::size_t>(a)];
        last = value[static_cast<std::size_t>(a)];
      }
    }
    o.mem.push_back(last);
  }
  return o;
}

// ---- enumeration ------------------------------------------------------------

std::vector<int> of_kind(const Events& e, char kind, int loc) {
  std::vector<int> v;
  for (int a = 0; a < e.n; ++a) {
    const Ev& x = e.ev[static_cast<std::size_t>(a)];
    if (x.kind == kind && (loc < 0 || x.loc == loc) && (kind != 'F' || x.fence == Fence::Sc))
      v.push_back(a);
  }
  return v;
}

double factorial(std::size_t k) {
  return k < 2 ? 1.0 : static_cast<double>(k) * factorial(k - 1);
}

}  // namespace

double brute_force_candidates(const LitmusTest& test, MemoryModel model) {
  const Events e = events_of(test);
  double count = model == MemoryModel::Ptx ? factorial(of_kind(e, 'F', -1).size()) : 1.0;
  for (Loc l = 0; l < test.locations(); ++l) {
    const auto writes = of_kind(e, 'W', l).size();
    count *= factorial(writes);
    for (std::size_t k = 0; k < of_kind(e, 'R', l).size(); ++k)
      count *= static_cast<double>(writes + 1);
  }
  return count;
}

std::set<Outcome> brute_force_outcomes(const LitmusTest& test, MemoryModel model) {
  const Events e = events_of(test);
  const std::vector<int> reads = of_kind(e, 'R', -1);
  std::vector<std::vector<int>> writes;  // per location
  for (Loc l = 0; l < test.locations(); ++l)
    writes.push_back(of_kind(e, 'W', l));
  // RC11 and SC do not have a fence-SC order: one arbitrary order will do.
  std::vector<int> sc_fences = of_kind(e, 'F', -1);

  std::set<Outcome> outcomes;
  Candidate c;
  c.rf_src.assign(static_cast<std::size_t>(e.n), -1);
  c.co_rank.assign(static_cast<std::size_t>(e.n), -1);
  c.sc_rank.assign(static_cast<std::size_t>(e.n), -1);
  // Every sc order x every coherence order of every location x every rf choice.
  do {
    for (std::size_t k = 0; k < sc_fences.size(); ++k)
      c.sc_rank[static_cast<std::size_t>(sc_fences[k])] = static_cast<int>(k);
    auto co = writes;
    for (;;) {  // odometer over the locations' coherence permutations
      for (const auto& order : co)
        for (std::size_t k = 0; k < order.size(); ++k)
          c.co_rank[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
      // Odometer over each read's source: -1 (init) or a write to its location.
      std::vector<int> choice(reads.size(), -1);
      for (;;) {
        for (std::size_t k = 0; k < reads.size(); ++k) {
          const auto& ws = writes[e.ev[static_cast<std::size_t>(reads[k])].loc];
          c.rf_src[static_cast<std::size_t>(reads[k])] =
              choice[k] < 0 ? -1 : ws[static_cast<std::size_t>(choice[k])];
        }
        const bool ok = model == MemoryModel::Ptx    ? ptx_consistent(e, c)
                        : model == MemoryModel::Rc11 ? rc11_consistent(e, c)
                                                     : sc_consistent(e, c);
        if (ok) outcomes.insert(outcome_of(test, e, c));
        std::size_t k = 0;
        for (; k < reads.size(); ++k) {
          const auto& ws = writes[e.ev[static_cast<std::size_t>(reads[k])].loc];
          if (++choice[k] < static_cast<int>(ws.size())) break;
          choice[k] = -1;
        }
        if (k == reads.size()) break;
      }
      std::size_t l = 0;
      for (; l < co.size(); ++l)
        if (std::next_permutation(co[l].begin(), co[l].end())) break;
      if (l == co.size()) break;
    }
  } while (model == MemoryModel::Ptx && std::next_permutation(sc_fences.begin(), sc_fences.end()));
  return outcomes;
}

}  // namespace lookback::model
