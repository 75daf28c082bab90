#include "lookback/model/litmus_print.hpp"

#include <sstream>
#include <stdexcept>

namespace lookback::model {

const char* to_string(Scope s) {
  switch (s) {
    case Scope::Cta:
      return "cta";
    case Scope::Gpu:
      return "gpu";
    case Scope::Sys:
      return "sys";
  }
  return "?";
}

namespace {

std::string reg_name(const LitmusThread& th, int reg) {
  return th.regs.at(static_cast<std::size_t>(reg));
}

std::string operand_text(const LitmusThread& th, const Operand& o) {
  return o.is_reg ? reg_name(th, o.reg) : std::to_string(o.imm);
}

// ".relaxed.gpu", ".volatile", or nothing for a weak access.
std::string access_qualifiers(const Instruction& in) {
  if (in.is_volatile) return ".volatile";
  if (in.order == Order::Weak) return "";
  return std::string(".") + protocol::to_string(in.order) + "." + to_string(in.scope);
}

const char* rmw_name(RmwOp op) {
  switch (op) {
    case RmwOp::Add:
      return "add";
    case RmwOp::Exch:
      return "exch";
    case RmwOp::Cas:
      return "cas";
  }
  return "?";
}

// The `dep` registers: dependencies not already implied by a register operand.
std::string dep_text(const LitmusThread& th, int index, const Instruction& in) {
  std::uint64_t extra = in.deps;
  for (const Operand* o : {&in.value, &in.compare})
    if (o->is_reg) extra &= ~(1ull << o->def);
  std::string s;
  for (int k = 0; k < index; ++k) {
    if (!((extra >> k) & 1ull)) continue;
    const int reg = th.code[static_cast<std::size_t>(k)].dest;
    // `dep r` names the latest write of r; an earlier one has no name.
    for (int j = k + 1; j < index && reg >= 0; ++j)
      if (th.code[static_cast<std::size_t>(j)].dest == reg) {
        throw std::logic_error("dependency on an overwritten register cannot be printed");
      }
    if (reg < 0) throw std::logic_error("dependency on an instruction that writes no register");
    s += (s.empty() ? " dep " : ", ") + reg_name(th, reg);
  }
  return s;
}

std::string expr_text(const LitmusTest& t, const Expr& e, int parent_precedence) {
  auto join = [&](const char* sep, int precedence) {
    std::string s;
    for (std::size_t k = 0; k < e.kids.size(); ++k)
      s += (k ? sep : "") + expr_text(t, e.kids[k], precedence + 1);
    return parent_precedence > precedence ? std::string("(").append(s).append(")") : s;
  };
  const char* cmp = e.negated ? " != " : " == ";
  switch (e.kind) {
    case Expr::Kind::True:
      return "true";
    case Expr::Kind::False:
      return "false";
    case Expr::Kind::RegEq: {
      const auto& th = t.threads.at(static_cast<std::size_t>(e.thread));
      return th.name + ":" + reg_name(th, e.reg) + cmp + std::to_string(e.value);
    }
    case Expr::Kind::MemEq:
      return t.loc_names.at(e.loc) + cmp + std::to_string(e.value);
    case Expr::Kind::Not:
      return std::string("~").append(expr_text(t, e.kids.at(0), 3));
    case Expr::Kind::And:
      return join(" /\\ ", 2);
    case Expr::Kind::Or:
      return join(" \\/ ", 1);
  }
  return "?";
}

}  // namespace

std::string instruction_text(const LitmusTest& t, int thread, int index) {
  const LitmusThread& th = t.threads.at(static_cast<std::size_t>(thread));
  const Instruction& in = th.code.at(static_cast<std::size_t>(index));
  const std::string loc = in.op == LitmusOp::Fence ? "" : "[" + t.loc_names.at(in.loc) + "]";
  std::string s;
  if (in.dest >= 0) s = reg_name(th, in.dest) + " = ";
  switch (in.op) {
    case LitmusOp::Load:
      s += "ld" + access_qualifiers(in) + " " + loc;
      break;
    case LitmusOp::Store:
      s += "st" + access_qualifiers(in) + " " + loc + ", " + operand_text(th, in.value);
      break;
    case LitmusOp::Rmw:
      s += std::string("atom.") + protocol::to_string(in.order) + "." + to_string(in.scope) + "." +
           rmw_name(in.rmw) + " " + loc;
      if (in.rmw == RmwOp::Cas) s += ", " + operand_text(th, in.compare);
      s += ", " + operand_text(th, in.value);
      break;
    case LitmusOp::Fence:
      s += std::string("fence.") + (in.fence == Fence::Sc ? "sc" : "acq_rel") + "." +
           to_string(in.scope);
      break;
  }
  return s + dep_text(th, index, in);
}

std::string expr_text(const LitmusTest& t, const Expr& e) {
  return expr_text(t, e, 0);
}

std::string condition_text(const LitmusTest& t) {
  return std::string(to_string(t.condition.quantifier)) + " (" + expr_text(t, t.condition.expr) +
         ")";
}

std::string outcome_text(const LitmusTest& t, const Outcome& o) {
  std::string s;
  for (std::size_t th = 0; th < o.regs.size(); ++th)
    for (std::size_t r = 0; r < o.regs[th].size(); ++r)
      s += (s.empty() ? "" : " ") + t.threads[th].name + ":" + t.threads[th].regs[r] + "=" +
           std::to_string(o.regs[th][r]);
  for (std::size_t l = 0; l < o.mem.size(); ++l)
    s += (s.empty() ? "" : " ") + t.loc_names[l] + "=" + std::to_string(o.mem[l]);
  return s;
}

Expr outcome_expr(const LitmusTest& t, const Outcome& o) {
  Expr all;
  all.kind = Expr::Kind::And;
  for (std::size_t th = 0; th < o.regs.size(); ++th)
    for (std::size_t r = 0; r < o.regs[th].size(); ++r) {
      Expr a;
      a.kind = Expr::Kind::RegEq;
      a.thread = static_cast<int>(th);
      a.reg = static_cast<int>(r);
      a.value = o.regs[th][r];
      all.kids.push_back(a);
    }
  for (std::size_t l = 0; l < o.mem.size() && l < t.loc_names.size(); ++l) {
    Expr a;
    a.kind = Expr::Kind::MemEq;
    a.loc = static_cast<Loc>(l);
    a.value = o.mem[l];
    all.kids.push_back(a);
  }
  if (all.kids.size() == 1) return all.kids[0];
  if (all.kids.empty()) all.kind = Expr::Kind::True;
  return all;
}

std::string to_litmus_text(const LitmusTest& t) {
  std::ostringstream os;
  os << "litmus " << (t.name.empty() ? "unnamed" : t.name) << "\n";
  if (!t.loc_names.empty()) {
    os << "init";
    for (std::size_t l = 0; l < t.loc_names.size(); ++l)
      os << (l ? "; " : " ") << t.loc_names[l] << " = " << t.init[l];
    os << "\n";
  }
  for (std::size_t th = 0; th < t.threads.size(); ++th) {
    os << "thread " << t.threads[th].name << " cta " << t.threads[th].cta << ":\n";
    for (std::size_t k = 0; k < t.threads[th].code.size(); ++k)
      os << "  " << instruction_text(t, static_cast<int>(th), static_cast<int>(k)) << "\n";
  }
  os << condition_text(t) << "\n";
  for (const auto& [model, allowed] : t.expect)
    os << "expect " << to_string(model) << " " << (allowed ? "allowed" : "forbidden") << "\n";
  return os.str();
}

}  // namespace lookback::model
