// Writing JSON by hand, safely: every report (lookback-check --json, litmus
// reports, the stress report) quotes its strings through here.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace lookback {

// `s` escaped for the inside of a JSON string literal.
inline std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

// `s` as a JSON string literal, quotes included.
inline std::string json_string(std::string_view s) {
  std::string out(1, '"');
  out += json_escape(s);
  out += '"';
  return out;
}

}  // namespace lookback
