// Tile descriptors: the two layouts of the spec, generated from a Protocol.
// Every access uses the order the spec names for it (memory_order.cuh).
//
//   Packed (values of <= 8 bytes): one atomic word holding tag and value, so
//       a reader can never pair a status with another write's value:
//       - values of <= 4 bytes: a 64-bit word, protocol::pack64()
//         [ value bits | epoch | status ], accessed through libcu++;
//       - values of 5..8 bytes: a 16-byte word, protocol::pack128()
//         [ value bits (64) | 0 (32) | epoch | status ], accessed with one
//         ld/st/atom.cas .b128 in inline PTX (atomic128.cuh; sm_90), because
//         libcu++'s 128-bit cuda::atomic_ref is broken in CCCL 3.0.1.
//       For the model both are the packed layout: one location, every access
//       a single atomic one. A publish stores the word with
//       protocol::publish_order_on(P, Packed): relaxed for variants with
//       Protocol::relaxed_packed_publish (the word carries its value).
//   Split (values of more than 8 bytes, and variants that force
//       Layout::Split): a 32-bit status tag (protocol::encode_tag) plus
//       value words: one for the aggregate and one for the inclusive prefix
//       (split_value_words(P) == 2), so publishing PREFIX never overwrites the
//       aggregate a reader of the older AGGREGATE status may still take.
//       Writer: value word(s), P.publish_fence, tag with P.publish_order.
//       Reader: tag with P.lookback_order, P.lookback_fence, then value word.
//       The fallback's monotone CAS acts on the tag (SplitDescriptor::cas_publish).
//       Stored as a structure of arrays (temp_storage.hpp): all tags
//       contiguous (32 to a 128-byte line), then the aggregate values, then
//       the inclusive values, each array line aligned, so a tag never shares
//       a cache line with a value and message passing from the value to the
//       tag crosses lines, as it does in the litmus probes. The model is
//       location based (a tag and each value word are separate locations
//       whatever their addresses), so this placement changes nothing in the
//       protocol or in what the model checks.
//
// Every descriptor takes a DescriptorStorage (the region and its capacity)
// and has a DescriptorShape, from which the host sizes temp storage
// (descriptor_shape, temp_storage.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "lookback/device/atomic128.cuh"
#include "lookback/device/memory_order.cuh"
#include "lookback/device/temp_storage.hpp"
#include "lookback/protocol/spec.hpp"

namespace lookback::device {

using protocol::Layout;
using protocol::Protocol;
using protocol::Status;

// Whether values of 5..8 bytes are packed with their tag into one 16-byte
// atomic word (Packed128Descriptor, inline PTX in atomic128.cuh, not
// libcu++'s broken 128-bit atomic_ref). It was off for a while: on the H100
// (2026-11-23) the variants without a fallback gave wrong u64/i64/f64 scans
// at >= 2^20 items with it. The cause was ptxas splitting the look-back's
// 16-byte load into a tag load and a value load (Packed128Descriptor::tag
// says how and what keeps it one load). The project builds for sm_90 only;
// compiling a scan of such a type for an older device architecture stops at
// atomic128.cuh's static_assert (the host sizes temp storage for the 16-byte
// word, so the device may not quietly use another layout).
inline constexpr bool kPacked128Available = true;

// The layout a variant uses for values of type T (Layout::BySize resolved).
template <Protocol P, class T>
constexpr Layout resolved_layout() {
  if constexpr (P.layout == Layout::Split) {
    return Layout::Split;
  } else {
    return sizeof(T) <= 4 || (kPacked128Available && sizeof(T) <= 8) ? Layout::Packed
                                                                     : Layout::Split;
  }
}

// ----------------------------------------------------------------------------
template <Protocol P, class T>
struct PackedDescriptor {
  static_assert(sizeof(T) <= 4, "the 64-bit packed descriptor holds values of at most 4 bytes");
  static_assert(std::is_trivially_copyable_v<T>);
  using Word = std::uint64_t;  // what one look-back read returns
  static constexpr DescriptorShape kShape{sizeof(Word), kPackedWordStride, 0, 0};
  static constexpr protocol::Order kPublishOrder = protocol::publish_order_on(P, Layout::Packed);

