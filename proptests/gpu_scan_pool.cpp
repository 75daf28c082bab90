// The process-wide device pool of the GPU properties and the dispatch of a
// case to its variant's translation unit.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpu_scan_runner.hpp"
#include "lookback/device/temp_storage.hpp"

namespace lookback::proptest {

namespace {

RunTotals g_totals;

// Indexed by VariantKind; filled at static initialisation (link_variant), so
// a function-local static: its construction precedes the first call.
std::array<VariantRunners, kVariantKinds>& runner_table() {
  static std::array<VariantRunners, kVariantKinds> table{};
  return table;
}

}  // namespace

bool link_variant(VariantKind v, VariantRunners runners) {
  runner_table()[static_cast<std::size_t>(v)] = runners;
  return true;
}

const VariantRunners* linked_runners(VariantKind v) {
  const VariantRunners& r = runner_table()[static_cast<std::size_t>(v)];
  return r.ops != nullptr ? &r : nullptr;
}

std::vector<VariantKind> linked_variants() {
  std::vector<VariantKind> linked;
  for (std::size_t i = 0; i < runner_table().size(); ++i)
    if (runner_table()[i].ops != nullptr) linked.push_back(static_cast<VariantKind>(i));
  return linked;
}

std::string properties_binary(VariantKind v) {
  std::string suffix = name(v);
  for (char& ch : suffix)
    if (ch == '-') ch = '_';
  return "gpu_scan_properties_" + suffix;
}

RunTotals run_totals() {
  return g_totals;
}
void count_scan(std::int64_t n) {
  ++g_totals.scans;
  g_totals.items += n;
}

Pool* Pool::get(std::string* error) {
  static Pool* pool = nullptr;
  static std::string failure;
  if (pool == nullptr && failure.empty()) {
    auto* p = new Pool();  // lives until the process exits
    if (const cudaError_t e = p->allocate(); e != cudaSuccess) {
      failure = std::string("allocating the device pool for LOOKBACK_PROP_MAX_N = ") +
                std::to_string(prop_max_items()) + ": " + cudaGetErrorName(e) + ": " +
                cudaGetErrorString(e);
      p->release();
      delete p;
    } else {
      pool = p;
    }
  }
  if (pool == nullptr && error != nullptr) *error = failure;
  return pool;
}

cudaError_t Pool::allocate() {
  max_items_ = prop_max_items();
  const std::size_t region =
      (static_cast<std::size_t>(max_items_) + 2 * kGuard + 8) * kMaxValueBytes + 256;
  // Tiles hold at least 32 items (32 threads, 1 item each). The shape bounds
  // every descriptor of values of up to 16 bytes: a 16-byte word every 32
  // bytes and two arrays of 16-byte values (the largest used, 8-byte values
  // packed with their tag, is one 16-byte word every 32 bytes).
  temp_bytes_ =
      device::temp_storage_bytes(static_cast<std::uint64_t>(max_items_ / 32 + 2),
                                 device::DescriptorShape{16, device::kPackedWordStride, 16, 2});
  auto device = [&](unsigned char** p) {
    void* v = nullptr;
    const cudaError_t e = cudaMalloc(&v, region);
    *p = static_cast<unsigned char*>(v);
    return e;
  };
  auto pinned = [&](unsigned char** p) {
    void* v = nullptr;
    const cudaError_t e = cudaMallocHost(&v, region);
    *p = static_cast<unsigned char*>(v);
    return e;
  };
  cudaError_t e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
  if (e == cudaSuccess) e = device(&a_);
  if (e == cudaSuccess) e = device(&b_);
  if (e == cudaSuccess) e = cudaMalloc(&temp_, temp_bytes_);
  if (e == cudaSuccess) e = pinned(&h_in_);
  if (e == cudaSuccess) e = pinned(&h_a_);
  if (e == cudaSuccess) e = pinned(&h_b_);
  return e;
}

void Pool::release() {
  if (stream_) cudaStreamDestroy(stream_);
  if (a_) cudaFree(a_);
  if (b_) cudaFree(b_);
  if (temp_) cudaFree(temp_);
  if (h_in_) cudaFreeHost(h_in_);
  if (h_a_) cudaFreeHost(h_a_);
  if (h_b_) cudaFreeHost(h_b_);
  stream_ = nullptr;
  a_ = b_ = h_in_ = h_a_ = h_b_ = nullptr;
  temp_ = nullptr;
  cudaGetLastError();
}

std::string Pool::recover_after_failure() {
  ++plan_generation_;
  const cudaError_t e = cudaDeviceSynchronize();
  cudaGetLastError();
  if (e == cudaSuccess) return {};
  // A sticky error: the context is gone, and every later call would fail
  // with it. Reset the device and start over (the plans notice through
  // context_generation and are made again).
  std::string note = std::string("CUDA context broken by ") + cudaGetErrorName(e) +
                     "; device reset and pool reallocated";
  stream_ = nullptr;
  a_ = b_ = h_in_ = h_a_ = h_b_ = nullptr;
  temp_ = nullptr;
  cudaDeviceReset();
  ++context_generation_;
  if (const cudaError_t a = allocate(); a != cudaSuccess)
    note += std::string(" (reallocation failed: ") + cudaGetErrorName(a) + ")";
  return note;
}

std::string run_case(const ScanCase& c) {
  ++g_totals.cases;
  if (!compiled(c)) return "not a compiled combination: " + to_string(c);
  const VariantRunners* runners = linked_runners(c.variant);
  if (runners == nullptr)
    return std::string("variant ") + name(c.variant) + " is not linked into this binary: run " +
           properties_binary(c.variant);
  std::string error;
  Pool* pool = Pool::get(&error);
  if (pool == nullptr) return error;
  const bool plain = c.deterministic || c.tuning != Tuning::Default;
  const std::string result = plain ? runners->plain(c, *pool) : runners->ops(c, *pool);
  if (result.empty()) return result;
  const std::string note = pool->recover_after_failure();
  return note.empty() ? result : result + " [" + note + "]";
}

}  // namespace lookback::proptest
