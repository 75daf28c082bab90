// ptxas probe (ptxas.txt, ptx-identity.txt): the ScanPlan kernels of
// coarsened and the fallback whose partial-tile path the policy chooses.
#include <cstdint>

#include "lookback/device_scan.cuh"

template <class T, class C>
void inst(const T* i, T* o, long n) {
  lookback::ScanPlan<T, C> p;
  p.InclusiveSum(i, o, n);
  p.ExclusiveSum(i, o, n);
}
template void inst<std::uint32_t, lookback::Coarsened>(const std::uint32_t*, std::uint32_t*, long);
template void inst<std::uint32_t, lookback::Fallback>(const std::uint32_t*, std::uint32_t*, long);
template void inst<std::uint64_t, lookback::Coarsened>(const std::uint64_t*, std::uint64_t*, long);
template void inst<double, lookback::Coarsened>(const double*, double*, long);
template void inst<float, lookback::Fallback>(const float*, float*, long);