  unsigned char* base;  // tile t's word at base + t * kPackedWordStride
  __device__ explicit PackedDescriptor(DescriptorStorage s)
      : base(static_cast<unsigned char*>(s.base)) {}
  __device__ Word& word(std::uint32_t t) const {
    return *reinterpret_cast<Word*>(base + std::size_t{t} * kPackedWordStride);
  }

  __device__ static std::uint32_t bits_of(const T& v) {
    std::uint32_t b = 0;
    memcpy(&b, &v, sizeof(T));
    return b;
  }
  __device__ static Word make(Status s, const T& v, std::uint32_t epoch) {
    return protocol::pack64(s, epoch, bits_of(v));
  }
  __device__ static std::uint32_t tag(Word w) { return protocol::packed64_tag(w); }

  // One look-back read of tile `t` (P.lookback_order).
  __device__ Word load(std::uint32_t t) const {
    return device_ref<Word>(word(t)).load(load_order<P.lookback_order>());
  }
  // The value of a word read from tile t (no further memory access).
  __device__ T value(std::uint32_t, Word w) const {
    const std::uint32_t b = protocol::packed64_value(w);
    T v;
    memcpy(&v, &b, sizeof(T));
    return v;
  }
  // Publish status s with value v: P.publish_fence, then the word with
  // the packed publish order (protocol::publish_order_on).
  __device__ void publish(std::uint32_t t, Status s, const T& v, std::uint32_t epoch) const {
    fence<P.publish_fence>();
    device_ref<Word>(word(t)).store(make(s, v, epoch), store_order<kPublishOrder>());
  }
  // The fallback's monotone publish: INVALID -> s(v) only if the word is
  // still `expected` (the INVALID word the caller observed); never overwrites
  // an AGGREGATE or PREFIX. On failure `expected` holds the word found.
  __device__ bool cas_publish(std::uint32_t t, Word& expected, Status s, const T& v,
                              std::uint32_t epoch) const {
    fence<P.publish_fence>();
    return device_ref<Word>(word(t)).compare_exchange_strong(
        expected, make(s, v, epoch), rmw_order<protocol::fallback_cas_order(P)>());
  }
  // The word a successful cas_publish wrote.
  __device__ static Word published_word(Status s, const T& v, std::uint32_t epoch) {
    return make(s, v, epoch);
  }
  // Epoch wrap: make the descriptor INVALID at epoch 0 (all-zero word).
  template <protocol::Order O>
  __device__ void clear(std::uint32_t t) const {
    store_word<O>(&word(t), Word{0});
  }
};

// ----------------------------------------------------------------------------
// Values of 5..8 bytes: one 16-byte word per tile (protocol::pack128), every
// access one .b128 instruction (atomic128.cuh).
template <Protocol P, class T>
struct Packed128Descriptor {
  static_assert(sizeof(T) > 4 && sizeof(T) <= 8,
                "the 128-bit packed descriptor holds values of 5 to 8 bytes");
  static_assert(std::is_trivially_copyable_v<T>);
  using Word = protocol::Packed128;  // what one look-back read returns
  static_assert(sizeof(Word) == 16 && alignof(Word) == 16);
  static constexpr DescriptorShape kShape{sizeof(Word), kPackedWordStride, 0, 0};
  static constexpr protocol::Order kPublishOrder = protocol::publish_order_on(P, Layout::Packed);

  unsigned char* base;  // tile t's word at base + t * kPackedWordStride
  __device__ explicit Packed128Descriptor(DescriptorStorage s)
      : base(static_cast<unsigned char*>(s.base)) {}
  __device__ Word* word(std::uint32_t t) const {
    return reinterpret_cast<Word*>(base + std::size_t{t} * kPackedWordStride);
  }

