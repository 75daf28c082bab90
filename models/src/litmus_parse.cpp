// The litmus parser: one statement per line (the condition may span lines),
// every error reported at the token that caused it.
#include "lookback/model/litmus_parse.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "lookback/model/litmus_scanner.hpp"
#include "lookback/model/relation.hpp"

namespace lookback::model {

std::string format_error(const std::string& file, const LitmusSyntaxError& e) {
  return file + ":" + std::to_string(e.pos().line) + ":" + std::to_string(e.pos().col) + ": " +
         e.what();
}

namespace {

constexpr int kMaxInstructions = 64;  // Instruction::deps is a 64-bit mask

// One dot-separated piece of an opcode such as "ld.acquire.gpu".
struct Part {
  std::string text;
  SourcePos pos;
};

// The qualifiers of one opcode, each remembered with where it was written.
struct Qualifiers {
  std::optional<Part> sem;    // weak relaxed acquire release acq_rel sc volatile
  std::optional<Part> scope;  // cta gpu sys gl
  std::optional<Part> rmw;    // add exch cas
};

bool is_identifier(const std::string& s) {
  return !s.empty() && s.find('.') == std::string::npos;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : sc_(text) {}

  LitmusTest parse() {
    for (;;) {
      skip_newlines();
      const Token& t = sc_.peek();
      if (t.kind == Token::Kind::End) break;
      if (!have_name_ && !t.is_word("litmus"))
        fail(t.pos, "a litmus file starts with `litmus NAME`, found " + t.describe());
      if (have_condition_ && !t.is_word("expect"))
        fail(t.pos, "only `expect` lines may follow the condition, found " + t.describe());
      if (t.is_word("litmus")) {
        parse_name();
      } else if (t.is_word("init")) {
        parse_init();
      } else if (t.is_word("thread")) {
        parse_thread_header();
      } else if (t.is_word("exists") || t.is_word("forall") || t.is_punct("~")) {
        parse_condition();
      } else if (t.is_word("expect")) {
        parse_expect();
      } else {
        parse_instruction();
      }
    }
    finish(sc_.peek().pos);
    return std::move(t_);
  }

 private:
  [[noreturn]] static void fail(SourcePos p, const std::string& message) {
    throw LitmusSyntaxError(p, message);
  }

  void skip_newlines() {
    while (sc_.peek().kind == Token::Kind::Newline)
      sc_.next();
  }

  Token expect_word(const std::string& what) {
    Token t = sc_.next();
    if (t.kind != Token::Kind::Word) fail(t.pos, "expected " + what + ", found " + t.describe());
    return t;
  }

  void expect_punct(std::string_view p, const std::string& context) {
    Token t = sc_.next();
    if (!t.is_punct(p))
      fail(t.pos, "expected '" + std::string(p) + "' " + context + ", found " + t.describe());
  }

  void end_statement(const std::string& what) {
    const Token& t = sc_.peek();
    if (!t.ends_statement()) fail(t.pos, "unexpected " + t.describe() + " after " + what);
  }

  std::int32_t int32(const Token& t) {
    if (t.kind != Token::Kind::Int) fail(t.pos, "expected an integer, found " + t.describe());
    if (t.value < std::numeric_limits<std::int32_t>::min() ||
        t.value > std::numeric_limits<std::int32_t>::max())
      fail(t.pos, "value " + t.text + " does not fit in 32 bits");
    return static_cast<std::int32_t>(t.value);
  }

  // ---- header, init, threads, expectations --------------------------------

  void parse_name() {
    const Token kw = sc_.next();
    if (have_name_) fail(kw.pos, "a second `litmus` line: one test per file");
    const Token name = sc_.rest_of_line();
    if (name.text.empty()) fail(name.pos, "`litmus` needs a test name");
    t_.name = name.text;
    have_name_ = true;
  }

  Loc location(const Token& name, bool declare) {
    if (!is_identifier(name.text)) fail(name.pos, "bad location name " + name.describe());
    auto it = locs_.find(name.text);
    if (it != locs_.end()) return it->second;
    if (!declare) fail(name.pos, "unknown location " + name.describe());
    const Loc l = static_cast<Loc>(t_.loc_names.size());
    locs_[name.text] = l;
    t_.loc_names.push_back(name.text);
    t_.init.push_back(0);
    return l;
  }

  void parse_init() {
    const Token kw = sc_.next();
    if (!t_.threads.empty()) fail(kw.pos, "`init` must come before the threads");
    while (!sc_.peek().ends_statement()) {
      const Token name = expect_word("a location name");
      if (locs_.count(name.text)) fail(name.pos, "location '" + name.text + "' initialised twice");
      const Loc l = location(name, true);
      Token eq = sc_.next();
      if (!eq.is_punct("=") && !eq.is_punct("=="))
        fail(eq.pos, "expected '=' after the location, found " + eq.describe());
      t_.init[l] = int32(sc_.next());
      const Token& sep = sc_.peek();
      if (sep.is_punct(";") || sep.is_punct(","))
        sc_.next();
      else
        end_statement("an initial value (separate them with ';')");
    }
  }

  void parse_thread_header() {
    const Token kw = sc_.next();
    if (have_condition_) fail(kw.pos, "threads must come before the condition");
    const Token name = expect_word("a thread name");
    if (!is_identifier(name.text)) fail(name.pos, "bad thread name " + name.describe());
    for (const auto& th : t_.threads)
      if (th.name == name.text) fail(name.pos, "thread '" + name.text + "' defined twice");
    LitmusThread th;
    th.name = name.text;
    bool explicit_cta = false;
    if (sc_.peek().is_word("cta")) {
      sc_.next();
      const Token n = sc_.next();
      const std::int32_t cta = int32(n);
      if (cta < 0 || cta > 1'000'000) fail(n.pos, "CTA number out of range 0..1000000");
      th.cta = cta;
      explicit_cta = true;
    }
    expect_punct(":", "after the thread header");
    end_statement("the thread header");
    t_.threads.push_back(std::move(th));
    thread_pos_.push_back(kw.pos);
    cta_explicit_.push_back(explicit_cta);
    reg_index_.clear();
    last_def_.clear();
  }

  void parse_expect() {
    sc_.next();
    const Token model = expect_word("a memory model (ptx, rc11 or sc)");
    MemoryModel m;
    if (model.text == "ptx")
      m = MemoryModel::Ptx;
    else if (model.text == "rc11")
      m = MemoryModel::Rc11;
    else if (model.text == "sc")
      m = MemoryModel::Sc;
    else
      fail(model.pos, "unknown memory model " + model.describe() + " (expected ptx, rc11 or sc)");
    if (t_.expect.count(m)) fail(model.pos, "a second `expect` line for " + model.text);
    const Token verdict = expect_word("`allowed` or `forbidden`");
    if (verdict.text != "allowed" && verdict.text != "forbidden")
      fail(verdict.pos, "expected `allowed` or `forbidden`, found " + verdict.describe());
    t_.expect[m] = verdict.text == "allowed";
    end_statement("the expectation");
  }

  // ---- instructions -------------------------------------------------------

  std::vector<Part> split(const Token& w) {
    std::vector<Part> parts;
    std::size_t start = 0;
    for (;;) {
      const std::size_t dot = w.text.find('.', start);
      const std::size_t end = dot == std::string::npos ? w.text.size() : dot;
      const SourcePos pos{w.pos.line, w.pos.col + static_cast<int>(start)};
      if (end == start) fail(pos, "empty qualifier in " + w.describe());
      parts.push_back({w.text.substr(start, end - start), pos});
      if (dot == std::string::npos) return parts;
      start = dot + 1;
    }
  }

  Qualifiers qualifiers(const std::vector<Part>& parts) {
    static const std::vector<std::string> sems = {"weak",    "relaxed", "acquire", "release",
                                                  "acq_rel", "sc",      "volatile"};
    static const std::vector<std::string> scopes = {"cta", "gpu", "sys", "gl"};
    static const std::vector<std::string> rmws = {"add", "exch", "cas"};
    // State space and type qualifiers change nothing here: every location
    // is one global 32-bit word.
    static const std::vector<std::string> ignored = {"global", "u32", "s32", "b32",
                                                     "u64",    "s64", "b64"};
    auto in = [](const std::vector<std::string>& v, const std::string& s) {
      return std::find(v.begin(), v.end(), s) != v.end();
    };
    Qualifiers q;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const Part& p = parts[k];
      auto set = [&](std::optional<Part>& slot, const char* what) {
        if (slot)
          fail(p.pos, std::string("more than one ") + what + " ('." + slot->text + "' and '." +
                          p.text + "')");
        slot = p;
      };
      if (in(sems, p.text))
        set(q.sem, "memory order");
      else if (in(scopes, p.text))
        set(q.scope, "scope");
      else if (in(rmws, p.text))
        set(q.rmw, "atomic operation");
      else if (!in(ignored, p.text))
        fail(p.pos, "unknown qualifier '." + p.text + "' for " + parts[0].text);
    }
    return q;
  }

