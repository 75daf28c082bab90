// tile_bound: an EXPERIMENT harness, not the library. It asks where the
// coarsened scan's time goes by timing one minimal hand-written u32
// inclusive-sum kernel with each per-tile cost switched on or off: the
// ticket, the spec's release/acquire orders, the finished-blocks counter of
// Reset::Epoch (and where it sits), the look-back delay, the look-back
// itself. Descriptors carry a host-supplied epoch and the ticket a
// host-supplied base, so no reset is needed between launches and every knob
// can be timed alone. Next to them, in the same process: cudaMemcpyAsync,
// CUB and the library's coarsened ScanPlan. Results are checked against CUB
// (except the rows marked "no-lookback", which skip the look-back on purpose).
//
//   lookback_tile_bound [--group staged|persistent|shapes|window|hold|small|backoff|pipelined|
//                        early|overlap|pwindow|specialized|pdesc]
//                       [--min-log 24] [--max-log 30]
// (default group: hold).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <cuda_pipeline.h>
#include <cub/device/device_scan.cuh>
#include <cuda/atomic>

#include "cuda_check.hpp"
#include "lookback/device_scan.cuh"

namespace {

using Ref64 = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
using Ref32 = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

enum Done { kNoDone = 0, kDoneAfterStores = 1, kDoneBeforeStores = 2, kDoneRelaxedAfter = 3 };

template <int BT, int IPT, int MINB, bool kTicket, bool kAcqRel, int kDone, int kDelayNs,
          bool kLookback, int kSpinNs = 0, bool kSmartWait = false, int kSmemItems = 0,
          int kPerLane = 1, bool kHist = false, bool kRelaxedPublish = false, int kDescStride = 1>
struct Knobs {
  // Publishes relaxed while look-back reads keep kAcqRel's order; descriptor
  // i at desc[i * kDescStride] (see Pipelined).
  static constexpr cuda::memory_order pub_order =
      (kAcqRel && !kRelaxedPublish) ? cuda::memory_order_release : cuda::memory_order_relaxed;
  static constexpr int desc_stride = kDescStride;
  static constexpr int per_lane = kPerLane;  // descriptors each lane reads per window
  static constexpr bool hist = kHist;        // record each tile's look-back time
  static constexpr int smem_items = kSmemItems;
  static constexpr bool smart_wait = kSmartWait;
  static constexpr int kThreads = BT, kItems = IPT, kMinBlocks = MINB;
  static constexpr bool ticket = kTicket, acq_rel = kAcqRel, lookback = kLookback;
  static constexpr int done = kDone, delay_ns = kDelayNs, spin_ns = kSpinNs;
  static constexpr int tile_items = BT * (IPT + kSmemItems);
};

struct Hdr {
  unsigned ticket;
  unsigned done;
  unsigned hung;  // set when a look-back gave up waiting (the result is then wrong)
  // Look-back times (delay included) of instrumented kernels, in SM clock
  // cycles: a log2 histogram, their sum and count.
  unsigned long long wait_hist[40];
  unsigned long long wait_sum, wait_count;
  // Early-store kernels (K::count): tiles that tried to resolve early, and
  // how many of those tries found their prefix.
  unsigned long long tries, tried_ok;
  // Look-back windows read by instrumented (K::hist) kernels.
  unsigned long long windows;
};

// Polls per look-back window before giving up: far above any real wait, so
// a broken experiment reports itself instead of hanging the GPU.
constexpr unsigned kMaxPolls = 1u << 24;

__device__ __forceinline__ unsigned long long word(unsigned st, unsigned epoch, unsigned v) {
  return (static_cast<unsigned long long>(v) << 32) | (epoch << 2) | st;
}

// Scans one 16-byte chunk per lane across the warp: x becomes the inclusive
// scan of the warp's 128 items plus `run`, and `run` moves past them.
__device__ __forceinline__ void scan_chunk(uint4& x, unsigned& run, int lane) {
  x.y += x.x;
  x.z += x.y;
  x.w += x.z;
  unsigned s = x.w;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned o = __shfl_up_sync(0xffffffffu, s, off);
    if (lane >= off) s += o;
  }
  const unsigned excl = __shfl_up_sync(0xffffffffu, s, 1);
  const unsigned add = run + (lane ? excl : 0u);
  x = make_uint4(x.x + add, x.y + add, x.z + add, x.w + add);
  run += __shfl_sync(0xffffffffu, s, 31);
}

// Where descriptor j lives (kernels with K::desc_stride spread them out).
template <class K>
__device__ __forceinline__ long long dix(long long j) {
  if constexpr (requires { K::desc_stride; }) {
    return j * K::desc_stride;
  } else {
    return j;
  }
}
template <class K>
constexpr cuda::memory_order publish_order() {
  if constexpr (requires { K::pub_order; }) {
    return K::pub_order;
  } else {
    return cuda::memory_order_release;
  }
}

// One look-back's time (SM clock cycles) into the histogram.
__device__ void record_wait(Hdr* hdr, long long cycles) {
  const unsigned long long dt = static_cast<unsigned long long>(cycles);
  const int bucket = min(39, 63 - __clzll(dt | 1ull));
  atomicAdd(&hdr->wait_hist[bucket], 1ull);
  atomicAdd(&hdr->wait_sum, dt);
  atomicAdd(&hdr->wait_count, 1ull);
}

// Warp 0's look-back over windows of 32 x K::per_lane predecessors (each
// lane reads per_lane descriptors, 32 apart, back to back: one round trip
// per window): the sum of the aggregates back to (and including) the
// closest PREFIX.
template <class K>
__device__ unsigned look_back(unsigned long long* desc, Hdr* hdr, unsigned tile, unsigned epoch,
                              int lane) {
  constexpr cuda::memory_order ld_o =
      K::acq_rel ? cuda::memory_order_acquire : cuda::memory_order_relaxed;
  constexpr int L = K::per_lane;
  constexpr int W = 32 * L;
  unsigned prefix = 0;
  if (K::delay_ns) __nanosleep(K::delay_ns);
  long long base = tile;
  while (true) {
    unsigned long long w[L];
    unsigned st[L];
    for (unsigned polls = 0;; ++polls) {
      if (polls == kMaxPolls) {
        if (lane == 0) Ref32(hdr->hung).store(1u, cuda::memory_order_relaxed);
        return prefix;
      }
      bool ready = true;
#pragma unroll
      for (int m = 0; m < L; ++m) {
        const long long j = base - W + m * 32 + lane;
        w[m] = j >= 0 ? Ref64(desc[dix<K>(j)]).load(ld_o) : 0ull;
      }
#pragma unroll
      for (int m = 0; m < L; ++m) {
        const long long j = base - W + m * 32 + lane;
        const unsigned lo32 = static_cast<unsigned>(w[m]);
        st[m] = j < 0 ? 2u : ((lo32 >> 2) == epoch ? (lo32 & 3u) : 0u);
        ready = ready && st[m] != 0;
      }
      if constexpr (K::smart_wait && L == 1) {
        // Only lanes above the closest PREFIX matter.
        const long long j = base - W + lane;
        const unsigned pre = __ballot_sync(0xffffffffu, st[0] == 2 && j >= 0);
        const unsigned inv = __ballot_sync(0xffffffffu, st[0] == 0);
        const unsigned need = pre ? ~((2u << (31 - __clz(pre))) - 1u) : 0xffffffffu;
        if ((inv & need) == 0) break;
      } else {
        if (__all_sync(0xffffffffu, ready)) break;
      }
      if (K::spin_ns) __nanosleep(K::spin_ns);
    }
    // The closest PREFIX: the highest window index m * 32 + lane holding one.
    int lo = -1;
#pragma unroll
    for (int m = L - 1; m >= 0; --m) {
      const long long j = base - W + m * 32 + lane;
      const unsigned stop = __ballot_sync(0xffffffffu, st[m] == 2 && j >= 0);
      if (lo < 0 && stop) lo = m * 32 + 31 - __clz(stop);
    }
    unsigned x = 0;
#pragma unroll
    for (int m = 0; m < L; ++m) {
      const long long j = base - W + m * 32 + lane;
      if (j >= 0 && m * 32 + lane >= (lo < 0 ? 0 : lo)) x += static_cast<unsigned>(w[m] >> 32);
    }
#pragma unroll
    for (int off = 16; off; off >>= 1)
      x += __shfl_xor_sync(0xffffffffu, x, off);
    prefix += x;
    if (K::hist && lane == 0) atomicAdd(&hdr->windows, 1ull);
    if (lo >= 0 || base <= W) break;
    base -= W;
  }
  return prefix;
}

