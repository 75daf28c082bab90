#include "lookback/model/litmus_check.hpp"

#include <chrono>
#include <stdexcept>

#include "lookback/model/consistency.hpp"
#include "lookback/model/litmus.hpp"
#include "lookback/model/litmus_candidates.hpp"

namespace lookback::model {

namespace {

// Two's-complement wrap-around, as the hardware adds.
std::int32_t wrapping_add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

class Evaluator {
 public:
  Evaluator(const LitmusTest& test, ExecutionGraph& g)
      : test_(test), g_(g), state_(static_cast<std::size_t>(g.size()), State::Unknown) {}

  Outcome run() {
    for (int id = 0; id < g_.size(); ++id)
      settle(id);
    Outcome o;
    for (int t = 0; t < g_.threads(); ++t) {
      const LitmusThread& th = test_.threads[static_cast<std::size_t>(t)];
      std::vector<std::int32_t> regs(th.regs.size(), 0);
      for (std::size_t i = 0; i < th.code.size(); ++i)
        if (th.code[i].dest >= 0)
          regs[static_cast<std::size_t>(th.code[i].dest)] =
              g_.event(id_of(t, static_cast<int>(i))).rval.num;
      o.regs.push_back(std::move(regs));
    }
    for (Loc l = 0; l < g_.locations(); ++l)
      o.mem.push_back(g_.co(l).empty() ? test_.init[l] : g_.event(g_.co(l).back()).wval.num);
    return o;
  }

 private:
  enum class State : std::uint8_t { Unknown, InProgress, Done };

  int id_of(int thread, int index) const {
    return g_.thread_events(thread)[static_cast<std::size_t>(index)];
  }

  std::int32_t operand(int thread, const Operand& o) {
    if (!o.is_reg) return o.imm;
    const int def = id_of(thread, o.def);
    settle(def);
    return g_.event(def).rval.num;
  }

  void settle(int id) {
    auto& state = state_[static_cast<std::size_t>(id)];
    if (state == State::Done) return;
    if (state == State::InProgress) throw std::logic_error("litmus values depend on themselves");
    state = State::InProgress;
    const Event e = g_.event(id);
    const Instruction& in = test_.threads[e.thread].code[e.index];
    std::int32_t read = 0;
    if (e.is_read()) {
      if (e.rf == kInit) {
        read = test_.init[e.loc];
      } else {
        settle(e.rf);
        read = g_.event(e.rf).wval.num;
      }
      g_.event(id).rval = Value::integer(read);
    }
    if (e.is_write()) {
      const std::int32_t v = operand(e.thread, in.value);
      std::int32_t written = v;
      if (in.op == LitmusOp::Rmw && in.rmw == RmwOp::Add) written = wrapping_add(read, v);
      if (in.op == LitmusOp::Rmw && in.rmw == RmwOp::Cas)
        written = read == operand(e.thread, in.compare) ? v : read;
      g_.event(id).wval = Value::integer(written);
    }
    state = State::Done;
  }

  const LitmusTest& test_;
  ExecutionGraph& g_;
  std::vector<State> state_;
};

}  // namespace

Outcome evaluate(const LitmusTest& test, ExecutionGraph& g) {
  return Evaluator(test, g).run();
}

LitmusResult check_litmus(const LitmusTest& test, MemoryModel model, bool prune,
                          const LitmusProgress& on_progress) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  LitmusResult r;
  r.model = model;
  // About once a second (the hooks come every few thousand steps).
  auto last_report = start;
  const auto report = [&](const auto& what, std::uint64_t done, std::uint64_t total) {
    const auto now = Clock::now();
    if (now - last_report < std::chrono::seconds(1)) return;
    last_report = now;
    on_progress(what(), done, total);
  };
  std::uint64_t total = 0;
  CandidateHooks hooks;
  hooks.on_total = [&](std::uint64_t n) { total = n; };
  if (on_progress)
    hooks.on_choices = [&](Loc l, std::uint64_t done, std::uint64_t all) {
      report([&] { return "choices of " + test.loc_names[l]; }, done, all);
    };
  for_each_candidate(
      test, model,
      [&](const ExecutionGraph& candidate) {
        ++r.candidates;
        if (on_progress && r.candidates % 4096 == 0)
          report([] { return std::string("candidates"); }, r.candidates, total);
        if (!Derived(candidate, model).check(/*thin_air=*/true).consistent) return;
        ++r.consistent;
        ExecutionGraph g = candidate;
        Outcome o = evaluate(test, g);
        if (is_target(test.condition, o)) {
          r.target_allowed = true;
          if (!r.witness) r.witness = LitmusExecution{g, o};
        }
        r.outcomes.insert(std::move(o));
      },
      prune, hooks);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

std::set<Outcome> allowed_outcomes(const LitmusTest& test, MemoryModel model) {
  return check_litmus(test, model).outcomes;
}

}  // namespace lookback::model
