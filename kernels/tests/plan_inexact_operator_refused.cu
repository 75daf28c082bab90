// Must not compile (the CTest of the same name builds it and expects the
// message): a ScanPlan of the deterministic default on integers runs the
// default (runs_on_t) and holds its storage, so a call under an operator of
// the user's own, which may round, is refused at compile time rather than
// run without the left fold the user asked for.
#include <cstdint>

#include "lookback/device_scan.cuh"

namespace {
struct SaturatingAdd {  // not associative: not declared exact
  template <class T>
  __host__ __device__ constexpr T operator()(T a, T b) const {
    return a + b < a ? static_cast<T>(~T{}) : static_cast<T>(a + b);
  }
};
}  // namespace

int main() {
  lookback::ScanPlan<std::uint32_t, lookback::Deterministic<lookback::DefaultConfig<std::uint32_t>>>
      plan;
  return plan.InclusiveScan(nullptr, nullptr, SaturatingAdd{}, 0) == cudaSuccess ? 0 : 1;
}
