// flag_latency: an EXPERIMENT harness, not the library. How long does a
// descriptor publish take to reach another SM's look-back?
//
// Two blocks on two SMs play ping-pong through the library's descriptors
// (Descriptor<P, T>: the variant's layout, publish order and fence, look-back
// order and fence). Round k: block A publishes PREFIX(k) on descriptor k of
// array "to B"; block B's warp reads the window of 32 descriptors ending at
// k, one lane each, as a look-back does, until none is INVALID, checks every
// value it read, and publishes descriptor k of array "to A", which A waits
// for the same way. A times each round with its SM's cycle counter
// (calibrated against the global timer over all rounds); half a round is
// the publish-to-observe latency a look-back pays once per round of
// windows (bench/results/README.md, "The floor under small scans").
//
// Placement: one block per SM (each asks for more than half an SM's shared
// memory), A on SM 0 and B on each other SM in turn, read from %smid (SM ids
// are taken to run from 0 to the SM count - 1, as on the H200; where they do
// not, a pair or the copiers do not start and the run reports it).
// Idle: the other blocks return at once. "copy Q%": those on Q% of the other
// SMs (by SM id modulo 4) stream a copy between two buffers larger than L2
// for the whole ping-pong (its bandwidth is printed), as the other tiles of
// a scan load and store while it looks back.
//
// Next to it, the same ping-pong through distributed shared memory: A and B
// are the two blocks of a thread-block cluster (so on one GPC) and publish a
// round's number into the other's shared memory (st.release.cluster; the
// reader polls its own with ld.acquire.cluster), the path a cluster-wide
// look-back would take instead of L2 (bench/results/h200/cluster/).
//
// Every wait is bounded by the global timer and reported (no kernel here
// can spin forever).
//
//   lookback_flag_latency [--rounds N] [--csv FILE] [--quick]
// (N: 2000, at most 65536; --quick: 400 rounds, B on every ((SMs + 7) / 8)th
// SM, 7 of 132.) Exit status 0, 1 if a wait ran out, a value was wrong or
// FILE cannot be written, 2 for a usage error.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cooperative_groups.h>
#include <cuda/atomic>

#include "cuda_check.hpp"
#include "lookback/device/descriptor.cuh"
#include "lookback/device/global_timer.cuh"
#include "lookback/device/sm_id.cuh"
#include "lookback/protocol/catalogue.hpp"

