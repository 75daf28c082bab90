// Loads and stores of a thread's items, with the data order the spec asks
// for: protocol::data_order(P) for output stores and a fallback's reads of
// other tiles' input (weak normally, relaxed for the in-place fallback, whose
// predecessors' inputs are read by other tiles), protocol::input_load_order(P)
// (weak) for the owner's reads of its own input.
//
// A "vector" is kVec consecutive items moved by one 16-byte access: weak data
// with ld.global.v4.u32 and friends, strong data with one relaxed .b128
// access in inline PTX (atomic128.cuh: ld/st.relaxed.gpu.b128; libcu++'s
// 128-bit atomic_ref is broken in CCCL 3.0.1). A single item moves on the
// scalar path taken for pointers that are not aligned to the vector.
#pragma once

#include <cstdint>

#include "lookback/device/atomic128.cuh"
#include "lookback/device/memory_order.cuh"

namespace lookback::device {

enum class Access : std::uint8_t { Vector, Scalar };

template <class T, protocol::Order kData, Access kAccess>
constexpr int vector_items() {
  if constexpr (kAccess == Access::Scalar) {
    return 1;
  } else {
    constexpr int bytes = 16;  // weak and strong data alike
    return (sizeof(T) <= bytes && bytes % sizeof(T) == 0) ? static_cast<int>(bytes / sizeof(T)) : 1;
  }
}

template <class T, int kVec, protocol::Order kData, bool kStreaming = false>
struct VectorIO {
  static constexpr int kBytes = static_cast<int>(sizeof(T)) * kVec;
  // Alignment the pointers of this path need.
  static constexpr int kAlign = kVec == 1 ? static_cast<int>(alignof(T)) : kBytes;

  __device__ __forceinline__ static void load(const T* p, T (&v)[kVec]) {
    if constexpr (kVec == 1) {
      v[0] = load_object<kData, alignof(T)>(p);
    } else if constexpr (kData == protocol::Order::Weak) {
      struct alignas(kBytes) Vec {
        T item[kVec];
      };
      Vec x;
      if constexpr (kStreaming && kBytes == 16) {
        const uint4 u = __ldcs(reinterpret_cast<const uint4*>(p));
        memcpy(&x, &u, sizeof u);
      } else {
        x = *reinterpret_cast<const Vec*>(p);
      }
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        v[e] = x.item[e];
    } else {
      static_assert(kBytes == 16, "strong vectors are one 16-byte word");
      const Word128 w = load128<kData>(p);
      memcpy(v, &w, sizeof(w));
    }
  }
  __device__ __forceinline__ static void store(T* p, const T (&v)[kVec]) {
    if constexpr (kVec == 1) {
      store_object<kData, alignof(T)>(p, v[0]);
    } else if constexpr (kData == protocol::Order::Weak) {
      struct alignas(kBytes) Vec {
        T item[kVec];
      };
      Vec x;
#pragma unroll
      for (int e = 0; e < kVec; ++e)
        x.item[e] = v[e];
      *reinterpret_cast<Vec*>(p) = x;
    } else {
      static_assert(kBytes == 16, "strong vectors are one 16-byte word");
      Word128 w;
      memcpy(&w, v, sizeof(w));
      store128<kData>(p, w);
    }
  }
};

}  // namespace lookback::device