  static Scope scope_of(const Part& p) {
    if (p.text == "cta") return Scope::Cta;
    if (p.text == "sys") return Scope::Sys;
    return Scope::Gpu;  // gpu, and membar's gl
  }

  void parse_instruction() {
    const Token first = sc_.next();
    if (t_.threads.empty()) {
      if (first.kind != Token::Kind::Word)
        fail(first.pos, "expected `init`, `thread`, or a condition, found " + first.describe());
      fail(first.pos, "instruction outside a thread: start one with `thread NAME:`");
    }
    if (first.kind != Token::Kind::Word)
      fail(first.pos, "expected an instruction, found " + first.describe());
    LitmusThread& th = t_.threads.back();
    if (static_cast<int>(th.code.size()) >= kMaxInstructions)
      fail(first.pos,
           "a thread may have at most " + std::to_string(kMaxInstructions) + " instructions");
    std::optional<Token> dest;
    Token opcode = first;
    if (sc_.peek().is_punct("=")) {
      sc_.next();
      dest = first;
      if (!is_identifier(dest->text)) fail(dest->pos, "bad register name " + dest->describe());
      opcode = expect_word("an instruction after '='");
    }
    const std::vector<Part> parts = split(opcode);
    const Part& base = parts[0];
    const Qualifiers q = qualifiers(parts);
    Instruction in;
    in.pos = opcode.pos;
    const std::string sem = q.sem ? q.sem->text : "";

    auto no_scope = [&](const std::string& why) {
      if (q.scope) fail(q.scope->pos, why);
    };
    auto need_scope = [&](const std::string& what) {
      if (!q.scope) fail(base.pos, what + " needs a scope: .cta, .gpu or .sys");
      if (q.scope->text == "gl") fail(q.scope->pos, "'.gl' is a membar level; use .gpu");
      in.scope = scope_of(*q.scope);
    };
    auto bad_sem = [&](const std::string& what) { fail(q.sem->pos, what + " cannot be ." + sem); };
    auto no_rmw_op = [&]() {
      if (q.rmw) fail(q.rmw->pos, "'." + q.rmw->text + "' only applies to atom");
    };

    if (base.text == "ld" || base.text == "st") {
      const bool load = base.text == "ld";
      in.op = load ? LitmusOp::Load : LitmusOp::Store;
      no_rmw_op();
      if (sem.empty() || sem == "weak") {
        in.order = Order::Weak;
        no_scope("a weak access takes no scope");
      } else if (sem == "volatile") {
        in.order = Order::Relaxed;
        in.scope = Scope::Sys;
        in.is_volatile = true;
        no_scope(base.text + ".volatile takes no scope (it is relaxed at .sys)");
      } else if (sem == "relaxed" || (load && sem == "acquire") || (!load && sem == "release")) {
        in.order = sem == "relaxed" ? Order::Relaxed : load ? Order::Acquire : Order::Release;
        need_scope(base.text + "." + sem);
      } else {
        bad_sem(base.text);
      }
      if (load && !dest)
        fail(base.pos, "ld needs a destination register, as in `r0 = ld.relaxed.gpu [x]`");
      if (!load && dest) fail(dest->pos, "st writes no register");
    } else if (base.text == "atom") {
      in.op = LitmusOp::Rmw;
      if (sem.empty() || sem == "relaxed")
        in.order = Order::Relaxed;
      else if (sem == "acquire")
        in.order = Order::Acquire;
      else if (sem == "release")
        in.order = Order::Release;
      else if (sem == "acq_rel")
        in.order = Order::AcqRel;
      else
        bad_sem("atom");
      if (q.scope) need_scope("atom");  // PTX's default scope is .gpu
      if (!q.rmw) fail(base.pos, "atom needs an operation: .add, .exch or .cas");
      in.rmw = q.rmw->text == "add" ? RmwOp::Add : q.rmw->text == "exch" ? RmwOp::Exch : RmwOp::Cas;
    } else if (base.text == "fence" || base.text == "membar") {
      in.op = LitmusOp::Fence;
      no_rmw_op();
      if (base.text == "membar") {
        if (q.sem) fail(q.sem->pos, "membar takes no memory order (it is fence.sc)");
        if (!q.scope) fail(base.pos, "membar needs a level: .cta, .gl or .sys");
        in.fence = Fence::Sc;
        in.scope = scope_of(*q.scope);
      } else {
        if (sem == "sc")
          in.fence = Fence::Sc;
        else if (sem == "acq_rel")
          in.fence = Fence::AcqRel;
        else if (sem.empty())
          fail(base.pos, "fence needs .sc or .acq_rel");
        else
          bad_sem("fence");
        need_scope("fence");
      }
      if (dest) fail(dest->pos, "a fence writes no register");
    } else {
      fail(base.pos,
           "unknown instruction '" + base.text + "' (expected ld, st, atom, fence or membar)");
    }

    const int index = static_cast<int>(th.code.size());
    if (in.op != LitmusOp::Fence) {
      expect_punct("[", "before the address");
      in.loc = location(expect_word("a location name"), true);
      expect_punct("]", "after the address");
      const bool cas = in.op == LitmusOp::Rmw && in.rmw == RmwOp::Cas;
      const int operands = in.op == LitmusOp::Load ? 0 : cas ? 2 : 1;
      for (int k = 0; k < operands; ++k) {
        expect_punct(",", k == 0 ? "after the address" : "between the operands");
        Operand& slot = (cas && k == 0) ? in.compare : in.value;
        slot = operand(in);
      }
    }
    if (sc_.peek().is_word("dep")) {
      sc_.next();
      for (;;) {
        const Token r = expect_word("a register after `dep`");
        in.deps |= 1ull << defining(r);
        if (!sc_.peek().is_punct(",")) break;
        sc_.next();
      }
    }
    end_statement("the instruction");
    if (dest) {
      auto [it, added] = reg_index_.try_emplace(dest->text, static_cast<int>(th.regs.size()));
      if (added) {
        th.regs.push_back(dest->text);
        last_def_.push_back(index);
      }
      in.dest = it->second;
      last_def_[static_cast<std::size_t>(in.dest)] = index;
    }
    th.code.push_back(in);
  }