// The early-store kernels' non-blocking look-back: at most K::tries window
// reads (a window with an INVALID descriptor is read again, one with only
// AGGREGATEs moves on to the next), never more. True with `prefix` when it
// reached a PREFIX.
template <class K>
__device__ bool try_look_back(unsigned long long* desc, unsigned tile, unsigned epoch, int lane,
                              unsigned& prefix) {
  prefix = 0;
  long long base = tile;
  for (int polls = 0; polls < K::tries; ++polls) {
    const long long j = base - 32 + lane;
    const unsigned long long w = j >= 0 ? Ref64(desc[j]).load(cuda::memory_order_acquire) : 0ull;
    const unsigned lo32 = static_cast<unsigned>(w);
    const unsigned st = j < 0 ? 2u : ((lo32 >> 2) == epoch ? (lo32 & 3u) : 0u);
    if (!__all_sync(0xffffffffu, st != 0)) continue;
    const unsigned stop = __ballot_sync(0xffffffffu, st == 2 && j >= 0);
    const int lo = stop ? 31 - __clz(stop) : 0;
    unsigned x = (j >= 0 && lane >= lo) ? static_cast<unsigned>(w >> 32) : 0u;
#pragma unroll
    for (int off = 16; off; off >>= 1)
      x += __shfl_xor_sync(0xffffffffu, x, off);
    prefix += x;
    if (stop || base <= 32) return true;
    base -= 32;
  }
  return false;
}

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks)
    scan_kernel(const unsigned* in, unsigned* out, unsigned long long* desc, Hdr* hdr,
                unsigned num_tiles, unsigned epoch, unsigned ticket_base, long long n) {
  constexpr int kWarps = K::kThreads / 32;
  constexpr int kChunks = K::kItems / 4;
  constexpr int kSChunks = K::smem_items / 4;
  constexpr int kSeg = 32 * (K::kItems + K::smem_items);
  __shared__ uint4 sbuf[kSChunks > 0 ? kWarps : 1][kSChunks > 0 ? kSChunks : 1][32];
  constexpr cuda::memory_order st_o = publish_order<K>();
  __shared__ unsigned s_tile, s_prefix;
  __shared__ unsigned s_warp[kWarps];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (K::ticket) {
    if (tid == 0)
      s_tile = Ref32(hdr->ticket).fetch_add(1u, cuda::memory_order_relaxed) - ticket_base;
    __syncthreads();
  }
  const unsigned tile = K::ticket ? s_tile : blockIdx.x;
  const long long seg =
      static_cast<long long>(tile) * K::tile_items + warp * static_cast<long long>(kSeg);
#pragma unroll
  for (int k = 0; k < kSChunks; ++k)
    __pipeline_memcpy_async(&sbuf[warp][k][lane], in + seg + ((kChunks + k) * 32 + lane) * 4, 16);
  __pipeline_commit();
  const bool full = static_cast<long long>(tile + 1) * K::tile_items <= n;
  uint4 v[kChunks];
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    const long long i = seg + (k * 32 + lane) * 4;
    if (full || i + 4 <= n) {
      v[k] = *reinterpret_cast<const uint4*>(in + i);
    } else {
      v[k] = make_uint4(i < n ? in[i] : 0, i + 1 < n ? in[i + 1] : 0, i + 2 < n ? in[i + 2] : 0, 0);
    }
  }
  unsigned run = 0;
#pragma unroll
  for (int k = 0; k < kChunks; ++k)
    scan_chunk(v[k], run, lane);
  if constexpr (kSChunks > 0) {
    __pipeline_wait_prior(0);
#pragma unroll
    for (int k = 0; k < kSChunks; ++k) {
      uint4 x = sbuf[warp][k][lane];
      scan_chunk(x, run, lane);
      sbuf[warp][k][lane] = x;
    }
  }
  if (lane == 0) s_warp[warp] = run;
  __syncthreads();
  unsigned agg = 0, wex = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    if (w == warp) wex = agg;
    agg += s_warp[w];
  }
  if (warp == 0) {
    if (lane == 0) Ref64(desc[dix<K>(tile)]).store(word(tile ? 1u : 2u, epoch, agg), st_o);
    unsigned prefix = 0;
    if (tile > 0 && K::lookback) {
      const long long t0 = K::hist ? clock64() : 0;
      prefix = look_back<K>(desc, hdr, tile, epoch, lane);
      if (K::hist && lane == 0) record_wait(hdr, clock64() - t0);
      if (lane == 0) Ref64(desc[dix<K>(tile)]).store(word(2u, epoch, prefix + agg), st_o);
    }
    // Without a look-back the delay is a pure hold: the tile keeps its
    // registers and shared memory as long as a waiting one would.
    if (!K::lookback && K::delay_ns) __nanosleep(K::delay_ns);
    if (lane == 0) s_prefix = prefix;
  }
  __syncthreads();
  if (K::done == kDoneBeforeStores && tid == 0)
    Ref32(hdr->done).fetch_add(1u, cuda::memory_order_acq_rel);
  const unsigned add = s_prefix + wex;
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    const long long i = seg + (k * 32 + lane) * 4;
    uint4 o = make_uint4(v[k].x + add, v[k].y + add, v[k].z + add, v[k].w + add);
    if (full || i + 4 <= n) {
      *reinterpret_cast<uint4*>(out + i) = o;
    } else {
      if (i < n) out[i] = o.x;
      if (i + 1 < n) out[i + 1] = o.y;
      if (i + 2 < n) out[i + 2] = o.z;
    }
  }
#pragma unroll
  for (int k = 0; k < kSChunks; ++k) {
    const uint4 x = sbuf[warp][k][lane];
    *reinterpret_cast<uint4*>(out + seg + ((kChunks + k) * 32 + lane) * 4) =
        make_uint4(x.x + add, x.y + add, x.z + add, x.w + add);
  }
  if (K::done == kDoneAfterStores && tid == 0)
    Ref32(hdr->done).fetch_add(1u, cuda::memory_order_acq_rel);
  if (K::done == kDoneRelaxedAfter && tid == 0)
    Ref32(hdr->done).fetch_add(1u, cuda::memory_order_relaxed);
}

// Persistent blocks that prefetch: one block per resident slot loops over
// tickets. After publishing tile t's aggregate it takes the next ticket and
// starts that tile's loads (cp.async into the other shared-memory stage), so
// the SM keeps loads in flight while t waits in the look-back; then it
// finishes t. A block waits only on lower tickets, all held by running
// blocks, so this needs no more forward progress than the ticketed kernel.
// Full tiles only (n a multiple of the tile).
template <int BT, int IPT, int MINB, int kDelayNs>
struct Persistent {
  static constexpr int kThreads = BT, kItems = IPT, kMinBlocks = MINB;
  static constexpr int tile_items = BT * IPT;
  static constexpr int delay_ns = kDelayNs, spin_ns = 0;
  static constexpr bool acq_rel = true, smart_wait = false, lookback = true, hist = false;
  static constexpr int per_lane = 1;
  static constexpr std::size_t smem_bytes = 2u * tile_items * 4u;  // two stages
};

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks)
    persistent_kernel(const unsigned* in, unsigned* out, unsigned long long* desc, Hdr* hdr,
                      unsigned num_tiles, unsigned epoch, unsigned ticket_base) {
  constexpr int kWarps = K::kThreads / 32;
  constexpr int kChunks = K::kItems / 4;
  constexpr int kSeg = 32 * K::kItems;
  extern __shared__ uint4 stages[];  // [2][kWarps][kChunks][32]
  __shared__ unsigned s_tile[2], s_prefix;
  __shared__ unsigned s_warp[kWarps];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  auto slot = [&](int stage, int k) -> uint4& {
    return stages[((stage * kWarps + warp) * kChunks + k) * 32 + lane];
  };
  auto seg_of = [&](unsigned tile) {
    return static_cast<long long>(tile) * K::tile_items + warp * static_cast<long long>(kSeg);
  };
  auto prefetch = [&](unsigned tile, int stage) {
    const long long seg = seg_of(tile);
#pragma unroll
    for (int k = 0; k < kChunks; ++k)
      __pipeline_memcpy_async(&slot(stage, k), in + seg + (k * 32 + lane) * 4, 16);
    __pipeline_commit();
  };
  if (tid == 0)
    s_tile[0] = Ref32(hdr->ticket).fetch_add(1u, cuda::memory_order_relaxed) - ticket_base;
  __syncthreads();
  unsigned tile = s_tile[0];
  if (tile < num_tiles) prefetch(tile, 0);
  for (int it = 0; tile < num_tiles; ++it) {
    const int stage = it & 1;
    // Each thread reads only the slots its own cp.async filled.
    __pipeline_wait_prior(0);
    unsigned run = 0;
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      uint4 x = slot(stage, k);
      scan_chunk(x, run, lane);
      slot(stage, k) = x;
    }
    if (lane == 0) s_warp[warp] = run;
    if (tid == 0)
      s_tile[stage ^ 1] =
          Ref32(hdr->ticket).fetch_add(1u, cuda::memory_order_relaxed) - ticket_base;
    __syncthreads();
    unsigned agg = 0, wex = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      if (w == warp) wex = agg;
      agg += s_warp[w];
    }
    if (warp == 0 && lane == 0)
      Ref64(desc[tile]).store(word(tile ? 1u : 2u, epoch, agg), cuda::memory_order_release);
    const unsigned next = s_tile[stage ^ 1];
    // The other stage was last read by this thread's stores of the tile
    // before (program order: those reads are done).
    if (next < num_tiles) prefetch(next, stage ^ 1);
    if (warp == 0) {
      unsigned prefix = 0;
      if (tile > 0) {
        prefix = look_back<K>(desc, hdr, tile, epoch, lane);
        if (lane == 0)
          Ref64(desc[tile]).store(word(2u, epoch, prefix + agg), cuda::memory_order_release);
      }
      if (lane == 0) s_prefix = prefix;
    }
    __syncthreads();
    const unsigned add = s_prefix + wex;
    const long long seg = seg_of(tile);
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const uint4 x = slot(stage, k);
      *reinterpret_cast<uint4*>(out + seg + (k * 32 + lane) * 4) =
          make_uint4(x.x + add, x.y + add, x.z + add, x.w + add);
    }
    tile = next;
  }
}

