// An operation the benchmark times (value type, sum or max, inclusive or
// exclusive) as the three things a group needs of it: CUB's DeviceScan
// call, the same scan through a lookback ScanPlan, and the CPU reference.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <cub/device/device_scan.cuh>

#include "lookback/device_scan.cuh"
#include "lookback/ops.hpp"
#include "lookback/reference/scan.hpp"

namespace lookback_bench {

enum class OpKind { Sum, Max };

template <class T, OpKind kOp, bool kExclusive>
struct Case {
  using Op = std::conditional_t<kOp == OpKind::Sum, lookback::Sum, lookback::Max>;

  static cudaError_t cub_scan(void* temp, std::size_t& bytes, const T* in, T* out, std::int64_t n,
                              cudaStream_t s) {
    const int ni = static_cast<int>(n);
    if constexpr (kExclusive) {
      if constexpr (kOp == OpKind::Sum) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, ni, s);
      } else {
        return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, Op{},
                                              lookback::identity_of<T>(Op{}), ni, s);
      }
    } else {
      if constexpr (kOp == OpKind::Sum) {
        return cub::DeviceScan::InclusiveSum(temp, bytes, in, out, ni, s);
      } else {
        return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, Op{}, ni, s);
      }
    }
  }
  template <class Plan>
  static cudaError_t plan_scan(Plan& plan, const T* in, T* out, std::int64_t n, cudaStream_t s) {
    if constexpr (kExclusive) {
      return plan.ExclusiveScan(in, out, Op{}, lookback::identity_of<T>(Op{}), n, s);
    } else {
      return plan.InclusiveScan(in, out, Op{}, n, s);
    }
  }
  static std::vector<T> reference(const std::vector<T>& in) {
    if constexpr (kExclusive) {
      return lookback::reference::exclusive_scan(in, lookback::identity_of<T>(Op{}), Op{});
    } else {
      return lookback::reference::inclusive_scan(in, Op{});
    }
  }
};

}  // namespace lookback_bench
