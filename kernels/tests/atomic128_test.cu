// The 16-byte inline-PTX accesses (atomic128.cuh) and the descriptor built
// on them (Packed128Descriptor), one thread at a time: what is stored is
// loaded back, a CAS succeeds exactly when the word matches (in both halves)
// and reports the word it found when it does not. Plus two sanity checks
// with many threads: one winner among racing CASes, and no torn 16-byte
// word under racing relaxed stores and loads. Not litmus tests: orderings
// between locations are the stress harness's litmus probes' business.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "gpu_test_util.hpp"
#include "lookback/device/atomic128.cuh"
#include "lookback/device/config.hpp"
#include "lookback/device/descriptor.cuh"
#include "lookback/device/temp_storage.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace {

using lookback::device::cas128;
using lookback::device::load128;
using lookback::device::store128;
using lookback::device::Word128;
using lookback::protocol::Order;
using lookback::protocol::Status;

static_assert(sizeof(Word128) == 16 && alignof(Word128) == 16);

constexpr Word128 kA{0x0123456789abcdefull, 0xfedcba9876543210ull};
constexpr Word128 kB{0x1111111122222222ull, 0x3333333344444444ull};

// out[0]: load after store; out[1]: `expected` after a successful CAS;
// out[2]: load after it; out[3], out[4]: `expected` after CASes that fail on
// the low / high half; out[5]: load after them. flags: the three CAS results.
template <Order L, Order S, Order C>
__global__ void round_trip(Word128* mem, Word128* out, int* flags) {
  store128<S>(mem, kA);
  out[0] = load128<L>(mem);
  Word128 e = kA;
  flags[0] = cas128<C>(mem, e, kB);
  out[1] = e;
  out[2] = load128<L>(mem);
  Word128 wrong_lo{kB.lo ^ 1u, kB.hi};
  flags[1] = cas128<C>(mem, wrong_lo, kA);
  out[3] = wrong_lo;
  Word128 wrong_hi{kB.lo, kB.hi ^ (1ull << 63)};
  flags[2] = cas128<C>(mem, wrong_hi, kA);
  out[4] = wrong_hi;
  out[5] = load128<L>(mem);
}

// Room for the 32 descriptors the descriptor tests give a DescriptorStorage
// (one 16-byte word every kPackedWordStride bytes); the word tests use the
// first 16 words of it.
constexpr std::size_t kDescriptorBytes = 32 * lookback::device::kPackedWordStride;
static_assert(kDescriptorBytes >= 16 * sizeof(Word128));

struct Device {
  Word128* mem = nullptr;
  Word128* out = nullptr;
  int* flags = nullptr;
  Device() {
    cudaMalloc(&mem, kDescriptorBytes);
    cudaMalloc(&out, 1 << 20);
    cudaMalloc(&flags, 1 << 20);
  }
  ~Device() {
    cudaFree(mem);
    cudaFree(out);
    cudaFree(flags);
  }
  bool ok() const { return mem && out && flags; }
};

template <Order L, Order S, Order C>
void check_round_trip() {
  Device d;
  ASSERT_TRUE(d.ok());
  LOOKBACK_CUDA_OK(cudaMemset(d.mem, 0, 16 * sizeof(Word128)));
  round_trip<L, S, C><<<1, 1>>>(d.mem, d.out, d.flags);
  LOOKBACK_CUDA_OK(cudaGetLastError());
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
  Word128 out[6];
  int flags[3];
  LOOKBACK_CUDA_OK(cudaMemcpy(out, d.out, sizeof out, cudaMemcpyDeviceToHost));
  LOOKBACK_CUDA_OK(cudaMemcpy(flags, d.flags, sizeof flags, cudaMemcpyDeviceToHost));
  EXPECT_EQ(out[0], kA);
  EXPECT_EQ(flags[0], 1);
  EXPECT_EQ(out[1], kA);  // unchanged on success
  EXPECT_EQ(out[2], kB);
  EXPECT_EQ(flags[1], 0);
  EXPECT_EQ(out[3], kB);  // the word found
  EXPECT_EQ(flags[2], 0);
  EXPECT_EQ(out[4], kB);
  EXPECT_EQ(out[5], kB);  // failed CASes wrote nothing
  Word128 mem;
  LOOKBACK_CUDA_OK(cudaMemcpy(&mem, d.mem, sizeof mem, cudaMemcpyDeviceToHost));
  EXPECT_EQ(mem, kB);
}

