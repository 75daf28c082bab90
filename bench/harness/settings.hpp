// What one run of the benchmark was asked for (its command line), and the
// sizes a group times within it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace lookback_bench {

struct Settings {
  std::string csv;
  int min_log = 10;
  int max_log = 30;
  bool quick = false;
  std::string suite = "main";
  std::string group;      // empty: every group of the suite
  std::string trace_dir;  // --suite trace: per-tile stamps go here (empty: none)
};

// 2^l for each listed l within [min_log, max_log] (the sweeps' own sizes).
inline std::vector<std::int64_t> powers_of_two(const Settings& s, std::initializer_list<int> logs) {
  std::vector<std::int64_t> v;
  for (int l : logs)
    if (l >= s.min_log && l <= s.max_log) v.push_back(std::int64_t{1} << l);
  return v;
}

// 2^l, 1.25, 1.5 and 1.75 x 2^l for each l from lo to hi - 1, and 2^hi:
// the sizes between two powers where a switch is chosen (l within
// [min_log, max_log]).
inline std::vector<std::int64_t> quarter_steps(const Settings& s, int lo, int hi) {
  std::vector<std::int64_t> v;
  for (int l = lo; l <= hi; ++l)
    for (std::int64_t quarters : {4, 5, 6, 7})
      if (l >= s.min_log && l <= s.max_log && (l < hi || quarters == 4))
        v.push_back((std::int64_t{1} << l) / 4 * quarters);
  return v;
}

// Every power of two within [min_log, max_log] (--quick: fewer below 2^26),
// and with `odd` one size that is no power of two at 2^20 and 2^24.
inline std::vector<std::int64_t> sizes(const Settings& s, bool odd) {
  std::vector<std::int64_t> v;
  for (int l = s.min_log; l <= s.max_log; ++l) {
    if (s.quick && l < 26 && l % 2 == 1 && l != 25) continue;
    v.push_back(std::int64_t{1} << l);
    if (odd && (l == 20 || l == 24)) v.push_back((std::int64_t{1} << l) + 1234567 % (1 << (l - 4)));
  }
  return v;
}

}  // namespace lookback_bench