  // The instruction that last wrote register `r` in the current thread.
  int defining(const Token& r) {
    auto it = reg_index_.find(r.text);
    if (it == reg_index_.end())
      fail(r.pos, "register '" + r.text + "' is not written before this instruction");
    return last_def_[static_cast<std::size_t>(it->second)];
  }

  Operand operand(Instruction& in) {
    const Token t = sc_.next();
    Operand o;
    if (t.kind == Token::Kind::Int) {
      o.imm = int32(t);
      return o;
    }
    if (t.kind != Token::Kind::Word)
      fail(t.pos, "expected a value or a register, found " + t.describe());
    o.is_reg = true;
    o.def = defining(t);
    o.reg = reg_index_.at(t.text);
    in.deps |= 1ull << o.def;  // a register operand is a data dependency
    return o;
  }

  // ---- the condition ------------------------------------------------------

  // The condition may span lines: newlines inside it are skipped.
  const Token& peek_in_condition() {
    skip_newlines();
    return sc_.peek();
  }

  void parse_condition() {
    const Token first = sc_.next();
    if (t_.threads.empty()) fail(first.pos, "the condition must come after the threads");
    if (first.is_punct("~")) {
      const Token kw = sc_.next();
      if (!kw.is_word("exists"))
        fail(kw.pos, "expected `exists` after '~', found " + kw.describe());
      t_.condition.quantifier = Quantifier::NotExists;
    } else {
      t_.condition.quantifier = first.is_word("exists") ? Quantifier::Exists : Quantifier::Forall;
    }
    t_.condition.expr = parse_or();
    have_condition_ = true;
    const int last_line = sc_.last_pos().line;
    const Token& t = peek_in_condition();
    if (t.kind != Token::Kind::End && !t.is_word("expect") && t.pos.line > last_line)
      fail(t.pos, "only `expect` lines may follow the condition, found " + t.describe());
    if (t.kind != Token::Kind::End && !t.is_word("expect"))
      fail(t.pos,
           "unexpected " + t.describe() + " in the condition (connect atoms with /\\ or \\/)");
  }

