// lookback_bench: times each lookback variant, cub::DeviceScan and
// cudaMemcpyAsync (device to device) in one process.
//
//   lookback_bench [--csv FILE] [--min-log 10] [--max-log 30] [--quick]
//                  [--suite main|tuning|stats|explore|trace|all] [--group NAME]
//                  [--trace-dir DIR]
//
// --group NAME runs only the operation group of that name (the "== NAME =="
// headings of the output, e.g. explore_warp_u64) within the suite.
//
// Method: the lookback variants run through ScanPlan (Reset::Epoch: one
// launch per scan, no memset); every timed launch reads and writes another
// slice of input/output pools of at least 256 MiB each (more than the 50 MB
// L2), so no run finds its data in L2; CUDA events around every launch;
// warm-up launches first; the median of the repetitions is reported. GB/s
// counts one read and one write per element. Every implementation's output
// is compared bitwise with CUB's on the GPU at every size (inputs are small
// integers, so float sums are exact), and CUB's with the CPU reference up to
// 2^22 items. Operations named *_inplace scan each output slice over itself
// (d_in == d_out), where the fallback runs its in-place protocol.
//
// The harness (timing, pools, checks, rows, configurations) is in
// bench/harness/, the suites in bench/suites/.
#include <cuda_runtime.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "harness/check.cuh"
#include "harness/report.hpp"
#include "harness/settings.hpp"
#include "lookback/device_scan.cuh"
#include "suites/suites.hpp"

namespace {

constexpr const char* kUsage =
    "usage: %s [--csv FILE] [--min-log L] [--max-log L] [--quick] "
    "[--suite main|tuning|stats|explore|trace|all] [--group NAME] [--trace-dir DIR]\n"
    "  sizes 2^L with 0 <= min-log <= max-log <= 30 (CUB takes int counts)\n";

// A whole decimal number in [lo, hi], or false.
bool parse_log(const std::string& text, int lo, int hi, int& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

bool known_suite(const std::string& suite) {
  for (const char* s : {"main", "tuning", "stats", "explore", "trace", "all"})
    if (suite == s) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace lookback_bench;
  Settings s;
  const auto usage_error = [&](const std::string& why) {
    std::fprintf(stderr, "%s: %s\n", argv[0], why.c_str());
    std::fprintf(stderr, kUsage, argv[0]);
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      s.quick = true;
      continue;
    }
    const bool takes_value = a == "--csv" || a == "--min-log" || a == "--max-log" ||
                             a == "--suite" || a == "--group" || a == "--trace-dir";
    if (!takes_value) return usage_error("unknown argument '" + a + "'");
    if (i + 1 >= argc) return usage_error(a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--csv") {
      s.csv = v;
    } else if (a == "--min-log") {
      if (!parse_log(v, 0, 30, s.min_log))
        return usage_error("--min-log '" + v + "' is no whole number from 0 to 30");
    } else if (a == "--max-log") {
      if (!parse_log(v, 0, 30, s.max_log))
        return usage_error("--max-log '" + v + "' is no whole number from 0 to 30");
    } else if (a == "--suite") {
      if (!known_suite(v)) return usage_error("no suite '" + v + "'");
      s.suite = v;
    } else if (a == "--group") {
      s.group = v;
    } else {
      s.trace_dir = v;
    }
  }
  // Stats and trace time fixed configurations, not operation groups; "all"
  // runs stats too.
  if (!s.group.empty() && s.suite != "main" && s.suite != "tuning" && s.suite != "explore")
    return usage_error("--group picks an operation group of the main, tuning or explore suite");
  if (!s.trace_dir.empty() && s.suite != "trace")
    return usage_error("--trace-dir is for --suite trace");
  std::error_code no_dir;  // the overload that reports instead of throwing
  if (!s.trace_dir.empty() && !std::filesystem::is_directory(s.trace_dir, no_dir))
    return usage_error("--trace-dir '" + s.trace_dir + "' is no directory");
  if (s.min_log > s.max_log)
    return usage_error("size logs: the smallest (" + std::to_string(s.min_log) +
                       ") is above the largest (" + std::to_string(s.max_log) +
                       "; defaults 10 and 30)");
  int devices = 0;
  const cudaError_t found = cudaGetDeviceCount(&devices);
  if (found != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "%s: no CUDA device (%s): the benchmark needs a GPU\n", argv[0],
                 found != cudaSuccess ? cudaGetErrorName(found) : "the driver reports none");
    return 1;
  }
  int dev = 0;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDevice(&dev));
  CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
  lookback::DeviceMemory mem;
  CHECK_CUDA(lookback::detail::query_device_memory(dev, mem));
  const double gbps_per_sm = lookback::dram_gbps_per_sm(mem);
  std::printf(
      "device: %s, %d SMs, L2 %d MB, sm_%d%d, DRAM %d MHz x %d bits = %.0f GB/s peak, %.1f GB/s "
      "per SM\n",
      prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, prop.major, prop.minor,
      mem.memory_clock_khz / 1000, mem.bus_width_bits, gbps_per_sm * mem.sms, gbps_per_sm);
  if (lookback::detail::picks_wide_here<lookback::PipelinedByDevice<double>>())
    std::printf(
        "8-byte default above its small tiles: pipelined, pipelined-wide above %lld MiB of f64 "
        "and %lld MiB of u64\n",
        static_cast<long long>(lookback::default_wide_switch_bytes<double>() >> 20),
        static_cast<long long>(lookback::default_wide_switch_bytes<std::uint64_t>() >> 20));
  else
    std::printf("8-byte default above its small tiles: pipelined\n");
  if (!s.csv.empty() && !open_csv(s.csv)) {
    std::perror(s.csv.c_str());
    return 1;
  }
  if (s.suite == "main" || s.suite == "all") main_suite(s);
  if (s.suite == "tuning" || s.suite == "all") tuning_suite(s);
  if (s.suite == "stats" || s.suite == "all") stats_suite(s);
  if (s.suite == "explore") {
    explore_shape_groups(s);
    explore_input_groups(s);
    explore_protocol_groups(s);
  }
  if (s.suite == "trace") trace_suite(s);
  if (!s.group.empty() && g_report.groups_run == 0) {
    std::fprintf(stderr, "no operation group '%s' in suite '%s'\n", s.group.c_str(),
                 s.suite.c_str());
    if (g_report.csv) std::fclose(g_report.csv);
    return 2;
  }
  int failures = 0;
  for (const Row& r : g_report.rows)
    if (r.check.find("FAIL") != std::string::npos) ++failures;
  std::printf("\n%d result checks failed\n", failures);
  if (g_report.csv) std::fclose(g_report.csv);
  return failures ? 1 : 0;
}
