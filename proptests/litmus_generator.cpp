#include "litmus_generator.hpp"

#include <array>

namespace lookback::model {

namespace {

constexpr std::array<Order, 3> kLoadOrders = {Order::Weak, Order::Relaxed, Order::Acquire};
constexpr std::array<Order, 3> kStoreOrders = {Order::Weak, Order::Relaxed, Order::Release};
constexpr std::array<Order, 4> kRmwOrders = {Order::Relaxed, Order::Acquire, Order::Release,
                                             Order::AcqRel};
constexpr std::array<Scope, 3> kScopes = {Scope::Gpu, Scope::Cta, Scope::Sys};

// An index into `weights`, drawn with those weights, that shrinks toward 0
// (unlike gen::weightedElement, which does not shrink).
rc::Gen<int> weighted(std::vector<int> weights) {
  int total = 0;
  for (int w : weights)
    total += w;
  return rc::gen::map(rc::gen::inRange(0, total), [weights](int x) {
    int k = 0;
    while (x >= weights[static_cast<std::size_t>(k)])
      x -= weights[static_cast<std::size_t>(k++)];
    return k;
  });
}

rc::Gen<AccessSpec> gen_access() {
  using namespace rc;
  // Fences, scopes, RMWs and dependencies are the exception, not the rule.
  return gen::build<AccessSpec>(
      gen::set(&AccessSpec::kind, weighted({4, 4, 2})),
      gen::set(&AccessSpec::order, gen::inRange(0, 4)),
      gen::set(&AccessSpec::scope, weighted({6, 3, 1})),
      gen::set(&AccessSpec::loc, gen::inRange(0, 2)),
      gen::set(&AccessSpec::rmw, gen::inRange(0, 3)),
      gen::set(&AccessSpec::cas_expected, gen::inRange(0, 3)),
      gen::set(&AccessSpec::fence, weighted({6, 2, 2})),
      gen::set(&AccessSpec::fence_scope, weighted({6, 3, 1})),
      gen::set(&AccessSpec::dep, weighted({7, 2, 1})),
      gen::set(&AccessSpec::data, gen::map(weighted({4, 1}), [](int k) { return k == 1; })));
}

// Containers of length lo..hi that shrink by dropping any element. The
// length comes from the size parameter (0..size), so the container is drawn
// at size `hi` and its elements at RapidCheck's nominal size 100 (inRange
// scales its range with the size).
template <class T>
rc::Gen<std::vector<T>> between(int lo, int hi, rc::Gen<T> element) {
  using namespace rc;
  const auto elements = gen::resize(100, std::move(element));
  return gen::suchThat(
      gen::resize(hi, gen::container<std::vector<T>>(elements)), [lo, hi](const std::vector<T>& v) {
        return static_cast<int>(v.size()) >= lo && static_cast<int>(v.size()) <= hi;
      });
}

rc::Gen<ThreadSpec> gen_thread() {
  using namespace rc;
  return gen::build<ThreadSpec>(gen::set(&ThreadSpec::cta, gen::inRange(0, 2)),
                                gen::set(&ThreadSpec::accesses, between(1, 4, gen_access())));
}

}  // namespace

LitmusTest build(const ProgramSpec& spec) {
  LitmusTest t;
  t.name = "random";
  t.loc_names = {"x", "y"};
  t.init = {0, 0};
  std::array<std::int32_t, 2> next_value = {1, 1};  // per location: distinct stored values
  for (std::size_t th = 0; th < spec.threads.size(); ++th) {
    const ThreadSpec& ts = spec.threads[th];
    LitmusThread thread;
    thread.name = std::string("P").append(std::to_string(th));
    thread.cta = ts.cta;
    std::vector<int> reads;  // instructions that wrote a register
    for (const AccessSpec& a : ts.accesses) {
      if (a.fence != 0) {
        Instruction f;
        f.op = LitmusOp::Fence;
        f.fence = a.fence == 1 ? Fence::AcqRel : Fence::Sc;
        f.scope = kScopes[static_cast<std::size_t>(a.fence_scope) % kScopes.size()];
        thread.code.push_back(f);
      }
      Instruction in;
      in.loc = static_cast<Loc>(a.loc % 2);
      in.scope = kScopes[static_cast<std::size_t>(a.scope) % kScopes.size()];
      const int on = reads.empty() || a.dep == 0
                         ? -1
                         : reads[static_cast<std::size_t>(a.dep - 1) % reads.size()];
      if (on >= 0) in.deps |= 1ull << on;
      switch (a.kind % 3) {
        case 0:
          in.op = LitmusOp::Load;
          in.order = kLoadOrders[static_cast<std::size_t>(a.order) % kLoadOrders.size()];
          break;
        case 1:
          in.op = LitmusOp::Store;
          in.order = kStoreOrders[static_cast<std::size_t>(a.order) % kStoreOrders.size()];
          if (a.data && on >= 0) {
            in.value.is_reg = true;
            in.value.def = on;
            in.value.reg = thread.code[static_cast<std::size_t>(on)].dest;
          } else {
            in.value.imm = next_value[in.loc]++;
          }
          break;
        default:
          in.op = LitmusOp::Rmw;
          in.order = kRmwOrders[static_cast<std::size_t>(a.order) % kRmwOrders.size()];
          in.rmw = static_cast<RmwOp>(a.rmw % 3);
          in.value.imm = in.rmw == RmwOp::Add ? 1 : next_value[in.loc]++;
          if (in.rmw == RmwOp::Cas) in.compare.imm = a.cas_expected;
          break;
      }
      if (in.order == Order::Weak) in.scope = Scope::Gpu;  // a weak access has no scope
      if (in.op != LitmusOp::Store) {
        in.dest = static_cast<int>(thread.regs.size());
        thread.regs.push_back(std::string("r").append(std::to_string(thread.regs.size())));
        reads.push_back(static_cast<int>(thread.code.size()));
      }
      thread.code.push_back(in);
    }
    if (!thread.code.empty()) t.threads.push_back(std::move(thread));
  }
  t.condition.quantifier = Quantifier::Exists;
  t.condition.expr.kind = Expr::Kind::True;
  return t;
}

rc::Gen<LitmusTest> gen_litmus_test() {
  return rc::gen::map(between(2, 3, gen_thread()),
                      [](std::vector<ThreadSpec> ts) { return build({std::move(ts)}); });
}

void showValue(const LitmusTest& t, std::ostream& os) {
  os << "\n" << to_litmus_text(t);
}

}  // namespace lookback::model
