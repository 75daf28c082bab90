// One operation group of the benchmark: at every size, the copy, CUB, any
// extra rows, then each lookback configuration through its own ScanPlan,
// timed, and its output checked against CUB's before and after the timed
// launches.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "harness/check.cuh"
#include "harness/pools.cuh"
#include "harness/report.hpp"
#include "harness/settings.hpp"
#include "harness/timing.cuh"
#include "lookback/device_scan.cuh"

namespace lookback_bench {

// Rows a group times besides the scans (after copy and CUB at each size):
// given n, the pools, the stream and the copy's and CUB's times.
template <class T>
using ExtraRows = std::function<void(std::int64_t, const Pools<T>&, cudaStream_t, Timing, Timing)>;

// Runs one operation over all sizes: copy, CUB, then every lookback plan.
// In place (kInPlace): CUB and the plans scan each output slice over itself
// (the values drift from launch to launch, which the timing does not mind);
// the checks first copy slice 0's input into its output. The copy row stays
// the out-of-place copy, the reference line.
template <class C, class T, bool kInPlace, class... Cfgs>
void run_op(const Settings& settings, const char* op_name, const std::vector<std::int64_t>& ns,
            const std::vector<const char*>& impl_names, std::int64_t offset_items = 0,
            const ExtraRows<T>& extra_rows = {}) {
  if (!settings.group.empty() && settings.group != op_name) return;
  ++g_report.groups_run;
  if (ns.empty()) {  // e.g. --max-log below every size the group times
    std::printf("\n== %s ==\nno size of this group within --min-log %d .. --max-log %d\n", op_name,
                settings.min_log, settings.max_log);
    return;
  }
  std::printf("\n== %s ==\n%-14s %11s  %-22s %10s %9s %8s %8s  %s\n", op_name, "op", "n", "impl",
              "median_us", "GB/s", "%copy", "vsCUB", "check");
  const std::int64_t max_n = *std::max_element(ns.begin(), ns.end());
  Pools<T> pools(max_n, offset_items);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  std::size_t cub_bytes = 0;
  CHECK_CUDA(C::cub_scan(nullptr, cub_bytes, pools.in, pools.out, max_n, stream));
  void* cub_temp = nullptr;
  CHECK_CUDA(cudaMalloc(&cub_temp, cub_bytes + 256));

  auto plans = std::make_tuple(lookback::ScanPlan<T, Cfgs>()...);
  std::apply([&](auto&... p) { ([&] { CHECK_CUDA(p.init(max_n, stream)); }(), ...); }, plans);
  CHECK_CUDA(cudaStreamSynchronize(stream));

  for (std::int64_t n : ns) {
    const int slices = pools.slices(n);
    const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
    // Copy.
    const Timing copy = time_it(
        [&](int s) {
          CHECK_CUDA(cudaMemcpyAsync(pools.out_slice(n, s), pools.in_slice(n, s), n * sizeof(T),
                                     cudaMemcpyDeviceToDevice, stream));
        },
        slices, stream, settings.quick);
    // CUB, and its output as the expected result for slice 0.
    std::size_t b = cub_bytes;
    CHECK_CUDA(C::cub_scan(cub_temp, b, pools.in_slice(n, 0), pools.expected, n, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::string cub_check = "gpu";
    if (n <= (std::int64_t{1} << 22)) {
      std::vector<T> h_in(n), h_out(n);
      CHECK_CUDA(
          cudaMemcpy(h_in.data(), pools.in_slice(n, 0), n * sizeof(T), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(h_out.data(), pools.expected, n * sizeof(T), cudaMemcpyDeviceToHost));
      const std::vector<T> want = C::reference(h_in);
      cub_check =
          std::memcmp(want.data(), h_out.data(), n * sizeof(T)) == 0 ? "cpu-ok" : "CPU-FAIL";
    }
    // The input a timed launch of slice s reads.
    const auto source = [&](int s) -> const T* {
      return kInPlace ? pools.out_slice(n, s) : pools.in_slice(n, s);
    };
    const Timing cub = time_it(
        [&](int s) {
          std::size_t bb = cub_bytes;
          CHECK_CUDA(C::cub_scan(cub_temp, bb, source(s), pools.out_slice(n, s), n, stream));
        },
        slices, stream, settings.quick);
    // Slice 0 of a checked launch: its input, in its output slice if in place.
    const auto checked_input = [&]() -> const T* {
      if constexpr (kInPlace) {
        CHECK_CUDA(cudaMemcpyAsync(pools.out_slice(n, 0), pools.in_slice(n, 0), n * sizeof(T),
                                   cudaMemcpyDeviceToDevice, stream));
      }
      return source(0);
    };
    if constexpr (kInPlace) {  // CUB in place against its out-of-place result
      std::size_t bb = cub_bytes;
      CHECK_CUDA(C::cub_scan(cub_temp, bb, checked_input(), pools.out_slice(n, 0), n, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      const unsigned long long bad = mismatches(pools.out_slice(n, 0), pools.expected, n);
      cub_check += bad == 0 ? "/inplace-ok" : "/INPLACE-FAIL(" + std::to_string(bad) + ")";
    }
    emit({op_name, n, "copy", copy.median_us, copy.min_us, bytes / copy.median_us / 1e3, 100.0,
          cub.median_us / copy.median_us, "-"});
    emit({op_name, n, "cub", cub.median_us, cub.min_us, bytes / cub.median_us / 1e3,
          100.0 * copy.median_us / cub.median_us, 1.0, cub_check});
    if (extra_rows) extra_rows(n, pools, stream, copy, cub);
    // Lookback variants.
    std::size_t idx = 0;
    std::apply(
        [&](auto&... plan) {
          (
              [&](auto& p) {
                const char* name = impl_names[idx++];
                CHECK_CUDA(C::plan_scan(p, checked_input(), pools.out_slice(n, 0), n, stream));
                CHECK_CUDA(cudaStreamSynchronize(stream));
                const unsigned long long bad = mismatches(pools.out_slice(n, 0), pools.expected, n);
                const Timing t = time_it(
                    [&](int s) {
                      CHECK_CUDA(C::plan_scan(p, source(s), pools.out_slice(n, s), n, stream));
                    },
                    slices, stream, settings.quick);
                // Re-check after the timed runs (many epochs on one plan).
                CHECK_CUDA(C::plan_scan(p, checked_input(), pools.out_slice(n, 0), n, stream));
                CHECK_CUDA(cudaStreamSynchronize(stream));
                const unsigned long long bad2 =
                    mismatches(pools.out_slice(n, 0), pools.expected, n);
                emit({op_name, n, name, t.median_us, t.min_us, bytes / t.median_us / 1e3,
                      100.0 * copy.median_us / t.median_us, cub.median_us / t.median_us,
                      bad + bad2 == 0 ? "ok" : "FAIL(" + std::to_string(bad + bad2) + ")"});
              }(plan),
              ...);
        },
        plans);
  }
  CHECK_CUDA(cudaFree(cub_temp));
  CHECK_CUDA(cudaStreamDestroy(stream));
  print_default_gaps(op_name, impl_names);
}

}  // namespace lookback_bench