TEST(Atomic128, RoundTripRelaxed) {
  LOOKBACK_REQUIRE_GPU();
  check_round_trip<Order::Relaxed, Order::Relaxed, Order::Relaxed>();
}
TEST(Atomic128, RoundTripAcquireRelease) {
  LOOKBACK_REQUIRE_GPU();
  check_round_trip<Order::Acquire, Order::Release, Order::Acquire>();
}
TEST(Atomic128, RoundTripAcqRel) {
  LOOKBACK_REQUIRE_GPU();
  check_round_trip<Order::AcqRel, Order::AcqRel, Order::AcqRel>();
}
TEST(Atomic128, RoundTripWeakAccessesReleaseCas) {
  LOOKBACK_REQUIRE_GPU();
  check_round_trip<Order::Weak, Order::Weak, Order::Release>();
}

// Every thread tries INVALID {0, 0} -> its own word; exactly one succeeds and
// every other thread's failed CAS reports the winner's word.
template <Order C>
__global__ void cas_race(Word128* word, Word128* seen, int* won) {
  const std::uint64_t id = blockIdx.x * blockDim.x + threadIdx.x;
  Word128 e{0, 0};
  won[id] = cas128<C>(word, e, Word128{id + 1, ~(id + 1)});
  seen[id] = e;
}

TEST(Atomic128, OneCasWinsARace) {
  LOOKBACK_REQUIRE_GPU();
  Device d;
  ASSERT_TRUE(d.ok());
  constexpr int kBlocks = 64, kThreads = 256, kAll = kBlocks * kThreads;
  static_assert(kAll * sizeof(Word128) <= (1 << 20));
  LOOKBACK_CUDA_OK(cudaMemset(d.mem, 0, sizeof(Word128)));
  cas_race<lookback::protocol::fallback_cas_order(lookback::protocol::production("fallback"))>
      <<<kBlocks, kThreads>>>(d.mem, d.out, d.flags);
  LOOKBACK_CUDA_OK(cudaGetLastError());
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
  std::vector<Word128> seen(kAll);
  std::vector<int> won(kAll);
  Word128 final_word;
  LOOKBACK_CUDA_OK(cudaMemcpy(seen.data(), d.out, kAll * sizeof(Word128), cudaMemcpyDeviceToHost));
  LOOKBACK_CUDA_OK(cudaMemcpy(won.data(), d.flags, kAll * sizeof(int), cudaMemcpyDeviceToHost));
  LOOKBACK_CUDA_OK(cudaMemcpy(&final_word, d.mem, sizeof final_word, cudaMemcpyDeviceToHost));
  int winners = 0;
  for (int i = 0; i < kAll; ++i) {
    if (won[i]) {
      ++winners;
      EXPECT_EQ(final_word, (Word128{std::uint64_t(i) + 1, ~(std::uint64_t(i) + 1)}));
      EXPECT_EQ(seen[i], (Word128{0, 0}));
    } else {
      ASSERT_EQ(seen[i], final_word) << "thread " << i;
    }
  }
  EXPECT_EQ(winners, 1);
}

// Half of the threads store {x, ~x} words (relaxed), the other half load
// (relaxed) and count words whose halves do not belong together (bad) and
// words some writer stored (written: lo != 0, the start word's lo is 0), so
// that no torn read is evidence, not readers that only saw the start.
__global__ void torn(Word128* word, unsigned* bad, unsigned* written, int rounds) {
  const std::uint64_t id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned local_bad = 0, local_written = 0;
  for (int r = 0; r < rounds; ++r) {
    if (id % 2 == 0) {
      const std::uint64_t x = (id << 20) + static_cast<std::uint64_t>(r);
      store128<Order::Relaxed>(word, Word128{x, ~x});
    } else {
      const Word128 w = load128<Order::Relaxed>(word);
      if (w.hi != ~w.lo) ++local_bad;
      if (w.lo != 0) ++local_written;
    }
  }
  if (local_bad) atomicAdd(bad, local_bad);
  if (local_written) atomicAdd(written, local_written);
}

