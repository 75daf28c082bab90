// The benchmark's rows: one per timed implementation and size, printed as a
// table line, written to the --csv file (its header: scan_bench.cu's main)
// and kept for the final count of failed checks.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
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

}  // namespace lookback_bench
