#include "lookback/model/litmus_scanner.hpp"

#include <cctype>

#include "lookback/model/litmus_parse.hpp"

namespace lookback::model {

namespace {
bool word_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}
bool digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
}  // namespace

std::string Token::describe() const {
  switch (kind) {
    case Kind::Newline:
      return "end of line";
    case Kind::End:
      return "end of file";
    default:
      return "'" + text + "'";
  }
}

void LitmusScanner::advance(std::size_t n) {
  for (std::size_t k = 0; k < n && i_ < s_.size(); ++k, ++i_) {
    if (s_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
  }
}

void LitmusScanner::skip_blanks_and_comments() {
  for (;;) {
    const char c = at(i_);
    if (c == ' ' || c == '\t' || c == '\r') {
      advance(1);
    } else if (c == '/' && at(i_ + 1) == '/') {
      while (i_ < s_.size() && s_[i_] != '\n')
        advance(1);
    } else {
      return;
    }
  }
}

const Token& LitmusScanner::peek() {
  if (!peeked_) peeked_ = scan();
  return *peeked_;
}

Token LitmusScanner::next() {
  Token t = peek();
  peeked_.reset();
  if (t.kind != Token::Kind::Newline) last_ = t.pos;
  return t;
}

Token LitmusScanner::rest_of_line() {
  if (peeked_) throw std::logic_error("rest_of_line after peek");
  skip_blanks_and_comments();
  Token t;
  t.kind = Token::Kind::Word;
  t.pos = {line_, col_};
  const std::size_t start = i_;
  while (i_ < s_.size() && s_[i_] != '\n' && !(s_[i_] == '/' && at(i_ + 1) == '/'))
    advance(1);
  std::size_t end = i_;
  while (end > start && std::isspace(static_cast<unsigned char>(s_[end - 1])))
    --end;
  t.text = std::string(s_.substr(start, end - start));
  return t;
}

Token LitmusScanner::scan() {
  skip_blanks_and_comments();
  Token t;
  t.pos = {line_, col_};
  const char c = at(i_);
  if (i_ >= s_.size()) {
    t.kind = Token::Kind::End;
    return t;
  }
  if (c == '\n') {
    t.kind = Token::Kind::Newline;
    advance(1);
    return t;
  }
  if (word_start(c)) {
    std::size_t n = 1;
    while (word_char(at(i_ + n)))
      ++n;
    t.kind = Token::Kind::Word;
    t.text = std::string(s_.substr(i_, n));
    advance(n);
    return t;
  }
  if (digit(c) || (c == '-' && digit(at(i_ + 1)))) {
    std::size_t n = 1;
    while (digit(at(i_ + n)))
      ++n;
    t.kind = Token::Kind::Int;
    t.text = std::string(s_.substr(i_, n));
    // Saturate: anything this large is out of range for the parser anyway.
    const bool negative = c == '-';
    std::int64_t v = 0;
    for (std::size_t k = negative ? 1 : 0; k < n; ++k)
      v = v > (std::int64_t{1} << 40) ? v : v * 10 + (s_[i_ + k] - '0');
    t.value = negative ? -v : v;
    advance(n);
    return t;
  }
  for (std::string_view p : {"==", "!=", "/\\", "\\/"}) {
    if (s_.substr(i_, 2) == p) {
      t.kind = Token::Kind::Punct;
      t.text = std::string(p);
      advance(2);
      return t;
    }
  }
  if (std::string_view("[],;:()=~").find(c) != std::string_view::npos) {
    t.kind = Token::Kind::Punct;
    t.text = std::string(1, c);
    advance(1);
    return t;
  }
  throw LitmusSyntaxError(t.pos, std::string("unexpected character '") + c + "'");
}

}  // namespace lookback::model
