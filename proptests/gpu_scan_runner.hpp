// Runs ScanCases on the GPU: one device pool per process (input, output and
// temp-storage regions, pinned host staging, one stream), allocated on the
// first case and reused by every case; no cudaMalloc per case (each ScanPlan
// is allocated once, on the first case that uses its type and
// configuration). Host code; the kernels live in gpu_scan_<variant>_*.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu_scan_case.hpp"

namespace lookback::proptest {

// Runs one case (1 scan, or 3 in deterministic mode) and checks every
// output element, the guard elements around the output (and, out of place,
// the input and its guards). Returns "" when it passed, else what failed.
std::string run_case(const ScanCase& c);

// Totals since the start of the process (for the per-property summary).
struct RunTotals {
  std::int64_t cases = 0;
  std::int64_t scans = 0;
  std::int64_t items = 0;  // sum of n over scans
};
RunTotals run_totals();

// The device pool. Regions hold `region_elems` elements of up to 8 bytes:
// kGuard poisoned elements, up to 3 elements of misalignment, the data, and
// kGuard more.
class Pool {
 public:
  static constexpr std::int64_t kGuard = 16;  // 16 x 4 or 8 bytes: keeps 16-byte alignment
  static constexpr std::size_t kMaxValueBytes = 8;

  // The process's pool, allocated on first use; nullptr (and a message) if
  // that failed.
  static Pool* get(std::string* error);

  cudaStream_t stream() const { return stream_; }
  std::int64_t max_items() const { return max_items_; }
  unsigned char* region_a() const { return a_; }  // input (and output when in place)
  unsigned char* region_b() const { return b_; }  // output out of place
  unsigned char* host_in() const { return h_in_; }
  unsigned char* host_a() const { return h_a_; }
  unsigned char* host_b() const { return h_b_; }
  void* temp() const { return temp_; }
  std::size_t temp_bytes() const { return temp_bytes_; }

  // Plans compare these with the values they were made under: `plans`
  // changes after any failed case (plans are re-initialised: a failed scan
  // may leave descriptors of an unfinished epoch), `context` after a device
  // reset (old plan storage is gone: the plan objects are dropped without
  // freeing).
  std::uint64_t plan_generation() const { return plan_generation_; }
  std::uint64_t context_generation() const { return context_generation_; }

  // After a failed case: re-initialise plans; if the CUDA context is broken
  // (a sticky error, e.g. an illegal address), reset the device and allocate
  // the pool again, so that later cases (and shrinking) still run. Returns a
  // note for the failure message.
  std::string recover_after_failure();

 private:
  Pool() = default;
  cudaError_t allocate();
  void release();

  cudaStream_t stream_ = nullptr;
  std::int64_t max_items_ = 0;
  unsigned char* a_ = nullptr;
  unsigned char* b_ = nullptr;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
  unsigned char* h_in_ = nullptr;
  unsigned char* h_a_ = nullptr;
  unsigned char* h_b_ = nullptr;
  std::uint64_t plan_generation_ = 1;
  std::uint64_t context_generation_ = 1;
};

// Per-variant entry points (one translation unit each, to spread the kernel
// compilation): *_ops: the default tuning, not deterministic, every operator;
// *_plain: deterministic or another tuning, plain operator.
std::string run_coarsened_ops(const ScanCase& c, Pool& pool);
std::string run_coarsened_plain(const ScanCase& c, Pool& pool);
std::string run_warp_ops(const ScanCase& c, Pool& pool);
std::string run_warp_plain(const ScanCase& c, Pool& pool);
std::string run_fallback_ops(const ScanCase& c, Pool& pool);
std::string run_fallback_plain(const ScanCase& c, Pool& pool);
std::string run_pipelined_ops(const ScanCase& c, Pool& pool);
std::string run_pipelined_plain(const ScanCase& c, Pool& pool);

// The variants a property binary links. All of them in one binary is over
// 90 MB of kernels, too large to ship to a GPU machine, so there is one
// binary per variant (gpu_scan_properties_<variant>), and its
// gpu_scan_link_<variant>.cpp (generated from gpu_scan_link.cpp.in) registers
// the variant's entry points at static initialisation. run_case() dispatches
// through this table.
using CaseRunner = std::string (*)(const ScanCase&, Pool&);
struct VariantRunners {
  CaseRunner ops = nullptr;
  CaseRunner plain = nullptr;
};
// Returns true, so that a namespace-scope constant can call it.
bool link_variant(VariantKind v, VariantRunners runners);
// The entry points of `v`, or nullptr when this binary does not link it.
const VariantRunners* linked_runners(VariantKind v);
// The linked variants in VariantKind order.
std::vector<VariantKind> linked_variants();
// The name of the binary that links `v`: gpu_scan_properties_coarsened,
// gpu_scan_properties_warp_lookback, gpu_scan_properties_fallback.
std::string properties_binary(VariantKind v);

// Counts a finished scan of n items (called by the typed runners).
void count_scan(std::int64_t n);

}  // namespace lookback::proptest