namespace {

using lookback::device::Descriptor;
using lookback::device::DescriptorStorage;
using lookback::device::global_timer_ns;
using lookback::device::sm_id;
using lookback::protocol::Layout;
using lookback::protocol::Protocol;
using lookback::protocol::Status;

constexpr Protocol variant(const char* name) {
  return lookback::protocol::find_variant(name)->protocol;
}
constexpr Protocol kWarp = variant("warp-lookback");
constexpr Protocol kFenced = variant("fenced-lookback");
// warp-lookback with the split layout (a tag published with release after
// its value word; the reader loads the value after the tag), which the
// library takes for values of more than 8 bytes.
constexpr Protocol kWarpSplit = [] {
  Protocol p = kWarp;
  p.layout = Layout::Split;
  return p;
}();
struct Warp {
  static constexpr Protocol kProtocol = kWarp;
};
struct WarpSplit {
  static constexpr Protocol kProtocol = kWarpSplit;
};
struct Fenced {
  static constexpr Protocol kProtocol = kFenced;
};

constexpr std::uint32_t kEpoch = 1;  // zeroed storage reads INVALID
constexpr int kWindow = 32;
constexpr std::uint64_t kWaitNs = 2'000'000'000;   // any one wait
constexpr std::uint64_t kCopyNs = 10'000'000'000;  // a copier's whole run

enum Error : unsigned {
  kOk = 0,
  kPartnerMissing = 1,  // B never came up on its SM (A waited kWaitNs)
  kCopiersMissing = 2,  // not every other SM's copier started
  kATimedOut = 3,       // A waited kWaitNs for one round's reply
  kBTimedOut = 4,       // B waited kWaitNs for one round's publish
  kWrongValue = 5,      // a descriptor read carried another value
};
const char* error_text(unsigned e) {
  switch (e) {
    case kOk:
      return "ok";
    case kPartnerMissing:
      return "block B did not start on its SM";
    case kCopiersMissing:
      return "not every copier block started";
    case kATimedOut:
      return "block A waited 2 s for a reply";
    case kBTimedOut:
      return "block B waited 2 s for a publish";
    case kWrongValue:
      return "a look-back read carried the wrong value";
    default:
      return "unknown error";
  }
}

// Control's words, accessed at device scope (the library's device_ref).
using Flag = lookback::device::device_ref<unsigned>;

struct Control {
  unsigned error;
  unsigned b_ready;
  unsigned copiers_started;
  unsigned stop;
  unsigned long long copied_bytes;
  unsigned long long ns;      // A's global timer over the rounds
  unsigned long long cycles;  // A's SM cycles over the same rounds
};

__device__ void fail(Control* c, unsigned e) {
  unsigned none = kOk;
  Flag(c->error).compare_exchange_strong(none, e, cuda::memory_order_relaxed);
  Flag(c->stop).store(1u, cuda::memory_order_relaxed);
}
// Whether a warp's wait that began at `start` should end (kWaitNs passed, or
// another thread raised an error): one answer for the whole warp.
__device__ bool gives_up(std::uint64_t start, Control* c) {
  return __any_sync(0xffffffffu, global_timer_ns() - start > kWaitNs ||
                                     Flag(c->stop).load(cuda::memory_order_relaxed));
}

// A look-back's wait on the window ending at descriptor k, by one warp:
// every lane re-reads its descriptor until no lane's is INVALID; then each
// checks the value it read (descriptor j carries j). False on a timeout or
// a wrong value (the error is raised).
template <Protocol P, class T>
__device__ bool wait_window(const Descriptor<P, T>& d, std::uint32_t k, Control* c,
                            unsigned timeout_error) {
  using D = Descriptor<P, T>;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t j = static_cast<std::int64_t>(k) - (kWindow - 1) + lane;
  const bool active = j >= 0;
  const std::uint64_t start = global_timer_ns();
  typename D::Word w{};
  for (unsigned polls = 0;; ++polls) {
    if (active) w = d.load(static_cast<std::uint32_t>(j));
    lookback::device::fence<P.lookback_fence>();
    const bool invalid = active && lookback::protocol::effective_status(D::tag(w), kEpoch,
                                                                        P.reset) == Status::Invalid;
    if (!__any_sync(0xffffffffu, invalid)) break;
    if (polls % 64 == 63 && gives_up(start, c)) {
      if (lane == 0) fail(c, timeout_error);
      return false;
    }
  }
  const bool wrong = active && !(d.value(static_cast<std::uint32_t>(j), w) == static_cast<T>(j));
  if (__any_sync(0xffffffffu, wrong)) {
    if (lane == 0) fail(c, kWrongValue);
    return false;
  }
  return true;
}

// Waits (bounded) until *flag reaches want; false (error raised) past kWaitNs.
__device__ bool await_count(unsigned& flag, unsigned want, Control* c, unsigned error) {
  const std::uint64_t start = global_timer_ns();
  while (Flag(flag).load(cuda::memory_order_acquire) < want) {
    if (global_timer_ns() - start > kWaitNs) {
      fail(c, error);
      return false;
    }
  }
  return true;
}

// Streams src -> dst (n16 16-byte words, a power of two, wrapping) until A
// says stop.
__device__ void copy_until_stopped(const uint4* src, uint4* dst, std::size_t n16, Control* c) {
  __shared__ unsigned long long block_bytes;
  if (threadIdx.x == 0) {
    block_bytes = 0;
    Flag(c->copiers_started).fetch_add(1u, cuda::memory_order_release);
  }
  __syncthreads();
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::uint64_t start = global_timer_ns();
  unsigned long long words = 0;
  for (unsigned it = 0;; ++it) {
    if (it % 16 == 0 &&
        (Flag(c->stop).load(cuda::memory_order_relaxed) || global_timer_ns() - start > kCopyNs))
      break;
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u)
      v[u] = src[(i + u * threads) & (n16 - 1)];
#pragma unroll
    for (int u = 0; u < 4; ++u)
      dst[(i + u * threads) & (n16 - 1)] = v[u];
    i = (i + 4 * threads) & (n16 - 1);
    words += 4;
  }
  atomicAdd(&block_bytes, words * 16);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&c->copied_bytes, block_bytes);
}