// Pipelined persistent blocks: two tiles per block, and a block publishes
// the aggregate of its newer tile before it waits on the look-back of its
// older one. The persistent kernel above publishes tile t+1's aggregate only
// after t's look-back and stores, so waits chain from tile to tile; here an
// aggregate waits only for its own tile's loads, and the older tile's
// look-back starts one load latency after its aggregate (a delay that costs
// nothing: the block is loading meanwhile). A block waits only after it has
// published the aggregates of every tile it holds, on lower tickets held by
// running blocks: no more forward progress than the ticketed kernel needs.
// Each tile is RIPT items per thread in registers (two register sets, one per
// tile held) plus SIPT in a shared-memory stage. Not a library variant (the
// model has no two-tile block program): an experiment to see whether this is
// where the look-back's cost goes. Full tiles only.
//
// kStages = 3 (shared memory only): the loads of the tile after next are in
// flight while the block waits on its oldest tile's look-back and stores it.
// A block then holds one tile whose aggregate is not published yet, but it
// is newer than the tile the block waits on, so the waiting block with the
// lowest tile never waits on such a tile: still deadlock-free.
//
// kTries > 0 (early_kernel): the loads of a block's next tile are issued
// before its held tile is finished, and warp 0 polls the held tile's
// look-back at most kTries windows without blocking; if that finds the
// prefix, the held tile is stored while the next one loads. kLookback =
// false skips every look-back (wrong results: the bound of the tile
// pipeline alone). kCount counts tries and successes in Hdr.
//
// kOverlap (overlap_kernel): the next ticket is drawn (by warp 1) while warp
// 0 looks back for the held tile, instead of after that tile's stores: one
// round trip per tile off the block's critical path. kOverlap == 2 also
// publishes PREFIX after the barrier that hands the prefix to the block, so
// its release fence delays only warp 0.
//
// kPerLane: descriptors each lane of warp 0 reads per look-back window, 32
// apart (a window of 32 x kPerLane predecessors per round trip).
template <int BT, int RIPT, int SIPT, int MINB, int kStages = 2, int kDelayNs = 0, int kTries = 0,
          bool kLookback = true, bool kCount = false, int kOverlap = 0, int kPerLane = 1,
          bool kHist = false, bool kLbWarp = false, int kOrders = 3, int kDescStride = 1>
struct Pipelined {
  // kOrders: bit 0 acquire look-back reads, bit 1 release publishes (3: the
  // spec's orders); a cleared bit makes them relaxed (enough for a packed
  // descriptor, which carries its value in the word that is read).
  // kDescStride: descriptor i lives at desc[i * kDescStride] (8-byte words),
  // so a window's reads spread over more cache lines and L2 slices.
  static constexpr int desc_stride = kDescStride;
  static constexpr cuda::memory_order pub_order =
      (kOrders & 2) ? cuda::memory_order_release : cuda::memory_order_relaxed;
  // kLbWarp (specialized_kernel): BT threads scan and move the data and one
  // more warp does every look-back, so a tile's look-back runs while the
  // data warps load and scan the block's next tile.
  static constexpr bool lb_warp = kLbWarp;
  static constexpr int launch_threads = BT + (kLbWarp ? 32 : 0);
  static constexpr int tries = kTries, overlap = kOverlap;
  static constexpr bool lookback = kLookback, count = kCount;
  // Not every kernel reads every knob; this reads them all (nvcc warns about
  // members of a class in an unnamed namespace that nothing references).
  static_assert(tries >= 0 && overlap >= 0 && (count || !count));
  static constexpr int kThreads = BT, kMinBlocks = MINB, stages = kStages;
  static constexpr int kRegItems = RIPT, kSmemItems = SIPT;
  static constexpr int tile_items = BT * (RIPT + SIPT);
  static constexpr int delay_ns = kDelayNs, spin_ns = 0;
  static constexpr bool acq_rel = (kOrders & 1) != 0, smart_wait = false;
  static constexpr int per_lane = kPerLane;
  static constexpr bool hist = kHist;
  static constexpr std::size_t smem_bytes = std::size_t{kStages} * BT * SIPT * 4u;
};

// One block's steps on its tiles, shared by the pipelined kernels.
template <class K>
struct TileSteps {
  static constexpr int kWarps = K::kThreads / 32;
  static constexpr int kR = K::kRegItems / 4, kS = K::kSmemItems / 4;
  static constexpr int kRegs = kR > 0 ? kR : 1;  // a register set (unused when kR == 0)
  static constexpr int kSeg = 32 * (K::kRegItems + K::kSmemItems);
  using Regs = uint4[kRegs];

  uint4* stages;  // [K::stages][kWarps][kS][32]
  unsigned *s_tile, *s_prefix, *s_warp, *s_ok;
  const unsigned* in;
  unsigned* out;
  unsigned long long* desc;
  Hdr* hdr;
  unsigned epoch, ticket_base;
  int tid, lane, warp;

