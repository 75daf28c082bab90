// The benchmark's rows: one per timed implementation and size, printed as a
// table line, written to the --csv file and kept for the final count of
// failed checks. The stats suite writes rows of its own to the same file
// (stats.cu: op "stats_<name>", then n, perturbation, median and minimum
// us, windows and spin rounds per tile, fallbacks, fallbacks won, windows
// read again per tile and re-reads that restarted at a PREFIX; the file's
// header line names the timing rows' columns only).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lookback_bench {

struct Row {
  std::string op;
  std::int64_t n;
  std::string impl;
  double median_us;
  double min_us;
  double gbps;
  double pct_copy;
  double vs_cub;  // CUB time / this time (> 1: faster than CUB)
  std::string check;
};

// One process runs one report: the rows so far, the CSV (null: none) and
// how many operation groups ran (--group picks one; none is a usage error).
struct Report {
  std::vector<Row> rows;
  FILE* csv = nullptr;
  int groups_run = 0;
};
inline Report g_report;

// Opens the --csv file and writes its header; false (errno set) if it cannot.
inline bool open_csv(const std::string& path) {
  g_report.csv = std::fopen(path.c_str(), "w");
  if (!g_report.csv) return false;
  std::fprintf(g_report.csv, "op,n,impl,median_us,min_us,gbps,pct_copy,speedup_vs_cub,check\n");
  return true;
}

// A row of the CSV and of the failure count, not printed.
inline void record(const Row& r) {
  if (g_report.csv) {
    std::fprintf(g_report.csv, "%s,%lld,%s,%.3f,%.3f,%.2f,%.2f,%.4f,%s\n", r.op.c_str(),
                 static_cast<long long>(r.n), r.impl.c_str(), r.median_us, r.min_us, r.gbps,
                 r.pct_copy, r.vs_cub, r.check.c_str());
    std::fflush(g_report.csv);
  }
  g_report.rows.push_back(r);
}

// A row printed as a table line, then recorded.
inline void emit(const Row& r) {
  std::printf("%-14s %11lld  %-22s %10.2f %9.1f %7.1f%% %7.2fx  %s\n", r.op.c_str(),
              static_cast<long long>(r.n), r.impl.c_str(), r.median_us, r.gbps, r.pct_copy,
              r.vs_cub, r.check.c_str());
  std::fflush(stdout);
  record(r);
}

// The default configuration against the other lookback rows of its group
// at one size: its time, and the fastest of the others.
struct DefaultGap {
  std::int64_t n;
  double default_us;
  std::string fastest;
  double fastest_us;
};

// For a group that times the default configuration next to other lookback
// rows (a row named "default" among `plans`, the group's ScanPlan rows): at
// each size, the fastest of the others, EXPT rows (measurements, not
// variants) left out, as are copy, CUB and a group's extra rows. Where the
// others include the default's own tiers (explore_default*), this says how
// well its switches fit the GPU it runs on: the first question of a new
// GPU's bring-up.
inline std::vector<DefaultGap> default_gaps(const std::vector<Row>& rows, const std::string& op,
                                            const std::vector<const char*>& plans) {
  const auto is_other_plan = [&](const std::string& impl) {
    return impl != "default" && impl.rfind("EXPT", 0) != 0 &&
           std::find(plans.begin(), plans.end(), impl) != plans.end();
  };
  std::map<std::int64_t, double> default_us;
  std::map<std::int64_t, std::pair<double, std::string>> fastest;
  for (const Row& r : rows) {
    if (r.op != op) continue;
    if (r.impl == "default") {
      default_us[r.n] = r.median_us;
    } else if (is_other_plan(r.impl)) {
      auto [it, fresh] = fastest.try_emplace(r.n, r.median_us, r.impl);
      if (!fresh && r.median_us < it->second.first) it->second = {r.median_us, r.impl};
    }
  }
  std::vector<DefaultGap> gaps;
  for (const auto& [n, us] : default_us) {
    const auto f = fastest.find(n);
    if (f != fastest.end()) gaps.push_back({n, us, f->second.second, f->second.first});
  }
  return gaps;
}

// default_gaps of a group's rows so far, as a table after the group's rows
// (nothing for a group without a default row).
inline void print_default_gaps(const std::string& op, const std::vector<const char*>& plans) {
  const std::vector<DefaultGap> gaps = default_gaps(g_report.rows, op, plans);
  if (gaps.empty()) return;
  std::printf("\n-- %s: the default against the fastest other row --\n%11s %10s %10s  %s\n",
              op.c_str(), "n", "default_us", "gap_us", "fastest (us)");
  for (const DefaultGap& g : gaps)
    std::printf("%11lld %10.2f %+10.2f  %s (%.2f)\n", static_cast<long long>(g.n), g.default_us,
                g.default_us - g.fastest_us, g.fastest.c_str(), g.fastest_us);
  std::fflush(stdout);
}

}  // namespace lookback_bench
