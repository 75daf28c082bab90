#include <cuda_runtime_api.h>
#include <cuda/atomic>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "lookback/device/temp_storage.hpp"
#include "lookback/protocol/spec.hpp"
#include "stress/harness.hpp"

namespace lookback::stress {

namespace {

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("lookback-stress: ") + what + ": " + cudaGetErrorName(e) +
                             ": " + cudaGetErrorString(e));
}

template <class T>
T* device_alloc(std::size_t count, const char* what) {
  void* p = nullptr;
  check_cuda(cudaMalloc(&p, count * sizeof(T)), what);
  return static_cast<T*>(p);
}

// Per launch: mismatching elements, device error code, the tile that raised
// it, descriptors that ended below their owner's last status, the first of
// them (encode_regression), and the blocks that finished their descriptor
// accesses (the starve knob's counter, Perturbation::starve_done).
constexpr int kSlotWords = 6;
constexpr int kFinishedWord = 5;
constexpr int kMaxBatch = 256;
constexpr int kInputs = 4;  // rotating inputs: stale descriptors of an older launch are wrong
constexpr std::uint32_t kScratchWords = 1u << 22;
constexpr std::uint32_t kHogThreads = 1024;
constexpr int kHogSharedBytes = 96 * 1024;  // about half an SM's shared memory

__device__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Compares out[0, n) with ref and reads (and clears) the scan's error flag.
__global__ void check_kernel(const std::uint32_t* out, const std::uint32_t* ref, std::int64_t n,
                             device::Header* header, std::uint32_t* slot) {
  std::uint32_t bad = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    bad += out[i] != ref[i];
  bad = __reduce_add_sync(0xffffffffu, bad);
  if ((threadIdx.x & 31) == 0 && bad) atomicAdd(&slot[0], bad);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> error(header->error);
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> tile(header->error_tile);
    const std::uint32_t e = error.load(cuda::memory_order_relaxed);
    if (e != 0) {
      slot[1] = e;
      slot[2] = tile.load(cuda::memory_order_relaxed);
      error.store(0, cuda::memory_order_relaxed);
      tile.store(0, cuda::memory_order_relaxed);
    }
  }
}

// An occupancy hog: holds its SM slot (threads and shared memory) for `ns`
// of wall time, idling, hammering scratch lines (kHogMemory) and/or reading
// the scan's descriptors through L1 (kHogReadTarget). Bounded in time and in
// iterations, so it always ends.
constexpr int kHogMemory = 1, kHogReadTarget = 2;
__global__ void hog_kernel(std::uint32_t* scratch, const std::uint32_t* target,
                           std::uint32_t target_words, std::uint64_t ns, int mode,
                           std::uint32_t seed) {
  extern __shared__ std::uint32_t held[];
  held[threadIdx.x] = seed;
  const std::uint64_t start = global_ns();
  std::uint32_t x = seed ^ (blockIdx.x * 0x9e3779b9u) ^ threadIdx.x;
  std::uint32_t sink = 0;
  for (int it = 0; it < (1 << 22) && global_ns() - start < ns; ++it) {
    if (mode & kHogReadTarget) {
      // ld.global.ca: allocate in this SM's L1 (the racing reads are the
      // point: they are what a missing acquire lets a scan block see).
      for (std::uint32_t w = threadIdx.x * 8u; w < target_words; w += blockDim.x * 8u)
        sink += __ldca(target + w);
    }
    if (mode & kHogMemory) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      // A few hot lines per block, shared with other blocks: contention.
      cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> w(
          scratch[(x % 512u) * 32u + (threadIdx.x & 31u)]);
      if (x & 1u)
        w.store(x, cuda::memory_order_relaxed);
      else
        sink += w.load(cuda::memory_order_relaxed);
    }
    if (mode == 0) __nanosleep(256);
  }
  if (sink == 0xfeedf00du) held[0] = sink;
  if (held[threadIdx.x] == 0xdeadbeefu) scratch[0] = 1;  // keep the shared memory
}

struct LaunchSite {
  cudaStream_t stream = nullptr;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  std::uint32_t* out = nullptr;
  std::uint32_t* work = nullptr;
};

