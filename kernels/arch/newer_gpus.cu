// Compiled for the GPUs after Hopper (kernels/CMakeLists.txt:
// LOOKBACK_NEWER_ARCHITECTURES, sm_100 and sm_120 SASS by default), never
// run: keeps the library building for them, so that a new GPU's bring-up
// starts from binaries, not from compile errors in the inline PTX, the CUB
// primitives or the policies (which are sm_90's: README, "Tuned for sm_90
// only"). One call for each agent (warp-lookback, coarsened, pipelined,
// fallback), descriptor layout (8- and 16-byte packed words, the split
// layout) and reset (a DeviceScan's memset, a ScanPlan's epochs).
#include <cstdint>

#include "lookback/device_scan.cuh"

namespace lookback::newer_gpus {

// The default's tiers for 4-byte values: small tiles, warp-lookback,
// pipelined (8-byte packed descriptors).
cudaError_t default_u32(void* temp, std::size_t& bytes, const std::uint32_t* in, std::uint32_t* out,
                        std::int64_t n, cudaStream_t s) {
  return DeviceScan::InclusiveSum(temp, bytes, in, out, n, s);
}

// 8-byte values: 16-byte packed descriptors, pipelined and its wide shape.
cudaError_t default_f64(void* temp, std::size_t& bytes, const double* in, double* out,
                        std::int64_t n, cudaStream_t s) {
  return DeviceScan::ExclusiveSum(temp, bytes, in, out, n, s);
}

// The deterministic default: left-fold look-backs and the paced first wave.
cudaError_t deterministic_f32(void* temp, std::size_t& bytes, const float* in, float* out,
                              std::int64_t n, cudaStream_t s) {
  return DeviceScan::InclusiveSum<DeterministicDefaultConfig<float>>(temp, bytes, in, out, n, s);
}

// The decoupled fallback (16-byte compare-and-swap on 8-byte values) and
// coarsened look-back, under a non-sum operator.
cudaError_t fallback_u64(void* temp, std::size_t& bytes, const std::uint64_t* in,
                         std::uint64_t* out, std::int64_t n, cudaStream_t s) {
  return DeviceScan::ExclusiveScan<Fallback>(temp, bytes, in, out, Max{}, std::uint64_t{0}, n, s);
}
cudaError_t coarsened_u32(void* temp, std::size_t& bytes, const std::uint32_t* in,
                          std::uint32_t* out, std::int64_t n, cudaStream_t s) {
  return DeviceScan::InclusiveScan<Coarsened>(temp, bytes, in, out, Max{}, n, s);
}

// A plan (descriptors tagged with epochs, no memset) of the 8-byte default.
cudaError_t plan_u64(ScanPlan<std::uint64_t>& plan, const std::uint64_t* in, std::uint64_t* out,
                     std::int64_t n, cudaStream_t s) {
  return plan.InclusiveSum(in, out, n, s);
}

// A 12-byte value: more than a packed word holds, so the split layout.
struct Triple {
  std::uint32_t x, y, z;
};
struct AddTriple {
  __host__ __device__ Triple operator()(const Triple& l, const Triple& r) const {
    return {l.x + r.x, l.y + r.y, l.z + r.z};
  }
};
cudaError_t split_layout(void* temp, std::size_t& bytes, const Triple* in, Triple* out,
                         std::int64_t n, cudaStream_t s) {
  return DeviceScan::InclusiveScan<Coarsened>(temp, bytes, in, out, AddTriple{}, n, s);
}

}  // namespace lookback::newer_gpus
