// Litmus verdicts for people (a short report with a witness execution) and
// for machines (one JSON object).
#pragma once

#include "lookback/json.hpp"

#include <optional>
#include <ostream>
#include <string>

#include "lookback/model/litmus_check.hpp"

namespace lookback::model {

// Per thread, each instruction with what it read and from which write, then
// coherence and fence.sc orders and the final state.
void print_execution(std::ostream& os, const LitmusTest& test, const LitmusExecution& x);

// The verdict for one model, with the reachable final states and, when the
// target outcome is allowed, a witness. `expected` is the file's expect line.
void print_result(std::ostream& os, const LitmusTest& test, const LitmusResult& r,
                  std::optional<bool> expected);

std::string result_json(const LitmusTest& test, const LitmusResult& r,
                        std::optional<bool> expected);

using lookback::json_string;  // lookback/json.hpp

inline const char* verdict_word(bool allowed) {
  return allowed ? "allowed" : "forbidden";
}

}  // namespace lookback::model
