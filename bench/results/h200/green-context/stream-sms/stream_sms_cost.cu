// stream_sms_cost: a MEASUREMENT (not built by CMake), of commit 0ca214a's
// library (stream_sms.hpp and the stream argument of resident_blocks were
// reverted after it: README.md here; it builds against that commit only).
// Host cost of lookback::detail::stream_green_sm_count (stream_sms.hpp),
// which every launch of a persistent or L2-prefetching configuration asked
// there, and of the whole resident_blocks (dispatch.cuh) around it, on the
// legacy stream, a created stream and a green context's stream (driver API,
// 16 SMs asked); beside the two driver queries that could serve every
// stream, cuCtxGetDevResource and cuStreamGetCtx_v2 alone. Median of 9
// batches of 100000 calls each.
//   nvcc -O3 -DNDEBUG --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr \
//     --extended-lambda -std=c++20 -Iinclude -cudart static \
//     bench/results/h200/green-context/stream-sms/stream_sms_cost.cu -o stream_sms_cost \
//     -L/usr/local/cuda/lib64/stubs -lcuda
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lookback/device_scan.cuh"

#define CU_OK(x)                               \
  do {                                         \
    if ((x) != CUDA_SUCCESS) {                 \
      std::fprintf(stderr, "%s failed\n", #x); \
      std::exit(2);                            \
    }                                          \
  } while (0)

template <class F>
static double median_ns(F&& call) {
  constexpr int kCalls = 100000;
  std::vector<double> batches;
  for (int b = 0; b < 9; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i)
      call();
    const auto t1 = std::chrono::steady_clock::now();
    batches.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kCalls);
  }
  std::sort(batches.begin(), batches.end());
  return batches[4];
}

// The pipelined u32 kernel's resident_blocks (a template on the protocol:
// nvcc 13 cannot name an agent with a Protocol argument from a non-template
// function, kernels/tests/resident_blocks.hpp).
template <class Cfg = lookback::Pipelined, lookback::protocol::Protocol P = Cfg::protocol>
cudaError_t pipelined_blocks(cudaStream_t stream, std::uint32_t& blocks) {
  using Agent = lookback::detail::agent_t<Cfg, P, false, lookback::device::Access::Vector,
                                          std::uint32_t, lookback::Sum>;
  return lookback::detail::resident_blocks<Agent>(stream, blocks);
}

int main() {
  if (cudaSetDevice(0) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) return 2;
  CU_OK(cuInit(0));
  CUdevice dev;
  CU_OK(cuDeviceGet(&dev, 0));
  CUdevResource all{}, part{}, rest{};
  unsigned groups = 1;
  CU_OK(cuDeviceGetDevResource(dev, &all, CU_DEV_RESOURCE_TYPE_SM));
  CU_OK(cuDevSmResourceSplitByCount(&part, &groups, &all, &rest, 0, 16));
  CUdevResourceDesc desc;
  CU_OK(cuDevResourceGenerateDesc(&desc, &part, 1));
  CUgreenCtx green;
  CU_OK(cuGreenCtxCreate(&green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
  CUstream gs;
  CU_OK(cuGreenCtxStreamCreate(&gs, green, CU_STREAM_NON_BLOCKING, 0));
  cudaStream_t created;
  if (cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking) != cudaSuccess) return 2;
  struct Row {
    const char* name;
    cudaStream_t stream;
  } rows[] = {{"legacy stream", cudaStreamLegacy},
              {"created stream", created},
              {"green stream", reinterpret_cast<cudaStream_t>(gs)}};
  using Agent =
      lookback::detail::agent_t<lookback::Pipelined, lookback::Pipelined::protocol, false,
                                lookback::device::Access::Vector, std::uint32_t, lookback::Sum>;
  int failures = 0;
  for (const Row& r : rows) {
    unsigned green_sms = 0;
    std::uint32_t blocks = 0;
    CUcontext ctx = nullptr;
    CUgreenCtx g = nullptr;
    CUdevResource res{};
    if (lookback::detail::stream_green_sm_count(r.stream, green_sms) != cudaSuccess ||
        pipelined_blocks(r.stream, blocks) != cudaSuccess) {
      std::printf("%-15s FAILED: %s\n", r.name, lookback::last_error_message());
      ++failures;
      continue;
    }
    CU_OK(cuStreamGetCtx_v2(reinterpret_cast<CUstream>(r.stream), &ctx, &g));
    CU_OK(cuStreamGetCtx(reinterpret_cast<CUstream>(r.stream), &ctx));
    CU_OK(cuCtxGetDevResource(ctx, &res, CU_DEV_RESOURCE_TYPE_SM));
    const double green_ns = median_ns([&] {
      unsigned s = 0;
      lookback::detail::stream_green_sm_count(r.stream, s);
    });
    const double blocks_ns = median_ns([&] {
      std::uint32_t b = 0;
      pipelined_blocks(r.stream, b);
    });
    const double v2_ns = median_ns([&] {
      CUcontext c;
      CUgreenCtx x;
      cuStreamGetCtx_v2(reinterpret_cast<CUstream>(r.stream), &c, &x);
    });
    const double resource_ns = median_ns([&] {
      CUdevResource x;
      cuCtxGetDevResource(ctx, &x, CU_DEV_RESOURCE_TYPE_SM);
    });
    std::printf(
        "%-15s stream_green_sm_count %3u (%5.1f ns)  resident_blocks<pipelined u32> %4u "
        "(%5.1f ns)  cuStreamGetCtx_v2 %5.1f ns  cuCtxGetDevResource %3u SMs (%6.1f ns)\n",
        r.name, green_sms, green_ns, blocks, blocks_ns, v2_ns, res.sm.smCount, resource_ns);
  }
  const double attr_ns = median_ns([] {
    int s = 0;
    cudaDeviceGetAttribute(&s, cudaDevAttrMultiProcessorCount, 0);
  });
  std::printf("cudaDeviceGetAttribute(MultiProcessorCount): %6.1f ns a call\n", attr_ns);
  return failures == 0 ? 0 : 1;
}