  __device__ uint4& slot(int stage, int k) const {
    return stages[((stage * kWarps + warp) * kS + k) * 32 + lane];
  }
  __device__ long long seg_of(unsigned tile) const {
    return static_cast<long long>(tile) * K::tile_items + warp * static_cast<long long>(kSeg);
  }
  // A barrier of the threads that move data: the whole block, or (with a
  // look-back warp) named barrier 1 of the data warps alone.
  __device__ void sync() const {
    if constexpr (K::lb_warp) {
      asm volatile("bar.sync 1, %0;" ::"r"(K::kThreads) : "memory");
    } else {
      __syncthreads();
    }
  }
  __device__ unsigned take() const {
    if (tid == 0)
      *s_tile = Ref32(hdr->ticket).fetch_add(1u, cuda::memory_order_relaxed) - ticket_base;
    sync();
    const unsigned t = *s_tile;
    sync();
    return t;
  }
  // Starts the shared-memory part of tile's loads (cp.async, one group).
  __device__ void issue(unsigned tile, int stage) const {
    const long long seg = seg_of(tile);
#pragma unroll
    for (int k = 0; k < kS; ++k)
      __pipeline_memcpy_async(&slot(stage, k), in + seg + ((kR + k) * 32 + lane) * 4, 16);
    __pipeline_commit();
  }
  // Issues the register part of tile's loads (used later by scan_loaded).
  __device__ void load_regs(unsigned tile, Regs& r) const {
    const long long seg = seg_of(tile);
#pragma unroll
    for (int k = 0; k < kR; ++k)
      r[k] = *reinterpret_cast<const uint4*>(in + seg + (k * 32 + lane) * 4);
  }
  // Waits for the one cp.async group in flight (tile's), scans the tile in
  // place and publishes its aggregate.
  __device__ void scan_loaded(unsigned tile, int stage, Regs& r, unsigned& agg,
                              unsigned& wex) const {
    unsigned run = 0;
#pragma unroll
    for (int k = 0; k < kR; ++k)
      scan_chunk(r[k], run, lane);
    __pipeline_wait_prior(0);  // each thread reads only the slots it filled
#pragma unroll
    for (int k = 0; k < kS; ++k) {
      uint4 x = slot(stage, k);
      scan_chunk(x, run, lane);
      slot(stage, k) = x;
    }
    if (lane == 0) s_warp[warp] = run;
    sync();
    agg = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      if (w == warp) wex = agg;
      agg += s_warp[w];
    }
    sync();  // s_warp is free again
    if (tid == 0)
      Ref64(desc[dix<K>(tile)]).store(word(tile ? 1u : 2u, epoch, agg), publish_order<K>());
  }
  __device__ void scan_and_publish(unsigned tile, int stage, Regs& r, unsigned& agg,
                                   unsigned& wex) const {
    load_regs(tile, r);
    scan_loaded(tile, stage, r, agg, wex);
  }
  // Warp 0 looks back and publishes PREFIX; then every thread stores.
  __device__ void finish(unsigned tile, int stage, const Regs& r, unsigned agg,
                         unsigned wex) const {
    if (warp == 0) {
      unsigned prefix = 0;
      if (tile > 0 && K::lookback) {
        const long long t0 = K::hist ? clock64() : 0;
        prefix = look_back<K>(desc, hdr, tile, epoch, lane);
        if (K::hist && lane == 0) record_wait(hdr, clock64() - t0);
        if (lane == 0)
          Ref64(desc[dix<K>(tile)]).store(word(2u, epoch, prefix + agg), publish_order<K>());
      }
      if (lane == 0) *s_prefix = prefix;
    }
    __syncthreads();
    store(tile, stage, r, *s_prefix + wex);
  }
  // finish() with the block's next ticket drawn by warp 1 while warp 0 looks
  // back; returns that ticket.
  __device__ unsigned finish_take(unsigned tile, int stage, const Regs& r, unsigned agg,
                                  unsigned wex) const {
    static_assert(K::kThreads >= 64, "warp 1 draws the ticket");
    const bool publish = tile > 0 && K::lookback;
    unsigned prefix = 0;
    if (warp == 0) {
      if (publish) {
        prefix = look_back<K>(desc, hdr, tile, epoch, lane);
        if (K::overlap == 1 && lane == 0)
          Ref64(desc[tile]).store(word(2u, epoch, prefix + agg), cuda::memory_order_release);
      }
      if (lane == 0) *s_prefix = prefix;
    } else if (tid == 32) {
      *s_tile = Ref32(hdr->ticket).fetch_add(1u, cuda::memory_order_relaxed) - ticket_base;
    }
    __syncthreads();
    if (K::overlap == 2 && publish && tid == 0)
      Ref64(desc[tile]).store(word(2u, epoch, prefix + agg), cuda::memory_order_release);
    const unsigned next = *s_tile;
    store(tile, stage, r, *s_prefix + wex);
    return next;
  }
  // Warp 0 polls the look-back at most K::tries windows, never waiting for a
  // descriptor; if that finds the prefix it publishes PREFIX and every
  // thread stores the tile. Returns whether it did.
  __device__ bool try_finish(unsigned tile, int stage, const Regs& r, unsigned agg,
                             unsigned wex) const {
    if (warp == 0) {
      unsigned prefix = 0;
      bool ok = tile == 0 || !K::lookback;
      if (!ok) {
        ok = try_look_back<K>(desc, tile, epoch, lane, prefix);
        if (ok && lane == 0)
          Ref64(desc[tile]).store(word(2u, epoch, prefix + agg), cuda::memory_order_release);
      }
      if (lane == 0) {
        *s_prefix = prefix;
        *s_ok = ok ? 1u : 0u;
        if (K::count) {
          atomicAdd(&hdr->tries, 1ull);
          if (ok) atomicAdd(&hdr->tried_ok, 1ull);
        }
      }
    }
    __syncthreads();
    if (*s_ok == 0) return false;
    store(tile, stage, r, *s_prefix + wex);
    return true;
  }
  __device__ void store(unsigned tile, int stage, const Regs& r, unsigned add) const {
    const long long seg = seg_of(tile);
#pragma unroll
    for (int k = 0; k < kR; ++k)
      *reinterpret_cast<uint4*>(out + seg + (k * 32 + lane) * 4) =
          make_uint4(r[k].x + add, r[k].y + add, r[k].z + add, r[k].w + add);
#pragma unroll
    for (int k = 0; k < kS; ++k) {
      const uint4 x = slot(stage, k);
      *reinterpret_cast<uint4*>(out + seg + ((kR + k) * 32 + lane) * 4) =
          make_uint4(x.x + add, x.y + add, x.z + add, x.w + add);
    }
  }
};

// A block's TileSteps, over shared memory declared here (per K).
template <class K>
__device__ TileSteps<K> tile_steps(const unsigned* in, unsigned* out, unsigned long long* desc,
                                   Hdr* hdr, unsigned epoch, unsigned ticket_base) {
  extern __shared__ uint4 stages[];
  __shared__ unsigned s_tile, s_prefix, s_warp[K::kThreads / 32], s_ok;
  const int tid = static_cast<int>(threadIdx.x);
  return {stages, &s_tile, &s_prefix, s_warp,      &s_ok, in,       out,
          desc,   hdr,     epoch,     ticket_base, tid,   tid & 31, tid >> 5};
}

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks)
    pipelined_kernel(const unsigned* in, unsigned* out, unsigned long long* desc, Hdr* hdr,
                     unsigned num_tiles, unsigned epoch, unsigned ticket_base) {
  static_assert(K::stages == 2);
  const TileSteps<K> io = tile_steps<K>(in, out, desc, hdr, epoch, ticket_base);
  // Two register sets, named, so that no register array is indexed at run
  // time: the loop body is written out for each of the two roles. A stage
  // is reloaded only after these threads issued the stores of the tile it
  // held (program order: their shared-memory reads are done).
  typename TileSteps<K>::Regs ra, rb;
  unsigned cur = io.take();
  if (cur >= num_tiles) return;
  unsigned agg = 0, wex = 0, next_agg = 0, next_wex = 0;
  io.issue(cur, 0);
  io.scan_and_publish(cur, 0, ra, agg, wex);
  for (;;) {
    // The newer tile first: its aggregate must not wait on cur's prefix.
    unsigned next = io.take();
    if (next < num_tiles) {
      io.issue(next, 1);
      io.scan_and_publish(next, 1, rb, next_agg, next_wex);
    }
    io.finish(cur, 0, ra, agg, wex);
    if (next >= num_tiles) break;
    cur = next, agg = next_agg, wex = next_wex;
    next = io.take();
    if (next < num_tiles) {
      io.issue(next, 0);
      io.scan_and_publish(next, 0, ra, next_agg, next_wex);
    }
    io.finish(cur, 1, rb, agg, wex);
    if (next >= num_tiles) break;
    cur = next, agg = next_agg, wex = next_wex;
  }
}

// Early stores: the pipelined kernel with the next tile's loads issued
// before the held tile is finished. Holding `cur` (aggregate published), a
// block takes `next` and issues its loads, then tries to finish cur without
// blocking (TileSteps::try_finish): if cur's prefix is there, cur is stored
// while next loads. Then next is scanned and its aggregate published, and
// only then, if the try failed, the block waits on cur's look-back. So the
// block still waits only after publishing every aggregate it holds (no
// chains), and the loads overlap the stores whenever the try succeeds.
template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks)
    early_kernel(const unsigned* in, unsigned* out, unsigned long long* desc, Hdr* hdr,
                 unsigned num_tiles, unsigned epoch, unsigned ticket_base) {
  static_assert(K::stages == 2 && K::tries > 0);
  const TileSteps<K> io = tile_steps<K>(in, out, desc, hdr, epoch, ticket_base);
  typename TileSteps<K>::Regs ra, rb;
  unsigned cur = io.take();
  if (cur >= num_tiles) return;
  unsigned agg = 0, wex = 0, next_agg = 0, next_wex = 0;
  io.issue(cur, 0);
  io.scan_and_publish(cur, 0, ra, agg, wex);
  for (;;) {
    unsigned next = io.take();
    if (next < num_tiles) {
      io.issue(next, 1);
      io.load_regs(next, rb);
    }
    bool done = io.try_finish(cur, 0, ra, agg, wex);
    if (next < num_tiles) io.scan_loaded(next, 1, rb, next_agg, next_wex);
    if (!done) io.finish(cur, 0, ra, agg, wex);
    if (next >= num_tiles) break;
    cur = next, agg = next_agg, wex = next_wex;
    next = io.take();
    if (next < num_tiles) {
      io.issue(next, 0);
      io.load_regs(next, ra);
    }
    done = io.try_finish(cur, 1, rb, agg, wex);
    if (next < num_tiles) io.scan_loaded(next, 0, ra, next_agg, next_wex);
    if (!done) io.finish(cur, 1, rb, agg, wex);
    if (next >= num_tiles) break;
    cur = next, agg = next_agg, wex = next_wex;
  }
}

// The pipelined kernel with TileSteps::finish_take: a block draws its next
// ticket while it looks back for its held tile (it still waits only on lower
// tiles, so the ticket argument holds: the lowest tile without a PREFIX
// always belongs to a block that can go on).
template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks)
    overlap_kernel(const unsigned* in, unsigned* out, unsigned long long* desc, Hdr* hdr,
                   unsigned num_tiles, unsigned epoch, unsigned ticket_base) {
  static_assert(K::stages == 2 && K::overlap > 0);
  const TileSteps<K> io = tile_steps<K>(in, out, desc, hdr, epoch, ticket_base);
  typename TileSteps<K>::Regs ra, rb;
  unsigned cur = io.take();
  if (cur >= num_tiles) return;
  unsigned agg = 0, wex = 0, next_agg = 0, next_wex = 0;
  io.issue(cur, 0);
  io.scan_and_publish(cur, 0, ra, agg, wex);
  unsigned next = io.take();
  for (;;) {
    if (next >= num_tiles) {  // the last ticket this block draws
      io.finish(cur, 0, ra, agg, wex);
      return;
    }
    io.issue(next, 1);
    io.scan_and_publish(next, 1, rb, next_agg, next_wex);
    unsigned after = io.finish_take(cur, 0, ra, agg, wex);
    cur = next, agg = next_agg, wex = next_wex, next = after;
    if (next >= num_tiles) {
      io.finish(cur, 1, rb, agg, wex);
      return;
    }
    io.issue(next, 0);
    io.scan_and_publish(next, 0, ra, next_agg, next_wex);
    after = io.finish_take(cur, 1, rb, agg, wex);
    cur = next, agg = next_agg, wex = next_wex, next = after;
  }
}