  __device__ static std::uint64_t bits_of(const T& v) {
    std::uint64_t b = 0;
    memcpy(&b, &v, sizeof(T));
    return b;
  }
  __device__ static Word make(Status s, const T& v, std::uint32_t epoch) {
    return protocol::pack128(s, epoch, bits_of(v));
  }
  // The tag, with every always-zero bit of the word folded in: the padding
  // (bits 32..63) and the value bits beyond sizeof(T). Not for the
  // encoding's sake (they are 0 in every word make() writes and in zeroed
  // storage) but to keep every bit of a loaded word live wherever its status
  // is used. ptxas (CUDA 13.0, sm_90) narrows a .b128 load one of whose
  // 32-bit quarters is dead into smaller loads: with only the low 32 bits of
  // `lo` used it emitted LD.E.STRONG.GPU [a] (the tag) + LD.E.64.STRONG.GPU
  // [a+8] (the value), each with its own acquire, which are not one atomic
  // access: a reader could pair an AGGREGATE tag with the PREFIX value
  // written after it, and the non-fallback variants gave wrong tiles on the
  // H100. (The fallback variants used the whole word in their CAS, so their
  // loads stayed LD.E.128.) With the fold every look-back load is one
  // LD.E.128.STRONG.GPU (checked with nvdisasm for coarsened, warp-lookback,
  // fallback, deterministic, fenced-lookback and ScanPlan kernels).
  __device__ static std::uint32_t tag(Word w) {
    std::uint64_t zero = w.lo >> 32;
    if constexpr (sizeof(T) < 8) zero |= w.hi >> (8 * sizeof(T));
    return protocol::packed128_tag(w) | static_cast<std::uint32_t>(zero) |
           static_cast<std::uint32_t>(zero >> 32);
  }

  // One look-back read of tile `t` (P.lookback_order).
  __device__ Word load(std::uint32_t t) const { return load128<P.lookback_order>(word(t)); }
  // The value of a word read from tile t (no further memory access).
  __device__ T value(std::uint32_t, Word w) const {
    const std::uint64_t b = protocol::packed128_value(w);
    T v;
    memcpy(&v, &b, sizeof(T));
    return v;
  }
  // Publish status s with value v: P.publish_fence, then the word with
  // the packed publish order (protocol::publish_order_on).
  __device__ void publish(std::uint32_t t, Status s, const T& v, std::uint32_t epoch) const {
    fence<P.publish_fence>();
    store128<kPublishOrder>(word(t), make(s, v, epoch));
  }
  // The fallback's monotone publish: INVALID -> s(v) only if the word is
  // still `expected` (the INVALID word the caller observed); never overwrites
  // an AGGREGATE or PREFIX. On failure `expected` holds the word found.
  __device__ bool cas_publish(std::uint32_t t, Word& expected, Status s, const T& v,
                              std::uint32_t epoch) const {
    fence<P.publish_fence>();
    return cas128<protocol::fallback_cas_order(P)>(word(t), expected, make(s, v, epoch));
  }
  // The word a successful cas_publish wrote.
  __device__ static Word published_word(Status s, const T& v, std::uint32_t epoch) {
    return make(s, v, epoch);
  }
  // Epoch wrap: make the descriptor INVALID at epoch 0 (all-zero word).
  template <protocol::Order O>
  __device__ void clear(std::uint32_t t) const {
    store128<O>(word(t), Word{0, 0});
  }
};

// ----------------------------------------------------------------------------
template <Protocol P, class T>
struct SplitDescriptor {
  static_assert(std::is_trivially_copyable_v<T>);
  static constexpr protocol::Order kValueOrder = protocol::split_value_order(P);
  static constexpr std::size_t kWordAlign =
      sizeof(T) % 8 == 0 ? 8 : (sizeof(T) % 4 == 0 ? 4 : (sizeof(T) % 2 == 0 ? 2 : 1));
  static constexpr std::size_t kBoxAlign = alignof(T) > kWordAlign ? alignof(T) : kWordAlign;
  struct alignas(kBoxAlign) Box {
    T v;
  };
  static_assert(kBoxAlign <= kLineBytes, "value arrays start on a 128-byte line");
  using Word = std::uint32_t;
  static constexpr DescriptorShape kShape{sizeof(Word), sizeof(Word), sizeof(Box),
                                          protocol::split_value_words(P)};

