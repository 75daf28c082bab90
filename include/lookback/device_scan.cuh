// lookback::DeviceScan: single-pass prefix scans whose inter-tile protocol is
// the model-checked spec (protocol/spec.hpp, protocol/catalogue.hpp).
//
// Two ways to call it, one kernel launch per scan either way:
//
// 1. DeviceScan -- the shapes of cub::DeviceScan, stateless:
//
//      std::size_t bytes = 0;
//      lookback::DeviceScan::InclusiveSum(nullptr, bytes, d_in, d_out, n);  // query
//      cudaMalloc(&d_temp, bytes);
//      lookback::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n, stream);
//      // another configuration: storage from its own query (tiles differ)
//      lookback::DeviceScan::ExclusiveScan<lookback::Fallback>(
//          d_temp_f, bytes_f, d_in, d_out, lookback::Max{}, init, n, stream);
//
//    CUB lets callers reuse temp storage for anything between calls, so the
//    descriptors are reset by the spec's Reset::HostMemset: a cudaMemsetAsync
//    of the header and the descriptors this scan uses, then the scan kernel.
//
// 2. ScanPlan<T, Config> -- persistent temp storage, Reset::Epoch:
//
//      lookback::ScanPlan<std::uint32_t> plan;
//      plan.init(max_items, stream);                 // zeroed once
//      plan.InclusiveSum(d_in, d_out, n, stream);    // one launch, no memset
//
//    The plan owns zero-initialised storage. Every descriptor carries the
//    launch epoch; one from another epoch reads as INVALID. A block reads
//    the epoch with its tile ticket (one atomic); the block that draws a
//    launch's last ticket advances the epoch and resets the ticket, and when
//    the epoch wraps the last block to finish clears all descriptors first
//    (launch_state.cuh). After a launch that reported an error the storage
//    is zeroed again. Launches on one plan must not overlap (use it from one
//    stream, or order the streams): two at once draw tickets from one word,
//    and a block that draws another launch's ticket leaves a tile its
//    successors wait for forever.
//
// Variants and tuning are chosen by a configuration type (device/config.hpp):
// lookback::WarpLookback, lookback::Coarsened, lookback::Pipelined,
// lookback::Fallback, lookback::PipelinedWide,
// lookback::PacedWarpLookback<gbps>, lookback::Deterministic<C> (bitwise run-to-run
// identical floating point; of the default, DeterministicDefaultConfig<T>,
// whose tiers switch where the deterministic kernels do, and which runs the
// default on integer sums, min, max and xor, exact in any bracketing:
// runs_on_t), or a
// lookback::ScanConfig<...> with your own TilePolicy, or a
// lookback::SizeAdaptive<Small, Large, bytes> that picks one of two by the
// size of each call's input. Without one,
// lookback::DefaultConfig<T>: for 1-, 2-, 4- and 8-byte values
// WarpLookbackSmall (warp-lookback on small tiles) up to config.hpp's
// default_max_small_bytes of input (2 MiB of 4-byte values, 8 MiB of 8-byte,
// 1 MiB of 2-byte, 128 KiB of 1-byte ones) and Pipelined above, with a middle
// tier between up to default_max_middle_bytes (WarpLookback up to 16 MiB of
// 4-byte and 2.5 MiB of 2-byte values, Coarsened up to 4 MiB of 1-byte ones);
// Coarsened for values of other sizes. For 1- and 8-byte values the large
// half is a DeviceAdaptive: on GPUs of HBM3e-class bandwidth per SM (the
// H200) coarsened reaches 14 MiB of 1-byte values, and 8-byte ones take
// PipelinedWide above default_wide_switch_bytes<T>() of input (26 MiB of
// floating-point values, 96 MiB of others).
// A SizeAdaptive's halves may be SizeAdaptives or DeviceAdaptives
// (lookback::DeviceAdaptive<Base, Wide, gbps>: by the GPU's DRAM bandwidth
// per SM) themselves.
//
// Contract: T trivially copyable and default constructible; the operator
// associative (not necessarily commutative), callable on host and device;
// d_in == d_out (in place) works, partial overlap is an error; num_items is
// 64-bit. Errors come back as cudaError_t with lookback::last_error_message().
// Pointers that are not aligned to the 16-byte vector width take a scalar path.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "lookback/device/config.hpp"
#include "lookback/device/device_memory.hpp"
#include "lookback/device/dispatch.cuh"
#include "lookback/device/error.hpp"
#include "lookback/device/temp_storage.hpp"
#include "lookback/ops.hpp"