// Warp-specialized pipelined blocks: K::kThreads data threads and one
// look-back warp (the block's last). The data warps take a tile, load and
// scan it and publish its aggregate, hand it to the look-back warp and go
// on with the next tile; once that one's aggregate is published they meet
// the look-back warp at a block barrier, get the older tile's prefix and
// store it. The look-back of a tile so runs during the next tile's loads.
// The block still waits (at that barrier) only after publishing the
// aggregate of every tile it holds, on lower tiles: the ticket argument.
template <class K>
__global__ void __launch_bounds__(K::launch_threads, K::kMinBlocks)
    specialized_kernel(const unsigned* in, unsigned* out, unsigned long long* desc, Hdr* hdr,
                       unsigned num_tiles, unsigned epoch, unsigned ticket_base) {
  static_assert(K::stages == 2 && K::lb_warp);
  constexpr unsigned kStop = 0xffffffffu;
  __shared__ unsigned s_hand_tile[2], s_hand_agg[2], s_pre[2];
  const TileSteps<K> io = tile_steps<K>(in, out, desc, hdr, epoch, ticket_base);
  if (io.warp == K::kThreads / 32) {  // the look-back warp
    __syncthreads();
    for (int k = 0;; ++k) {
      const unsigned t = s_hand_tile[k & 1], agg = s_hand_agg[k & 1];
      if (t == kStop) return;
      unsigned prefix = 0;
      if (t > 0 && K::lookback) {
        const long long t0 = K::hist ? clock64() : 0;
        prefix = look_back<K>(desc, hdr, t, epoch, io.lane);
        if (K::hist && io.lane == 0) record_wait(hdr, clock64() - t0);
        if (io.lane == 0)
          Ref64(desc[t]).store(word(2u, epoch, prefix + agg), cuda::memory_order_release);
      }
      if (io.lane == 0) s_pre[k & 1] = prefix;
      __syncthreads();
    }
  }
  typename TileSteps<K>::Regs ra, rb;
  unsigned cur = io.take();
  if (cur >= num_tiles) {
    if (io.tid == 0) s_hand_tile[0] = kStop;
    __syncthreads();
    return;
  }
  unsigned agg = 0, wex = 0, next_agg = 0, next_wex = 0;
  io.issue(cur, 0);
  io.scan_and_publish(cur, 0, ra, agg, wex);
  if (io.tid == 0) s_hand_tile[0] = cur, s_hand_agg[0] = agg;
  __syncthreads();
  // One cycle: the next tile into (regs, stage); the held tile cur stored
  // from (held regs, held stage) with s_pre[k & 1].
  auto cycle = [&](int k, typename TileSteps<K>::Regs& held, int held_stage,
                   typename TileSteps<K>::Regs& fresh, int fresh_stage) {
    const unsigned next = io.take();
    if (next < num_tiles) {
      io.issue(next, fresh_stage);
      io.scan_and_publish(next, fresh_stage, fresh, next_agg, next_wex);
    }
    if (io.tid == 0) {
      s_hand_tile[(k + 1) & 1] = next < num_tiles ? next : kStop;
      s_hand_agg[(k + 1) & 1] = next_agg;
    }
    __syncthreads();
    io.store(cur, held_stage, held, s_pre[k & 1] + wex);
    cur = next, agg = next_agg, wex = next_wex;
    return next < num_tiles;
  };
  for (int k = 0;; k += 2) {
    if (!cycle(k, ra, 0, rb, 1)) return;
    if (!cycle(k + 1, rb, 1, ra, 0)) return;
  }
}

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks)
    pipelined3_kernel(const unsigned* in, unsigned* out, unsigned long long* desc, Hdr* hdr,
                      unsigned num_tiles, unsigned epoch, unsigned ticket_base) {
  static_assert(K::stages == 3 && K::kRegItems == 0, "three shared-memory stages only");
  const TileSteps<K> io = tile_steps<K>(in, out, desc, hdr, epoch, ticket_base);
  typename TileSteps<K>::Regs none;
  unsigned cur = io.take();
  if (cur >= num_tiles) return;
  unsigned agg = 0, wex = 0;
  io.issue(cur, 0);
  io.scan_and_publish(cur, 0, none, agg, wex);
  unsigned next = io.take();
  if (next < num_tiles) io.issue(next, 1);
  for (int it = 0;; ++it) {
    const int cur_stage = it % 3, next_stage = (it + 1) % 3, after_stage = (it + 2) % 3;
    unsigned next_agg = 0, next_wex = 0, after = num_tiles;
    if (next < num_tiles) {
      io.scan_and_publish(next, next_stage, none, next_agg, next_wex);
      // after_stage held the tile these threads stored one iteration ago.
      after = io.take();
      if (after < num_tiles) io.issue(after, after_stage);
    }
    io.finish(cur, cur_stage, none, agg, wex);
    if (next >= num_tiles) break;
    cur = next;
    agg = next_agg;
    wex = next_wex;
    next = after;
  }
}

__global__ void fill(unsigned* p, long long n) {
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < n; i += gridDim.x * 256LL)
    p[i] = static_cast<unsigned>((i * 2654435761ULL) >> 7);
}
__global__ void diff(const unsigned* a, const unsigned* b, long long n, unsigned long long* bad) {
  unsigned long long c = 0;
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < n; i += gridDim.x * 256LL)
    c += a[i] != b[i];
  if (c) atomicAdd(bad, c);
}

double median_us(const std::function<void(int)>& launch, int slices) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    launch(i % slices);
  CHECK(cudaEventRecord(a));
  launch(3 % slices);
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float est = 0;
  CHECK(cudaEventElapsedTime(&est, a, b));
  const int reps = std::clamp(static_cast<int>(40.0 / std::max(est, 0.002f)), 11, 200);
  std::vector<cudaEvent_t> ev(2 * reps);
  for (auto& e : ev)
    CHECK(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(ev[2 * r]));
    launch((r + 4) % slices);
    CHECK(cudaEventRecord(ev[2 * r + 1]));
  }
  CHECK(cudaDeviceSynchronize());
  std::vector<double> t(reps);
  for (int r = 0; r < reps; ++r) {
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]));
    t[r] = ms * 1e3;
  }
  for (auto& e : ev)
    CHECK(cudaEventDestroy(e));
  std::sort(t.begin(), t.end());
  return t[reps / 2];
}

struct Env {
  unsigned *in, *out, *expected;
  long long pool;
  unsigned long long* desc;
  Hdr* hdr;
  unsigned long long* bad;
  unsigned epoch = 0, ticket_base = 0;
  long long stride(long long n) const { return (n + 63) / 64 * 64; }
  int slices(long long n) const { return static_cast<int>(std::max(1LL, pool / stride(n))); }
};

// Set by a row that hung or gave a wrong result: the run exits 1.
bool g_failed = false;

template <class Launch>
void report(Env& env, long long n, double copy_us, double cub_us, const char* name, bool checked,
            Launch& launch) {
  CHECK(cudaMemset(env.hdr, 0, sizeof(Hdr)));
  env.ticket_base = 0;
  launch(0);
  CHECK(cudaGetLastError());
  CHECK(cudaMemset(env.bad, 0, 8));
  diff<<<1024, 256>>>(env.out, env.expected, n, env.bad);
  unsigned long long bad = 0;
  CHECK(cudaMemcpy(&bad, env.bad, 8, cudaMemcpyDeviceToHost));
  const double us = median_us(launch, env.slices(n));
  unsigned hung = 0;
  CHECK(cudaMemcpy(&hung, &env.hdr->hung, 4, cudaMemcpyDeviceToHost));
  std::printf("%-34s n=2^%-2d %9.2f us %7.1f GB/s %6.1f%% copy %5.2fx cub  %s\n", name,
              63 - __builtin_clzll(static_cast<unsigned long long>(n)), us, 8.0 * n / us / 1e3,
              100.0 * copy_us / us, cub_us / us,
              hung ? "HUNG" : (!checked ? "unchecked" : (bad ? "FAIL" : "ok")));
  if (hung || (checked && bad)) g_failed = true;
  Hdr h;
  CHECK(cudaMemcpy(&h, env.hdr, sizeof h, cudaMemcpyDeviceToHost));
  if (h.tries > 0)
    std::printf("    early tries: %llu, %.1f%% found the prefix\n", h.tries,
                100.0 * h.tried_ok / h.tries);
  if (h.wait_count > 0) {
    // Cycles to microseconds at the SM's rated clock (the attribute is the
    // maximum; under load the clock may differ, so the times are approximate).
    int khz = 0;
    CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    const double us_per_cycle = 1e3 / khz;
    std::printf(
        "    look-back time: mean %.2f us over %llu tiles, %.2f windows/tile; share by "
        "bucket:",
        h.wait_sum * us_per_cycle / h.wait_count, h.wait_count,
        static_cast<double>(h.windows) / h.wait_count);
    for (int b = 0; b < 40; ++b)
      if (h.wait_hist[b] * 1000 >= h.wait_count)
        std::printf(" <%.2fus %.1f%%", (2ull << b) * us_per_cycle,
                    100.0 * h.wait_hist[b] / h.wait_count);
    std::printf("\n");
  }
  std::fflush(stdout);
}

