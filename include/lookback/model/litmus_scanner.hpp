// Tokens of the litmus text format, with their source positions. The parser
// pulls them one at a time; lines matter (one statement per line), so a
// newline is a token.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lookback/model/litmus_test.hpp"

namespace lookback::model {

struct Token {
  enum class Kind : std::uint8_t { Word, Int, Punct, Newline, End };
  Kind kind = Kind::End;
  std::string text;        // as written (Punct: the symbol)
  std::int64_t value = 0;  // Int
  SourcePos pos;

  bool is_word(std::string_view w) const { return kind == Kind::Word && text == w; }
  bool is_punct(std::string_view p) const { return kind == Kind::Punct && text == p; }
  bool ends_statement() const { return kind == Kind::Newline || kind == Kind::End; }
  // How the token reads in an error message.
  std::string describe() const;
};

class LitmusScanner {
 public:
  explicit LitmusScanner(std::string_view text) : s_(text) {}

  const Token& peek();
  Token next();
  // Where the last token other than a newline that next() returned began.
  SourcePos last_pos() const { return last_; }
  // The raw text to the end of the line (or a comment), trimmed: test names
  // such as "2+2W+fence.sc" are not words.
  Token rest_of_line();

 private:
  Token scan();
  void skip_blanks_and_comments();
  char at(std::size_t k) const { return k < s_.size() ? s_[k] : '\0'; }
  void advance(std::size_t n);

  std::string_view s_;
  std::size_t i_ = 0;
  int line_ = 1, col_ = 1;
  std::optional<Token> peeked_;
  SourcePos last_;
};

}  // namespace lookback::model