// Copiers: the blocks whose SM id (or, in a cluster launch, block index)
// modulo 4 is below copy_quarters; `copiers` of them in all.
struct Load {
  int copy_quarters;
  unsigned copiers;
  const uint4* src;
  uint4* dst;
  std::size_t n16;
};

// A's side of one ping-pong: waits (bounded) for the copiers, then times
// each round's publish(k) + wait_reply(k) with its SM's cycle counter.
template <class Publish, class WaitReply>
__device__ void time_rounds(Control* c, long long* round_cycles, int rounds, unsigned copiers,
                            Publish publish, WaitReply wait_reply) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (lane == 0 && copiers > 0) await_count(c->copiers_started, copiers, c, kCopiersMissing);
  if (__shfl_sync(0xffffffffu, Flag(c->error).load(cuda::memory_order_relaxed), 0) != kOk) return;
  const std::uint64_t ns0 = global_timer_ns();
  const long long cycles0 = clock64();
  for (int k = 0; k < rounds; ++k) {
    const long long t0 = clock64();
    publish(k);
    if (!wait_reply(k)) break;
    if (lane == 0) round_cycles[k] = clock64() - t0;
  }
  if (lane == 0) {
    c->cycles = static_cast<unsigned long long>(clock64() - cycles0);
    c->ns = global_timer_ns() - ns0;
    Flag(c->stop).store(1u, cuda::memory_order_relaxed);
  }
}

// V::kProtocol: a kernel template's arguments stay types (nvcc's host stubs
// cannot spell a class-type template argument).
template <class V, class T>
__global__ void __launch_bounds__(1024, 1)
    ping_pong(DescriptorStorage to_b, DescriptorStorage to_a, Control* c, long long* round_cycles,
              int rounds, unsigned sm_a, unsigned sm_b, Load load) {
  constexpr Protocol P = V::kProtocol;
  extern __shared__ unsigned char hold_the_sm[];  // one block per SM
  (void)hold_the_sm;
  const unsigned sm = sm_id();
  const bool is_a = sm == sm_a, is_b = sm == sm_b;
  if (!is_a && !is_b) {
    if (static_cast<int>(sm % 4) < load.copy_quarters)
      copy_until_stopped(load.src, load.dst, load.n16, c);
    return;
  }
  if (threadIdx.x >= 32) return;  // one warp plays, as one warp looks back
  const int lane = static_cast<int>(threadIdx.x);
  const Descriptor<P, T> mine(is_a ? to_b : to_a), theirs(is_a ? to_a : to_b);
  if (is_b) {
    if (lane == 0) Flag(c->b_ready).store(1u, cuda::memory_order_release);
    for (int k = 0; k < rounds; ++k) {
      if (!wait_window<P, T>(theirs, static_cast<std::uint32_t>(k), c, kBTimedOut)) return;
      if (lane == 0)
        mine.publish(static_cast<std::uint32_t>(k), Status::Prefix, static_cast<T>(k), kEpoch);
    }
    return;
  }
  if (lane == 0) await_count(c->b_ready, 1u, c, kPartnerMissing);
  time_rounds(
      c, round_cycles, rounds, load.copiers,
      [&](int k) {
        if (lane == 0)
          mine.publish(static_cast<std::uint32_t>(k), Status::Prefix, static_cast<T>(k), kEpoch);
      },
      [&](int k) {
        return wait_window<P, T>(theirs, static_cast<std::uint32_t>(k), c, kATimedOut);
      });
}

// Distributed shared memory: one flag word in each block's shared memory,
// written by the peer with the round's number + 1.
__device__ void store_release_cluster(unsigned* peer, unsigned v) {
  asm volatile("st.release.cluster.u32 [%0], %1;" ::"l"(peer), "r"(v) : "memory");
}
__device__ unsigned load_acquire_cluster(const unsigned* own) {
  unsigned v;
  asm volatile("ld.acquire.cluster.u32 %0, [%1];" : "=r"(v) : "l"(own) : "memory");
  return v;
}
// Waits (bounded) until the own flag reaches want; by one warp, every lane
// polling (as every lane of a look-back does).
__device__ bool await_flag(const unsigned* own, unsigned want, Control* c, unsigned error) {
  const std::uint64_t start = global_timer_ns();
  for (unsigned polls = 0; !__all_sync(0xffffffffu, load_acquire_cluster(own) >= want); ++polls) {
    if (polls % 64 == 63 && gives_up(start, c)) {
      if (threadIdx.x % 32 == 0) fail(c, error);
      return false;
    }
  }
  return true;
}