namespace lookback {

using device::LookbackStats;

namespace detail {
// The stateless API: catalogue protocol with Reset::HostMemset.
// DeviceScan's Config = void: DefaultConfig<T>.
template <class Config, class T>
using config_or_default = std::conditional_t<std::is_void_v<Config>, DefaultConfig<T>, Config>;

template <class Cfg, bool kExclusive, class T, class Op>
cudaError_t stateless_scan_one(void* d_temp, std::size_t& temp_bytes, const T* in, T* out,
                               std::int64_t n, Op op, T init, cudaStream_t stream,
                               const Options& options) {
  constexpr protocol::Protocol kOut = with_reset(Cfg::protocol, protocol::Reset::HostMemset);
  constexpr protocol::Protocol kIn =
      with_reset(Cfg::protocol_in_place, protocol::Reset::HostMemset);
  static_assert(device::descriptor_shape<kOut, T>() == device::descriptor_shape<kIn, T>(),
                "in-place and out-of-place scans share one temp-storage layout");
  if (static_cast<const void*>(in) == static_cast<const void*>(out))
    return scan_with_protocol<Cfg, kIn, kExclusive>(d_temp, temp_bytes, in, out, n, op, init,
                                                    stream, options);
  return scan_with_protocol<Cfg, kOut, kExclusive>(d_temp, temp_bytes, in, out, n, op, init, stream,
                                                   options);
}

template <class Config, bool kExclusive, class T, class Op>
cudaError_t stateless_scan(void* d_temp, std::size_t& temp_bytes, const T* in, T* out,
                           std::int64_t n, Op op, T init, cudaStream_t stream,
                           const Options& options) {
  using Cfg = runs_on_t<config_or_default<Config, T>, T, Op>;
  if (d_temp != nullptr)
    if (const cudaError_t e = validate_watchdog(options.watchdog_rounds, options.check_errors);
        e != cudaSuccess)
      return e;
  if constexpr (is_size_adaptive_v<Cfg>) {
    // Each call runs, and checks the storage of, the half its n picks; a
    // query above the switch also covers the small half (below).
    if (Cfg::template picks_small<T>(n))
      return stateless_scan<typename Cfg::small, kExclusive>(d_temp, temp_bytes, in, out, n, op,
                                                             init, stream, options);
    const cudaError_t e = stateless_scan<typename Cfg::large, kExclusive>(
        d_temp, temp_bytes, in, out, n, op, init, stream, options);
    if (d_temp == nullptr && e == cudaSuccess) {
      // A query above the switch covers every smaller n on the small half
      // too (whose tiles may be smaller than the large half's): storage
      // sized for the largest n does for all, as with one configuration.
      std::size_t small_bytes = 0;
      const cudaError_t es = stateless_scan<typename Cfg::small, kExclusive>(
          nullptr, small_bytes, in, out, Cfg::template max_small_items<T>(), op, init, stream,
          options);
      if (es != cudaSuccess) return es;
      temp_bytes = std::max(temp_bytes, small_bytes);
    }
    return e;
  } else if constexpr (is_device_adaptive_v<Cfg>) {
    // Each call runs the half the current device picks; a size query
    // answers for both, so the storage serves either (a query and its scans
    // may meet different devices). The arguments are checked before the
    // device is asked (validate.hpp: before any CUDA call), against the
    // fewer items of the two halves, which the picked half then checks
    // again with its storage.
    const ScanArguments args{
        in, out, n, sizeof(T), alignof(T), temp_bytes, 0, max_items<Cfg, T>(), d_temp};
    if (d_temp == nullptr) {
      if (n < 0 || n > args.max_items) return validate(args);
      std::size_t base_bytes = 0, wide_bytes = 0;
      cudaError_t e = stateless_scan<typename Cfg::base, kExclusive>(nullptr, base_bytes, in, out,
                                                                     n, op, init, stream, options);
      if (e == cudaSuccess)
        e = stateless_scan<typename Cfg::wide, kExclusive>(nullptr, wide_bytes, in, out, n, op,
                                                           init, stream, options);
      if (e == cudaSuccess) temp_bytes = std::max(base_bytes, wide_bytes);
      return e;
    }
    if (const cudaError_t e = validate(args); e != cudaSuccess) return e;
    if (picks_wide_here<Cfg>())
      return stateless_scan<typename Cfg::wide, kExclusive>(d_temp, temp_bytes, in, out, n, op,
                                                            init, stream, options);
    return stateless_scan<typename Cfg::base, kExclusive>(d_temp, temp_bytes, in, out, n, op, init,
                                                          stream, options);
  } else {
    return stateless_scan_one<Cfg, kExclusive>(d_temp, temp_bytes, in, out, n, op, init, stream,
                                               options);
  }
}
}  // namespace detail

struct DeviceScan {
  // out[i] = in[0] + ... + in[i]
  template <class Config = void, class T>
  static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                  const T* d_in, T* d_out, std::int64_t num_items,
                                  cudaStream_t stream = 0, const Options& options = {}) {
    return detail::stateless_scan<Config, false>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                 num_items, Sum{}, T{}, stream, options);
  }
  // out[0] = 0, out[i] = in[0] + ... + in[i-1]
  template <class Config = void, class T>
  static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                  const T* d_in, T* d_out, std::int64_t num_items,
                                  cudaStream_t stream = 0, const Options& options = {}) {
    return detail::stateless_scan<Config, true>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                num_items, Sum{}, T{}, stream, options);
  }
  // out[i] = in[0] op ... op in[i]
  template <class Config = void, class T, class ScanOp>
  static cudaError_t InclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   const T* d_in, T* d_out, ScanOp scan_op, std::int64_t num_items,
                                   cudaStream_t stream = 0, const Options& options = {}) {
    return detail::stateless_scan<Config, false>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                 num_items, scan_op, T{}, stream, options);
  }
  // out[0] = init, out[i] = init op in[0] op ... op in[i-1]
  template <class Config = void, class T, class ScanOp>
  static cudaError_t ExclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   const T* d_in, T* d_out, ScanOp scan_op,
                                   std::type_identity_t<T> init_value, std::int64_t num_items,
                                   cudaStream_t stream = 0, const Options& options = {}) {
    return detail::stateless_scan<Config, true>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                num_items, scan_op, init_value, stream, options);
  }
};

