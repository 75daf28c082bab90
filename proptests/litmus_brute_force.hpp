// An independent, brute-force enumerator of a litmus program's allowed
// outcomes, for differential testing of the checker (litmus_check.hpp).
//
// It shares only the program type with the checker: no ExecutionGraph, no
// Relation, no Derived, no candidate pruning. Relations are plain boolean
// matrices and every axiom is written as directly as the formula it comes
// from:
//   - PTX: the Alloy model ptx.als of Lustig, Sahasrabuddhe and Giroux
//     (ASPLOS 2019): no_thin_air, location_sc, atomicity, coherence and
//     causality, over com, fr (reads from the initial value included),
//     po_loc, morally strong with scopes, observation, prefix/suffix, sync,
//     cause_base and cause;
//   - RC11: Lahav et al. (PLDI 2017): coherence, atomicity, SC (psc with SC
//     fences only) and no-thin-air acyclic(po | rf);
//   - SC: acyclic(po | rf | co | fr) and RMW atomicity.
// As in those papers (and unlike the checker), an RMW is two events, a read
// and a write joined by `rmw`. Shared with the checker, and stated in both:
// coherence order is total per location.
#pragma once

#include <set>

#include "lookback/model/litmus_test.hpp"

namespace lookback::model {

std::set<Outcome> brute_force_outcomes(const LitmusTest& test, MemoryModel model);

// How many candidate executions brute_force_outcomes would enumerate.
double brute_force_candidates(const LitmusTest& test, MemoryModel model);

}  // namespace lookback::model
