// A litmus test as plain data: a few straight-line threads of PTX-flavoured
// instructions, the initial memory, and a condition on the final state.
//
// The parser builds it, the checker (litmus_check.hpp) and the independent
// brute-force enumerator of the property tests both read it, and the printer
// turns it back into text. The format is documented in models/litmus/FORMAT.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lookback/model/consistency.hpp"
#include "lookback/model/event.hpp"

namespace lookback::model {

enum class LitmusOp : std::uint8_t { Load, Store, Rmw, Fence };
enum class RmwOp : std::uint8_t { Add, Exch, Cas };

// Where a token sits in the source (1-based), for error messages.
struct SourcePos {
  int line = 0, col = 0;
};

// An instruction operand: an immediate, or a register of the same thread.
struct Operand {
  bool is_reg = false;
  std::int32_t imm = 0;
  int reg = -1;  // index into LitmusThread::regs
  int def = -1;  // instruction (of this thread) whose result the register holds
  friend bool operator==(const Operand&, const Operand&) = default;
};

struct Instruction {
  LitmusOp op = LitmusOp::Load;
  Order order = Order::Weak;  // loads, stores, RMWs
  Fence fence = Fence::None;  // fences
  Scope scope = Scope::Gpu;   // ignored for weak accesses
  bool is_volatile = false;   // ld/st.volatile: relaxed at .sys (kept for printing)
  Loc loc = 0;
  RmwOp rmw = RmwOp::Add;
  Operand value;    // store value; RMW add/exch operand; CAS new value
  Operand compare;  // CAS: the value compared with
  int dest = -1;    // register written (loads, RMWs) or -1
  // Bit k: this instruction depends on this thread's k-th instruction (a load
  // or RMW). Holds the explicit `dep` registers and every register operand.
  std::uint64_t deps = 0;
  SourcePos pos;  // not compared: a printed and re-parsed test is equal
  friend bool operator==(const Instruction& a, const Instruction& b) {
    return a.op == b.op && a.order == b.order && a.fence == b.fence && a.scope == b.scope &&
           a.is_volatile == b.is_volatile && a.loc == b.loc && a.rmw == b.rmw &&
           a.value == b.value && a.compare == b.compare && a.dest == b.dest && a.deps == b.deps;
  }
};

struct LitmusThread {
  std::string name;
  int cta = 0;                    // CTA the thread runs in (scope .cta)
  std::vector<Instruction> code;  // one event each, in program order
  std::vector<std::string> regs;  // register names, in order of first definition
  friend bool operator==(const LitmusThread&, const LitmusThread&) = default;
};

// The condition: a formula over final register and memory values.
struct Expr {
  enum class Kind : std::uint8_t { True, False, RegEq, MemEq, Not, And, Or };
  Kind kind = Kind::True;
  bool negated = false;  // RegEq/MemEq written with `!=`
  int thread = -1;       // RegEq
  int reg = -1;          // RegEq
  Loc loc = 0;           // MemEq
  std::int32_t value = 0;
  std::vector<Expr> kids;  // Not: 1; And/Or: 2 or more
  friend bool operator==(const Expr&, const Expr&) = default;
};

enum class Quantifier : std::uint8_t { Exists, NotExists, Forall };

struct Condition {
  Quantifier quantifier = Quantifier::Exists;
  Expr expr;
  friend bool operator==(const Condition&, const Condition&) = default;
};

struct LitmusTest {
  std::string name;
  std::vector<std::string> loc_names;
  std::vector<std::int32_t> init;  // initial value of each location
  std::vector<LitmusThread> threads;
  Condition condition;
  // Expected verdict per model: true = the condition's outcome is allowed.
  std::map<MemoryModel, bool> expect;
  friend bool operator==(const LitmusTest&, const LitmusTest&) = default;

  int locations() const { return static_cast<int>(loc_names.size()); }
};

// A final state: every register's last value and every location's value
// (the coherence-last write, or the initial value).
struct Outcome {
  std::vector<std::vector<std::int32_t>> regs;  // [thread][register]
  std::vector<std::int32_t> mem;                // [location]
  friend auto operator<=>(const Outcome&, const Outcome&) = default;
};

bool holds(const Expr& e, const Outcome& o);

// The outcome a verdict is about: the condition's formula for `exists` and
// `~exists`, its negation (a counterexample) for `forall`. "Allowed" means
// some consistent execution ends in it.
bool is_target(const Condition& c, const Outcome& o);

// Whether the condition holds, given whether its target outcome is allowed.
bool condition_holds(Quantifier q, bool target_allowed);

const char* to_string(Quantifier q);

}  // namespace lookback::model