// Launched in clusters of two; cluster 0 (blocks 0 and 1) plays, warp 0 of
// each (lane 0 publishes). pair_sms gets the two blocks' SM ids.
__global__ void __launch_bounds__(1024, 1)
    cluster_ping_pong(Control* c, long long* round_cycles, int rounds, unsigned* pair_sms,
                      Load load) {
  extern __shared__ unsigned char hold_the_sm[];  // one block per SM
  (void)hold_the_sm;
  __shared__ unsigned inbox;
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) inbox = 0;
  cluster.sync();  // every inbox zeroed before a peer writes it
  if (blockIdx.x >= 2) {
    if (static_cast<int>(blockIdx.x % 4) < load.copy_quarters)
      copy_until_stopped(load.src, load.dst, load.n16, c);
  } else if (threadIdx.x < 32) {
    const bool lane0 = threadIdx.x == 0;
    const unsigned rank = cluster.block_rank();
    unsigned* peer = cluster.map_shared_rank(&inbox, static_cast<int>(rank ^ 1u));
    if (lane0) pair_sms[rank] = sm_id();
    if (rank == 1) {
      for (int k = 0; k < rounds; ++k) {
        if (!await_flag(&inbox, static_cast<unsigned>(k) + 1, c, kBTimedOut)) break;
        if (lane0) store_release_cluster(peer, static_cast<unsigned>(k) + 1);
      }
    } else {
      time_rounds(
          c, round_cycles, rounds, load.copiers,
          [&](int k) {
            if (lane0) store_release_cluster(peer, static_cast<unsigned>(k) + 1);
          },
          [&](int k) { return await_flag(&inbox, static_cast<unsigned>(k) + 1, c, kATimedOut); });
    }
  }
  cluster.sync();  // a block's shared memory outlives its peer's last access
}

struct Options {
  int rounds_given = 0;  // --rounds, else 2000 (400 with --quick): rounds()
  bool quick = false;
  std::string csv;
  int rounds() const { return rounds_given > 0 ? rounds_given : (quick ? 400 : 2000); }
};

int usage(const std::string& why) {
  std::fprintf(stderr,
               "lookback_flag_latency: %s\nusage: lookback_flag_latency [--rounds N] [--csv FILE] "
               "[--quick]\n",
               why.c_str());
  return 2;
}

// Load levels: the quarters of the other SMs that copy.
constexpr const char* kLoadName[] = {"idle", "copy25", "copy50", "copy75", "copy100"};

struct Row {
  const char* variant;
  const char* type;
  int quarters;  // kLoadName
  unsigned sm_a, sm_b;
  int rounds;
  double p10, p50, p90, max;  // round trip, ns
  double copy_gbps;
  unsigned error;
};

// The element at q of the sorted values, rounding the index down (so the
// "median" of an even count is its lower middle).
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

struct Gpu {
  int sms = 0;
  int smem_per_block = 0;  // dynamic shared memory each block asks for
  uint4* src = nullptr;
  uint4* dst = nullptr;
  std::size_t n16 = 0;
  Control* control = nullptr;
  long long* round_cycles = nullptr;
  unsigned* pair_sms = nullptr;
  unsigned cluster_blocks = 0;  // cluster_ping_pong's grid (cluster_grid)
  void* storage = nullptr;
  std::size_t storage_bytes = 0;
};

// Blocks 0 .. blocks - 1 other than a and b whose id modulo 4 is below q.
unsigned count_copiers(int blocks, int q, unsigned a, unsigned b) {
  unsigned n = 0;
  for (int i = 0; i < blocks; ++i) {
    const auto u = static_cast<unsigned>(i);
    n += u != a && u != b && i % 4 < q;
  }
  return n;
}

void reset(Gpu& g, int rounds) {
  CHECK(cudaMemset(g.control, 0, sizeof(Control)));
  CHECK(cudaMemset(g.round_cycles, 0, sizeof(long long) * static_cast<std::size_t>(rounds)));
}

