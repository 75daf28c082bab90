// Litmus tests and outcomes as text: the canonical form of the format (the
// parser reads it back into an equal test) and one-line renderings.
#pragma once

#include <string>

#include "lookback/model/litmus_test.hpp"

namespace lookback::model {

const char* to_string(Scope s);

// "r0 = ld.acquire.gpu [y]", "atom.relaxed.gpu.cas [x], 0, r1 dep r0".
std::string instruction_text(const LitmusTest& t, int thread, int index);
// "P1:r0 == 1 /\ x == 2", with the fewest parentheses that keep its meaning.
std::string expr_text(const LitmusTest& t, const Expr& e);
// "exists (P1:r0 == 1 /\ P1:r1 == 0)".
std::string condition_text(const LitmusTest& t);
// "P0:r0=1 P1:r0=0 x=1 y=2".
std::string outcome_text(const LitmusTest& t, const Outcome& o);
// An expression true of exactly this outcome (for printing it as a condition).
Expr outcome_expr(const LitmusTest& t, const Outcome& o);
// The whole test in the litmus format.
std::string to_litmus_text(const LitmusTest& t);

}  // namespace lookback::model
