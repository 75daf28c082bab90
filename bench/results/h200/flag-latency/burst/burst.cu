// burst: a MEASUREMENT (not built by CMake, not the library). Does one
// look-back step slow down under a scan-sized burst of loads and stores, as
// it does under a steady copy (../README.md: 0.40 -> 1.4 us)? The
// warp-lookback u32 descriptor ping-pong of bench/explore/flag_latency.cu
// (included whole, its main renamed, so that the measured code is the
// committed probe's: as of d01dd34 when measured; since then the probe uses
// the library's device_ref (as Flag) instead of its own atomic_ref helper,
// and its sm_id() instead of an own %smid read),
// while every other SM's block, at every `every`-th round of A, loads its
// share of a burst (16-byte words from a 512 MiB buffer, a fresh part each
// burst so they come from DRAM) and then stores it, as a one-wave scan's
// tiles do. Every burst's first start and last end and every round's start
// and end are global-timer stamps (one clock for all SMs); a round "overlaps"
// a burst if their intervals meet.
//
//   nvcc -O3 -DNDEBUG --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr \
//     --extended-lambda -std=c++20 -I/work/main/bench -I/work/main/include -cudart static \
//     bench/results/h200/flag-latency/burst/burst.cu -o burst
#define main flag_latency_main
#include "explore/flag_latency.cu"
#undef main

namespace {

struct Burst {
  int every;  // A releases burst k before its round k * every + every / 2
  int bursts;
  int words_per_thread;  // 16-byte words each copier thread loads, then stores (1..8)
  const uint4* src;
  uint4* dst;
  std::size_t n16;            // a power of two
  unsigned* released;         // bursts A has released
  unsigned long long* start;  // [bursts] first copier start
  unsigned long long* end;    // [bursts] last copier end
};

__device__ void copy_bursts(const Burst& b, Control* c) {
  __shared__ int go;
  for (int k = 0; k < b.bursts; ++k) {
    if (threadIdx.x == 0)
      go = await_count(*b.released, static_cast<unsigned>(k) + 1, c, kATimedOut);
    __syncthreads();
    if (!go) return;
    if (threadIdx.x == 0) atomicMin(&b.start[k], global_timer_ns());
    const std::size_t base =
        (static_cast<std::size_t>(k) * gridDim.x + blockIdx.x) * blockDim.x * b.words_per_thread;
    uint4 v[8];
#pragma unroll
    for (int u = 0; u < 8; ++u)
      if (u < b.words_per_thread) v[u] = b.src[(base + u * blockDim.x + threadIdx.x) & (b.n16 - 1)];
    __syncthreads();  // the block's tile is in (a scan loads it all before it stores)
#pragma unroll
    for (int u = 0; u < 8; ++u)
      if (u < b.words_per_thread) b.dst[(base + u * blockDim.x + threadIdx.x) & (b.n16 - 1)] = v[u];
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(&b.end[k], global_timer_ns());
  }
}

__global__ void __launch_bounds__(1024, 1)
    burst_ping_pong(DescriptorStorage to_b, DescriptorStorage to_a, Control* c,
                    unsigned long long* t0s, unsigned long long* t1s, int rounds, unsigned sm_b,
                    Burst b) {
  constexpr Protocol P = kWarp;
  using T = std::uint32_t;
  extern __shared__ unsigned char hold_the_sm[];
  (void)hold_the_sm;
  const unsigned sm = sm_id();
  if (sm != 0 && sm != sm_b) {
    if (threadIdx.x == 0) Flag(c->copiers_started).fetch_add(1u, cuda::memory_order_release);
    copy_bursts(b, c);
    return;
  }
  if (threadIdx.x >= 32) return;
  const int lane = static_cast<int>(threadIdx.x);
  const Descriptor<P, T> mine(sm == 0 ? to_b : to_a), theirs(sm == 0 ? to_a : to_b);
  if (sm == sm_b) {
    if (lane == 0) Flag(c->b_ready).store(1u, cuda::memory_order_release);
    for (int k = 0; k < rounds; ++k) {
      if (!wait_window<P, T>(theirs, static_cast<std::uint32_t>(k), c, kBTimedOut)) return;
      if (lane == 0) mine.publish(static_cast<std::uint32_t>(k), Status::Prefix, k, kEpoch);
    }
    return;
  }
  if (lane == 0 && await_count(c->b_ready, 1u, c, kPartnerMissing))
    await_count(c->copiers_started, gridDim.x - 2, c, kCopiersMissing);
  if (__shfl_sync(0xffffffffu, Flag(c->error).load(cuda::memory_order_relaxed), 0) != kOk) return;
  for (int k = 0; k < rounds; ++k) {
    if (lane == 0 && k % b.every == b.every / 2 && k / b.every < b.bursts)
      Flag(*b.released).store(static_cast<unsigned>(k / b.every) + 1, cuda::memory_order_release);
    const unsigned long long t0 = global_timer_ns();
    if (lane == 0) mine.publish(static_cast<std::uint32_t>(k), Status::Prefix, k, kEpoch);
    if (!wait_window<P, T>(theirs, static_cast<std::uint32_t>(k), c, kATimedOut)) break;
    if (lane == 0) {
      t0s[k] = t0;
      t1s[k] = global_timer_ns();
    }
  }
  if (lane == 0) Flag(c->stop).store(1u, cuda::memory_order_relaxed);
}

double median(std::vector<double> v) {
  return v.empty() ? 0 : quantile(std::move(v), 0.5);
}

}  // namespace