// cudaMemset may return before it is done, and the harness's streams do not
// synchronise with the legacy stream: clear, then wait.
void clear(void* p, std::size_t bytes) {
  check_cuda(cudaMemset(p, 0, bytes), "clearing device memory");
  check_cuda(cudaDeviceSynchronize(), "clearing device memory");
}

void* zeroed_temp(std::size_t bytes) {
  void* p = device_alloc<unsigned char>(bytes, "temp storage");
  clear(p, bytes);  // Reset::Epoch: zeroed once, when allocated
  return p;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string describe_regression(std::uint32_t count, std::uint32_t first) {
  const auto status = static_cast<protocol::Status>(regression_status(first));
  return std::to_string(count) + " descriptor" + (count == 1 ? "" : "s") +
         " moved backwards (tile " + std::to_string(regression_tile(first)) + " ended at " +
         protocol::to_string(status) + " after its owner published " +
         (regression_tile(first) == 0 ? "its first status" : "PREFIX") + ")";
}

}  // namespace

TileRange tile_range(const Knob& knob, std::int64_t tile_items, std::int64_t max_items,
                     std::int64_t resident_blocks) {
  TileRange r;
  const std::int64_t room = std::max<std::int64_t>(1, max_items / tile_items);
  if (!knob.beyond_residency) {
    r.hi = std::max<std::int64_t>(1, std::min<std::int64_t>(knob.max_tiles, room));
    return r;
  }
  if (resident_blocks <= 0) {
    r.note = "the occupancy calculator gave no resident-block count: grids of " +
             std::to_string(std::max<std::int64_t>(1, room / 2)) + " to " + std::to_string(room) +
             " tiles";
    r.lo = std::max<std::int64_t>(1, room / 2);
    r.hi = room;
    return r;
  }
  r.lo = resident_blocks + 1;
  r.hi = std::min<std::int64_t>(room, 2 * resident_blocks + 64);
  if (r.lo > r.hi) {
    r.note = "grids capped at " + std::to_string(room) + " tiles, not beyond the " +
             std::to_string(resident_blocks) + " resident blocks";
    r.lo = std::max<std::int64_t>(1, room / 2);
    r.hi = room;
  }
  return r;
}

bool gpu_available(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why)
      *why = e != cudaSuccess ? std::string("no CUDA device: ") + cudaGetErrorString(e)
                              : "no CUDA device present";
    return false;
  }
  return true;
}

struct Harness::State {
  HarnessConfig config;
  cudaDeviceProp prop{};
  std::mt19937_64 rng;
  cudaStream_t main = nullptr, aux = nullptr, conc = nullptr;
  cudaEvent_t mark = nullptr;
  std::uint32_t* in[kInputs] = {};
  std::uint32_t* ref[kInputs] = {};
  std::uint32_t* out[2] = {};
  std::uint32_t* work[2] = {};
  std::uint32_t* slots = nullptr;
  std::uint32_t* scratch = nullptr;
};

Harness::Harness(const HarnessConfig& config) : s_(std::make_unique<State>()) {
  std::string why;
  if (!gpu_available(&why)) throw std::runtime_error("lookback-stress: " + why);
  State& s = *s_;
  s.config = config;
  s.rng.seed(config.seed);
  check_cuda(cudaGetDeviceProperties(&s.prop, 0), "cudaGetDeviceProperties");
  check_cuda(cudaStreamCreateWithFlags(&s.main, cudaStreamNonBlocking), "stream");
  check_cuda(cudaStreamCreateWithFlags(&s.aux, cudaStreamNonBlocking), "stream");
  check_cuda(cudaStreamCreateWithFlags(&s.conc, cudaStreamNonBlocking), "stream");
  check_cuda(cudaEventCreateWithFlags(&s.mark, cudaEventDisableTiming), "event");
  check_cuda(cudaFuncSetAttribute(hog_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kHogSharedBytes),
             "hog shared memory");
  const auto cap = static_cast<std::size_t>(config.max_items);
  std::vector<std::uint32_t> host(cap), prefix(cap);
  for (int k = 0; k < kInputs; ++k) {
    // Different value ranges per input (small, large, wrapping) so a stale
    // or misplaced value never coincides with the right one.
    const std::uint32_t mask = k == 0 ? 0xffu : k == 1 ? 0xffffu : 0xffffffffu;
    for (auto& v : host)
      v = static_cast<std::uint32_t>(s.rng()) & mask;
    std::inclusive_scan(host.begin(), host.end(), prefix.begin());  // wraps mod 2^32
    s.in[k] = device_alloc<std::uint32_t>(cap, "input");
    s.ref[k] = device_alloc<std::uint32_t>(cap, "reference");
    check_cuda(cudaMemcpy(s.in[k], host.data(), cap * 4, cudaMemcpyHostToDevice), "input copy");
    check_cuda(cudaMemcpy(s.ref[k], prefix.data(), cap * 4, cudaMemcpyHostToDevice),
               "reference copy");
  }
  for (int i = 0; i < 2; ++i) {
    s.out[i] = device_alloc<std::uint32_t>(cap, "output");
    s.work[i] = device_alloc<std::uint32_t>(cap, "in-place buffer");
  }
  s.slots = device_alloc<std::uint32_t>(2 * kMaxBatch * kSlotWords, "slots");
  clear(s.slots, 2 * kMaxBatch * kSlotWords * 4);
  s.scratch = device_alloc<std::uint32_t>(kScratchWords, "scratch");
  clear(s.scratch, kScratchWords * 4);
}