// in_place: the scan reads and writes env.out (the checked first launch
// scans a copy of the input; later launches rescan their own output).
template <class K>
void run_knobs(Env& env, long long n, double copy_us, double cub_us, const char* name,
               bool in_place = false) {
  const unsigned tiles = static_cast<unsigned>((n + K::tile_items - 1) / K::tile_items);
  if (in_place) CHECK(cudaMemcpy(env.out, env.in, n * 4, cudaMemcpyDeviceToDevice));
  auto launch = [&](int s) {
    ++env.epoch;
    const unsigned* src = (in_place ? env.out : env.in) + env.stride(n) * s;
    scan_kernel<K><<<tiles, K::kThreads>>>(src, env.out + env.stride(n) * s, env.desc, env.hdr,
                                           tiles, env.epoch, env.ticket_base, n);
    if (K::ticket) env.ticket_base += tiles;
  };
  report(env, n, copy_us, cub_us, name, K::lookback, launch);
}

// Threads per block of a persistent kernel (a look-back warp adds one).
template <class K>
constexpr int launch_threads() {
  if constexpr (requires { K::launch_threads; }) {
    return K::launch_threads;
  } else {
    return K::kThreads;
  }
}

using PersistentKernel = void (*)(const unsigned*, unsigned*, unsigned long long*, Hdr*, unsigned,
                                  unsigned, unsigned);

// A persistent grid: as many blocks as fit at once.
template <class K>
void run_persistent(Env& env, long long n, double copy_us, double cub_us, const char* name,
                    PersistentKernel kernel = persistent_kernel<K>) {
  const unsigned tiles = static_cast<unsigned>(n / K::tile_items);
  if (n % K::tile_items != 0) return;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(K::smem_bytes)));
  int per_sm = 0, sms = 0;
  constexpr int threads = launch_threads<K>();
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, K::smem_bytes));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned grid = std::min<unsigned>(tiles, static_cast<unsigned>(per_sm * sms));
  auto launch = [&, grid](int s) {
    ++env.epoch;
    kernel<<<grid, threads, K::smem_bytes>>>(env.in + env.stride(n) * s,
                                             env.out + env.stride(n) * s, env.desc, env.hdr, tiles,
                                             env.epoch, env.ticket_base);
    env.ticket_base += tiles + grid;  // every block also takes one ticket past the end
  };
  char label[96];
  std::snprintf(label, sizeof label, "%s [%d/SM]", name, per_sm);
  report(env, n, copy_us, cub_us, label, K::lookback, launch);
}

// B: the spec's acquire/release, ticket, no finished-blocks counter.
template <int BT, int IPT, int MINB, int Done = kNoDone, int Delay = 0, bool Ticket = true,
          bool AcqRel = true, bool Lookback = true, int Spin = 0, bool Smart = false>
using KB = Knobs<BT, IPT, MINB, Ticket, AcqRel, Done, Delay, Lookback, Spin, Smart>;
template <int BT, int IPT, int MINB, int Delay, int Done = kNoDone, bool AcqRel = true>
using KS = Knobs<BT, IPT, MINB, true, AcqRel, Done, Delay, true, 0, true>;
// Register items plus shared-memory items per thread (cp.async, full tiles only).
template <int BT, int IPT, int SIPT, int MINB, int Delay, int Done = kNoDone, bool AcqRel = true,
          int PerLane = 1>
using KM = Knobs<BT, IPT, MINB, true, AcqRel, Done, Delay, true, 0, false, SIPT, PerLane>;
// Staged, finished counter before the stores; ticket or blockIdx, look-back on or off.
template <int BT, int IPT, int SIPT, int MINB, int Delay, bool Ticket, bool Lookback,
          bool Hist = false>
using KX =
    Knobs<BT, IPT, MINB, Ticket, true, kDoneBeforeStores, Delay, Lookback, 0, false, SIPT, 1, Hist>;
// The same with a back-off of Spin ns between two polls of a look-back window.
template <int Delay, int Spin, bool Hist = false>
using KXS = Knobs<256, 32, 4, true, true, kDoneBeforeStores, Delay, true, Spin, false, 32, 1, Hist>;

// One experiment group at one n; every group starts with the reference row
// (the library's staged shape). Each committed log in bench/results/explore/
// names the group that wrote it.
struct Row {
  Env& env;
  long long n;
  double copy, cub;
  template <class K>
  void knobs(const char* name, bool in_place = false) {
    run_knobs<K>(env, n, copy, cub, name, in_place);
  }
  template <class K>
  void persistent(const char* name) {
    run_persistent<K>(env, n, copy, cub, name);
  }
  template <class K>
  void pipelined(const char* name) {
    if constexpr (K::stages == 3)
      run_persistent<K>(env, n, copy, cub, name, pipelined3_kernel<K>);
    else if constexpr (K::tries > 0)
      run_persistent<K>(env, n, copy, cub, name, early_kernel<K>);
    else if constexpr (K::overlap > 0)
      run_persistent<K>(env, n, copy, cub, name, overlap_kernel<K>);
    else if constexpr (K::lb_warp)
      run_persistent<K>(env, n, copy, cub, name, specialized_kernel<K>);
    else
      run_persistent<K>(env, n, copy, cub, name, pipelined_kernel<K>);
  }
};

