// Host side of a scan: size the temp storage, validate, reset the
// descriptors the way the protocol says (P.reset), pick the access path and
// launch the one kernel.
//
// scan_with_protocol<Config, P, exclusive>() runs any Protocol value, the
// catalogue's mutants included (the stress harness uses it); DeviceScan and
// ScanPlan (device_scan.cuh) are thin layers over it.
#pragma once

#include <cuda_runtime.h>  // cudaLaunchKernelEx (the C++ overload)

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "lookback/device/agent_cub.cuh"
#include "lookback/device/agent_striped.cuh"
#include "lookback/device/config.hpp"
#include "lookback/device/descriptor.cuh"
#include "lookback/device/error.hpp"
#include "lookback/device/kernel.cuh"
#include "lookback/device/params.hpp"
#include "lookback/device/stream_device.hpp"
#include "lookback/device/temp_storage.hpp"
#include "lookback/device/validate.hpp"
#include "lookback/protocol/spec.hpp"

namespace lookback::detail {

template <class Cfg, class T>
constexpr std::int64_t tile_items() {
  return policy_tile_items<typename Cfg::policy, T>();
}
// Tile ids are 32-bit and the grid has at most one block per tile
// (gridDim.x < 2^31; persistent blocks draw num_tiles + gridDim.x tickets).
// A SizeAdaptive configuration: its large half's; a DeviceAdaptive: the
// fewer of its halves' (the same limit on every GPU).
template <class Cfg, class T>
constexpr std::int64_t max_items() {
  if constexpr (is_size_adaptive_v<Cfg>) {
    static_assert(max_items<typename Cfg::small, T>() >= Cfg::template max_small_items<T>(),
                  "a SizeAdaptive's small half must take every size of its share");
    static_assert(max_items<typename Cfg::large, T>() > Cfg::template max_small_items<T>(),
                  "a SizeAdaptive's large half must take the sizes above its switch");
    return max_items<typename Cfg::large, T>();
  } else if constexpr (is_device_adaptive_v<Cfg>) {
    return std::min(max_items<typename Cfg::base, T>(), max_items<typename Cfg::wide, T>());
  } else {
    return std::int64_t{0x7fffffff} * tile_items<Cfg, T>();
  }
}
template <class Cfg, class T>
constexpr std::uint64_t tiles_for(std::int64_t n) {
  return n <= 0 ? 0u
                : static_cast<std::uint64_t>((n + tile_items<Cfg, T>() - 1) / tile_items<Cfg, T>());
}

template <class Cfg, protocol::Protocol P, bool kExclusive, device::Access A, class T, class Op>
using agent_t = std::conditional_t<
    Cfg::variant == Variant::WarpLookback,
    device::CubAgent<ProtocolTag<P>, typename Cfg::policy, T, Op, kExclusive, Cfg::instrumented>,
    device::StripedAgent<ProtocolTag<P>, typename Cfg::policy, T, Op, kExclusive, A,
                         Cfg::instrumented>>;

// Blocks of `Agent` the current device holds at once: the grid of a
// persistent variant (protocol::persistent), which draws every tile by
// ticket. Asked once per device and agent.
template <class Agent>
cudaError_t resident_blocks(std::uint32_t& blocks) {
  constexpr int kDevices = 64;
  static std::atomic<std::uint32_t> known[kDevices];  // 0: not asked yet
  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess) return fail_cuda(e, "cudaGetDevice");
  const bool cached = dev >= 0 && dev < kDevices;
  if (cached && (blocks = known[dev].load(std::memory_order_relaxed)) != 0) return cudaSuccess;
  int sms = 0, per_sm = 0;
  e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, device::scan_kernel<Agent>,
                                                      Agent::kThreads, 0);
  if (e != cudaSuccess) return fail_cuda(e, "counting the blocks the device holds at once");
  if (per_sm < 1 || sms < 1)
    return fail(cudaErrorInvalidConfiguration, "the scan kernel does not fit on this device");
  blocks = static_cast<std::uint32_t>(sms) * static_cast<std::uint32_t>(per_sm);
  if (cached) known[dev].store(blocks, std::memory_order_relaxed);
  return cudaSuccess;
}

// The stream a call enqueues on, checked before anything is enqueued: a
// capture on it that was invalidated earlier (check_capture), its device
// (check_stream_device, asked in a way that leaves a capture alone:
// stream_device.hpp; the driver will not name the device of an invalidated
// capture's stream, hence that first), then whether a capture can take the
// call (check_capture). The legacy default stream is always the current
// device's and is never captured, so a call on it asks nothing; the
// per-thread stream (0 when compiled with per-thread default streams) is the
// current device's but can be captured. Host cost on any other stream:
// about 0.1 us (H200).
inline cudaError_t validate_stream(cudaStream_t stream, bool synchronizes) {
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  if (stream == nullptr) stream = cudaStreamPerThread;
#endif
  if (stream == nullptr || stream == cudaStreamLegacy) return cudaSuccess;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (const cudaError_t e = cudaStreamIsCapturing(stream, &status); e != cudaSuccess)
    return fail_cuda(e, "asking whether the stream is being captured");
  if (status == cudaStreamCaptureStatusInvalidated) return check_capture(status, synchronizes);
  if (stream != cudaStreamPerThread) {
    int current = -1;
    int of_stream = -1;
    if (const cudaError_t e = cudaGetDevice(&current); e != cudaSuccess)
      return fail_cuda(e, "cudaGetDevice");
    if (const cudaError_t e = stream_device(stream, of_stream); e != cudaSuccess) return e;
    if (const cudaError_t e = check_stream_device(of_stream, current); e != cudaSuccess) return e;
  }
  return status == cudaStreamCaptureStatusNone ? cudaSuccess : check_capture(status, synchronizes);
}