TEST(Atomic128, RelaxedWordsAreNeverTorn) {
  LOOKBACK_REQUIRE_GPU();
  Device d;
  ASSERT_TRUE(d.ok());
  const Word128 start{0, ~std::uint64_t{0}};
  LOOKBACK_CUDA_OK(cudaMemcpy(d.mem, &start, sizeof start, cudaMemcpyHostToDevice));
  LOOKBACK_CUDA_OK(cudaMemset(d.flags, 0, 2 * sizeof(unsigned)));
  auto* counters = reinterpret_cast<unsigned*>(d.flags);
  torn<<<264, 256>>>(d.mem, counters, counters + 1, 200);
  LOOKBACK_CUDA_OK(cudaGetLastError());
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
  unsigned host[2] = {1, 0};  // bad, written
  LOOKBACK_CUDA_OK(cudaMemcpy(host, counters, sizeof host, cudaMemcpyDeviceToHost));
  EXPECT_GT(host[1], 0u) << "no reader saw a stored word";
  EXPECT_EQ(host[0], 0u) << "of " << host[1] << " stored words read";
}

// ---------------------------------------------------------------------------
// Packed128Descriptor of the fallback protocol, for doubles: publish, read
// back (status, epoch, value), monotone CAS, epoch-wrap clear.
// (Protocols reach device code as types, lookback::ProtocolTag: nvcc 13
// mishandles class-type template arguments in namespace-scope code.)
using FallbackTag = lookback::ProtocolTag<lookback::protocol::production("fallback")>;

struct DescriptorResults {
  std::uint32_t tag_after_publish;
  double value_after_publish;
  int cas_on_invalid;
  std::uint32_t tag_after_cas;
  double value_after_cas;
  int cas_on_aggregate;
  std::uint32_t tag_seen_by_failed_cas;
  double value_seen_by_failed_cas;
  std::uint32_t tag_after_failed_cas;
  Word128 after_clear;
};

template <class Tag>
__global__ void descriptor_round_trip(lookback::device::DescriptorStorage storage,
                                      DescriptorResults* r) {
  // The 16-byte descriptor itself, whether or not the library selects it
  // (lookback::device::kPacked128Available).
  using Desc = lookback::device::Packed128Descriptor<Tag::value, double>;
  const Desc desc(storage);
  desc.publish(3, Status::Prefix, -2.75, 5u);
  Word128 w = desc.load(3);
  r->tag_after_publish = Desc::tag(w);
  r->value_after_publish = desc.value(3, w);

  Word128 expected = desc.load(7);  // INVALID, all zero
  r->cas_on_invalid = desc.cas_publish(7, expected, Status::Aggregate, 1e300, 9u);
  w = desc.load(7);
  r->tag_after_cas = Desc::tag(w);
  r->value_after_cas = desc.value(7, w);

  expected = Word128{0, 0};  // stale: the word is AGGREGATE now
  r->cas_on_aggregate = desc.cas_publish(7, expected, Status::Aggregate, 4.0, 9u);
  r->tag_seen_by_failed_cas = Desc::tag(expected);
  r->value_seen_by_failed_cas = desc.value(7, expected);
  r->tag_after_failed_cas = Desc::tag(desc.load(7));

  desc.clear<lookback::protocol::kResetOrder>(3);
  r->after_clear = desc.load(3);
}

TEST(Atomic128, Packed128DescriptorRoundTrip) {
  LOOKBACK_REQUIRE_GPU();
  Device d;
  ASSERT_TRUE(d.ok());
  LOOKBACK_CUDA_OK(cudaMemset(d.mem, 0, kDescriptorBytes));
  descriptor_round_trip<FallbackTag><<<1, 1>>>(lookback::device::DescriptorStorage{d.mem, 32},
                                               reinterpret_cast<DescriptorResults*>(d.out));
  LOOKBACK_CUDA_OK(cudaGetLastError());
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
  DescriptorResults r;
  LOOKBACK_CUDA_OK(cudaMemcpy(&r, d.out, sizeof r, cudaMemcpyDeviceToHost));
  using lookback::protocol::encode_tag;
  EXPECT_EQ(r.tag_after_publish, encode_tag(Status::Prefix, 5u));
  EXPECT_EQ(r.value_after_publish, -2.75);
  EXPECT_EQ(r.cas_on_invalid, 1);
  EXPECT_EQ(r.tag_after_cas, encode_tag(Status::Aggregate, 9u));
  EXPECT_EQ(r.value_after_cas, 1e300);
  EXPECT_EQ(r.cas_on_aggregate, 0);
  EXPECT_EQ(r.tag_seen_by_failed_cas, encode_tag(Status::Aggregate, 9u));
  EXPECT_EQ(r.value_seen_by_failed_cas, 1e300);
  EXPECT_EQ(r.tag_after_failed_cas, encode_tag(Status::Aggregate, 9u));
  EXPECT_EQ(r.after_clear, (Word128{0, 0}));
  // The words are protocol::pack128 words: tag in the low half, value bits
  // in the high half; tile t's word at t * kPackedWordStride, nothing in
  // between.
  constexpr std::size_t kStride = lookback::device::kPackedWordStride;
  unsigned char host[8 * kStride];
  LOOKBACK_CUDA_OK(cudaMemcpy(host, d.mem, sizeof host, cudaMemcpyDeviceToHost));
  const double v = 1e300;
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  Word128 word7;
  std::memcpy(&word7, host + 7 * kStride, sizeof word7);
  EXPECT_EQ(word7, lookback::protocol::pack128(Status::Aggregate, 9u, bits));
  for (std::size_t b = 0; b < sizeof host; ++b)
    if (b % kStride >= sizeof(Word128)) EXPECT_EQ(host[b], 0u) << "byte " << b;
}

