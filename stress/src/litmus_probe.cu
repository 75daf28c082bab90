// GPU litmus probes: kernels and host driver. See stress/litmus_probe.hpp.
//
// Method (after Alglave et al., ASPLOS 2015, and Sorensen & Donaldson's GPU
// litmus stressing; the thread/location mapping follows the MC Mutants style
// harness):
//
// * Thread -> instance mapping. A launch has `testing_blocks` blocks of 256
//   threads and n = 256 * testing_blocks instances. Every testing thread
//   (block B, lane L) runs T0 of instance t = 256*B + L and T1 of instance
//   j = 256*((B + shift) % testing_blocks) + (lane_mul*L + lane_add) % 256,
//   with shift in [1, testing_blocks) and lane_mul odd, all drawn per launch.
//   Both maps are bijections, so each instance has exactly one T0 and one T1,
//   and they are always in different blocks (inter-CTA, .gpu scope). Using
//   every lane for both roles keeps the memory system as busy as possible with
//   test traffic itself (more instances per launch, more contention); a small
//   shift pairs blocks dispatched close together, so the two sides overlap in
//   time. Whether a warp runs its T0 or its T1 first is drawn per warp.
// * Placement. Every location gets its own 128-byte line: x_i is line
//   P(2i), y_i is line P(2i+1), where P(u) = (loc_mul*u + loc_add) mod 2n is a
//   random affine permutation, so neighbouring instances never share a line and
//   a warp's accesses scatter over the buffer. The word within the line is
//   drawn per launch.
// * Timing. Each warp spins a random number of clock cycles (hash of seed,
//   launch and warp) before its first role and between its two roles. Delays
//   are per warp because divergent per-lane delays would reconverge anyway.
// * Memory stress. Extra blocks, launched in the same grid after the testing
//   blocks and sized so the whole grid is co-resident, hammer a small scratch
//   region (a few lines, one per warp, picked at random) with a per-launch
//   access pattern (store/store, store/load, load/store, load/load) of
//   relaxed .gpu atomics, i.e. the same L2 path the test accesses take.
// * Counting. Registers go to a result array (initialised to a sentinel); a
//   second kernel classifies each instance into outcomes[r0*2+r1] with atomic
//   counters, plus an "invalid" counter for registers other than 0/1 (or never
//   written). The host checks invalid == 0 and that the four outcomes sum to
//   the instances of the launch, and throws otherwise.
// * Termination. No thread ever waits on another: every loop is bounded by an
//   iteration count, so a probe cannot hang.
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

#include "lookback/splitmix.hpp"

#include "stress/litmus_probe.hpp"

