// The shared protocol spec and catalogue: encodings round-trip and the
// catalogue is well formed (unique names, one flaw per mutant, a property
// for every mutant and none for production variants).
#include "lookback/protocol/catalogue.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {
using namespace lookback::protocol;

TEST(ProtocolSpec, TagRoundTripsStatusAndEpoch) {
  for (Status s : {Status::Invalid, Status::Aggregate, Status::Prefix}) {
    for (std::uint32_t e : {0u, 1u, 12345u, kEpochMask}) {
      const std::uint32_t tag = encode_tag(s, e);
      EXPECT_EQ(tag_status(tag), s);
      EXPECT_EQ(tag_epoch(tag), e);
    }
  }
}

TEST(ProtocolSpec, ZeroWordIsInvalidAtEpochZero) {
  EXPECT_EQ(tag_status(0), Status::Invalid);
  EXPECT_EQ(effective_status(0, 0, Reset::Epoch), Status::Invalid);
}

TEST(ProtocolSpec, Packed64KeepsValueBits) {
  const std::uint64_t w = pack64(Status::Prefix, 77, 0xdeadbeefu);
  EXPECT_EQ(packed64_value(w), 0xdeadbeefu);
  EXPECT_EQ(tag_status(packed64_tag(w)), Status::Prefix);
  EXPECT_EQ(tag_epoch(packed64_tag(w)), 77u);
}

TEST(ProtocolSpec, StaleEpochReadsAsInvalidOnlyUnderEpochReset) {
  const std::uint32_t tag = encode_tag(Status::Prefix, 5);
  EXPECT_EQ(effective_status(tag, 5, Reset::Epoch), Status::Prefix);
  EXPECT_EQ(effective_status(tag, 6, Reset::Epoch), Status::Invalid);
  EXPECT_EQ(effective_status(tag, 6, Reset::HostMemset), Status::Prefix);
}

TEST(ProtocolSpec, EpochWrapsAtItsWidth) {
  EXPECT_EQ(next_epoch(0, 1), 1u);
  EXPECT_EQ(next_epoch(1, 1), 0u);
  EXPECT_EQ(next_epoch(kEpochMask - 1, kEpochBits), kEpochMask);
  EXPECT_EQ(next_epoch(kEpochMask, kEpochBits), 0u);
}

// Epochs must fit the tag's field, or two epochs 2^30 apart would share
// descriptors; a protocol without the epoch reset has no epochs to fit.
TEST(ProtocolSpec, EpochBitsMustFitTheTag) {
  Protocol p;
  p.reset = Reset::Epoch;
  for (int bits : {1, 2, kEpochBits}) {
    p.epoch_bits = bits;
    EXPECT_TRUE(epoch_fits_tag(p)) << bits;
  }
  for (int bits : {-1, 0, kEpochBits + 1, 32}) {
    p.epoch_bits = bits;
    EXPECT_FALSE(epoch_fits_tag(p)) << bits;
  }
  p.reset = Reset::None;
  EXPECT_TRUE(epoch_fits_tag(p));
  for (const auto& v : kCatalogue)
    EXPECT_TRUE(epoch_fits_tag(v.protocol)) << v.name;
}

// The last drawer hands over the next epoch, or this one under the flaw.
TEST(ProtocolSpec, HandOverStoresTheNextEpoch) {
  Protocol p;
  EXPECT_EQ(handed_over_epoch(p, 5), 6u);
  EXPECT_EQ(handed_over_epoch(p, kEpochMask - 1), kEpochMask);
  p.flaw = Flaw::HandOverKeepsEpoch;
  EXPECT_EQ(handed_over_epoch(p, 5), 5u);
  EXPECT_EQ(find_variant("hand-over-keeps-epoch")->protocol.flaw, Flaw::HandOverKeepsEpoch);
}

TEST(Catalogue, NamesAreUniqueAndFindable) {
  std::set<std::string> names;
  for (const auto& v : kCatalogue) {
    EXPECT_TRUE(names.insert(v.name).second) << "duplicate " << v.name;
    const auto found = find_variant(v.name);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->protocol, v.protocol);
  }
  EXPECT_FALSE(find_variant("no-such-variant").has_value());
}

TEST(Catalogue, HasTheThreeProductionKernelsAndAtLeastTwelveMutants) {
  int mutants = 0;
  for (const auto& v : kCatalogue)
    mutants += v.kind == Kind::Mutant;
  EXPECT_GE(mutants, 12);
  for (const char* name : {"warp-lookback", "coarsened", "fallback"}) {
    const auto v = find_variant(name);
    ASSERT_TRUE(v.has_value()) << name;
    EXPECT_EQ(v->kind, Kind::Production);
  }
}

TEST(Catalogue, MutantsNameAPropertyAndProductionNone) {
  for (const auto& v : kCatalogue) {
    if (v.kind == Kind::Production) {
      EXPECT_EQ(v.expected, Property::None) << v.name;
      EXPECT_EQ(v.protocol.flaw, Flaw::None) << v.name;
    } else {
      EXPECT_NE(v.expected, Property::None) << v.name;
    }
  }
}

