// Differential check of the litmus checker (label `proptest`): on random
// small litmus programs, the set of outcomes the checker allows equals the
// set an independent brute-force enumerator allows (litmus_brute_force.hpp),
// under PTX, RC11 and SC. A failure prints the shrunk program as a litmus
// file whose condition is an outcome the two disagree on.
// Seeds are printed on failure; replay with RC_PARAMS="reproduce=...".
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sstream>

#include "litmus_brute_force.hpp"
#include "litmus_generator.hpp"
#include "lookback/model/litmus.hpp"
#include "lookback/model/litmus_check.hpp"
#include "lookback/model/litmus_parse.hpp"
#include "lookback/model/litmus_print.hpp"

namespace {

using namespace lookback::model;

// The program with `exists (o)` and the expectation the brute force backs.
std::string disagreement(LitmusTest t, MemoryModel m, const Outcome& o, bool brute_allows) {
  t.name = "checker-vs-brute-force";
  t.condition.quantifier = Quantifier::Exists;
  t.condition.expr = outcome_expr(t, o);
  t.expect = {{m, brute_allows}};
  std::ostringstream os;
  os << "under " << to_string(m) << " the checker " << (brute_allows ? "forbids" : "allows")
     << " an outcome the brute-force enumerator " << (brute_allows ? "allows" : "forbids") << ":\n"
     << to_litmus_text(t);
  return os.str();
}

}  // namespace

// The brute force checks about 50000 candidates a second: skip the rare
// program (a few percent) with too many to keep the default run short.
constexpr double kMaxBruteForceCandidates = 20000;

RC_GTEST_PROP(LitmusDifferential, CheckerAgreesWithBruteForce, ()) {
  const LitmusTest t = *gen_litmus_test();
  RC_PRE(brute_force_candidates(t, MemoryModel::Ptx) <= kMaxBruteForceCandidates);
  for (MemoryModel m : {MemoryModel::Ptx, MemoryModel::Rc11, MemoryModel::Sc}) {
    const std::set<Outcome> checker = allowed_outcomes(t, m);
    const std::set<Outcome> brute = brute_force_outcomes(t, m);
    for (const Outcome& o : brute)
      if (!checker.count(o)) RC_FAIL(disagreement(t, m, o, true));
    for (const Outcome& o : checker)
      if (!brute.count(o)) RC_FAIL(disagreement(t, m, o, false));
  }
}

// The printer writes the format the parser reads: printing a test and
// parsing it back gives the same test.
RC_GTEST_PROP(LitmusDifferential, PrintedTestsParseBack, ()) {
  const LitmusTest t = *gen_litmus_test();
  RC_ASSERT(parse_litmus(to_litmus_text(t)) == t);
}

// The same with the checker's per-location pruning off, so that every
// candidate reaches Derived::check: the axioms alone must agree.
RC_GTEST_PROP(LitmusDifferential, UnprunedAxiomsAgreeWithBruteForce, ()) {
  const LitmusTest t = *gen_litmus_test();
  RC_PRE(brute_force_candidates(t, MemoryModel::Ptx) <= kMaxBruteForceCandidates / 4);
  for (MemoryModel m : {MemoryModel::Ptx, MemoryModel::Rc11, MemoryModel::Sc}) {
    const std::set<Outcome> checker = check_litmus(t, m, /*prune=*/false).outcomes;
    const std::set<Outcome> brute = brute_force_outcomes(t, m);
    for (const Outcome& o : brute)
      if (!checker.count(o)) RC_FAIL(disagreement(t, m, o, true));
    for (const Outcome& o : checker)
      if (!brute.count(o)) RC_FAIL(disagreement(t, m, o, false));
  }
}
