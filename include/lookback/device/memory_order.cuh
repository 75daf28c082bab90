// The one place where the spec's `Order` and `Fence` become libcu++ memory
// orders and fences. Every protocol access of the kernels goes through the
// helpers here, so the generated code is exactly what the spec says.
//
//   Order::Weak     -> a plain load/store (only for data and split value words)
//   Order::Relaxed  -> cuda::memory_order_relaxed
//   Order::Acquire  -> cuda::memory_order_acquire
//   Order::Release  -> cuda::memory_order_release
//   Order::AcqRel   -> cuda::memory_order_acq_rel (acquire on a load, release
//                      on a store, acq_rel on a read-modify-write)
//   Fence::AcqRel   -> cuda::atomic_thread_fence(acq_rel, thread_scope_device)
//                      (fence.acq_rel.gpu)
//   Fence::Sc       -> cuda::atomic_thread_fence(seq_cst, thread_scope_device)
//                      (fence.sc.gpu, what __threadfence() compiles to)
//
// 16-byte accesses (the 128-bit packed descriptor, strong data vectors) are
// inline PTX (atomic128.cuh): they take their cuda::memory_order from the
// functions below and turn it into the PTX qualifier there, in one table.
#pragma once

#include <cuda/atomic>
#include <cuda/std/cstdint>

#include "lookback/protocol/spec.hpp"

namespace lookback::device {

using protocol::Fence;
using protocol::Order;

// Every protocol access is at the protocol's scope, the whole device (.gpu).
template <class W>
using device_ref = cuda::atomic_ref<W, cuda::thread_scope_device>;

template <Order O>
__device__ constexpr cuda::memory_order load_order() {
  static_assert(O != Order::Weak, "a Weak read is a plain load (load_word), not an atomic");
  static_assert(O != Order::Release, "a load cannot have release order");
  if constexpr (O == Order::Relaxed) return cuda::memory_order_relaxed;
  return cuda::memory_order_acquire;  // Acquire, AcqRel
}

template <Order O>
__device__ constexpr cuda::memory_order store_order() {
  static_assert(O != Order::Weak, "a Weak write is a plain store (store_word), not an atomic");
  static_assert(O != Order::Acquire, "a store cannot have acquire order");
  if constexpr (O == Order::Relaxed) return cuda::memory_order_relaxed;
  return cuda::memory_order_release;  // Release, AcqRel
}

template <Order O>
__device__ constexpr cuda::memory_order rmw_order() {
  static_assert(O != Order::Weak, "a read-modify-write is always strong");
  if constexpr (O == Order::Relaxed) return cuda::memory_order_relaxed;
  if constexpr (O == Order::Acquire) return cuda::memory_order_acquire;
  if constexpr (O == Order::Release) return cuda::memory_order_release;
  return cuda::memory_order_acq_rel;
}

template <Fence F>
__device__ __forceinline__ void fence() {
  if constexpr (F == Fence::AcqRel) {
    cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
  } else if constexpr (F == Fence::Sc) {
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
  }
}

// One machine word (1, 2, 4 or 8 bytes) read or written with order O.
template <Order O, class W>
__device__ __forceinline__ W load_word(const W* p) {
  if constexpr (O == Order::Weak) {
    return *p;
  } else {
    return device_ref<W>(*const_cast<W*>(p)).load(load_order<O>());
  }
}
template <Order O, class W>
__device__ __forceinline__ void store_word(W* p, W v) {
  if constexpr (O == Order::Weak) {
    *p = v;
  } else {
    device_ref<W>(*p).store(v, store_order<O>());
  }
}

// The widest machine word that tiles a `Bytes`-byte object aligned to `Align`.
template <int Bytes, int Align>
using word_for = cuda::std::conditional_t<
    (Bytes % 8 == 0 && Align % 8 == 0), cuda::std::uint64_t,
    cuda::std::conditional_t<(Bytes % 4 == 0 && Align % 4 == 0), cuda::std::uint32_t,
                             cuda::std::conditional_t<(Bytes % 2 == 0 && Align % 2 == 0),
                                                      cuda::std::uint16_t, cuda::std::uint8_t>>>;

// An object of any trivially copyable type, read or written with order O.
// Strong orders copy it word by word (each word single-copy atomic); that is
// what the spec asks of value words and, in place with a fallback, of output
// stores and of a fallback's reads of a predecessor's input: no data race, and a
// torn object is prevented by the protocol (status / validation), not by size.
template <Order O, int Align, class T>
__device__ __forceinline__ T load_object(const T* p) {
  if constexpr (O == Order::Weak) {
    return *p;
  } else {
    using W = word_for<sizeof(T), Align>;
    constexpr int kWords = sizeof(T) / sizeof(W);
    W w[kWords];
    const W* src = reinterpret_cast<const W*>(p);
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      w[i] = load_word<O>(src + i);
    T v;
    memcpy(&v, w, sizeof(T));
    return v;
  }
}
template <Order O, int Align, class T>
__device__ __forceinline__ void store_object(T* p, const T& v) {
  if constexpr (O == Order::Weak) {
    *p = v;
  } else {
    using W = word_for<sizeof(T), Align>;
    constexpr int kWords = sizeof(T) / sizeof(W);
    W w[kWords];
    memcpy(w, &v, sizeof(T));
    W* dst = reinterpret_cast<W*>(p);
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      store_word<O>(dst + i, w[i]);
  }
}

}  // namespace lookback::device