// Readers of a Packed128Descriptor that use a word the way the look-back does
// (its status and epoch through Desc::tag, its value through Desc::value, no
// other bit) never see a tag with another publish's value, while writers
// publish words whose value determines their tag. Regression test for ptxas
// narrowing the 16-byte load into a tag load and a value load when bits
// 32..63 were dead (descriptor.cuh, Packed128Descriptor::tag): on the H100
// that tore words and gave wrong scans.
constexpr std::uint32_t kTornWords = 4;

__device__ Status status_for(std::uint64_t v) {
  return (v & 1u) ? Status::Aggregate : Status::Prefix;
}

template <class Tag>
__global__ void descriptor_readers(lookback::device::DescriptorStorage storage, unsigned* bad,
                                   unsigned* seen, int rounds) {
  using Desc = lookback::device::Packed128Descriptor<Tag::value, std::uint64_t>;
  const Desc desc(storage);
  const std::uint64_t id = blockIdx.x * blockDim.x + threadIdx.x;
  const auto t = static_cast<std::uint32_t>(id % kTornWords);
  unsigned local_bad = 0, local_seen = 0;
  for (int r = 0; r < rounds; ++r) {
    if ((id / 32) % 2 == 0) {  // writer warps
      const std::uint64_t v = (id << 32) | (static_cast<std::uint64_t>(r) << 1) | (id & 1u);
      desc.publish(t, status_for(v), v, static_cast<std::uint32_t>(v >> 1));
    } else {  // reader warps
      const typename Desc::Word w = desc.load(t);
      const std::uint32_t tag = Desc::tag(w);
      if (lookback::protocol::tag_status(tag) == Status::Invalid) continue;
      ++local_seen;
      const std::uint64_t v = desc.value(t, w);
      const bool match = lookback::protocol::tag_status(tag) == status_for(v) &&
                         lookback::protocol::tag_epoch(tag) ==
                             (static_cast<std::uint32_t>(v >> 1) & lookback::protocol::kEpochMask);
      if (!match) ++local_bad;
    }
  }
  if (local_bad) atomicAdd(bad, local_bad);
  if (local_seen) atomicAdd(seen, local_seen);
}

TEST(Atomic128, Packed128DescriptorReadsAreNeverTorn) {
  LOOKBACK_REQUIRE_GPU();
  Device d;
  ASSERT_TRUE(d.ok());
  LOOKBACK_CUDA_OK(cudaMemset(d.mem, 0, kDescriptorBytes));
  LOOKBACK_CUDA_OK(cudaMemset(d.flags, 0, 2 * sizeof(unsigned)));
  auto* counters = reinterpret_cast<unsigned*>(d.flags);
  descriptor_readers<FallbackTag>
      <<<528, 256>>>(lookback::device::DescriptorStorage{d.mem, 32}, counters, counters + 1, 2000);
  LOOKBACK_CUDA_OK(cudaGetLastError());
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
  unsigned host[2] = {1, 0};
  LOOKBACK_CUDA_OK(cudaMemcpy(host, counters, sizeof host, cudaMemcpyDeviceToHost));
  EXPECT_GT(host[1], 0u) << "no reader saw a published word";
  EXPECT_EQ(host[0], 0u) << "of " << host[1] << " words read";
}

}  // namespace