namespace detail {
// The checks every ScanPlan makes, one wording for all of them.
template <class Config, class T>
cudaError_t check_plan_capacity(std::int64_t capacity) {
  constexpr std::int64_t kMost = max_items<Config, T>();
  if (capacity < 0 || capacity > kMost)
    return fail(cudaErrorInvalidValue, "ScanPlan capacity " + std::to_string(capacity) +
                                           " is not in [0, " + std::to_string(kMost) + "]");
  return cudaSuccess;
}
inline cudaError_t check_plan_call(bool initialised, std::int64_t n, std::int64_t capacity) {
  if (!initialised) return fail(cudaErrorInvalidValue, "ScanPlan used before a successful init()");
  if (n > capacity)
    return fail(cudaErrorInvalidValue, "num_items = " + std::to_string(n) +
                                           " exceeds the plan's capacity " +
                                           std::to_string(capacity));
  return cudaSuccess;
}
// A plan's storage lives on the device that was current at init(); a launch
// on another device would read it through a pointer that device may not map
// (an illegal address, which ends the context), so it is refused.
inline cudaError_t check_plan_device(int plan_device, int current_device) {
  if (plan_device != current_device)
    return fail(cudaErrorInvalidDevice,
                "ScanPlan initialised on device " + std::to_string(plan_device) +
                    " used on device " + std::to_string(current_device) +
                    ": its storage lives on the device of init() (one plan per device)");
  return cudaSuccess;
}

// ScanPlan's third parameter, Runs, is what the first two run
// (runs_on_t); this empty base of every plan class checks it, once.
template <class T, class Config, class Runs>
struct RunsDerivedCheck {
  static_assert(std::is_same_v<Runs, runs_on_t<Config, T>>,
                "ScanPlan's third parameter is derived from the first two: leave it out");
};
// A plan whose configuration runs another (Runs: the deterministic default
// of integers runs the default) takes only operators under which the two
// give the same bits; its storage is the default's, so it cannot run the
// left fold for another operator.
template <class Config, class Runs, class T, class Op>
constexpr void check_plan_operator() {
  static_assert(std::is_same_v<Config, Runs> || exact_operator<T, Op>::value,
                "a ScanPlan of the deterministic default on integers runs DefaultConfig<T>, "
                "bitwise alike only under exact operators (lookback::exact_operator: Sum, Min, "
                "Max, Xor); for another operator name a deterministic configuration "
                "(e.g. Deterministic<Pipelined>) or specialise exact_operator<T, Op>");
}
}  // namespace detail

