// 16-byte protocol accesses in inline PTX: one .b128 load, store or
// compare-and-swap at the protocol's scope (.gpu), with the order the spec
// names. Used by the 16-byte packed descriptor (descriptor.cuh) and by the
// in-place fallback's strong data vectors (tile_io.cuh).
//
// Why not cuda::atomic_ref<16-byte type>: libcu++ in CUDA 13.0 (CCCL 3.0.1)
// generates wrong code for it -- the b128 load's `mov.b128` has its operands
// reversed (ptxas: "Arguments mismatch for instruction 'ld'"), the b128 store
// moves an uninitialised register into the stored value, and
// compare_exchange does not compile (__dst.x vs __dst.__x).
//
// The order of an access goes through memory_order.cuh's mapping
// (load_order / store_order / rmw_order: the same static_asserts, the same
// cuda::memory_order as every other access), and only the last step, from
// cuda::memory_order to the PTX qualifier, is written here:
//
//   Order    load                   store                  atom.cas
//   Weak     ld.b128                st.b128                (always strong)
//   Relaxed  ld.relaxed.gpu.b128    st.relaxed.gpu.b128    atom.relaxed.gpu.cas.b128
//   Acquire  ld.acquire.gpu.b128    (not a store order)    atom.acquire.gpu.cas.b128
//   Release  (not a load order)     st.release.gpu.b128    atom.release.gpu.cas.b128
//   AcqRel   ld.acquire.gpu.b128    st.release.gpu.b128    atom.acq_rel.gpu.cas.b128
//
// Generic addressing (the pointers are global memory); 16-byte alignment
// required. ld/st .b128 need PTX ISA 8.3 and sm_70, atom.cas.b128 sm_90;
// the project builds for sm_90 (CMakePresets.json), and these helpers stop
// the build for an older device architecture (a static_assert) rather than
// silently splitting the access. Fences stay as memory_order.cuh does them.
//
// A load is one atomic access only if the caller uses all of its result:
// ptxas (CUDA 13.0, sm_90) narrows a strong .b128 load with a dead 32-bit
// quarter into smaller strong loads (e.g. LD.E.STRONG.GPU [a] +
// LD.E.64.STRONG.GPU [a+8]), each its own access. Packed128Descriptor::tag
// keeps every bit live for that reason.
#pragma once

#include <cuda/atomic>

#include "lookback/device/memory_order.cuh"
#include "lookback/protocol/spec.hpp"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define LOOKBACK_HAS_ATOMIC128 0
#else
#define LOOKBACK_HAS_ATOMIC128 1
#endif

namespace lookback::device {

// A 16-byte word as two 64-bit halves (lo: bits 0..63, at the lower address).
using Word128 = protocol::Packed128;

namespace detail {
template <Order>
inline constexpr bool kAtomic128Supported = LOOKBACK_HAS_ATOMIC128 != 0;
}  // namespace detail

// The 16-byte operands are bound to compiler-managed .b128 registers (the
// "q" constraint, unsigned __int128) rather than to .reg .b128 temporaries
// declared inside the asm: nvcc then sees every register the access uses.
namespace detail {
__device__ __forceinline__ unsigned __int128 to_u128(Word128 w) {
  return (static_cast<unsigned __int128>(w.hi) << 64) | w.lo;
}
__device__ __forceinline__ Word128 from_u128(unsigned __int128 x) {
  return Word128{static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(x >> 64)};
}
}  // namespace detail

#define LOOKBACK_LD128(SEM) asm volatile("ld" SEM ".b128 %0, [%1];" : "=q"(x) : "l"(p) : "memory")
#define LOOKBACK_ST128(SEM) asm volatile("st" SEM ".b128 [%0], %1;" : : "l"(p), "q"(x) : "memory")
#define LOOKBACK_CAS128(SEM)                                                           \
  asm volatile("atom" SEM ".cas.b128 %0, [%1], %2, %3;"                                \
               : "=q"(x)                                                               \
               : "l"(p), "q"(detail::to_u128(expected)), "q"(detail::to_u128(desired)) \
               : "memory")

// One 16-byte load with order O (Weak: a plain, weak ld.b128).
template <Order O>
__device__ __forceinline__ Word128 load128(const void* p) {
  static_assert(detail::kAtomic128Supported<O>,
                "16-byte descriptor words and data vectors need sm_90 (atomic128.cuh)");
  unsigned __int128 x;
  if constexpr (O == Order::Weak) {
    LOOKBACK_LD128("");
  } else if constexpr (load_order<O>() == cuda::memory_order_relaxed) {
    LOOKBACK_LD128(".relaxed.gpu");
  } else {
    static_assert(load_order<O>() == cuda::memory_order_acquire);
    LOOKBACK_LD128(".acquire.gpu");
  }
  return detail::from_u128(x);
}

// One 16-byte store with order O (Weak: a plain, weak st.b128).
template <Order O>
__device__ __forceinline__ void store128(void* p, Word128 v) {
  static_assert(detail::kAtomic128Supported<O>,
                "16-byte descriptor words and data vectors need sm_90 (atomic128.cuh)");
  const unsigned __int128 x = detail::to_u128(v);
  if constexpr (O == Order::Weak) {
    LOOKBACK_ST128("");
  } else if constexpr (store_order<O>() == cuda::memory_order_relaxed) {
    LOOKBACK_ST128(".relaxed.gpu");
  } else {
    static_assert(store_order<O>() == cuda::memory_order_release);
    LOOKBACK_ST128(".release.gpu");
  }
}

// Strong 16-byte compare-and-swap with order O (the same order on success
// and failure, as atom.cas has one). Returns whether *p was `expected` (and
// is now `desired`); on failure `expected` holds the word found.
template <Order O>
__device__ __forceinline__ bool cas128(void* p, Word128& expected, Word128 desired) {
  static_assert(detail::kAtomic128Supported<O>,
                "16-byte compare-and-swap needs sm_90 (atomic128.cuh)");
  unsigned __int128 x;
  if constexpr (rmw_order<O>() == cuda::memory_order_relaxed) {
    LOOKBACK_CAS128(".relaxed.gpu");
  } else if constexpr (rmw_order<O>() == cuda::memory_order_acquire) {
    LOOKBACK_CAS128(".acquire.gpu");
  } else if constexpr (rmw_order<O>() == cuda::memory_order_release) {
    LOOKBACK_CAS128(".release.gpu");
  } else {
    static_assert(rmw_order<O>() == cuda::memory_order_acq_rel);
    LOOKBACK_CAS128(".acq_rel.gpu");
  }
  const Word128 old = detail::from_u128(x);
  const bool ok = old.lo == expected.lo && old.hi == expected.hi;
  expected = old;
  return ok;
}

#undef LOOKBACK_LD128
#undef LOOKBACK_ST128
#undef LOOKBACK_CAS128

}  // namespace lookback::device
