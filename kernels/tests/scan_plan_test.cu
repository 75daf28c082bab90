// Persistent temp storage (ScanPlan, Reset::Epoch): many launches of
// different sizes, kinds and placements on one plan must each be exact
// (stale descriptors of earlier launches read as INVALID), also across
// epoch wraps (a protocol with a 2-bit epoch wraps every 4 launches). Each
// layout: 64-bit packed (u32), 128-bit packed (f64, Affine), split (the
// 12-byte Wide12, and u32 / f64 with the split layout forced), whose tags,
// aggregates and inclusive values lie in separate arrays placed by the
// plan's capacity, the same for launches of every size.
#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lt::Kind;
using lt::TwoBitEpoch;

namespace {

template <class Cfg>
struct ForcedSplit : Cfg {
  static constexpr lookback::protocol::Protocol split(lookback::protocol::Protocol p) {
    p.layout = lookback::protocol::Layout::Split;
    return p;
  }
  static constexpr lookback::protocol::Protocol protocol = split(Cfg::protocol);
  static constexpr lookback::protocol::Protocol protocol_in_place = split(Cfg::protocol_in_place);
};

template <class Cfg, class T>
void many_launches() {
  const std::int64_t tile = lookback::detail::tile_items<Cfg, T>();
  const std::int64_t sizes[] = {
      (1 << 21) + 9, 5,       3 * tile + 1, (1 << 21) - 7, 1,       tile, (1 << 21) + 9,
      2 * tile - 1,  1 << 20, 33,           (1 << 21),     tile + 1};
  const std::int64_t cap = (1 << 21) + 16;
  lookback::ScanPlan<T, Cfg> plan;
  ASSERT_EQ(plan.init(cap), cudaSuccess) << lookback::last_error_message();
  lt::DeviceBuffer<T> a(cap + 4), b(cap + 4);
  ASSERT_TRUE(a && b);
  int launch = 0;
  for (int round = 0; round < 2; ++round) {
    for (std::int64_t n : sizes) {
      const Kind kind = (launch % 3 == 1) ? Kind::Exclusive : Kind::Inclusive;
      const bool in_place = launch % 2 == 1;
      const std::vector<T> in = lt::make_input<T>(n, 1000 + launch);
      const std::vector<T> want = lt::reference_scan(in, kind);
      // Misaligned by one item (the scalar path) on launches 2 and 3 of every
      // 4: out of place and in place.
      T* d_in = a.get() + ((launch / 2) % 2);
      T* d_out = in_place ? d_in : b.get();
      LOOKBACK_CUDA_OK(cudaMemcpy(d_in, in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
      ASSERT_EQ(lt::plan_scan(plan, d_in, d_out, n, kind), cudaSuccess)
          << lookback::last_error_message();
      std::vector<T> got(in.size());
      LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
      ASSERT_TRUE(lt::equal_exactly(want, got, tile))
          << "launch " << launch << ", n = " << n << ", " << lt::name(kind)
          << (in_place ? ", in place" : "");
      ++launch;
    }
  }
}

}  // namespace

#define LOOKBACK_PLAN_TESTS(Name, Cfg)                      \
  TEST(ScanPlan, Name##U32) {                               \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, std::uint32_t>();                    \
  }                                                         \
  TEST(ScanPlan, Name##F64) {                               \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, double>();                           \
  }                                                         \
  TEST(ScanPlan, Name##Affine) {                            \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, lookback::Affine>();                 \
  }                                                         \
  TEST(ScanPlan, Name##U32EpochWraps) {                     \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<TwoBitEpoch<Cfg>, std::uint32_t>();       \
  }                                                         \
  TEST(ScanPlan, Name##AffineEpochWraps) {                  \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<TwoBitEpoch<Cfg>, lookback::Affine>();    \
  }                                                         \
  TEST(ScanPlan, Name##Wide12Split) {                       \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, lt::Wide12>();                       \
  }                                                         \
  TEST(ScanPlan, Name##Wide12SplitEpochWraps) {             \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<TwoBitEpoch<Cfg>, lt::Wide12>();          \
  }                                                         \
  TEST(ScanPlan, Name##U32ForcedSplit) {                    \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<ForcedSplit<Cfg>, std::uint32_t>();       \
  }                                                         \
  TEST(ScanPlan, Name##F64ForcedSplitEpochWraps) {          \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<TwoBitEpoch<ForcedSplit<Cfg>>, double>(); \
  }                                                         \
  TEST(ScanPlan, Name##U16) {                               \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, std::uint16_t>();                    \
  }                                                         \
  TEST(ScanPlan, Name##U8) {                                \
    LOOKBACK_REQUIRE_GPU();                                 \
    many_launches<Cfg, std::uint8_t>();                     \
  }

// U16 and U8: 1- and 2-byte values, aligned and misaligned (the scalar
// path), in place and out of place, inclusive and exclusive (coarsened is
// their DefaultConfig). Until 2026-11-27 the scalar path of coarsened,
// pipelined and fallback did not compile for them (over the agent's 64
// chunks a thread; policy.hpp).
LOOKBACK_PLAN_TESTS(WarpLookback, lookback::WarpLookback)
LOOKBACK_PLAN_TESTS(Coarsened, lookback::Coarsened)
LOOKBACK_PLAN_TESTS(Pipelined, lookback::Pipelined)
LOOKBACK_PLAN_TESTS(Fallback, lookback::Fallback)