// Persistent temp storage for scans of T with one configuration
// (Reset::Epoch: one launch per scan, no memset). Runs is what Config runs
// on T (runs_on_t: the deterministic default on integers runs the default),
// derived from the first two: leave it out.
template <class T, class Config = DefaultConfig<T>, class Runs = runs_on_t<Config, T>>
class ScanPlan : detail::RunsDerivedCheck<T, Config, Runs> {
 public:
  static constexpr protocol::Protocol kProtocol = Runs::protocol;
  static constexpr protocol::Protocol kProtocolInPlace = Runs::protocol_in_place;
  static_assert(device::descriptor_shape<kProtocol, T>() ==
                device::descriptor_shape<kProtocolInPlace, T>());

  ScanPlan() = default;
  ScanPlan(const ScanPlan&) = delete;
  ScanPlan& operator=(const ScanPlan&) = delete;
  ScanPlan(ScanPlan&& o) noexcept { swap(o); }
  ScanPlan& operator=(ScanPlan&& o) noexcept {
    ScanPlan(std::move(o)).swap(*this);
    return *this;
  }
  ~ScanPlan() {
    if (storage_ != nullptr) cudaFree(storage_);
  }

  // Bytes of storage a plan for `max_items` holds. A count outside [0, the
  // most this configuration takes] is taken as the nearer end of that range
  // (init() refuses it): the tile count stays defined.
  static std::size_t storage_bytes(std::int64_t max_items) {
    const std::int64_t n = std::clamp(max_items, std::int64_t{0}, detail::max_items<Runs, T>());
    return device::temp_storage_bytes(detail::tiles_for<Runs, T>(n),
                                      device::descriptor_shape<kProtocol, T>());
  }

  // Allocates storage for scans of up to max_items items and zeroes it on
  // `stream`, then waits for that stream: the storage is ready for a scan on
  // any stream of this device when init() returns (a scan on another stream
  // could otherwise run before the zeroing, on whatever the allocation held).
  // An invalid capacity or stream (one of another device, or one being
  // captured: init() synchronizes), or no current device, leaves the plan as
  // it was; a failed allocation or zeroing leaves it empty (as if
  // default-constructed).
  cudaError_t init(std::int64_t max_items, cudaStream_t stream = 0) {
    if (cudaError_t e = detail::check_plan_capacity<Runs, T>(max_items); e != cudaSuccess) return e;
    if (cudaError_t e = detail::validate_stream(stream, true); e != cudaSuccess) return e;
    int device = -1;
    if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
      return detail::fail_cuda(e, "ScanPlan init (current device)");
    ScanPlan().swap(*this);  // frees what an earlier init() held
    const std::size_t bytes = storage_bytes(max_items);
    if (cudaError_t e = cudaMalloc(&storage_, bytes); e != cudaSuccess) {
      storage_ = nullptr;
      return detail::fail_cuda(e, "ScanPlan allocation");
    }
    cudaError_t e = cudaMemsetAsync(storage_, 0, bytes, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) {
      ScanPlan().swap(*this);
      return detail::fail_cuda(e, "ScanPlan zeroing");
    }
    bytes_ = bytes;
    capacity_ = max_items;
    device_ = device;
    return detail::succeed();
  }

  bool initialised() const { return storage_ != nullptr; }
  int device() const { return device_; }  // where the storage lives (-1: none)
  std::int64_t capacity() const { return capacity_; }
  std::size_t bytes() const { return bytes_; }
  void* storage() const { return storage_; }

