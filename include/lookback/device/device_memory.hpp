// The GPU's DRAM bandwidth per SM: what DeviceAdaptive configurations
// (config.hpp) pick their half by. By Little's law an SM must keep
// bandwidth x latency bytes in flight to stream at the DRAM's rate, and the
// latency is much the same across GPUs of one architecture, so the
// bandwidth per SM says how much each SM must hold in flight: the H200
// (4.8 TB/s, 132 SMs) needs 1.44x the H100's (3.35 TB/s, 132 SMs) with
// the same register files and shared memory.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cmath>
#include <string>

#include "lookback/device/error.hpp"

namespace lookback {

// What the CUDA runtime reports of a GPU's memory system.
struct DeviceMemory {
  int sms = 0;               // cudaDevAttrMultiProcessorCount
  int memory_clock_khz = 0;  // cudaDevAttrMemoryClockRate (peak)
  int bus_width_bits = 0;    // cudaDevAttrGlobalMemoryBusWidth
};

// Peak DRAM bandwidth per SM in GB/s: two transfers per clock (HBM and
// GDDR report the clock of a double-data-rate interface) across the bus.
// 0 when any figure is missing (a device that reports none picks Base).
constexpr double dram_gbps_per_sm(const DeviceMemory& m) {
  if (m.sms <= 0 || m.memory_clock_khz <= 0 || m.bus_width_bits <= 0) return 0.0;
  const double bytes_per_s = 2.0 * m.memory_clock_khz * 1e3 * (m.bus_width_bits / 8.0);
  return bytes_per_s / 1e9 / m.sms;
}

namespace detail {

inline cudaError_t query_device_memory(int dev, DeviceMemory& m) {
  cudaError_t e = cudaDeviceGetAttribute(&m.sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&m.memory_clock_khz, cudaDevAttrMemoryClockRate, dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&m.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, dev);
  if (e != cudaSuccess)
    return fail_cuda(e, ("reading the memory attributes of device " + std::to_string(dev)).c_str());
  return cudaSuccess;
}

// The current device's dram_gbps_per_sm in hundredths, asked of the
// runtime once per device (the cache holds hundredths + 1; 0: not asked
// yet). Every user of it (DeviceAdaptive, the tests, the bench) compares the
// same rounded value.
inline cudaError_t current_dram_gbps_per_sm(double& gbps) {
  constexpr int kDevices = 64;
  static std::atomic<long> known[kDevices];
  int dev = 0;
  if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess)
    return fail_cuda(e, "cudaGetDevice");
  const bool cached = dev >= 0 && dev < kDevices;
  if (cached) {
    if (const long k = known[dev].load(std::memory_order_relaxed); k != 0) {
      gbps = static_cast<double>(k - 1) / 100.0;
      return cudaSuccess;
    }
  }
  DeviceMemory m;
  if (const cudaError_t e = query_device_memory(dev, m); e != cudaSuccess) return e;
  const long hundredths = std::lround(dram_gbps_per_sm(m) * 100.0);
  if (cached) known[dev].store(hundredths + 1, std::memory_order_relaxed);
  gbps = static_cast<double>(hundredths) / 100.0;
  return cudaSuccess;
}

// Whether DeviceAdaptive configuration Cfg picks its wide half on the
// current device. Where the device cannot be asked (none, or a broken
// context) it picks the base half, whose own call then reports the
// arguments' errors first and the device's as it meets them, as any other
// configuration does.
template <class Cfg>
bool picks_wide_here() {
  double gbps = 0.0;
  if (current_dram_gbps_per_sm(gbps) != cudaSuccess) {
    // The scan goes on with the base half: leave no error behind for the
    // caller's next cudaGetLastError() to take for the scan's.
    (void)cudaGetLastError();
    return false;
  }
  return Cfg::picks_wide(gbps);
}

}  // namespace detail
}  // namespace lookback