// Runs `launch` between two events; the row from what A recorded.
template <class Launch>
Row timed_row(Gpu& g, Row r, Launch launch) {
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventRecord(e0));
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(e1));
  CHECK(cudaDeviceSynchronize());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  Control c{};
  CHECK(cudaMemcpy(&c, g.control, sizeof c, cudaMemcpyDeviceToHost));
  std::vector<long long> cyc(static_cast<std::size_t>(r.rounds));
  CHECK(cudaMemcpy(cyc.data(), g.round_cycles, sizeof(long long) * cyc.size(),
                   cudaMemcpyDeviceToHost));
  r.error = c.error;
  // Read + write over the whole launch (the copiers start before A's rounds
  // and stop after them).
  r.copy_gbps = static_cast<double>(c.copied_bytes) * 2 / (ms * 1e6);
  if (c.error != kOk || c.cycles == 0) return r;
  const double ns_per_cycle = static_cast<double>(c.ns) / static_cast<double>(c.cycles);
  // The first rounds warm the lines and the code: skipped.
  const std::size_t skip = cyc.size() / 10;
  std::vector<double> ns;
  for (std::size_t k = skip; k < cyc.size(); ++k)
    ns.push_back(static_cast<double>(cyc[k]) * ns_per_cycle);
  r.p10 = quantile(ns, 0.10);
  r.p50 = quantile(ns, 0.50);
  r.p90 = quantile(ns, 0.90);
  r.max = quantile(ns, 1.0);
  return r;
}

template <class V, class T>
Row run_pair(Gpu& g, const char* name, const char* type, int rounds, unsigned sm_b, int quarters) {
  constexpr Protocol P = V::kProtocol;
  constexpr lookback::device::DescriptorShape kShape = lookback::device::descriptor_shape<P, T>();
  const std::uint64_t cap =
      lookback::device::capacity_for_tiles(static_cast<std::uint64_t>(rounds));
  const std::uint64_t region = lookback::device::region_bytes(cap, kShape);
  if (2 * region > g.storage_bytes) {
    std::fprintf(stderr, "internal: descriptor storage too small\n");
    std::exit(1);
  }
  auto* base = static_cast<unsigned char*>(g.storage);
  const DescriptorStorage to_b{base, static_cast<std::uint32_t>(cap)};
  const DescriptorStorage to_a{base + region, static_cast<std::uint32_t>(cap)};
  CHECK(cudaMemset(g.storage, 0, 2 * region));
  reset(g, rounds);
  const auto kernel = ping_pong<V, T>;
  CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, g.smem_per_block));
  const Load load{quarters, count_copiers(g.sms, quarters, 0u, sm_b), g.src, g.dst, g.n16};
  return timed_row(g, Row{name, type, quarters, 0u, sm_b, rounds, 0, 0, 0, 0, 0, kOk}, [&] {
    kernel<<<g.sms, 1024, g.smem_per_block>>>(to_b, to_a, g.control, g.round_cycles, rounds, 0u,
                                              sm_b, load);
  });
}

// cluster_ping_pong's launch: clusters of two blocks of g.smem_per_block
// bytes, `blocks` of them.
cudaLaunchConfig_t cluster_config(const Gpu& g, unsigned blocks, cudaLaunchAttribute& attr) {
  attr = cudaLaunchAttribute{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = 2;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(1024);
  cfg.dynamicSmemBytes = static_cast<std::size_t>(g.smem_per_block);
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cfg;
}

// As many clusters of two as fit at once (at most one block per SM).
unsigned cluster_grid(const Gpu& g) {
  CHECK(cudaFuncSetAttribute(cluster_ping_pong, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             g.smem_per_block));
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = cluster_config(g, static_cast<unsigned>(g.sms), attr);
  int clusters = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&clusters, cluster_ping_pong, &cfg));
  if (clusters < 1) {
    std::fprintf(stderr, "no cluster of two blocks of %d bytes fits\n", g.smem_per_block);
    std::exit(1);
  }
  return static_cast<unsigned>(2 * std::min(clusters, g.sms / 2));
}