  Expr parse_or() {
    Expr e = parse_and();
    if (!peek_in_condition().is_punct("\\/")) return e;
    Expr any;
    any.kind = Expr::Kind::Or;
    any.kids.push_back(std::move(e));
    while (peek_in_condition().is_punct("\\/")) {
      sc_.next();
      any.kids.push_back(parse_and());
    }
    return any;
  }

  Expr parse_and() {
    Expr e = parse_unary();
    if (!peek_in_condition().is_punct("/\\")) return e;
    Expr all;
    all.kind = Expr::Kind::And;
    all.kids.push_back(std::move(e));
    while (peek_in_condition().is_punct("/\\")) {
      sc_.next();
      all.kids.push_back(parse_unary());
    }
    return all;
  }

  Expr parse_unary() {
    const Token t = peek_in_condition();
    if (t.is_punct("~")) {
      sc_.next();
      Expr e;
      e.kind = Expr::Kind::Not;
      e.kids.push_back(parse_unary());
      return e;
    }
    if (t.is_punct("(")) {
      sc_.next();
      Expr e = parse_or();
      const Token close = peek_in_condition();
      if (!close.is_punct(")")) fail(close.pos, "expected ')', found " + close.describe());
      sc_.next();
      return e;
    }
    if (t.is_word("true") || t.is_word("false")) {
      sc_.next();
      Expr e;
      e.kind = t.text == "true" ? Expr::Kind::True : Expr::Kind::False;
      return e;
    }
    return parse_atom();
  }