  cudaError_t InclusiveSum(const T* d_in, T* d_out, std::int64_t n, cudaStream_t stream = 0,
                           const Options& options = {}) {
    return run<false>(d_in, d_out, n, Sum{}, T{}, stream, options);
  }
  cudaError_t ExclusiveSum(const T* d_in, T* d_out, std::int64_t n, cudaStream_t stream = 0,
                           const Options& options = {}) {
    return run<true>(d_in, d_out, n, Sum{}, T{}, stream, options);
  }
  template <class ScanOp>
  cudaError_t InclusiveScan(const T* d_in, T* d_out, ScanOp op, std::int64_t n,
                            cudaStream_t stream = 0, const Options& options = {}) {
    return run<false>(d_in, d_out, n, op, T{}, stream, options);
  }
  template <class ScanOp>
  cudaError_t ExclusiveScan(const T* d_in, T* d_out, ScanOp op, T init, std::int64_t n,
                            cudaStream_t stream = 0, const Options& options = {}) {
    return run<true>(d_in, d_out, n, op, init, stream, options);
  }

  // Instrumented configurations: look-back statistics accumulated since the
  // plan was zeroed or the statistics were last reset (blocks on `stream`).
  cudaError_t read_stats(LookbackStats& stats, cudaStream_t stream = 0) const {
    if (cudaError_t e = check_stats_call(); e != cudaSuccess) return e;
    if (cudaError_t e = detail::validate_stream(stream, true); e != cudaSuccess) return e;
    cudaError_t e = cudaMemcpyAsync(&stats, &device::header_of(storage_)->stats, sizeof stats,
                                    cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    return e == cudaSuccess ? detail::succeed() : detail::fail_cuda(e, "reading statistics");
  }
  cudaError_t reset_stats(cudaStream_t stream = 0) {
    if (cudaError_t e = check_stats_call(); e != cudaSuccess) return e;
    if (cudaError_t e = detail::validate_stream(stream, false); e != cudaSuccess) return e;
    const cudaError_t e =
        cudaMemsetAsync(&device::header_of(storage_)->stats, 0, sizeof(LookbackStats), stream);
    return e == cudaSuccess ? detail::succeed() : detail::fail_cuda(e, "resetting statistics");
  }

 private:
  // Only instrumented kernels count: a production plan's statistics would
  // read as zeros, which look like a scan that never waited.
  cudaError_t check_stats_call() const {
    if (!Runs::instrumented)
      return detail::fail(cudaErrorInvalidValue,
                          "look-back statistics need an instrumented configuration "
                          "(lookback::Instrumented<Cfg>)");
    if (storage_ == nullptr) return detail::fail(cudaErrorInvalidValue, "ScanPlan not initialised");
    return cudaSuccess;
  }
  template <bool kExclusive, class Op>
  cudaError_t run(const T* in, T* out, std::int64_t n, Op op, T init, cudaStream_t stream,
                  const Options& options) {
    detail::check_plan_operator<Config, Runs, T, Op>();
    if (cudaError_t e = detail::check_plan_call(initialised(), n, capacity_); e != cudaSuccess)
      return e;
    if (cudaError_t e = detail::validate_watchdog(options.watchdog_rounds, options.check_errors);
        e != cudaSuccess)
      return e;
    int current = -1;
    if (cudaError_t e = cudaGetDevice(&current); e != cudaSuccess)
      return detail::fail_cuda(e, "ScanPlan call (current device)");
    if (cudaError_t e = detail::check_plan_device(device_, current); e != cudaSuccess) return e;
    std::size_t bytes = bytes_;
    if (static_cast<const void*>(in) == static_cast<const void*>(out))
      return detail::scan_with_protocol<Runs, kProtocolInPlace, kExclusive>(
          storage_, bytes, in, out, n, op, init, stream, options);
    return detail::scan_with_protocol<Runs, kProtocol, kExclusive>(storage_, bytes, in, out, n, op,
                                                                   init, stream, options);
  }
  void swap(ScanPlan& o) noexcept {
    std::swap(storage_, o.storage_);
    std::swap(bytes_, o.bytes_);
    std::swap(capacity_, o.capacity_);
    std::swap(device_, o.device_);
  }

  void* storage_ = nullptr;
  std::size_t bytes_ = 0;
  std::int64_t capacity_ = 0;
  int device_ = -1;
};

namespace detail {
// The scan calls of a plan that hands each call to the plan of one of its
// halves: Derived::pick(n, run) checks the call and returns run(half's plan)
// for the half that runs n. Config: what the plan was asked for; Runs: what
// it runs (check_plan_operator).
template <class Derived, class T, class Config, class Runs>
class ForwardingPlan : RunsDerivedCheck<T, Config, Runs> {
 protected:
  ForwardingPlan() = default;  // only as the base of a plan

