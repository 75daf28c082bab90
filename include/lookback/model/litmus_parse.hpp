// Reading the litmus text format (models/litmus/FORMAT.md) into a LitmusTest.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "lookback/model/litmus_test.hpp"

namespace lookback::model {

// A malformed litmus file: where, and what is wrong, in one line.
class LitmusSyntaxError : public std::runtime_error {
 public:
  LitmusSyntaxError(SourcePos pos, const std::string& message)
      : std::runtime_error(message), pos_(pos) {}
  SourcePos pos() const { return pos_; }

 private:
  SourcePos pos_;
};

// Parses one litmus test; throws LitmusSyntaxError.
LitmusTest parse_litmus(std::string_view text);

// "FILE:LINE:COL: message", the one error line a user sees.
std::string format_error(const std::string& file, const LitmusSyntaxError& e);

}  // namespace lookback::model