void run_group(const std::string& group, Row r) {
  r.knobs<KM<256, 32, 32, 4, 3000, kDoneBeforeStores>>("staged d3000 (reference)");
  if (group == "staged") {  // what chose the staged policy
    r.knobs<KB<256, 32, 4, kNoDone, 3000>>("256x32/4 no-done d3000");
    r.knobs<KM<256, 32, 16, 4, 3000>>("256x(32+16s)/4 d3000");
    r.knobs<KM<256, 32, 32, 4, 3000>>("256x(32+32s)/4 d3000");
    r.knobs<KM<256, 32, 32, 4, 2000>>("256x(32+32s)/4 d2000");
    r.knobs<KM<256, 32, 32, 4, 4000>>("256x(32+32s)/4 d4000");
    r.knobs<KM<256, 32, 32, 4, 3000, kNoDone, false>>("256x(32+32s)/4 d3000 relaxed");
    r.knobs<KM<256, 32, 32, 4, 3000, kDoneAfterStores>>("256x(32+32s)/4 d3000 done-after");
    r.knobs<KM<256, 32, 40, 4, 3000>>("256x(32+40s)/4 d3000");
    r.knobs<KM<256, 16, 24, 6, 3000>>("256x(16+24s)/6 d3000");
    r.knobs<KM<256, 24, 24, 5, 3000>>("256x(24+24s)/5 d3000");
    r.knobs<KM<128, 32, 64, 8, 3000>>("128x(32+64s)/8 d3000");
  } else if (group == "persistent") {  // next tile prefetched during the look-back
    r.persistent<Persistent<256, 32, 3, 0>>("persist 256x32 2st");
    r.persistent<Persistent<256, 32, 3, 1000>>("persist 256x32 2st d1000");
    r.persistent<Persistent<256, 16, 6, 0>>("persist 256x16 2st");
    r.persistent<Persistent<256, 16, 6, 1000>>("persist 256x16 2st d1000");
    r.persistent<Persistent<128, 64, 3, 0>>("persist 128x64 2st");
    r.persistent<Persistent<512, 16, 3, 0>>("persist 512x16 2st");
    r.persistent<Persistent<128, 32, 6, 0>>("persist 128x32 2st");
  } else if (group == "shapes") {  // a public single-pass scan's shape; in place
    r.knobs<KB<256, 12, 8, kNoDone, 0>>("256x12/8 d0");
    r.knobs<KB<256, 12, 8, kNoDone, 0>>("256x12/8 d0 in-place", true);
    r.knobs<KB<256, 12, 8, kNoDone, 0, true, false>>("256x12/8 d0 relaxed");
    r.knobs<KB<256, 12, 8, kNoDone, 1000>>("256x12/8 d1000");
    r.knobs<KM<256, 32, 32, 4, 3000>>("256x(32+32s)/4 d3000 in-place", true);
  } else if (group == "window") {  // 32 x L predecessors per round trip
    r.knobs<KM<256, 32, 32, 4, 3000, kDoneBeforeStores, true, 2>>("staged d3000 window 64");
    r.knobs<KM<256, 32, 32, 4, 3000, kDoneBeforeStores, true, 4>>("staged d3000 window 128");
    r.knobs<KM<256, 32, 32, 4, 3000, kDoneBeforeStores, true, 8>>("staged d3000 window 256");
    r.knobs<KM<256, 32, 32, 4, 1000, kDoneBeforeStores, true, 4>>("staged d1000 window 128");
    r.knobs<KM<256, 32, 32, 4, 0, kDoneBeforeStores, true, 4>>("staged d0 window 128");
    r.knobs<KM<256, 32, 32, 4, 0, kDoneBeforeStores>>("staged d0 window 32");
    r.knobs<KM<256, 32, 40, 4, 3000, kDoneBeforeStores, true, 4>>("(32+40s) d3000 window 128");
  } else if (group == "hold") {  // pure holds, blockIdx, look-back times
    r.knobs<KX<256, 32, 32, 4, 0, true, false>>("staged no-lookback");
    r.knobs<KX<256, 32, 32, 4, 1500, true, false>>("staged no-lookback hold 1500");
    r.knobs<KX<256, 32, 32, 4, 3000, true, false>>("staged no-lookback hold 3000");
    r.knobs<KX<256, 32, 32, 4, 5000, true, false>>("staged no-lookback hold 5000");
    r.knobs<KX<256, 32, 32, 4, 8000, true, false>>("staged no-lookback hold 8000");
    r.knobs<KX<256, 32, 32, 4, 0, false, false>>("staged no-lookback blockIdx");
    r.knobs<KX<256, 32, 32, 4, 3000, false, true>>("staged d3000 blockIdx");
    r.knobs<KX<256, 32, 32, 4, 0, false, true>>("staged d0 blockIdx");
    r.knobs<KX<256, 32, 32, 4, 3000, true, true, true>>("staged d3000 timed");
    r.knobs<KX<256, 32, 32, 4, 0, true, true, true>>("staged d0 timed");
    r.knobs<KX<256, 32, 32, 4, 3000, false, true, true>>("staged d3000 blockIdx timed");
  } else if (group == "small") {  // latency at n <= 2^22: smaller tiles, more of them
    // Finished counter before the stores, as the library; no delay (the
    // library delays only in grids of >= 1024 tiles).
    r.knobs<KB<256, 32, 4, kDoneBeforeStores, 0>>("256x32/4 d0");
    r.knobs<KM<256, 32, 32, 4, 0, kDoneBeforeStores>>("staged d0");
    r.knobs<KB<256, 16, 4, kDoneBeforeStores, 0>>("256x16/4 d0");
    r.knobs<KB<256, 8, 6, kDoneBeforeStores, 0>>("256x8/6 d0");
    r.knobs<KB<256, 4, 8, kDoneBeforeStores, 0>>("256x4/8 d0");
    r.knobs<KB<128, 8, 8, kDoneBeforeStores, 0>>("128x8/8 d0");
    r.knobs<KB<512, 8, 3, kDoneBeforeStores, 0>>("512x8/3 d0");
    r.knobs<KB<256, 8, 6, kDoneBeforeStores, 0, false>>("256x8/6 d0 blockIdx");
    r.knobs<KB<256, 16, 4, kDoneBeforeStores, 0, true, true, false>>("256x16/4 no-lookback");
    r.knobs<KB<256, 8, 6, kDoneBeforeStores, 0, true, true, false>>("256x8/6 no-lookback");
    r.knobs<KB<256, 8, 6, kDoneBeforeStores, 0, false, true, false>>(
        "256x8/6 no-lookback blockIdx");
    r.knobs<KB<256, 4, 8, kDoneBeforeStores, 0, false, true, false>>(
        "256x4/8 no-lookback blockIdx");
  } else if (group == "pipelined") {  // newer tile's aggregate before the older's look-back
    r.pipelined<Pipelined<256, 0, 32, 3>>("pipelined 256x32 2st");
    r.pipelined<Pipelined<256, 0, 32, 3, 2, 1000>>("pipelined 256x32 2st d1000");
    r.pipelined<Pipelined<256, 0, 24, 4>>("pipelined 256x24 2st");
    r.pipelined<Pipelined<256, 0, 16, 6>>("pipelined 256x16 2st");
    r.pipelined<Pipelined<512, 0, 16, 3>>("pipelined 512x16 2st");
    r.pipelined<Pipelined<128, 0, 32, 6>>("pipelined 128x32 2st");
    r.pipelined<Pipelined<128, 0, 24, 8>>("pipelined 128x24 2st");
    r.pipelined<Pipelined<256, 16, 16, 4>>("pipelined 256x(16+16s) 2st");
    r.pipelined<Pipelined<128, 16, 16, 6>>("pipelined 128x(16+16s) 2st");
    r.pipelined<Pipelined<128, 32, 32, 3>>("pipelined 128x(32+32s) 2st");
    r.pipelined<Pipelined<128, 32, 32, 4>>("pipelined 128x(32+32s) 2st /4");
    r.pipelined<Pipelined<128, 16, 48, 4>>("pipelined 128x(16+48s) 2st");
    r.pipelined<Pipelined<256, 32, 32, 2>>("pipelined 256x(32+32s) 2st");
    r.pipelined<Pipelined<64, 32, 32, 6>>("pipelined 64x(32+32s) 2st");
    r.pipelined<Pipelined<128, 24, 40, 4>>("pipelined 128x(24+40s) 2st /4");
    r.pipelined<Pipelined<128, 24, 40, 5>>("pipelined 128x(24+40s) 2st /5");
    r.pipelined<Pipelined<128, 16, 48, 4, 2, 1000>>("pipelined 128x(16+48s) 2st d1000");
    r.pipelined<Pipelined<128, 32, 32, 4, 2, 1000>>("pipelined 128x(32+32s) 2st /4 d1000");
    r.pipelined<Pipelined<128, 0, 32, 4, 3>>("pipelined 128x32 3st");
    r.pipelined<Pipelined<128, 0, 24, 6, 3>>("pipelined 128x24 3st");
    r.pipelined<Pipelined<128, 0, 16, 8, 3>>("pipelined 128x16 3st");
    r.pipelined<Pipelined<256, 0, 16, 3, 3>>("pipelined 256x16 3st");
    r.pipelined<Pipelined<128, 0, 16, 12>>("pipelined 128x16 2st");
    r.pipelined<Pipelined<64, 0, 32, 12>>("pipelined 64x32 2st");
    r.pipelined<Pipelined<64, 0, 16, 16>>("pipelined 64x16 2st");
    r.persistent<Persistent<256, 32, 3, 0>>("persist 256x32 2st (for comparison)");
  } else if (group == "early") {  // the next tile's loads overlap the held tile's stores
    // Pipelined<BT, register items, staged items, blocks/SM, stages, delay,
    //           tries, look-back, count>
    r.pipelined<Pipelined<128, 24, 40, 4>>("pipelined 128x(24+40s)/4");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, false>>("pipelined no-lookback");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 1>>("early 128x(24+40s)/4 tries 1");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 4>>("early 128x(24+40s)/4 tries 4");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 16>>("early 128x(24+40s)/4 tries 16");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 4, true, true>>("early tries 4 counted");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 1, false>>("early no-lookback");
    r.pipelined<Pipelined<128, 32, 32, 4, 2, 0, 4>>("early 128x(32+32s)/4 tries 4");
    r.pipelined<Pipelined<128, 16, 48, 4, 2, 0, 4>>("early 128x(16+48s)/4 tries 4");
    r.pipelined<Pipelined<256, 16, 16, 4, 2, 0, 4>>("early 256x(16+16s)/4 tries 4");
  } else if (group == "overlap") {  // the next ticket drawn during the look-back
    // Pipelined<BT, register items, staged items, blocks/SM, stages, delay,
    //           tries, look-back, count, overlap>
    r.pipelined<Pipelined<128, 24, 40, 4>>("pipelined 128x(24+40s)/4");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, false>>("pipelined no-lookback");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 1>>("overlap 128x(24+40s)/4");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 2>>(
        "overlap late-publish 128x(24+40s)/4");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, false, false, 1>>("overlap no-lookback");
    r.pipelined<Pipelined<128, 16, 48, 4, 2, 0, 0, true, false, 2>>("overlap late 128x(16+48s)/4");
    r.pipelined<Pipelined<128, 32, 32, 4, 2, 0, 0, true, false, 2>>("overlap late 128x(32+32s)/4");
    r.pipelined<Pipelined<256, 16, 16, 4, 2, 0, 0, true, false, 2>>("overlap late 256x(16+16s)/4");
  } else if (group == "pwindow") {  // pipelined: 32 x L predecessors per round trip
    // Pipelined<BT, register items, staged items, blocks/SM, stages, delay,
    //           tries, look-back, count, overlap, per lane, timed>
    using P0 = Pipelined<128, 24, 40, 4>;
    r.pipelined<P0>("pipelined 128x(24+40s)/4 window 32");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 2>>("pipelined window 64");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 4>>("pipelined window 128");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 8>>("pipelined window 256");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 1, true>>(
        "pipelined window 32 timed");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 4, true>>(
        "pipelined window 128 timed");
    r.pipelined<Pipelined<128, 16, 48, 4, 2, 0, 0, true, false, 0, 4>>(
        "pipelined 128x(16+48s)/4 window 128");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, false>>("pipelined no-lookback");
  } else if (group == "specialized") {  // a look-back warp beside the data warps
    // Pipelined<BT, register items, staged items, blocks/SM, stages, delay,
    //           tries, look-back, count, overlap, per lane, timed, look-back warp>
    r.pipelined<Pipelined<128, 24, 40, 4>>("pipelined 128x(24+40s)/4");
    r.pipelined<Pipelined<128, 24, 40, 3, 2, 0, 0, true, false, 0, 1, false, true>>(
        "spec 4w+1 (24+40s)/3");
    r.pipelined<Pipelined<128, 16, 48, 4, 2, 0, 0, true, false, 0, 1, false, true>>(
        "spec 4w+1 (16+48s)/4");
    r.pipelined<Pipelined<128, 16, 40, 4, 2, 0, 0, true, false, 0, 1, false, true>>(
        "spec 4w+1 (16+40s)/4");
    r.pipelined<Pipelined<96, 24, 40, 4, 2, 0, 0, true, false, 0, 1, false, true>>(
        "spec 3w+1 (24+40s)/4");
    r.pipelined<Pipelined<96, 16, 56, 4, 2, 0, 0, true, false, 0, 1, false, true>>(
        "spec 3w+1 (16+56s)/4");
    r.pipelined<Pipelined<128, 16, 48, 4, 2, 0, 0, true, false, 0, 1, true, true>>(
        "spec 4w+1 (16+48s)/4 timed");
    r.pipelined<Pipelined<128, 16, 48, 4, 2, 0, 0, false, false, 0, 1, false, true>>(
        "spec 4w+1 (16+48s)/4 no-lookback");
    r.pipelined<Pipelined<256, 16, 16, 4, 2, 0, 0, true, false, 0, 1, false, true>>(
        "spec 8w+1 (16+16s)/4");
  } else if (group == "pdesc") {  // pipelined: descriptor orders and placement
    // Pipelined<BT, register items, staged items, blocks/SM, stages, delay,
    //           tries, look-back, count, overlap, per lane, timed, look-back warp,
    //           orders (bit 0 acquire, bit 1 release), descriptor stride>
    r.pipelined<Pipelined<128, 24, 40, 4>>("pipelined 128x(24+40s)/4");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 1, false, false, 0>>(
        "pipelined relaxed");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 1, false, false, 1>>(
        "pipelined acquire, relaxed publish");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 1, false, false, 2>>(
        "pipelined release, relaxed reads");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 1, false, false, 3, 2>>(
        "pipelined desc 16B apart");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 1, false, false, 0, 2>>(
        "pipelined relaxed desc 16B apart");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, true, false, 0, 1, false, false, 0, 4>>(
        "pipelined relaxed desc 32B apart");
    r.pipelined<Pipelined<128, 24, 40, 4, 2, 0, 0, false, false, 0, 1, false, false, 0, 2>>(
        "pipelined no-lookback relaxed 16B");
    r.knobs<KM<256, 32, 32, 4, 3000, kDoneBeforeStores, false>>("staged d3000 relaxed");
    r.knobs<
        Knobs<256, 32, 4, true, true, kDoneBeforeStores, 3000, true, 0, false, 32, 1, false, true>>(
        "staged d3000 relaxed publish");
    r.knobs<Knobs<256, 32, 4, true, true, kDoneBeforeStores, 3000, true, 0, false, 32, 1, false,
                  false, 4>>("staged d3000 desc 32B apart");
    r.knobs<Knobs<256, 32, 4, true, true, kDoneBeforeStores, 3000, true, 0, false, 32, 1, false,
                  true, 4>>("staged d3000 relaxed publish 32B");
    r.knobs<Knobs<256, 32, 4, true, true, kDoneBeforeStores, 1000, true, 0, false, 32, 1, false,
                  true, 4>>("staged d1000 relaxed publish 32B");
  } else if (group == "backoff") {  // fewer polls, longer initial delays
    r.knobs<KXS<3000, 250>>("staged d3000 spin 250");
    r.knobs<KXS<3000, 500>>("staged d3000 spin 500");
    r.knobs<KXS<3000, 1000>>("staged d3000 spin 1000");
    r.knobs<KXS<3000, 2000>>("staged d3000 spin 2000");
    r.knobs<KXS<5000, 500>>("staged d5000 spin 500");
    r.knobs<KXS<1000, 500>>("staged d1000 spin 500");
    r.knobs<KXS<0, 500>>("staged d0 spin 500");
    r.knobs<KXS<3000, 1000, true>>("staged d3000 spin 1000 timed");
  }
}

}  // namespace