  Expr parse_atom() {
    const Token name = sc_.next();
    Expr e;
    if ((name.kind == Token::Kind::Word || name.kind == Token::Kind::Int) &&
        sc_.peek().is_punct(":")) {
      sc_.next();
      e.kind = Expr::Kind::RegEq;
      e.thread = thread_named(name);
      const Token reg = expect_word("a register after ':'");
      const auto& regs = t_.threads[static_cast<std::size_t>(e.thread)].regs;
      const auto it = std::find(regs.begin(), regs.end(), reg.text);
      if (it == regs.end())
        fail(reg.pos, "thread " + t_.threads[static_cast<std::size_t>(e.thread)].name +
                          " has no register '" + reg.text + "'");
      e.reg = static_cast<int>(it - regs.begin());
    } else if (name.kind == Token::Kind::Word) {
      e.kind = Expr::Kind::MemEq;
      e.loc = location(name, false);
    } else {
      fail(name.pos, "expected THREAD:REGISTER or a location, found " + name.describe());
    }
    const Token cmp = sc_.next();
    if (cmp.is_punct("!="))
      e.negated = true;
    else if (!cmp.is_punct("==") && !cmp.is_punct("="))
      fail(cmp.pos, "expected '==' or '!=', found " + cmp.describe());
    e.value = int32(sc_.next());
    return e;
  }

  int thread_named(const Token& t) {
    for (std::size_t k = 0; k < t_.threads.size(); ++k)
      if (t_.threads[k].name == t.text) return static_cast<int>(k);
    if (t.kind == Token::Kind::Int && t.value >= 0 &&
        t.value < static_cast<std::int64_t>(t_.threads.size()))
      return static_cast<int>(t.value);
    fail(t.pos, "unknown thread " + t.describe());
  }

  // ---- whole-file checks --------------------------------------------------

  void finish(SourcePos end) {
    if (!have_name_) fail(end, "empty file: a litmus file starts with `litmus NAME`");
    if (t_.threads.empty()) fail(end, "no threads: add `thread P0:` and its instructions");
    std::size_t events = 0;
    for (std::size_t k = 0; k < t_.threads.size(); ++k) {
      if (t_.threads[k].code.empty())
        fail(thread_pos_[k], "thread " + t_.threads[k].name + " has no instructions");
      events += t_.threads[k].code.size();
    }
    if (events > static_cast<std::size_t>(kMaxEvents))
      fail(end, "too many instructions (at most " + std::to_string(kMaxEvents) + ")");
    if (!have_condition_)
      fail(end, "missing condition: add `exists (...)`, `~exists (...)` or `forall (...)`");
    // A thread without `cta N` runs in a CTA of its own.
    int next = 0;
    for (std::size_t k = 0; k < t_.threads.size(); ++k)
      if (cta_explicit_[k]) next = std::max(next, t_.threads[k].cta + 1);
    for (std::size_t k = 0; k < t_.threads.size(); ++k)
      if (!cta_explicit_[k]) t_.threads[k].cta = next++;
  }

  LitmusScanner sc_;
  LitmusTest t_;
  bool have_name_ = false, have_condition_ = false;
  std::map<std::string, Loc> locs_;
  std::vector<SourcePos> thread_pos_;
  std::vector<bool> cta_explicit_;
  // The current thread's registers: name -> index, index -> last writer.
  std::map<std::string, int> reg_index_;
  std::vector<int> last_def_;
};

}  // namespace

LitmusTest parse_litmus(std::string_view text) {
  return Parser(text).parse();
}

}  // namespace lookback::model
