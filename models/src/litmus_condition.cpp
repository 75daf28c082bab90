// Evaluating a litmus condition on a final state.
#include "lookback/model/litmus_test.hpp"

namespace lookback::model {

bool holds(const Expr& e, const Outcome& o) {
  switch (e.kind) {
    case Expr::Kind::True:
      return true;
    case Expr::Kind::False:
      return false;
    case Expr::Kind::RegEq:
      return (o.regs.at(static_cast<std::size_t>(e.thread)).at(static_cast<std::size_t>(e.reg)) ==
              e.value) != e.negated;
    case Expr::Kind::MemEq:
      return (o.mem.at(e.loc) == e.value) != e.negated;
    case Expr::Kind::Not:
      return !holds(e.kids.at(0), o);
    case Expr::Kind::And:
      for (const auto& k : e.kids)
        if (!holds(k, o)) return false;
      return true;
    case Expr::Kind::Or:
      for (const auto& k : e.kids)
        if (holds(k, o)) return true;
      return false;
  }
  return false;
}

bool is_target(const Condition& c, const Outcome& o) {
  const bool h = holds(c.expr, o);
  return c.quantifier == Quantifier::Forall ? !h : h;
}

bool condition_holds(Quantifier q, bool target_allowed) {
  return q == Quantifier::Exists ? target_allowed : !target_allowed;
}

const char* to_string(Quantifier q) {
  switch (q) {
    case Quantifier::Exists:
      return "exists";
    case Quantifier::NotExists:
      return "~exists";
    case Quantifier::Forall:
      return "forall";
  }
  return "?";
}

}  // namespace lookback::model
