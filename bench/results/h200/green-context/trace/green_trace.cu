// green_trace: a MEASUREMENT (not built by CMake). Where a tile's time goes
// when the pipelined scan runs on a green context of few SMs (a share whose
// SMs each get 50-80 GB/s, ../README.md) against the whole GPU: one traced
// launch (Options::trace, Instrumented<>) per place and size after two
// untraced warm-up calls, summarized by trace_summary.hpp: the median and
// p90 of each step (drawn -> aggregate: loads and the local reduction;
// aggregate -> prefix: the look-back; prefix -> stored: the tile scan and the
// stores' issue), and how many tiles were in each step on average while the
// grid was full (from the first input in to the last draw). Every result is
// checked against the CPU (u32 exactly, f64 within 1e-9 relative).
//   nvcc -O3 -DNDEBUG --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr \
//     --extended-lambda -std=c++20 -Iinclude -cudart static \
//     bench/results/h200/green-context/trace/green_trace.cu -o green_trace \
//     -L/usr/local/cuda/lib64/stubs -lcuda
//   green_trace [SM counts...]   (default: 16 32)
#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lookback/device_scan.cuh"
#include "lookback/trace_summary.hpp"

#define CU_OK(x)                               \
  do {                                         \
    if ((x) != CUDA_SUCCESS) {                 \
      std::fprintf(stderr, "%s failed\n", #x); \
      std::exit(2);                            \
    }                                          \
  } while (0)
#define RT_OK(x)                                                    \
  do {                                                              \
    const cudaError_t e_ = (x);                                     \
    if (e_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s: %s %s\n", #x, cudaGetErrorName(e_), \
                   lookback::last_error_message());                 \
      std::exit(2);                                                 \
    }                                                               \
  } while (0)

struct Place {
  std::string name;
  cudaStream_t stream;
  unsigned sms;
};

static int failures = 0;

template <class Cfg, class T>
static void traced(const Place& p, const char* what, std::int64_t n) {
  std::vector<T> in(n), want(n);
  T acc{};
  for (std::int64_t i = 0; i < n; ++i) {
    in[i] = static_cast<T>((i * 2654435761u) % 1000) / (std::is_integral_v<T> ? 1 : 2);
    acc += in[i];
    want[i] = acc;
  }
  T *a, *b;
  RT_OK(cudaMalloc(&a, n * sizeof(T)));
  RT_OK(cudaMalloc(&b, n * sizeof(T)));
  RT_OK(cudaMemcpyAsync(a, in.data(), n * sizeof(T), cudaMemcpyHostToDevice, p.stream));
  const auto tiles = static_cast<std::size_t>(lookback::detail::tiles_for<Cfg, T>(n));
  lookback::device::TileStamps* stamps;
  RT_OK(cudaMalloc(&stamps, tiles * sizeof(*stamps)));
  lookback::ScanPlan<T, Cfg> plan;
  RT_OK(plan.init(n, p.stream));
  lookback::Options plain;
  plain.check_errors = false;
  plain.watchdog_rounds = 0;
  for (int i = 0; i < 2; ++i)
    RT_OK(plan.InclusiveSum(a, b, n, p.stream, plain));
  RT_OK(cudaMemsetAsync(stamps, 0, tiles * sizeof(*stamps), p.stream));
  lookback::Options o;
  o.check_errors = true;
  o.watchdog_rounds = 4000000u;
  o.trace = {stamps, static_cast<std::uint32_t>(tiles)};
  RT_OK(plan.InclusiveSum(a, b, n, p.stream, o));
  std::vector<T> got(n);
  std::vector<lookback::device::TileStamps> st(tiles);
  RT_OK(cudaMemcpyAsync(got.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost, p.stream));
  RT_OK(
      cudaMemcpyAsync(st.data(), stamps, tiles * sizeof(st[0]), cudaMemcpyDeviceToHost, p.stream));
  RT_OK(cudaStreamSynchronize(p.stream));
  bool ok = true;
  for (std::int64_t i = 0; i < n && ok; ++i) {
    const double d = std::fabs(double(got[i]) - double(want[i]));
    ok = std::is_integral_v<T> ? d == 0 : d <= 1e-9 * std::fabs(double(want[i])) + 1e-9;
  }
  failures += ok ? 0 : 1;
  const lookback::TraceSummary s = lookback::summarize_trace(st, 0.5);
  // Mean tiles in each step over the buckets where the grid was full.
  double loading = 0, looking = 0, storing = 0;
  int buckets = 0;
  for (const auto& bk : s.timeline) {
    if (bk.start_us < s.first_input_us || bk.start_us > s.last_draw_us) continue;
    loading += bk.loading;
    looking += bk.looking;
    storing += bk.storing;
    ++buckets;
  }
  if (buckets > 0) {
    loading /= buckets;
    looking /= buckets;
    storing /= buckets;
  }
  const double gb_per_sm = 2.0 * n * sizeof(T) / (s.span_us * 1e3) / p.sms;
  std::printf(
      "%-10s %-14s n=%-9lld %s tiles %6u sms %3u span %8.1f us (%5.1f GB/s per SM, in+out)  "
      "load %6.2f/%6.2f  lookback %6.2f/%6.2f  store %6.2f/%6.2f us (median/p90)  "
      "in step: loading %6.1f looking %6.1f storing %6.1f  incomplete %u\n",
      p.name.c_str(), what, static_cast<long long>(n), ok ? "ok  " : "FAIL", s.tiles, s.sms,
      s.span_us, gb_per_sm, s.load.median_us, s.load.p90_us, s.lookback.median_us,
      s.lookback.p90_us, s.store.median_us, s.store.p90_us, loading, looking, storing,
      s.incomplete);
  cudaFree(a);
  cudaFree(b);
  cudaFree(stamps);
}

int main(int argc, char** argv) {
  RT_OK(cudaSetDevice(0));
  RT_OK(cudaFree(nullptr));
  CU_OK(cuInit(0));
  CUdevice dev;
  CU_OK(cuDeviceGet(&dev, 0));
  int whole = 0;
  RT_OK(cudaDeviceGetAttribute(&whole, cudaDevAttrMultiProcessorCount, 0));
  std::vector<Place> places;
  cudaStream_t primary;
  RT_OK(cudaStreamCreateWithFlags(&primary, cudaStreamNonBlocking));
  places.push_back({"all " + std::to_string(whole), primary, static_cast<unsigned>(whole)});
  std::vector<unsigned> counts;
  for (int i = 1; i < argc; ++i)
    counts.push_back(static_cast<unsigned>(std::atoi(argv[i])));
  if (counts.empty()) counts = {16, 32};
  for (const unsigned c : counts) {
    CUdevResource all{}, part{}, rest{};
    unsigned groups = 1;
    CU_OK(cuDeviceGetDevResource(dev, &all, CU_DEV_RESOURCE_TYPE_SM));
    CU_OK(cuDevSmResourceSplitByCount(&part, &groups, &all, &rest, 0, c));
    CUdevResourceDesc desc;
    CU_OK(cuDevResourceGenerateDesc(&desc, &part, 1));
    CUgreenCtx green;
    CU_OK(cuGreenCtxCreate(&green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
    CUstream s;
    CU_OK(cuGreenCtxStreamCreate(&s, green, CU_STREAM_NON_BLOCKING, 0));
    places.push_back({"green " + std::to_string(part.sm.smCount), reinterpret_cast<cudaStream_t>(s),
                      part.sm.smCount});
  }
  using Pipe = lookback::Instrumented<lookback::Pipelined>;
  using Wide = lookback::Instrumented<lookback::PipelinedWide>;
  for (const Place& p : places) {
    traced<Pipe, std::uint32_t>(p, "pipelined u32", std::int64_t{1} << 24);
    traced<Pipe, std::uint32_t>(p, "pipelined u32", std::int64_t{1} << 26);
    traced<Wide, double>(p, "wide f64", std::int64_t{1} << 25);
  }
  return failures == 0 ? 0 : 1;
}
