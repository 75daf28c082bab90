// Litmus tests: small PTX-flavoured programs with an outcome condition,
// checked by enumerating every candidate execution (so load buffering is
// covered) and filtering by the memory model's axioms. The text format is
// documented in models/litmus/FORMAT.md.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <set>
#include <string>

#include "lookback/model/consistency.hpp"
#include "lookback/model/litmus_test.hpp"

namespace lookback::model {

// Checks one litmus file under `model`; prints whether its condition's
// outcome is allowed, with a witness execution when it is. Exit codes as
// lookback-check: 0 when the verdict matches the file's `expect` line for
// the model (or it has none), 1 when it does not, 2 on a malformed file.
// `progress` (if given) hears how far a check is, about once a second:
// "litmus NAME under MODEL", what is counted (LitmusProgress), how many so
// far, how many in all.
using LitmusRunProgress = std::function<void(const std::string& run, const std::string& what,
                                             std::uint64_t done, std::uint64_t total)>;
int run_litmus_file(const std::string& path, MemoryModel model, bool json, std::ostream& out,
                    std::ostream& err, const LitmusRunProgress& progress = {});
// Checks every *.litmus file under `dir` against each `expect` line it has;
// prints a table. 0 iff every verdict matches, 1 on a mismatch, 2 when a
// file is malformed or there is nothing to check.
int run_litmus_suite(const std::string& dir, bool json, std::ostream& out, std::ostream& err,
                     const LitmusRunProgress& progress = {});

// Every final state some consistent execution of the test reaches.
std::set<Outcome> allowed_outcomes(const LitmusTest& test, MemoryModel model);

}  // namespace lookback::model