// The cluster ping-pong on g.cluster_blocks blocks.
Row run_cluster(Gpu& g, int rounds, int quarters) {
  reset(g, rounds);
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = cluster_config(g, g.cluster_blocks, attr);
  const Load load{quarters, count_copiers(static_cast<int>(g.cluster_blocks), quarters, 0u, 1u),
                  g.src, g.dst, g.n16};
  Row r =
      timed_row(g, Row{"cluster-dsmem", "u32", quarters, 0, 0, rounds, 0, 0, 0, 0, 0, kOk}, [&] {
        CHECK(cudaLaunchKernelEx(&cfg, cluster_ping_pong, g.control, g.round_cycles, rounds,
                                 g.pair_sms, load));
      });
  unsigned sms[2] = {0, 0};
  CHECK(cudaMemcpy(sms, g.pair_sms, sizeof sms, cudaMemcpyDeviceToHost));
  r.sm_a = sms[0];
  r.sm_b = sms[1];
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--rounds" || a == "--csv") {
      if (i + 1 >= argc) return usage(a + " needs a value");
      const std::string v = argv[++i];
      if (a == "--csv") {
        o.csv = v;
      } else {
        char* end = nullptr;
        const long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end != '\0' || n < 50 || n > 65536)
          return usage("--rounds '" + v + "' is no whole number from 50 to 65536");
        o.rounds_given = static_cast<int>(n);
      }
    } else {
      return usage("unknown argument '" + a + "'");
    }
  }

  const int rounds = o.rounds();
  FILE* csv = nullptr;  // opened first: an unwritable path fails before the run
  if (!o.csv.empty() && (csv = std::fopen(o.csv.c_str(), "w")) == nullptr) {
    std::fprintf(stderr, "lookback_flag_latency: cannot write %s\n", o.csv.c_str());
    return 1;
  }
  int devices = 0;
  const cudaError_t found = cudaGetDeviceCount(&devices);
  if (found != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "lookback_flag_latency: no CUDA device (%s): the benchmark needs a GPU\n",
                 found != cudaSuccess ? cudaGetErrorName(found) : "the driver reports none");
    return 1;
  }
  Gpu g;
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, dev));
  CHECK(cudaDeviceGetAttribute(&g.sms, cudaDevAttrMultiProcessorCount, dev));
  int smem_optin = 0, smem_sm = 0;
  CHECK(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
  g.smem_per_block = smem_sm / 2 + 4096;  // two blocks would not fit on one SM
  if (g.smem_per_block > smem_optin || g.sms < 2) {
    std::fprintf(stderr,
                 "this GPU cannot be held to one block per SM by shared memory (%d of %d bytes)\n",
                 smem_optin, smem_sm);
    return 1;
  }
  std::printf("%s, %d SMs, L2 %d MiB; rounds %d; A on SM 0\n", prop.name, g.sms,
              prop.l2CacheSize >> 20, rounds);
  const std::size_t copy_bytes = std::size_t{512} << 20;  // each buffer: > L2, a power of two
  g.n16 = copy_bytes / 16;
  CHECK(cudaMalloc(&g.src, copy_bytes));
  CHECK(cudaMalloc(&g.dst, copy_bytes));
  CHECK(cudaMemset(g.src, 1, copy_bytes));
  CHECK(cudaMalloc(&g.control, sizeof(Control)));
  CHECK(cudaMalloc(&g.round_cycles, sizeof(long long) * static_cast<std::size_t>(rounds)));
  CHECK(cudaMalloc(&g.pair_sms, 2 * sizeof(unsigned)));
  g.storage_bytes = std::size_t{16} << 20;
  CHECK(cudaMalloc(&g.storage, g.storage_bytes));
  g.cluster_blocks = cluster_grid(g);
  std::printf("cluster ping-pong: %u blocks (clusters of two) of %d SMs\n", g.cluster_blocks,
              g.sms);

  // B on every other SM, every 16th at the partial loads; with --quick on
  // every ((SMs + 7) / 8)th, at the partial loads every ((SMs + 3) / 4)th.
  std::vector<unsigned> partners, some;
  for (int s = 1; s < g.sms; ++s) {
    if (!o.quick || s % ((g.sms + 7) / 8) == 0) partners.push_back(static_cast<unsigned>(s));
    if (s % (o.quick ? (g.sms + 3) / 4 : 16) == 0) some.push_back(static_cast<unsigned>(s));
  }
  std::vector<Row> rows;
  for (const int q : {0, 4}) {
    for (const unsigned b : partners) {
      rows.push_back(run_pair<Warp, std::uint32_t>(g, "warp-lookback", "u32", rounds, b, q));
      rows.push_back(run_pair<Warp, double>(g, "warp-lookback", "f64", rounds, b, q));
      rows.push_back(
          run_pair<WarpSplit, std::uint32_t>(g, "warp-lookback-split", "u32", rounds, b, q));
      rows.push_back(run_pair<Fenced, std::uint32_t>(g, "fenced-lookback", "u32", rounds, b, q));
    }
  }
  for (const int q : {1, 2, 3})
    for (const unsigned b : some)
      rows.push_back(run_pair<Warp, std::uint32_t>(g, "warp-lookback", "u32", rounds, b, q));
  // The cluster's pair lands where the scheduler puts cluster 0: repeated.
  for (const int q : {0, 1, 2, 3, 4})
    for (int rep = 0; rep < (o.quick ? 2 : 8); ++rep)
      rows.push_back(run_cluster(g, rounds, q));

  int errors = 0;
  for (const Row& r : rows) {
    if (r.error == kOk) continue;
    ++errors;
    std::printf("ERROR %s %s %s SM %u <-> SM %u: %s\n", r.variant, r.type, kLoadName[r.quarters],
                r.sm_a, r.sm_b, error_text(r.error));
  }
  // Summary: per configuration, the spread over pairs of each pair's median
  // round trip, and the pairs' p90 and worst round.
  std::printf(
      "\none-way = a pair's median round trip / 2; over the pairs: min, median, max;\n"
      "rt-p90 = the median over pairs of each pair's 90th-percentile round trip; rt-max = the "
      "slowest round of any pair (ns); copy = the copiers' read + write bandwidth\n");
  std::printf("%-20s %-4s %-7s %5s %8s %8s %8s %8s %8s %9s\n", "variant", "type", "load", "pairs",
              "1way-min", "1way-med", "1way-max", "rt-p90", "rt-max", "copy-GB/s");
  std::vector<const Row*> firsts;  // one row of each configuration, in run order
  for (const Row& r : rows) {
    const bool seen = std::any_of(firsts.begin(), firsts.end(), [&](const Row* f) {
      return std::strcmp(f->variant, r.variant) == 0 && std::strcmp(f->type, r.type) == 0 &&
             f->quarters == r.quarters;
    });
    if (!seen) firsts.push_back(&r);
  }
  for (const Row* f : firsts) {
    std::vector<double> half, p90, mx, gbps;
    for (const Row& r : rows) {
      if (std::strcmp(r.variant, f->variant) != 0 || std::strcmp(r.type, f->type) != 0 ||
          r.quarters != f->quarters || r.error != kOk)
        continue;
      half.push_back(r.p50 / 2);
      p90.push_back(r.p90);
      mx.push_back(r.max);
      gbps.push_back(r.copy_gbps);
    }
    if (half.empty()) continue;
    std::printf("%-20s %-4s %-7s %5zu %8.0f %8.0f %8.0f %8.0f %8.0f %9.0f\n", f->variant, f->type,
                kLoadName[f->quarters], half.size(), quantile(half, 0), quantile(half, 0.5),
                quantile(half, 1), quantile(p90, 0.5), quantile(mx, 1), quantile(gbps, 0.5));
  }
  if (csv != nullptr) {
    std::fprintf(csv,
                 "variant,type,load,sm_a,sm_b,rounds,rt_p10_ns,rt_median_ns,rt_p90_ns,rt_max_ns,"
                 "copy_gbps,error\n");
    for (const Row& r : rows)
      std::fprintf(csv, "%s,%s,%s,%u,%u,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%s\n", r.variant, r.type,
                   kLoadName[r.quarters], r.sm_a, r.sm_b, r.rounds, r.p10, r.p50, r.p90, r.max,
                   r.copy_gbps, error_text(r.error));
    std::fclose(csv);
  }
  std::printf("\n%zu pairs timed, %d failed\n", rows.size(), errors);
  return errors == 0 ? 0 : 1;
}
