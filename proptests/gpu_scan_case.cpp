// Printing and parsing the one-line form of a ScanCase.
#include "gpu_scan_case.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace lookback::proptest {

std::string to_string(const ScanCase& c) {
  std::ostringstream s;
  s << c;
  return s.str();
}

namespace {

template <class E>
bool parse_enum(std::string_view v, E* out, int count) {
  for (int i = 0; i < count; ++i) {
    if (v == name(static_cast<E>(i))) {
      *out = static_cast<E>(i);
      return true;
    }
  }
  return false;
}

template <class I>
bool parse_int(std::string_view v, I* out) {
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), *out);
  return ec == std::errc() && p == v.data() + v.size();
}

bool parse_bool(std::string_view v, bool* out) {
  if (v == "1" || v == "true") return *out = true, true;
  if (v == "0" || v == "false") return *out = false, true;
  return false;
}

std::int64_t parse_max_items(const char* text) {
  if (text == nullptr || *text == '\0') return std::int64_t{1} << 24;
  const std::string s(text);
  char* end = nullptr;
  std::int64_t v = -1;
  if (s.rfind("2^", 0) == 0) {
    const long e = std::strtol(s.c_str() + 2, &end, 10);
    if (*end == '\0' && e >= 0 && e <= 40) v = std::int64_t{1} << e;
  } else {
    const long long x = std::strtoll(s.c_str(), &end, 10);
    if (*end == '\0' && x >= 0) v = x;
  }
  if (v < 0) {
    std::fprintf(stderr, "LOOKBACK_PROP_MAX_N='%s' is not a number or 2^k; using 2^24\n", text);
    return std::int64_t{1} << 24;
  }
  return v;
}

}  // namespace

std::int64_t prop_max_items() {
  static const std::int64_t n = parse_max_items(std::getenv("LOOKBACK_PROP_MAX_N"));
  return n;
}

std::optional<ScanCase> parse_case(const std::string& line, std::string* error) {
  ScanCase c;
  std::istringstream words(line);
  std::string word;
  while (words >> word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) {
      if (error) *error = "expected key=value, got '" + word + "'";
      return std::nullopt;
    }
    const std::string_view key(word.data(), eq);
    const std::string_view v(word.data() + eq + 1, word.size() - eq - 1);
    bool ok = false;
    if (key == "variant") {
      ok = parse_enum(v, &c.variant, kVariantKinds);
    } else if (key == "det") {
      ok = parse_bool(v, &c.deterministic);
    } else if (key == "tuning") {
      ok = parse_enum(v, &c.tuning, 4);
    } else if (key == "type") {
      ok = parse_enum(v, &c.type, 7);
    } else if (key == "op") {
      ok = parse_enum(v, &c.op, 5);
    } else if (key == "mode") {
      ok = v == "inclusive" || v == "exclusive";
      c.exclusive = v == "exclusive";
    } else if (key == "init") {
      ok = parse_int(v, &c.init);
    } else if (key == "n") {
      ok = parse_int(v, &c.n) && c.n >= 0;
    } else if (key == "misalign") {
      const auto comma = v.find(',');
      if (comma == std::string_view::npos) {
        ok = parse_int(v, &c.misalign_in);
        c.misalign_out = c.misalign_in;
      } else {
        ok = parse_int(v.substr(0, comma), &c.misalign_in) &&
             parse_int(v.substr(comma + 1), &c.misalign_out);
      }
      ok = ok && c.misalign_in >= 0 && c.misalign_in < 4 && c.misalign_out >= 0 &&
           c.misalign_out < 4;
    } else if (key == "stall") {
      const auto slash = v.find('/');
      ok = slash != std::string_view::npos && parse_int(v.substr(0, slash), &c.stall_ns) &&
           parse_int(v.substr(slash + 1), &c.stall_every);
    } else if (key == "inplace") {
      ok = parse_bool(v, &c.in_place);
    } else if (key == "vector") {
      ok = parse_bool(v, &c.vector);
    } else if (key == "entry") {
      ok = parse_enum(v, &c.entry, 2);
    } else if (key == "values") {
      ok = parse_enum(v, &c.values, 3);
    } else if (key == "seed") {
      ok = parse_int(v, &c.seed);
    } else {
      if (error) *error = "unknown key '" + std::string(key) + "'";
      return std::nullopt;
    }
    if (!ok) {
      if (error) *error = "bad value in '" + word + "'";
      return std::nullopt;
    }
  }
  if (c.in_place) c.misalign_out = c.misalign_in;
  if (!compiled(c)) {
    if (error) *error = "this combination is not compiled into the binary (see compiled())";
    return std::nullopt;
  }
  return c;
}

}  // namespace lookback::proptest