namespace lookback::stress {

namespace {

constexpr unsigned kBlockThreads = 256;
constexpr unsigned kLineWords = 32;    // 128-byte line of unsigned
constexpr unsigned kStressLines = 64;  // scratch region for memory stress
constexpr unsigned kStressIterations = 1024;
constexpr unsigned kMaxDelayCycles = 1024;
constexpr int kMaxTestingBlocks = 1 << 16;

#define LITMUS_CUDA(expr)                                                     \
  do {                                                                        \
    const cudaError_t litmus_err = (expr);                                    \
    if (litmus_err != cudaSuccess)                                            \
      throw std::runtime_error(std::string("litmus probe: ") + #expr + ": " + \
                               cudaGetErrorName(litmus_err) + ": " +          \
                               cudaGetErrorString(litmus_err));               \
  } while (0)

using lookback::splitmix64;

struct LaunchParams {
  unsigned* locs;     // 2n lines of kLineWords words, zeroed before each launch
  unsigned* results;  // 2n registers, 0xffffffff before each launch
  unsigned* scratch;  // kStressLines lines
  unsigned* sink;     // keeps stress loads alive
  unsigned testing_blocks;
  unsigned n;  // instances in this launch
  unsigned block_shift;
  unsigned lane_mul;
  unsigned lane_add;
  unsigned long long loc_mul;
  unsigned long long loc_add;
  unsigned word_offset;
  unsigned long long hash_seed;
  unsigned stress_pattern;  // 0 st/st, 1 st/ld, 2 ld/st, 3 ld/ld
};

using Ref = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

__device__ inline unsigned* location(const LaunchParams& p, unsigned long long u) {
  const unsigned long long line = (p.loc_mul * u + p.loc_add) % (2ull * p.n);
  return p.locs + line * kLineWords + p.word_offset;
}

__device__ inline void spin_cycles(unsigned cycles) {
  const long long start = clock64();
  for (unsigned i = 0; i < 4 * kMaxDelayCycles; ++i)  // bounded even if clock stalls
    if (clock64() - start >= cycles) break;
}

__device__ inline void fence_sc() {
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
}

template <LitmusShape S>
__device__ void run_t0(const LaunchParams& p, unsigned i) {
  Ref x(*location(p, 2ull * i));
  Ref y(*location(p, 2ull * i + 1));
  if constexpr (S == LitmusShape::SB) {
    x.store(1u, cuda::memory_order_relaxed);
    p.results[2ull * i] = y.load(cuda::memory_order_relaxed);
  } else if constexpr (S == LitmusShape::LB) {
    p.results[2ull * i] = x.load(cuda::memory_order_relaxed);
    y.store(1u, cuda::memory_order_relaxed);
  } else {  // MP writer
    x.store(1u, cuda::memory_order_relaxed);
    if constexpr (S == LitmusShape::MPWriterFenceOnly || S == LitmusShape::MPFenced) fence_sc();
    if constexpr (S == LitmusShape::MPRelAcq)
      y.store(1u, cuda::memory_order_release);
    else
      y.store(1u, cuda::memory_order_relaxed);
  }
}

template <LitmusShape S>
__device__ void run_t1(const LaunchParams& p, unsigned i) {
  Ref x(*location(p, 2ull * i));
  Ref y(*location(p, 2ull * i + 1));
  if constexpr (S == LitmusShape::SB) {
    y.store(1u, cuda::memory_order_relaxed);
    p.results[2ull * i + 1] = x.load(cuda::memory_order_relaxed);
  } else if constexpr (S == LitmusShape::LB) {
    p.results[2ull * i + 1] = y.load(cuda::memory_order_relaxed);
    x.store(1u, cuda::memory_order_relaxed);
  } else {  // MP reader
    unsigned r0;
    if constexpr (S == LitmusShape::MPRelAcq)
      r0 = y.load(cuda::memory_order_acquire);
    else
      r0 = y.load(cuda::memory_order_relaxed);
    if constexpr (S == LitmusShape::MPReaderFenceOnly || S == LitmusShape::MPFenced) fence_sc();
    const unsigned r1 = x.load(cuda::memory_order_relaxed);
    p.results[2ull * i] = r0;
    p.results[2ull * i + 1] = r1;
  }
}

__device__ void stress_block(const LaunchParams& p) {
  const unsigned warp = (blockIdx.x - p.testing_blocks) * (kBlockThreads / 32) + threadIdx.x / 32;
  const unsigned line =
      static_cast<unsigned>(splitmix64(p.hash_seed ^ (0x5157ull << 32) ^ warp) % kStressLines);
  Ref a(p.scratch[line * kLineWords + threadIdx.x % 32]);
  unsigned acc = 0;
  for (unsigned it = 0; it < kStressIterations; ++it) {
    switch (p.stress_pattern) {
      case 0:
        a.store(it, cuda::memory_order_relaxed);
        a.store(it + 1, cuda::memory_order_relaxed);
        break;
      case 1:
        a.store(it, cuda::memory_order_relaxed);
        acc += a.load(cuda::memory_order_relaxed);
        break;
      case 2:
        acc += a.load(cuda::memory_order_relaxed);
        a.store(it, cuda::memory_order_relaxed);
        break;
      default:
        acc += a.load(cuda::memory_order_relaxed);
        acc += a.load(cuda::memory_order_relaxed);
        break;
    }
  }
  if (acc == 0x9e3779b9u) *p.sink = acc;  // practically never; keeps the loads
}

template <LitmusShape S>
__global__ void __launch_bounds__(kBlockThreads) litmus_kernel(LaunchParams p) {
  if (blockIdx.x >= p.testing_blocks) {
    stress_block(p);
    return;
  }
  const unsigned lane = threadIdx.x;
  const unsigned t = blockIdx.x * kBlockThreads + lane;
  const unsigned partner_block = (blockIdx.x + p.block_shift) % p.testing_blocks;
  const unsigned j =
      partner_block * kBlockThreads + ((p.lane_mul * lane + p.lane_add) % kBlockThreads);
  const std::uint64_t h = splitmix64(p.hash_seed ^ (t / 32));
  const bool t1_first = (h & 1) != 0;
  spin_cycles(static_cast<unsigned>((h >> 8) % kMaxDelayCycles));
  if (t1_first) {
    run_t1<S>(p, j);
    spin_cycles(static_cast<unsigned>((h >> 24) % kMaxDelayCycles));
    run_t0<S>(p, t);
  } else {
    run_t0<S>(p, t);
    spin_cycles(static_cast<unsigned>((h >> 24) % kMaxDelayCycles));
    run_t1<S>(p, j);
  }
}

// counters[0..3]: outcomes r0*2+r1; counters[4]: a register not 0 or 1.
__global__ void classify_kernel(const unsigned* results, unsigned n, unsigned long long* counters) {
  __shared__ unsigned local[5];
  if (threadIdx.x < 5) local[threadIdx.x] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned r0 = results[2ull * i];
    const unsigned r1 = results[2ull * i + 1];
    const unsigned k = (r0 <= 1 && r1 <= 1) ? r0 * 2 + r1 : 4;
    atomicAdd(&local[k], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 5 && local[threadIdx.x] != 0)
    atomicAdd(&counters[threadIdx.x], static_cast<unsigned long long>(local[threadIdx.x]));
}

using KernelFn = void (*)(LaunchParams);

KernelFn kernel_for(LitmusShape shape) {
  switch (shape) {
    case LitmusShape::MP:
      return litmus_kernel<LitmusShape::MP>;
    case LitmusShape::SB:
      return litmus_kernel<LitmusShape::SB>;
    case LitmusShape::LB:
      return litmus_kernel<LitmusShape::LB>;
    case LitmusShape::MPWriterFenceOnly:
      return litmus_kernel<LitmusShape::MPWriterFenceOnly>;
    case LitmusShape::MPReaderFenceOnly:
      return litmus_kernel<LitmusShape::MPReaderFenceOnly>;
    case LitmusShape::MPFenced:
      return litmus_kernel<LitmusShape::MPFenced>;
    case LitmusShape::MPRelAcq:
      return litmus_kernel<LitmusShape::MPRelAcq>;
  }
  throw std::invalid_argument("litmus probe: unknown shape");
}

struct CudaFree {
  void operator()(void* ptr) const { cudaFree(ptr); }
};
template <class T>
using DeviceBuffer = std::unique_ptr<T, CudaFree>;

template <class T>
DeviceBuffer<T> device_alloc(std::size_t count) {
  void* ptr = nullptr;
  LITMUS_CUDA(cudaMalloc(&ptr, count * sizeof(T)));
  return DeviceBuffer<T>(static_cast<T*>(ptr));
}

}  // namespace

const char* to_string(LitmusShape shape) {
  switch (shape) {
    case LitmusShape::MP:
      return "MP";
    case LitmusShape::SB:
      return "SB";
    case LitmusShape::LB:
      return "LB";
    case LitmusShape::MPWriterFenceOnly:
      return "MP+fence.sc(writer)";
    case LitmusShape::MPReaderFenceOnly:
      return "MP+fence.sc(reader)";
    case LitmusShape::MPFenced:
      return "MP+fence.sc(both)";
    case LitmusShape::MPRelAcq:
      return "MP+rel/acq";
  }
  return "?";
}

std::vector<LitmusShape> all_litmus_shapes() {
  return {LitmusShape::MP,
          LitmusShape::SB,
          LitmusShape::LB,
          LitmusShape::MPWriterFenceOnly,
          LitmusShape::MPReaderFenceOnly,
          LitmusShape::MPFenced,
          LitmusShape::MPRelAcq};
}

int weak_outcome_index(LitmusShape shape) {
  switch (shape) {
    case LitmusShape::SB:
      return 0;  // r0=0 r1=0
    case LitmusShape::LB:
      return 3;  // r0=1 r1=1
    default:
      return 2;  // MP family: r0=1 r1=0
  }
}

const char* weak_outcome(LitmusShape shape) {
  static const char* const names[4] = {"r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"};
  return names[weak_outcome_index(shape)];
}

bool weak_allowed_by_ptx(LitmusShape shape) {
  // fence.sc on both sides (fence-SC order) and release/acquire (a
  // synchronizes-with edge) forbid MP's weak outcome; everything else is
  // unordered by PTX (which, unlike RC11, also allows load buffering).
  return shape != LitmusShape::MPFenced && shape != LitmusShape::MPRelAcq;
}

LitmusProbeResult run_litmus_probe(LitmusShape shape, const LitmusProbeConfig& config) {
  const auto start = std::chrono::steady_clock::now();
  const KernelFn kernel = kernel_for(shape);

  LitmusProbeResult result;
  result.shape = shape;
  result.name = to_string(shape);
  result.weak_outcome = weak_outcome(shape);
  result.weak_allowed_by_ptx = weak_allowed_by_ptx(shape);

  int device = 0;
  LITMUS_CUDA(cudaGetDevice(&device));
  int sms = 0;
  LITMUS_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  int per_sm = 0;
  LITMUS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                            static_cast<int>(kBlockThreads), 0));
  const long long capacity = std::max(2LL, static_cast<long long>(per_sm) * sms);

  // Stress blocks come after the testing blocks in the same grid; with
  // blocks == 0 the whole grid fits on the GPU at once, so they run alongside.
  const int stress_blocks = config.memory_stress ? std::max(1, sms) : 0;
  long long testing = config.blocks > 0 ? config.blocks : capacity - stress_blocks;
  if (config.blocks <= 0 && config.instances > 0) {
    const long long needed =
        static_cast<long long>((config.instances + kBlockThreads - 1) / kBlockThreads);
    testing = std::min(testing, needed);
  }
  testing = std::clamp(testing, 2LL, static_cast<long long>(kMaxTestingBlocks));
  const unsigned testing_blocks = static_cast<unsigned>(testing);
  const unsigned n = testing_blocks * kBlockThreads;
  result.testing_blocks = static_cast<int>(testing_blocks);
  result.stress_blocks = stress_blocks;

  auto locs = device_alloc<unsigned>(2ull * n * kLineWords);
  auto results = device_alloc<unsigned>(2ull * n);
  auto scratch = device_alloc<unsigned>(static_cast<std::size_t>(kStressLines) * kLineWords);
  auto sink = device_alloc<unsigned>(1);
  auto counters = device_alloc<unsigned long long>(5);
  LITMUS_CUDA(cudaMemset(scratch.get(), 0, kStressLines * kLineWords * sizeof(unsigned)));

  const unsigned long long loc_count = 2ull * n;
  for (int launch = 0;; ++launch) {
    std::uint64_t r = splitmix64((static_cast<std::uint64_t>(config.seed) << 32) ^
                                 static_cast<std::uint64_t>(shape) << 24 ^ launch);
    auto next = [&r] { return r = splitmix64(r); };

    LaunchParams p{};
    p.locs = locs.get();
    p.results = results.get();
    p.scratch = scratch.get();
    p.sink = sink.get();
    p.testing_blocks = testing_blocks;
    p.n = n;
    // Pair blocks dispatched close together: shift in [1, min(16, blocks-1)].
    p.block_shift = 1 + static_cast<unsigned>(next() % std::min(16u, testing_blocks - 1));
    p.lane_mul = static_cast<unsigned>(next() % kBlockThreads) | 1u;
    p.lane_add = static_cast<unsigned>(next() % kBlockThreads);
    do {
      p.loc_mul = next() % loc_count;
    } while (std::gcd(p.loc_mul, loc_count) != 1);
    p.loc_add = next() % loc_count;
    p.word_offset = static_cast<unsigned>(next() % kLineWords);
    p.hash_seed = next();
    p.stress_pattern = static_cast<unsigned>(next() % 4);

    LITMUS_CUDA(cudaMemset(locs.get(), 0, 2ull * n * kLineWords * sizeof(unsigned)));
    LITMUS_CUDA(cudaMemset(results.get(), 0xff, 2ull * n * sizeof(unsigned)));
    LITMUS_CUDA(cudaMemset(counters.get(), 0, 5 * sizeof(unsigned long long)));
    kernel<<<testing_blocks + static_cast<unsigned>(stress_blocks), kBlockThreads>>>(p);
    LITMUS_CUDA(cudaGetLastError());
    classify_kernel<<<std::min(1024u, (n + kBlockThreads - 1) / kBlockThreads), kBlockThreads>>>(
        results.get(), n, counters.get());
    LITMUS_CUDA(cudaGetLastError());
    unsigned long long host[5] = {};
    LITMUS_CUDA(cudaMemcpy(host, counters.get(), sizeof host, cudaMemcpyDeviceToHost));

    if (host[4] != 0)
      throw std::runtime_error("litmus probe " + result.name +
                               ": self-check failed: " + std::to_string(host[4]) +
                               " instances ended with a register other than 0 or 1");
    const unsigned long long sum = host[0] + host[1] + host[2] + host[3];
    if (sum != n)
      throw std::runtime_error("litmus probe " + result.name +
                               ": self-check failed: outcomes sum to " + std::to_string(sum) +
                               ", launch ran " + std::to_string(n));
    for (int k = 0; k < 4; ++k)
      result.outcomes[k] += host[k];
    result.instances += n;
    result.launches = launch + 1;

    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result.instances >= config.instances || elapsed >= config.budget_seconds) break;
  }

  result.weak = result.outcomes[weak_outcome_index(shape)];
  result.per_million = result.instances == 0 ? 0.0
                                             : 1e6 * static_cast<double>(result.weak) /
                                                   static_cast<double>(result.instances);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace lookback::stress
