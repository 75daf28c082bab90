// How many blocks of a configuration's scan kernel the device holds at once:
// the persistent variants' grid, and what the L2 prefetch's first wave is
// computed from. For tests that size inputs around the launched grid.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "lookback/device_scan.cuh"

namespace lookback::testing {

// The aligned, vectorised kernel of Cfg for protocol P on T with Op. P is a
// template argument: nvcc 13 cannot name an agent with a Protocol argument
// from a non-template function (stress/src/entry.cu), nor from Cfg::protocol
// inside the alias.
template <class Cfg, protocol::Protocol P, class T = std::uint32_t, class Op = Sum>
std::uint32_t resident_blocks() {
  using A = detail::agent_t<Cfg, P, false, device::Access::Vector, T, Op>;
  std::uint32_t blocks = 0;
  EXPECT_EQ(detail::resident_blocks<A>(blocks), cudaSuccess) << last_error_message();
  return blocks;
}

// The current device's SMs (a persistent grid is blocks per SM times these).
inline int device_sms() {
  int dev = 0, sms = 0;
  EXPECT_EQ(cudaGetDevice(&dev), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), cudaSuccess);
  return sms;
}

}  // namespace lookback::testing