int main() {
  int sms = 0, smem_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  const int smem = smem_sm / 2 + 4096;
  CHECK(cudaFuncSetAttribute(burst_ping_pong, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const int every = 40, bursts = 40, rounds = every * bursts;
  const std::size_t copy_bytes = std::size_t{512} << 20;
  Burst b{every, bursts, 1, nullptr, nullptr, copy_bytes / 16, nullptr, nullptr, nullptr};
  uint4 *src, *dst;
  CHECK(cudaMalloc(&src, copy_bytes));
  CHECK(cudaMalloc(&dst, copy_bytes));
  CHECK(cudaMemset(src, 1, copy_bytes));
  b.src = src;
  b.dst = dst;
  CHECK(cudaMalloc(&b.released, sizeof(unsigned)));
  CHECK(cudaMalloc(&b.start, bursts * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&b.end, bursts * sizeof(unsigned long long)));
  Control* c;
  CHECK(cudaMalloc(&c, sizeof(Control)));
  unsigned long long *t0s, *t1s;
  CHECK(cudaMalloc(&t0s, rounds * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&t1s, rounds * sizeof(unsigned long long)));
  constexpr auto kShape = lookback::device::descriptor_shape<kWarp, std::uint32_t>();
  const std::uint64_t cap = lookback::device::capacity_for_tiles(rounds);
  const std::uint64_t region = lookback::device::region_bytes(cap, kShape);
  unsigned char* storage;
  CHECK(cudaMalloc(&storage, 2 * region));
  int failed = 0;
  std::printf(
      "burst bytes = read (and as many written) by all copier blocks per burst; one-way = "
      "median round trip / 2 (ns) of the rounds overlapping a burst / of the others\n");
  std::printf("%-6s %-10s %9s %9s %11s %11s %9s\n", "sm_b", "burst", "burst-us", "rounds-in",
              "1way-in", "1way-out", "in/out");
  for (const int wpt : {1, 2, 4, 8}) {
    for (int i = 1; i <= 8; ++i) {
      const unsigned sm_b = static_cast<unsigned>(i * (sms - 1) / 8);
      b.words_per_thread = wpt;
      CHECK(cudaMemset(storage, 0, 2 * region));
      CHECK(cudaMemset(c, 0, sizeof(Control)));
      CHECK(cudaMemset(b.released, 0, sizeof(unsigned)));
      CHECK(cudaMemset(b.start, 0xff, bursts * sizeof(unsigned long long)));
      CHECK(cudaMemset(b.end, 0, bursts * sizeof(unsigned long long)));
      burst_ping_pong<<<sms, 1024, smem>>>(
          DescriptorStorage{storage, static_cast<std::uint32_t>(cap)},
          DescriptorStorage{storage + region, static_cast<std::uint32_t>(cap)}, c, t0s, t1s, rounds,
          sm_b, b);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      Control h{};
      CHECK(cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost));
      if (h.error != kOk) {
        std::printf("ERROR sm_b %u: %s\n", sm_b, error_text(h.error));
        ++failed;
        continue;
      }
      std::vector<unsigned long long> s(bursts), e(bursts), a(rounds), z(rounds);
      CHECK(cudaMemcpy(s.data(), b.start, bursts * 8, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(e.data(), b.end, bursts * 8, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(a.data(), t0s, rounds * 8, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(z.data(), t1s, rounds * 8, cudaMemcpyDeviceToHost));
      std::vector<double> in, out, dur;
      for (int k = 0; k < bursts; ++k)
        dur.push_back(static_cast<double>(e[k] - s[k]) / 1000);
      for (int r = every; r < rounds; ++r) {  // the first burst period warms up
        bool overlaps = false;
        for (int k = 0; k < bursts; ++k)
          overlaps |= a[r] < e[k] && z[r] > s[k];
        (overlaps ? in : out).push_back(static_cast<double>(z[r] - a[r]) / 2);
      }
      const double bytes = static_cast<double>(sms - 2) * 1024 * 16 * wpt;
      char label[32];
      std::snprintf(label, sizeof label, "%.1f MB", bytes / 1e6);
      std::printf("%-6u %-10s %9.2f %9zu %11.0f %11.0f %9.2f\n", sm_b, label, median(dur),
                  in.size(), median(in), median(out), median(in) / median(out));
    }
  }
  std::printf("%d failed\n", failed);
  return failed == 0 ? 0 : 1;
}