  Word* tags;      // [capacity] status tags, 32 to a line
  Box* aggregate;  // [capacity] written with AGGREGATE (and by a fallback)
  Box* inclusive;  // [capacity] written with PREFIX; == aggregate when split_value_words(P) == 1
  __device__ explicit SplitDescriptor(DescriptorStorage s)
      : tags(static_cast<Word*>(s.base)),
        aggregate(value_array(s, 0)),
        inclusive(value_array(s, kShape.value_arrays - 1)) {}

  __device__ static std::uint32_t tag(Word w) { return w; }

  __device__ Word load(std::uint32_t t) const {
    return device_ref<Word>(tags[t]).load(load_order<P.lookback_order>());
  }
  // The value belonging to tag `w` read from tile t: the value word of its
  // status, read with the split value order. Call after P.lookback_fence.
  __device__ T value(std::uint32_t t, Word w) const {
    return load_object<kValueOrder, kBoxAlign>(&value_box(t, protocol::tag_status(w))->v);
  }
  __device__ void publish(std::uint32_t t, Status s, const T& v, std::uint32_t epoch) const {
    store_object<kValueOrder, kBoxAlign>(&value_box(t, s)->v, v);
    fence<P.publish_fence>();
    device_ref<Word>(tags[t]).store(protocol::encode_tag(s, epoch),
                                    store_order<protocol::publish_order_on(P, Layout::Split)>());
  }
  // Monotone fallback publish on the tag. The value word of status s is
  // written first (the same value its owner writes, so a lost CAS leaves it
  // intact).
  __device__ bool cas_publish(std::uint32_t t, Word& expected, Status s, const T& v,
                              std::uint32_t epoch) const {
    store_object<kValueOrder, kBoxAlign>(&value_box(t, s)->v, v);
    fence<P.publish_fence>();
    return device_ref<Word>(tags[t]).compare_exchange_strong(
        expected, protocol::encode_tag(s, epoch), rmw_order<protocol::fallback_cas_order(P)>());
  }
  __device__ static Word published_word(Status s, const T&, std::uint32_t epoch) {
    return protocol::encode_tag(s, epoch);
  }
  template <protocol::Order O>
  __device__ void clear(std::uint32_t t) const {
    store_word<O>(&tags[t], Word{0});
  }

 private:
  __device__ static Box* value_array(DescriptorStorage s, int k) {
    return reinterpret_cast<Box*>(static_cast<unsigned char*>(s.base) +
                                  value_array_offset(s.capacity, kShape, k));
  }
  __device__ Box* value_box(std::uint32_t t, Status s) const {
    return s == Status::Prefix ? &inclusive[t] : &aggregate[t];
  }
};

template <Protocol P, class T>
using Descriptor = std::conditional_t<
    resolved_layout<P, T>() == Layout::Split, SplitDescriptor<P, T>,
    std::conditional_t<(sizeof(T) <= 4), PackedDescriptor<P, T>, Packed128Descriptor<P, T>>>;

// How a descriptor of this variant and type is stored, for sizing temp
// storage on the host (temp_storage_bytes, cleared_bytes, descriptor_capacity).
template <Protocol P, class T>
constexpr DescriptorShape descriptor_shape() {
  return Descriptor<P, T>::kShape;
}

}  // namespace lookback::device
