// Argument checks of a scan call. Pure host code: they run before any CUDA
// call, so a bad argument is reported even where no GPU is present.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "lookback/device/error.hpp"

namespace lookback::detail {

struct ScanArguments {
  const void* in;
  const void* out;
  std::int64_t num_items;
  std::size_t item_bytes;
  std::size_t item_align;
  std::size_t temp_bytes;      // what the caller provides
  std::size_t temp_needed;     // what this scan needs
  std::int64_t max_items;      // most items this configuration supports
  const void* temp = nullptr;  // the caller's temp storage (nullptr: not checked)
};

// Whether [p, p + bytes) runs past the last address: its end p + bytes would
// wrap round to 0 (a range that ends at the very top does too), and
// ranges_overlap with it.
inline bool wraps_address_space(std::uintptr_t p, std::size_t bytes) {
  return bytes > std::numeric_limits<std::uintptr_t>::max() - p;
}

// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte (neither may
// wrap: wraps_address_space).
inline bool ranges_overlap(std::uintptr_t a, std::size_t a_bytes, std::uintptr_t b,
                           std::size_t b_bytes) {
  return a_bytes != 0 && b_bytes != 0 && a < b + b_bytes && b < a + a_bytes;
}

inline cudaError_t validate(const ScanArguments& a) {
  using std::to_string;
  if (a.num_items < 0)
    return fail(cudaErrorInvalidValue, "num_items is negative (" + to_string(a.num_items) + ")");
  if (a.num_items > a.max_items)
    return fail(cudaErrorInvalidValue, "num_items = " + to_string(a.num_items) +
                                           " exceeds the largest supported size for this "
                                           "configuration and type (" +
                                           to_string(a.max_items) + ")");
  if (a.num_items == 0) return succeed();
  if (a.in == nullptr) return fail(cudaErrorInvalidValue, "d_in is null and num_items > 0");
  if (a.out == nullptr) return fail(cudaErrorInvalidValue, "d_out is null and num_items > 0");
  const auto in = reinterpret_cast<std::uintptr_t>(a.in);
  const auto out = reinterpret_cast<std::uintptr_t>(a.out);
  // A bad argument, so cudaErrorInvalidValue: cudaErrorMisalignedAddress
  // means a device-side fault that has ended the context.
  if (in % a.item_align != 0)
    return fail(cudaErrorInvalidValue,
                "d_in is not aligned to alignof(T) = " + to_string(a.item_align));
  if (out % a.item_align != 0)
    return fail(cudaErrorInvalidValue,
                "d_out is not aligned to alignof(T) = " + to_string(a.item_align));
  const auto bytes = static_cast<std::uintptr_t>(a.num_items) * a.item_bytes;
  // No allocation ends past the top of the address space; a range that would
  // is a bad pointer or size, and would wrap the overlap checks below.
  if (wraps_address_space(in, bytes))
    return fail(cudaErrorInvalidValue,
                "d_in + num_items * sizeof(T) runs past the end of the address space");
  if (wraps_address_space(out, bytes))
    return fail(cudaErrorInvalidValue,
                "d_out + num_items * sizeof(T) runs past the end of the address space");
  const auto temp = reinterpret_cast<std::uintptr_t>(a.temp);
  if (a.temp != nullptr && wraps_address_space(temp, a.temp_bytes))
    return fail(cudaErrorInvalidValue,
                "d_temp_storage + temp_storage_bytes (" + to_string(a.temp_bytes) +
                    ") runs past the end of the address space: temp_storage_bytes must be the "
                    "size of the allocation, whose layout it sets");
  if (in != out && ranges_overlap(in, bytes, out, bytes))
    return fail(cudaErrorInvalidValue,
                "d_in and d_out overlap partially (an in-place scan needs d_in == d_out)");
  // The scan clears and writes its descriptors in temp storage while it
  // reads d_in and writes d_out: shared bytes would corrupt one or the other.
  if (a.temp != nullptr && ranges_overlap(temp, a.temp_bytes, in, bytes))
    return fail(cudaErrorInvalidValue,
                "d_temp_storage overlaps d_in (temp storage must be a buffer of its own)");
  if (a.temp != nullptr && ranges_overlap(temp, a.temp_bytes, out, bytes))
    return fail(cudaErrorInvalidValue,
                "d_temp_storage overlaps d_out (temp storage must be a buffer of its own)");
  if (a.temp_bytes < a.temp_needed)
    return fail(cudaErrorInvalidValue,
                "temp storage too small: temp_storage_bytes = " + to_string(a.temp_bytes) +
                    ", this scan needs " + to_string(a.temp_needed) +
                    " (query it with d_temp_storage == nullptr)");
  return succeed();
}

// Options::watchdog_rounds at the public entry points: an expired watchdog
// leaves the output invalid, and only a checked call (Options::check_errors)
// reads the kernels' error flag, reports it and clears it; unchecked, the
// call would return cudaSuccess on invalid output and leave the flag set for
// a later call to report as its own. (The stress harness reads the flag
// itself and calls below this check.)
inline cudaError_t validate_watchdog(std::uint32_t watchdog_rounds, bool check_errors) {
  if (watchdog_rounds != 0 && !check_errors)
    return fail(cudaErrorInvalidValue,
                "Options::watchdog_rounds needs Options::check_errors: an unchecked call cannot "
                "report an expired watchdog, whose output is invalid");
  return succeed();
}

// Options::perturb: only an instrumented kernel has the perturbation hooks; a
// production kernel would run unperturbed and the caller believe otherwise.
inline cudaError_t validate_perturb(bool perturbs, bool instrumented) {
  if (perturbs && !instrumented)
    return fail(
        cudaErrorInvalidValue,
        "Options::perturb needs an instrumented configuration (lookback::Instrumented<Cfg>): "
        "production kernels have no perturbation hooks");
  return succeed();
}

// Options::trace: only an instrumented kernel writes a timeline, and the
// buffer must hold every tile of the scan (a cut timeline would pass for a
// whole one).
inline cudaError_t validate_trace(const void* tiles, std::uint32_t capacity, bool instrumented,
                                  std::uint64_t num_tiles) {
  using std::to_string;
  if (tiles == nullptr) {
    if (capacity != 0)
      return fail(cudaErrorInvalidValue, "Options::trace has a capacity but no buffer");
    return succeed();
  }
  if (!instrumented)
    return fail(cudaErrorInvalidValue,
                "Options::trace needs an instrumented configuration (lookback::Instrumented<Cfg>): "
                "production kernels write no timeline");
  if (capacity < num_tiles)
    return fail(cudaErrorInvalidValue, "Options::trace holds " + to_string(capacity) +
                                           " tiles, this scan has " + to_string(num_tiles));
  return succeed();
}

// The stream's device. A call runs on the current device: its pointers and
// storage are taken to be that device's, and a scan's grid and tier are sized
// for it. CUDA runs a kernel on its stream's device, so a stream of another
// device would run the scan there, on this device's pointers (an illegal
// address, which ends the context; seen on two H200s with CUDA 13): refused
// before anything is enqueued.
inline cudaError_t check_stream_device(int stream_device, int current_device) {
  using std::to_string;
  if (stream_device != current_device)
    return fail(cudaErrorInvalidDevice,
                "`stream` belongs to device " + to_string(stream_device) +
                    ", the current device is " + to_string(current_device) +
                    ": a call runs on the current device, and CUDA would run its kernel on the "
                    "stream's; make current the device that holds the data and pass a stream "
                    "of it");
  return cudaSuccess;
}

// A call on a stream being captured into a graph (`status` is not None). A
// call that synchronizes the stream (a scan with Options::check_errors,
// ScanPlan::init(), ScanPlan::read_stats()) cannot be captured: CUDA would
// fail the synchronization and invalidate the whole capture. Refused before
// anything is enqueued, so the capture goes on. A capture that something
// else invalidated already takes nothing more (CUDA would fail the launch
// with cudaErrorStreamCaptureInvalidated): said as such, whatever the call.
inline cudaError_t check_capture(cudaStreamCaptureStatus status, bool synchronizes) {
  if (status == cudaStreamCaptureStatusInvalidated)
    return fail(cudaErrorStreamCaptureInvalidated,
                "the capture on `stream` was invalidated by an earlier call, so it takes no "
                "more work; end it (cudaStreamEndCapture) and capture again");
  if (synchronizes)
    return fail(cudaErrorInvalidValue,
                "this call synchronizes the stream (a checked scan, ScanPlan::init or "
                "read_stats), which a stream being captured into a graph cannot do: capture "
                "unchecked scans (Options::check_errors = false, watchdog_rounds = 0)");
  return cudaSuccess;
}

}  // namespace lookback::detail
