// Host-side sizing of the temp storage (temp_storage.hpp) for every
// descriptor layout (descriptor.cuh): the structure-of-arrays region, the
// capacity derived from a temp-storage size, what a HostMemset launch
// clears, and the 16-byte packed encoding. Pure host code: label `cpu`.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/temp_storage.hpp"
#include "lookback/protocol/catalogue.hpp"

namespace {

namespace dev = lookback::device;
namespace proto = lookback::protocol;
using dev::DescriptorShape;

struct Wide12 {
  std::uint32_t a, b, n;
};
struct alignas(16) Wide32 {
  double x[4];
};

constexpr proto::Protocol kWarp = proto::production("warp-lookback");
constexpr proto::Protocol kOverwritten = proto::find_variant("split-value-overwritten")->protocol;
constexpr proto::Protocol kForcedSplit = proto::find_variant("no-reader-acquire")->protocol;

// The shapes the layouts have: {word bytes, word stride, value bytes, value
// arrays}. Packed words one per 32-byte sector, split tags side by side.
static_assert(dev::kPackedWordStride == 32);
static_assert(dev::descriptor_shape<kWarp, std::uint32_t>() == DescriptorShape{8, 32, 0, 0});
static_assert(dev::descriptor_shape<kWarp, float>() == DescriptorShape{8, 32, 0, 0});
// 5..8-byte values: the 16-byte packed word where enabled, else split.
constexpr DescriptorShape kEight =
    dev::kPacked128Available ? DescriptorShape{16, 32, 0, 0} : DescriptorShape{4, 4, 8, 2};
static_assert(dev::descriptor_shape<kWarp, double>() == kEight);
static_assert(dev::descriptor_shape<kWarp, std::int64_t>() == kEight);
static_assert(dev::descriptor_shape<kWarp, Wide12>() == DescriptorShape{4, 4, 12, 2});
static_assert(dev::descriptor_shape<kWarp, Wide32>() == DescriptorShape{4, 4, 32, 2});
static_assert(dev::descriptor_shape<kForcedSplit, std::uint32_t>() == DescriptorShape{4, 4, 4, 2});
static_assert(dev::descriptor_shape<kForcedSplit, double>() == DescriptorShape{4, 4, 8, 2});
static_assert(dev::descriptor_shape<kOverwritten, std::uint32_t>() == DescriptorShape{4, 4, 4, 1});

const DescriptorShape kShapes[] = {
    {8, 32, 0, 0}, {16, 32, 0, 0}, {8, 8, 0, 0}, {4, 4, 4, 2}, {4, 4, 8, 2},
    {4, 4, 12, 2}, {4, 4, 32, 2},  {4, 4, 4, 1}, {4, 4, 1, 2},
};

TEST(TempStorage, SplitArraysAreLineAlignedAndDisjoint) {
  for (const DescriptorShape& s : kShapes) {
    for (std::uint64_t tiles : {1ull, 31ull, 32ull, 33ull, 1000ull, 123457ull}) {
      const std::uint64_t cap = dev::capacity_for_tiles(tiles);
      EXPECT_EQ(cap % 32, 0u);
      EXPECT_GE(cap, tiles);
      EXPECT_LT(cap, tiles + 32);
      // words first, from the region's start; then each value array.
      std::uint64_t end = cap * s.word_stride;
      for (int k = 0; k < s.value_arrays; ++k) {
        const std::uint64_t at = dev::value_array_offset(cap, s, k);
        EXPECT_EQ(at % dev::kLineBytes, 0u);
        EXPECT_GE(at, end) << "array " << k << " overlaps the one before";
        // No value shares a line with a word.
        EXPECT_GE(at,
                  (cap * s.word_stride + dev::kLineBytes - 1) / dev::kLineBytes * dev::kLineBytes);
        end = at + cap * s.value_bytes;
      }
      EXPECT_GE(dev::region_bytes(cap, s), end);
      EXPECT_LT(dev::region_bytes(cap, s), end + dev::kLineBytes);
    }
  }
}

TEST(TempStorage, SplitTagsFillLines) {
  // 32 tags of 4 bytes: one line per group of 32 tiles.
  const DescriptorShape u32{4, 4, 4, 2};
  EXPECT_EQ(dev::value_array_offset(32, u32, 0), 128u);
  EXPECT_EQ(dev::value_array_offset(32, u32, 1), 256u);
  EXPECT_EQ(dev::region_bytes(32, u32), 384u);
  EXPECT_EQ(dev::region_bytes(64, u32), 768u);
}

TEST(TempStorage, CapacityOfTheQueriedSizeCoversTheLaunch) {
  for (const DescriptorShape& s : kShapes) {
    for (std::uint64_t tiles : {0ull, 1ull, 32ull, 33ull, 4097ull, 1000003ull}) {
      const std::size_t bytes = dev::temp_storage_bytes(tiles, s);
      // Exactly the rounded-up tile count: every group adds at least a line
      // of words or values, so one more group would not fit.
      EXPECT_EQ(dev::descriptor_capacity(bytes, s), dev::capacity_for_tiles(tiles))
          << "word " << s.word_bytes << " every " << s.word_stride << ", value " << s.value_bytes
          << ", tiles " << tiles;
      // A larger allocation never holds fewer.
      EXPECT_GE(dev::descriptor_capacity(bytes + 4096, s), dev::capacity_for_tiles(tiles));
      EXPECT_GE(dev::descriptor_capacity(bytes * 3, s), dev::capacity_for_tiles(tiles));
    }
  }
  EXPECT_EQ(dev::descriptor_capacity(0, DescriptorShape{4, 4, 4, 2}), 0u);
  EXPECT_EQ(dev::descriptor_capacity(dev::kHeaderBytes, DescriptorShape{4, 4, 4, 2}), 0u);
  // Capacities stay 32-bit however large the allocation.
  EXPECT_EQ(dev::descriptor_capacity(std::size_t{1} << 50, DescriptorShape{8, 32, 0, 0}),
            dev::kMaxDescriptorCapacity);
}

TEST(TempStorage, HostMemsetClearsHeaderAndWords) {
  for (const DescriptorShape& s : kShapes) {
    for (std::uint64_t tiles : {1ull, 33ull, 5000ull}) {
      const std::size_t cleared = dev::cleared_bytes(tiles, s);
      EXPECT_EQ(cleared, dev::kHeaderBytes + tiles * s.word_stride);
      // Inside the storage, and never into the value arrays.
      EXPECT_LE(cleared + dev::kTempAlignment, dev::temp_storage_bytes(tiles, s));
      if (s.value_arrays > 0)
        EXPECT_LE(cleared - dev::kHeaderBytes,
                  dev::value_array_offset(dev::capacity_for_tiles(tiles), s, 0));
    }
  }
}

TEST(TempStorage, PackedWordsTakeASectorEach) {
  // 8- and 16-byte packed words, as the kernels' descriptors declare them
  // (u32 and u64 under the packed coarsened protocol): 32 descriptors take
  // 1 KiB, four lines, so tile t's word starts at 32 t and no two words
  // share a 32-byte sector.
  constexpr lookback::protocol::Protocol kPacked = lookback::protocol::production("coarsened");
  for (const DescriptorShape& s : {dev::descriptor_shape<kPacked, std::uint32_t>(),
                                   dev::descriptor_shape<kPacked, std::uint64_t>()}) {
    EXPECT_EQ(s.value_arrays, 0);
    EXPECT_EQ(s.word_stride, 32u);
    EXPECT_EQ(dev::region_bytes(32, s), 1024u);
    EXPECT_EQ(dev::cleared_bytes(3, s), dev::kHeaderBytes + 96u);
  }
  EXPECT_EQ((dev::descriptor_shape<kPacked, std::uint32_t>().word_bytes), 8u);
  EXPECT_EQ((dev::descriptor_shape<kPacked, std::uint64_t>().word_bytes), 16u);
}

TEST(TempStorage, HeaderAlignsToALine) {
  alignas(256) static unsigned char buffer[1024];
  for (std::size_t off = 0; off < 256; off += 8) {
    dev::Header* h = dev::header_of(buffer + off);
    const auto at = reinterpret_cast<std::uintptr_t>(h);
    EXPECT_EQ(at % dev::kLineBytes, 0u);
    EXPECT_LT(at - reinterpret_cast<std::uintptr_t>(buffer + off), dev::kTempAlignment);
    const dev::DescriptorStorage d = dev::descriptors_of(h, 64);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(d.base) % dev::kLineBytes, 0u);
    EXPECT_EQ(d.capacity, 64u);
  }
}

TEST(TempStorage, Packed128Encoding) {
  const double v = -0.1;
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const proto::Packed128 w = proto::pack128(proto::Status::Aggregate, 12345u, bits);
  EXPECT_EQ(proto::packed128_value(w), bits);
  EXPECT_EQ(proto::tag_status(proto::packed128_tag(w)), proto::Status::Aggregate);
  EXPECT_EQ(proto::tag_epoch(proto::packed128_tag(w)), 12345u);
  EXPECT_EQ(w.lo >> 32, 0u);  // padding
  EXPECT_EQ(proto::packed128_tag(w), proto::encode_tag(proto::Status::Aggregate, 12345u));
  // The all-zero word is INVALID at epoch 0.
  EXPECT_EQ(proto::tag_status(proto::packed128_tag(proto::Packed128{0, 0})),
            proto::Status::Invalid);
  // Tag at the lower address, as ld.b128 / mov.b128 {lo, hi} see it.
  unsigned char raw[16];
  std::memcpy(raw, &w, sizeof raw);
  std::uint32_t tag;
  std::memcpy(&tag, raw, sizeof tag);
  EXPECT_EQ(tag, proto::encode_tag(proto::Status::Aggregate, 12345u));
}

}  // namespace