Harness::~Harness() {
  State& s = *s_;
  for (int k = 0; k < kInputs; ++k) {
    cudaFree(s.in[k]);
    cudaFree(s.ref[k]);
  }
  for (int i = 0; i < 2; ++i) {
    cudaFree(s.out[i]);
    cudaFree(s.work[i]);
  }
  cudaFree(s.slots);
  cudaFree(s.scratch);
  cudaEventDestroy(s.mark);
  cudaStreamDestroy(s.main);
  cudaStreamDestroy(s.aux);
  cudaStreamDestroy(s.conc);
}

std::string Harness::device_name() const {
  return s_->prop.name;
}
int Harness::sm_count() const {
  return s_->prop.multiProcessorCount;
}

namespace {

// Enqueues one checked scan: fresh output (poisoned, or a copy of the input
// for an in-place entry), the scan, the check into `slot`.
void enqueue_scan(const EntryRunner& entry, const LaunchSite& site, const std::uint32_t* in,
                  const std::uint32_t* ref, std::int64_t n, const device::Perturbation& perturb,
                  std::uint32_t watchdog, std::uint32_t poison, std::uint32_t* slot) {
  const auto bytes = static_cast<std::size_t>(n) * 4;
  std::uint32_t* dst = site.out;
  if (entry.in_place) {
    dst = site.work;
    check_cuda(cudaMemcpyAsync(dst, in, bytes, cudaMemcpyDeviceToDevice, site.stream), "copy");
    in = dst;
  } else {
    check_cuda(cudaMemsetAsync(dst, static_cast<int>(poison & 0xff), bytes, site.stream), "poison");
  }
  std::string message;
  const int e =
      entry.run(site.temp, site.temp_bytes, in, dst, n, perturb, watchdog, site.stream, &message);
  if (e != 0)
    throw std::runtime_error(std::string("lookback-stress: ") + entry.name + ": " + message);
  // Before check_kernel, which reads and clears the error flag.
  check_cuda(static_cast<cudaError_t>(
                 entry.check_final(site.temp, site.temp_bytes, n, slot + 3, site.stream)),
             "final-state check launch");
  const int blocks = static_cast<int>(std::min<std::int64_t>((n + 1023) / 1024, 1024));
  check_kernel<<<blocks, 256, 0, site.stream>>>(dst, ref, n, device::header_of(site.temp), slot);
  check_cuda(cudaGetLastError(), "check kernel launch");
}

}  // namespace

