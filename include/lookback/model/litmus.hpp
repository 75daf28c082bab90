// Litmus tests: small PTX-flavoured programs with an outcome condition,
// checked by enumerating every candidate execution (so load buffering is
// covered) and filtering by the memory model's axioms.
#pragma once

#include <ostream>
#include <string>

#include "lookback/model/consistency.hpp"

namespace lookback::model {

// Checks one litmus file; prints whether its outcome is allowed (with a
// witness execution when it is). Exit codes as lookback-check.
int run_litmus_file(const std::string& path, MemoryModel model, bool json, std::ostream& out,
                    std::ostream& err);
// Checks every *.litmus file in `dir` against the expectations it declares.
int run_litmus_suite(const std::string& dir, bool json, std::ostream& out, std::ostream& err);

}  // namespace lookback::model