TEST(Catalogue, EveryMutantDiffersFromTheProductionVariants) {
  for (const auto& m : kCatalogue) {
    if (m.kind != Kind::Mutant) continue;
    for (const auto& p : kCatalogue)
      if (p.kind == Kind::Production) {
        EXPECT_NE(m.protocol, p.protocol) << m.name << " vs " << p.name;
      }
  }
}

TEST(Catalogue, FallbackVariantsClaimTerminationWithoutFairness) {
  EXPECT_EQ(find_variant("fallback")->claims, Progress::Unfair);
  EXPECT_TRUE(bounded_wait(find_variant("fallback")->protocol));
  EXPECT_FALSE(bounded_wait(find_variant("warp-lookback")->protocol));
  EXPECT_FALSE(bounded_wait(find_variant("fallback-unbounded-spin")->protocol));
}

// relaxed_packed_publish relaxes the packed word's publish only: the split
// layout's tag still orders the value word written before it, and a
// fallback's CAS keeps its own order. Every production variant with a
// release publish sets it (since 2026-11-27 the one-tile ones too).
TEST(ProtocolSpec, RelaxedPackedPublishRelaxesOnlyPackedWords) {
  for (const char* name :
       {"warp-lookback", "coarsened", "pipelined", "fallback", "fallback-inplace"}) {
    const Protocol p = find_variant(name)->protocol;
    EXPECT_TRUE(p.relaxed_packed_publish) << name;
    EXPECT_EQ(publish_order_on(p, Layout::Packed), Order::Relaxed) << name;
    EXPECT_EQ(publish_order_on(p, Layout::Split), Order::Release) << name;
    EXPECT_EQ(fallback_cas_order(p), Order::AcqRel) << name;
  }
  // The flag alone decides: cleared, a packed publish takes publish_order.
  Protocol release = find_variant("warp-lookback")->protocol;
  release.relaxed_packed_publish = false;
  EXPECT_EQ(publish_order_on(release, Layout::Packed), Order::Release);
  EXPECT_EQ(publish_order_on(find_variant("fenced-lookback")->protocol, Layout::Packed),
            Order::Relaxed);
}

// The kernels take the protocol as a template parameter: it must be usable
// in constant expressions.
static_assert(production("warp-lookback").window == 32);
static_assert(production("fallback").fallback);
static_assert(data_order(production("fallback-inplace")) == Order::Relaxed);
static_assert(data_order(production("warp-lookback")) == Order::Weak);
static_assert(input_load_order(production("fallback-inplace")) == Order::Weak);
// Deterministic kernels fold left with a second pass holding 4 windows;
// the default kernels and the flawed fold have no second pass.
static_assert(has_second_pass(production("pipelined", true)));
static_assert(held_windows(production("pipelined", true)) == 4);
static_assert(!has_second_pass(production("pipelined")) &&
              held_windows(production("pipelined")) == 0);
static_assert(!has_second_pass(find_variant("fold-without-second-pass")->protocol));

// The in-place fallback's output fence: a persistent block takes it before
// the outputs of its tiles 0, 2, 4, ... (each covers the next tile too); a
// one-tile block before every output; variants without it never.
TEST(ProtocolSpec, OutputFenceBeforeEverySecondOutputOfAPersistentBlock) {
  const Protocol inplace = production("fallback-inplace");
  ASSERT_TRUE(persistent(inplace));
  ASSERT_EQ(output_fence(inplace), Fence::AcqRel);
  for (long long k = 0; k < 6; ++k)
    EXPECT_EQ(output_fence_before(inplace, k), k % 2 == 0) << "tile " << k;
  Protocol one_tile = inplace;
  one_tile.tiles_per_block = 1;
  for (long long k = 0; k < 3; ++k)
    EXPECT_TRUE(output_fence_before(one_tile, k)) << "tile " << k;
  for (const char* name : {"warp-lookback", "pipelined", "fallback"})
    for (long long k = 0; k < 3; ++k)
      EXPECT_FALSE(output_fence_before(find_variant(name)->protocol, k)) << name << ", tile " << k;
}

// The mutant of that rule: the same fence on the other tiles, so a block's
// first output is fenced by nothing (the model kills it, catalogue_verdict).
TEST(ProtocolSpec, FenceOnOddTilesMutantLeavesEveryBlocksFirstOutputUnfenced) {
  const Protocol odd = find_variant("fallback-inplace-fence-odd-tiles")->protocol;
  ASSERT_TRUE(persistent(odd));
  ASSERT_EQ(output_fence(odd), Fence::AcqRel);
  for (long long k = 0; k < 6; ++k)
    EXPECT_EQ(output_fence_before(odd, k), k % 2 == 1) << "tile " << k;
  Protocol fixed = odd;
  fixed.flaw = Flaw::None;
  EXPECT_EQ(fixed, production("fallback-inplace"));
}

}  // namespace