CellResult Harness::run(const EntryRunner& entry, const Knob& knob, double seconds,
                        std::uint64_t max_launches, bool stop_at_first_failure) {
  State& s = *s_;
  CellResult r;
  r.entry = entry.name;
  r.knob = knob.name;
  const std::int64_t resident =
      static_cast<std::int64_t>(entry.blocks_per_sm()) * s.prop.multiProcessorCount;
  const TileRange range = tile_range(knob, entry.tile_items, s.config.max_items, resident);
  r.note = range.note;
  const std::int64_t cap_tiles = range.hi;
  const std::size_t temp_bytes = entry.temp_bytes(cap_tiles * entry.tile_items);
  LaunchSite sites[2];
  for (int i = 0; i < (knob.concurrent ? 2 : 1); ++i)
    sites[i] = {i == 0 ? s.main : s.conc, zeroed_temp(temp_bytes), temp_bytes, s.out[i], s.work[i]};
  const int sites_used = knob.concurrent ? 2 : 1;

  // Sizes: mostly a few tiles (the look-back's edge cases), sometimes many;
  // the last tile usually partial. A knob with a lower bound draws uniformly.
  auto draw_tiles = [&]() -> std::int64_t {
    if (range.lo > 1)
      return range.lo + static_cast<std::int64_t>(s.rng() % (range.hi - range.lo + 1));
    const std::uint64_t u = s.rng() % 100;
    const std::int64_t hi = u < 60 ? 16 : u < 90 ? 128 : cap_tiles;
    return 1 + static_cast<std::int64_t>(s.rng() % std::min(hi, cap_tiles));
  };
  auto draw_n = [&](std::int64_t tiles) {
    const std::int64_t cut = static_cast<std::int64_t>(s.rng() % entry.tile_items);
    return std::max<std::int64_t>(1, tiles * entry.tile_items - cut);
  };

  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::uint32_t> slots(2 * kMaxBatch * kSlotWords);
  std::vector<std::int64_t> sizes(2 * kMaxBatch);
  int batch = 4;
  while (r.launches < max_launches) {
    const std::uint64_t left = max_launches - r.launches;  // max_launches may be UINT64_MAX
    const int count = static_cast<int>(
        std::min<std::uint64_t>(batch, left / sites_used + (left % sites_used != 0)));
    const auto tb = std::chrono::steady_clock::now();
    for (int j = 0; j < count; ++j) {
      for (int site = 0; site < sites_used; ++site) {
        device::Perturbation p = knob.perturb;
        p.seed = static_cast<std::uint32_t>(s.rng());
        if (knob.needs_scratch()) {
          p.scratch = s.scratch;
          p.scratch_words = kScratchWords;
        }
        const std::int64_t tiles = draw_tiles();
        const std::int64_t n = draw_n(tiles);
        if (knob.reverse_dispatch && entry.blockidx_tiles) {
          // Tile = tiles - 1 - blockIdx: the last-first dispatch order. A
          // ticket is drawn in arrival order, so ticket variants keep theirs.
          p.tile_map = device::TileMap::Reversed;
          p.map_window = 0;
        }
        if (knob.starve && tiles >= 2) {
          p.starve_tile =
              static_cast<std::uint32_t>(s.rng() % static_cast<std::uint64_t>(tiles - 1));
          p.starve_done = s.slots + (site * kMaxBatch + j) * kSlotWords + kFinishedWord;
          // Every other block: one per tile, or the persistent grid.
          const std::int64_t blocks = entry.persistent ? std::min(tiles, resident) : tiles;
          p.starve_until_done = static_cast<std::uint32_t>(blocks - 1);
        } else {
          p.starve_tile = device::kNoTile;
        }
        if (site == 0 && knob.hogs()) {
          // The hogs start when the previous scan is done, with this one.
          check_cuda(cudaEventRecord(s.mark, s.main), "event");
          check_cuda(cudaStreamWaitEvent(s.aux, s.mark), "event wait");
          hog_kernel<<<s.prop.multiProcessorCount * knob.hog_blocks_per_sm, kHogThreads,
                       kHogSharedBytes, s.aux>>>(
              s.scratch, static_cast<const std::uint32_t*>(sites[0].temp),
              static_cast<std::uint32_t>(sites[0].temp_bytes / 4), knob.hog_ns,
              (knob.memory_stress ? kHogMemory : 0) |
                  (knob.descriptor_readers ? kHogReadTarget : 0),
              p.seed);
          check_cuda(cudaGetLastError(), "hog launch");
        }
        const int input = static_cast<int>(s.rng() % kInputs);
        const int slot = site * kMaxBatch + j;
        sizes[slot] = n;
        enqueue_scan(entry, sites[site], s.in[input], s.ref[input], n, p, s.config.watchdog_rounds,
                     static_cast<std::uint32_t>(r.launches + j), s.slots + slot * kSlotWords);
      }
    }
    check_cuda(cudaDeviceSynchronize(), "stress batch");
    check_cuda(cudaMemcpy(slots.data(), s.slots, slots.size() * 4, cudaMemcpyDeviceToHost),
               "slots");
    clear(s.slots, slots.size() * 4);
    for (int site = 0; site < sites_used; ++site) {
      for (int j = 0; j < count; ++j) {
        const std::uint32_t* w = &slots[(site * kMaxBatch + j) * kSlotWords];
        const bool wrong = w[0] != 0, tripped = w[1] == 1, other = w[1] > 1, regressed = w[3] != 0;
        r.wrong_launches += wrong;
        r.watchdog_trips += tripped;
        r.other_errors += other;
        r.status_regressions += regressed;
        if ((wrong || w[1] != 0 || regressed) && r.first_failure.empty()) {
          const std::int64_t n = sizes[site * kMaxBatch + j];
          r.first_failure_seconds = seconds_since(t0);
          std::vector<std::string> what;
          if (wrong) what.push_back(std::to_string(w[0]) + " wrong elements");
          if (tripped) what.push_back("watchdog expired in tile " + std::to_string(w[2]));
          if (other)
            what.push_back("device error " + std::to_string(w[1]) + " (tile " +
                           std::to_string(w[2]) + ")");
          if (regressed) what.push_back(describe_regression(w[3], w[4]));
          r.first_failure = "n=" + std::to_string(n) + " (" +
                            std::to_string((n + entry.tile_items - 1) / entry.tile_items) +
                            " tiles): ";
          for (std::size_t i = 0; i < what.size(); ++i)
            r.first_failure += (i ? ", " : "") + what[i];
        }
      }
    }
    r.launches += static_cast<std::uint64_t>(count) * sites_used;
    const double elapsed = seconds_since(t0);
    if (elapsed >= seconds || (stop_at_first_failure && r.failures() > 0)) break;
    if (seconds_since(tb) < 0.05 && batch < kMaxBatch) batch *= 2;
  }
  r.seconds = seconds_since(t0);
  for (int i = 0; i < sites_used; ++i)
    cudaFree(sites[i].temp);
  return r;
}