 public:
  cudaError_t InclusiveSum(const T* d_in, T* d_out, std::int64_t n, cudaStream_t stream = 0,
                           const Options& options = {}) {
    return self().pick(
        n, [&](auto& plan) { return plan.InclusiveSum(d_in, d_out, n, stream, options); });
  }
  cudaError_t ExclusiveSum(const T* d_in, T* d_out, std::int64_t n, cudaStream_t stream = 0,
                           const Options& options = {}) {
    return self().pick(
        n, [&](auto& plan) { return plan.ExclusiveSum(d_in, d_out, n, stream, options); });
  }
  template <class ScanOp>
  cudaError_t InclusiveScan(const T* d_in, T* d_out, ScanOp op, std::int64_t n,
                            cudaStream_t stream = 0, const Options& options = {}) {
    check_plan_operator<Config, Runs, T, ScanOp>();
    return self().pick(
        n, [&](auto& plan) { return plan.InclusiveScan(d_in, d_out, op, n, stream, options); });
  }
  template <class ScanOp>
  cudaError_t ExclusiveScan(const T* d_in, T* d_out, ScanOp op, T init, std::int64_t n,
                            cudaStream_t stream = 0, const Options& options = {}) {
    check_plan_operator<Config, Runs, T, ScanOp>();
    return self().pick(n, [&](auto& plan) {
      return plan.ExclusiveScan(d_in, d_out, op, init, n, stream, options);
    });
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};
}  // namespace detail

// A plan for a SizeAdaptive configuration: a plan of each half, the large one
// only when the capacity goes past the small one's share. Each launch runs on
// the plan that its n picks. A half may itself be a SizeAdaptive (its plan is
// then this class again).
template <class T, class Config, class Small, class Large, std::int64_t MaxSmallBytes>
class ScanPlan<T, Config, SizeAdaptive<Small, Large, MaxSmallBytes>>
    : public detail::ForwardingPlan<ScanPlan<T, Config, SizeAdaptive<Small, Large, MaxSmallBytes>>,
                                    T, Config, SizeAdaptive<Small, Large, MaxSmallBytes>> {
  friend class detail::ForwardingPlan<ScanPlan, T, Config,
                                      SizeAdaptive<Small, Large, MaxSmallBytes>>;
  using Adaptive = SizeAdaptive<Small, Large, MaxSmallBytes>;
  static constexpr std::int64_t kMaxSmallItems = Adaptive::template max_small_items<T>();

 public:
  // (A count outside [0, the most this configuration takes]: the nearer end.)
  static std::size_t storage_bytes(std::int64_t max_items) {
    const std::int64_t n = std::clamp(max_items, std::int64_t{0}, detail::max_items<Adaptive, T>());
    return ScanPlan<T, Small>::storage_bytes(std::min(n, kMaxSmallItems)) +
           (n > kMaxSmallItems ? ScanPlan<T, Large>::storage_bytes(n) : 0);
  }

  // An invalid capacity or stream leaves the plan as it was; a failed
  // allocation or zeroing leaves it empty (as if default-constructed).
  cudaError_t init(std::int64_t max_items, cudaStream_t stream = 0) {
    if (cudaError_t e = detail::check_plan_capacity<Adaptive, T>(max_items); e != cudaSuccess)
      return e;
    if (cudaError_t e = detail::validate_stream(stream, true); e != cudaSuccess) return e;
    *this = ScanPlan();  // frees what an earlier init() held
    cudaError_t e = small_.init(std::min(max_items, kMaxSmallItems), stream);
    if (e == cudaSuccess && max_items > kMaxSmallItems) e = large_.init(max_items, stream);
    if (e != cudaSuccess) {
      *this = ScanPlan();
      return e;
    }
    capacity_ = max_items;
    return detail::succeed();
  }

  bool initialised() const { return small_.initialised(); }
  std::int64_t capacity() const { return capacity_; }
  std::size_t bytes() const { return small_.bytes() + large_.bytes(); }
  // The plans of the two halves (the large one is empty up to the small
  // one's share).
  const ScanPlan<T, Small>& small_plan() const { return small_; }
  const ScanPlan<T, Large>& large_plan() const { return large_; }

  // Instrumented configurations: both halves' statistics, added up.
  cudaError_t read_stats(LookbackStats& stats, cudaStream_t stream = 0) const {
    if (cudaError_t e = small_.read_stats(stats, stream); e != cudaSuccess) return e;
    if (!large_.initialised()) return detail::succeed();
    LookbackStats more{};
    if (cudaError_t e = large_.read_stats(more, stream); e != cudaSuccess) return e;
    stats += more;
    return detail::succeed();
  }
  cudaError_t reset_stats(cudaStream_t stream = 0) {
    if (cudaError_t e = small_.reset_stats(stream); e != cudaSuccess) return e;
    return large_.initialised() ? large_.reset_stats(stream) : detail::succeed();
  }

 private:
  template <class Run>
  cudaError_t pick(std::int64_t n, Run run) {
    if (cudaError_t e = detail::check_plan_call(initialised(), n, capacity_); e != cudaSuccess)
      return e;
    return Adaptive::template picks_small<T>(n) ? run(small_) : run(large_);
  }

  ScanPlan<T, Small> small_;
  ScanPlan<T, Large> large_;
  std::int64_t capacity_ = 0;
};

// A plan for a DeviceAdaptive configuration: the plan of the half that the
// device current at init() picks, and nothing of the other (its storage
// belongs to that half's kernels: Reset::Epoch).
template <class T, class Config, class Base, class Wide, int WideGBpsPerSm>
class ScanPlan<T, Config, DeviceAdaptive<Base, Wide, WideGBpsPerSm>>
    : public detail::ForwardingPlan<ScanPlan<T, Config, DeviceAdaptive<Base, Wide, WideGBpsPerSm>>,
                                    T, Config, DeviceAdaptive<Base, Wide, WideGBpsPerSm>> {
  friend class detail::ForwardingPlan<ScanPlan, T, Config,
                                      DeviceAdaptive<Base, Wide, WideGBpsPerSm>>;
  using Adaptive = DeviceAdaptive<Base, Wide, WideGBpsPerSm>;

 public:
  // Either half's: the more of the two (no device is asked here). A count
  // outside [0, the fewer items of the two halves]: the nearer end.
  static std::size_t storage_bytes(std::int64_t max_items) {
    const std::int64_t n = std::clamp(max_items, std::int64_t{0}, detail::max_items<Adaptive, T>());
    return std::max(ScanPlan<T, Base>::storage_bytes(n), ScanPlan<T, Wide>::storage_bytes(n));
  }

  // An invalid capacity or stream leaves the plan as it was; a failed
  // allocation or zeroing leaves it empty.
  cudaError_t init(std::int64_t max_items, cudaStream_t stream = 0) {
    if (cudaError_t e = detail::check_plan_capacity<Adaptive, T>(max_items); e != cudaSuccess)
      return e;
    if (cudaError_t e = detail::validate_stream(stream, true); e != cudaSuccess) return e;
    *this = ScanPlan();  // frees what an earlier init() held
    const bool wide = detail::picks_wide_here<Adaptive>();
    const cudaError_t e = wide ? wide_.init(max_items, stream) : base_.init(max_items, stream);
    if (e != cudaSuccess) {
      *this = ScanPlan();
      return e;
    }
    wide_picked_ = wide;
    return detail::succeed();
  }

  bool initialised() const { return base_.initialised() || wide_.initialised(); }
  std::int64_t capacity() const { return wide_picked_ ? wide_.capacity() : base_.capacity(); }
  std::size_t bytes() const { return base_.bytes() + wide_.bytes(); }
  // Which half init() picked, and the two halves' plans (one empty).
  bool picked_wide() const { return wide_picked_; }
  const ScanPlan<T, Base>& base_plan() const { return base_; }
  const ScanPlan<T, Wide>& wide_plan() const { return wide_; }

  cudaError_t read_stats(LookbackStats& stats, cudaStream_t stream = 0) const {
    return wide_picked_ ? wide_.read_stats(stats, stream) : base_.read_stats(stats, stream);
  }
  cudaError_t reset_stats(cudaStream_t stream = 0) {
    return wide_picked_ ? wide_.reset_stats(stream) : base_.reset_stats(stream);
  }

 private:
  // Every n runs on the half init() picked; an empty plan's half reports
  // "used before a successful init()".
  template <class Run>
  cudaError_t pick(std::int64_t, Run run) {
    return wide_picked_ ? run(wide_) : run(base_);
  }

  ScanPlan<T, Base> base_;
  ScanPlan<T, Wide> wide_;
  bool wide_picked_ = false;
};

}  // namespace lookback