// One block per tile; a persistent agent: as many as fit at once, at most
// one per tile. An agent that prefetches into L2 learns which tiles it may
// ask for: past the first wave (their blocks load them already) and whole;
// one that paces its first wave learns how many blocks that wave has.
template <class Agent>
cudaError_t launch(typename Agent::Params params, cudaStream_t stream) {
  std::uint32_t grid = params.num_tiles;
  constexpr bool kPersistent = protocol::persistent(Agent::P);
  constexpr bool kWindow = Agent::kPrefetchTiles > 0 || Agent::kPaceGBps > 0;
  if constexpr (kPersistent || kWindow) {
    std::uint32_t resident = 0;
    if (const cudaError_t e = resident_blocks<Agent>(resident); e != cudaSuccess) return e;
    if constexpr (kPersistent) grid = std::min(grid, resident);
    if constexpr (kWindow) {
      params.prefetch = device::prefetch_window(resident, Agent::P.tiles_per_block,
                                                params.num_items, Agent::kTileItems);
    }
  }
  // cudaLaunchKernelEx returns this launch's own error. A triple-chevron
  // launch read back with cudaGetLastError() would take an earlier failed
  // call's pending error (one the caller has not read yet) for the launch's,
  // fail a scan that ran, and consume the caller's error.
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(Agent::kThreads);
  config.stream = stream;
  const cudaError_t e = cudaLaunchKernelEx(&config, device::scan_kernel<Agent>, params);
  return e == cudaSuccess ? succeed() : fail_cuda(e, "scan kernel launch");
}

// Reads (and clears) the kernels' error flag; blocks until the scan is done.
// A launch that raised an error may have met storage in a state no launch
// leaves (a stale ticket, say: the launch word is then never handed over):
// with `storage_bytes` != 0 (Reset::Epoch) the storage from the header on
// is zeroed then, as when it was created, except the look-back statistics,
// so the next scan on it starts clean. Only a checked scan
// (Options::check_errors) learns of an error, and so only it repairs.
inline cudaError_t check_device_error(device::Header* h, cudaStream_t stream,
                                      std::uint32_t watchdog, std::size_t storage_bytes) {
  std::uint32_t words[2] = {0, 0};  // Header::error, Header::error_tile
  static_assert(offsetof(device::Header, error_tile) == offsetof(device::Header, error) + 4);
  cudaError_t e = cudaMemcpyAsync(words, &h->error, sizeof words, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) return fail_cuda(e, "scan");
  if (words[0] == 0) return succeed();
  if (storage_bytes != 0) {
    static_assert(offsetof(device::Header, stats) + sizeof(device::LookbackStats) <=
                  device::kHeaderBytes);
    auto* base = reinterpret_cast<unsigned char*>(h);
    e = cudaMemsetAsync(base, 0, offsetof(device::Header, stats), stream);
    if (e == cudaSuccess)
      e = cudaMemsetAsync(base + device::kHeaderBytes, 0, storage_bytes - device::kHeaderBytes,
                          stream);
  } else {
    e = cudaMemsetAsync(&h->error, 0, sizeof words, stream);
  }
  if (e != cudaSuccess) return fail_cuda(e, "clearing the error flag");
  // The context is healthy after either error, so neither is reported with a
  // code CUDA documents as leaving it unusable (cudaErrorLaunchTimeout,
  // cudaErrorLaunchFailure): a caller that classifies errors by code would
  // tear down a working context.
  const auto code = static_cast<device::DeviceError>(words[0]);
  if (code == device::DeviceError::WatchdogExpired)
    return fail(cudaErrorTimeout,
                "watchdog: tile " + std::to_string(words[1]) + " waited more than " +
                    std::to_string(watchdog) +
                    " look-back rounds; the kernel gave up and the output is invalid");
  if (code == device::DeviceError::TicketOverflow)
    return fail(cudaErrorIllegalState, "a block drew tile id " + std::to_string(words[1]) +
                                           " past the last tile: the ticket was not reset");
  if (code == device::DeviceError::DescriptorWentBack)
    return fail(cudaErrorIllegalState,
                "the deterministic look-back read tile " + std::to_string(words[1]) +
                    "'s descriptor INVALID after seeing it published: the temp storage was "
                    "changed during the scan (another launch on it?)");
  return fail(cudaErrorUnknown, "kernel error code " + std::to_string(words[0]));
}