double Harness::throughput(const EntryRunner& entry, std::int64_t n, int reps) {
  State& s = *s_;
  n = std::min(n, s.config.max_items);
  const std::size_t temp_bytes = entry.temp_bytes(n);
  LaunchSite site{s.main, zeroed_temp(temp_bytes), temp_bytes, s.out[0], s.work[0]};
  // Checked once, then timed without the check.
  enqueue_scan(entry, site, s.in[0], s.ref[0], n, {}, s.config.watchdog_rounds, 0, s.slots);
  std::uint32_t slot[kSlotWords];
  check_cuda(cudaMemcpy(slot, s.slots, sizeof slot, cudaMemcpyDeviceToHost), "slots");
  clear(s.slots, sizeof slot);
  if (slot[0] != 0 || slot[1] != 0 || slot[3] != 0)
    throw std::runtime_error(std::string("lookback-stress: throughput run of ") + entry.name +
                             " gave a wrong result");
  cudaEvent_t a, b;
  check_cuda(cudaEventCreate(&a), "event");
  check_cuda(cudaEventCreate(&b), "event");
  std::vector<float> ms;
  const std::uint32_t* in = entry.in_place ? site.work : s.in[0];
  std::uint32_t* out = entry.in_place ? site.work : site.out;
  for (int i = 0; i < reps + 3; ++i) {
    check_cuda(cudaEventRecord(a, s.main), "event");
    std::string message;
    if (entry.run(site.temp, site.temp_bytes, in, out, n, {}, s.config.watchdog_rounds, s.main,
                  &message) != 0)
      throw std::runtime_error("lookback-stress: " + message);
    check_cuda(cudaEventRecord(b, s.main), "event");
    check_cuda(cudaEventSynchronize(b), "timed scan");
    float t = 0;
    check_cuda(cudaEventElapsedTime(&t, a, b), "event time");
    if (i >= 3) ms.push_back(t);  // three warm-up launches
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaFree(site.temp);
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return 2.0 * 4.0 * static_cast<double>(n) / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

}  // namespace lookback::stress