int main(int argc, char** argv) {
  int lo = 24, hi = 30;
  std::string group = "hold";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--min-log") lo = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--max-log") hi = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--group") group = argv[i + 1];
  }
  const std::vector<std::string> groups = {
      "staged",    "persistent", "shapes",  "window",  "hold",        "small", "backoff",
      "pipelined", "early",      "overlap", "pwindow", "specialized", "pdesc"};
  if (std::find(groups.begin(), groups.end(), group) == groups.end()) {
    std::fprintf(stderr,
                 "unknown --group %s (staged, persistent, shapes, window, hold, small, backoff, "
                 "pipelined, early, overlap, pwindow, specialized, pdesc)\n",
                 group.c_str());
    return 2;
  }
  Env env;
  const long long max_n = 1LL << hi;
  env.pool = std::max(max_n + 64, (256LL << 20) / 4);
  CHECK(cudaMalloc(&env.in, env.pool * 4));
  CHECK(cudaMalloc(&env.out, env.pool * 4));
  CHECK(cudaMalloc(&env.expected, max_n * 4));
  const long long max_tiles = max_n / 1024 + 64;
  CHECK(cudaMalloc(&env.desc, max_tiles * 8));
  CHECK(cudaMemset(env.desc, 0, max_tiles * 8));
  CHECK(cudaMalloc(&env.hdr, sizeof(Hdr)));
  CHECK(cudaMemset(env.hdr, 0, sizeof(Hdr)));
  CHECK(cudaMalloc(&env.bad, 8));
  fill<<<1024, 256>>>(env.in, env.pool);
  std::size_t cub_bytes = 0;
  CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, env.in, env.out, static_cast<int>(max_n)));
  void* cub_temp;
  CHECK(cudaMalloc(&cub_temp, cub_bytes));
  lookback::ScanPlan<unsigned, lookback::Coarsened> plan;  // the "library coarsened" rows
  CHECK(plan.init(max_n, 0));
  lookback::ScanPlan<unsigned, lookback::Pipelined> pplan;
  CHECK(pplan.init(max_n, 0));
  for (int l = lo; l <= hi; l += 2) {
    const long long n = 1LL << l;
    const int slices = env.slices(n);
    const double copy = median_us(
        [&](int s) {
          CHECK(cudaMemcpyAsync(env.out + env.stride(n) * s, env.in + env.stride(n) * s, n * 4,
                                cudaMemcpyDeviceToDevice));
        },
        slices);
    std::size_t b = cub_bytes;
    CHECK(cub::DeviceScan::InclusiveSum(cub_temp, b, env.in, env.expected, static_cast<int>(n)));
    const double cub = median_us(
        [&](int s) {
          std::size_t bb = cub_bytes;
          CHECK(cub::DeviceScan::InclusiveSum(cub_temp, bb, env.in + env.stride(n) * s,
                                              env.out + env.stride(n) * s, static_cast<int>(n)));
        },
        slices);
    const double lib = median_us(
        [&](int s) {
          CHECK(plan.InclusiveSum(env.in + env.stride(n) * s, env.out + env.stride(n) * s, n, 0));
        },
        slices);
    const double plib = median_us(
        [&](int s) {
          CHECK(pplan.InclusiveSum(env.in + env.stride(n) * s, env.out + env.stride(n) * s, n, 0));
        },
        slices);
    std::printf(
        "\nn=2^%d copy %.2f us (%.1f GB/s)  cub %.2f us (%.1f%%)  library coarsened %.2f us "
        "(%.1f%%)  library pipelined %.2f us (%.1f%%)\n",
        l, copy, 8.0 * n / copy / 1e3, cub, 100 * copy / cub, lib, 100 * copy / lib, plib,
        100 * copy / plib);
    run_group(group, Row{env, n, copy, cub});
  }
  if (g_failed) std::fprintf(stderr, "tile_bound: a row hung or gave a wrong result\n");
  return g_failed ? 1 : 0;
}