// Runs one scan generated from protocol P, on temp storage prepared the way
// P.reset says:
//   Reset::HostMemset  header and used descriptors are cleared here (one
//                      cudaMemsetAsync) before the launch;
//   Reset::None        only the header (tile ticket) is cleared: stale
//                      descriptors stay (a mutant);
//   Reset::Epoch       nothing is cleared here: the storage must have been
//                      zeroed once when allocated and used only by scans of
//                      this type, configuration and protocol family since,
//                      each passing the same temp_bytes (the descriptor
//                      capacity, and so where the split layout's value arrays
//                      lie, is derived from it: temp_storage.hpp).
// d_temp == nullptr: writes the size needed into temp_bytes.
template <class Cfg, protocol::Protocol P, bool kExclusive, class T, class Op>
cudaError_t scan_with_protocol(void* d_temp, std::size_t& temp_bytes, const T* in, T* out,
                               std::int64_t n, Op op, T init, cudaStream_t stream,
                               const Options& options) {
  static_assert(std::is_trivially_copyable_v<T>, "scanned values must be trivially copyable");
  static_assert(protocol::epoch_fits_tag(P),
                "an epoch reset's epoch_bits must be in 1..kEpochBits");
  if (n < 0 || n > max_items<Cfg, T>()) {
    // Report a bad size before anything else (also on a size query).
    return validate(ScanArguments{in, out, n, sizeof(T), alignof(T), 0, 0, max_items<Cfg, T>()});
  }
  const std::uint64_t tiles = tiles_for<Cfg, T>(n);
  constexpr device::DescriptorShape kShape = device::descriptor_shape<P, T>();
  const std::size_t needed = device::temp_storage_bytes(tiles, kShape);
  if (d_temp == nullptr) {
    temp_bytes = needed;
    return succeed();
  }
  if (const cudaError_t e = validate(ScanArguments{in, out, n, sizeof(T), alignof(T), temp_bytes,
                                                   needed, max_items<Cfg, T>(), d_temp});
      e != cudaSuccess)
    return e;
  if (const cudaError_t e = validate_perturb(options.perturb.any(), Cfg::instrumented);
      e != cudaSuccess)
    return e;
  if (const cudaError_t e =
          validate_trace(options.trace.tiles, options.trace.capacity, Cfg::instrumented, tiles);
      e != cudaSuccess)
    return e;
  if (n == 0) return succeed();
  if (const cudaError_t e = validate_stream(stream, options.check_errors); e != cudaSuccess)
    return e;

  using Vector = agent_t<Cfg, P, kExclusive, device::Access::Vector, T, Op>;
  using Scalar = agent_t<Cfg, P, kExclusive, device::Access::Scalar, T, Op>;
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % Vector::kAlign == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % Vector::kAlign == 0;
  const bool vector = Cfg::variant == Variant::WarpLookback || (aligned && options.allow_vector);
  if (!vector && !Cfg::scalar_path) {
    if (aligned)
      return fail(cudaErrorInvalidValue,
                  "Options::allow_vector = false needs a configuration with a scalar path; this "
                  "one has none");
    return fail(cudaErrorInvalidValue,
                "this configuration has no scalar path: d_in and d_out must be " +
                    std::to_string(Vector::kAlign) + "-byte aligned");
  }

  device::Header* header = device::header_of(d_temp);
  cudaError_t e = cudaSuccess;
  if constexpr (P.reset == protocol::Reset::HostMemset) {
    e = cudaMemsetAsync(header, 0, device::cleared_bytes(tiles, kShape), stream);
  } else if constexpr (P.reset == protocol::Reset::None) {
    e = cudaMemsetAsync(header, 0, device::kHeaderBytes, stream);
  }
  if (e != cudaSuccess) return fail_cuda(e, "clearing the tile descriptors");

  const device::KernelParams<T, Op> params{
      in,
      out,
      n,
      static_cast<std::uint32_t>(tiles),
      header,
      device::descriptors_of(header, device::descriptor_capacity(temp_bytes, kShape)),
      init,
      op,
      options.watchdog_rounds,
      options.perturb,
      {},
      {options.trace.tiles, std::min(options.trace.capacity, static_cast<std::uint32_t>(tiles))}};
  if (vector) {
    e = launch<Vector>(params, stream);
  } else if constexpr (Cfg::scalar_path && Cfg::variant != Variant::WarpLookback) {
    e = launch<Scalar>(params, stream);
  }
  if (e != cudaSuccess || !options.check_errors) return e;
  const std::size_t storage_bytes =
      P.reset == protocol::Reset::Epoch
          ? temp_bytes - static_cast<std::size_t>(reinterpret_cast<unsigned char*>(header) -
                                                  static_cast<unsigned char*>(d_temp))
          : 0;
  return check_device_error(header, stream, options.watchdog_rounds, storage_bytes);
}

}  // namespace lookback::detail
