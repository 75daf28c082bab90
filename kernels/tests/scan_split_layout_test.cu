// The split layout's structure of arrays (temp_storage.hpp) under the
// stateless API (Reset::HostMemset): one temp allocation reused by scans of
// many sizes, whose temp_storage_bytes (and so capacity, and so where the
// value arrays lie) differ from call to call, with every byte of the
// allocation poisoned before each call. Only the header and the tags are
// cleared by the host; values are written before their tag, so the poison
// in the value arrays must never show. Types: Wide12 (12 bytes, split by
// size), and u32 / f64 under protocols that force the split layout.
#include <algorithm>

#include "scan_test_util.hpp"

namespace lt = lookback::testing;
using lt::Kind;

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
void reuse_with_poison() {
  const std::int64_t tile = lookback::detail::tile_items<Cfg, T>();
  const std::int64_t sizes[] = {(1 << 20) + 9, 7, 33 * tile + 1, 2 * tile, (1 << 20) + 9,
                                tile + 1,      1, 95 * tile - 3, 40 * tile};
  std::int64_t cap = 16;  // buffers for the largest size (tile sizes differ by policy)
  for (std::int64_t n : sizes)
    cap = std::max(cap, n + 16);
  std::size_t largest = 0;
  const cudaError_t query =
      lt::device_scan<Cfg, T>(nullptr, largest, nullptr, nullptr, cap, Kind::Inclusive);
  ASSERT_EQ(query, cudaSuccess) << lookback::last_error_message();
  lt::DeviceBuffer<unsigned char> temp(largest);
  lt::DeviceBuffer<T> a(cap + 4), b(cap + 4);
  ASSERT_TRUE(temp && a && b);
  int launch = 0;
  for (std::int64_t n : sizes) {
    const Kind kind = launch % 2 ? Kind::Exclusive : Kind::Inclusive;
    const bool in_place = launch % 3 == 2;
    const std::vector<T> in = lt::make_input<T>(n, 500 + launch);
    const std::vector<T> want = lt::reference_scan(in, kind);
    T* d_out = in_place ? a.get() : b.get();
    LOOKBACK_CUDA_OK(cudaMemcpy(a.get(), in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    // Every other call passes the exact size it queried, the others the
    // whole allocation: the capacity, and the value arrays, move.
    std::size_t bytes = 0;
    ASSERT_EQ(lt::device_scan<Cfg>(nullptr, bytes, a.get(), d_out, n, kind), cudaSuccess);
    if (launch % 2 == 1) bytes = largest;
    LOOKBACK_CUDA_OK(cudaMemset(temp.get(), 0xA5, largest));
    ASSERT_EQ(lt::device_scan<Cfg>(temp.get(), bytes, a.get(), d_out, n, kind), cudaSuccess)
        << lookback::last_error_message();
    std::vector<T> got(in.size());
    LOOKBACK_CUDA_OK(cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
    ASSERT_TRUE(lt::equal_exactly(want, got, tile))
        << "call " << launch << ", n = " << n << ", " << lt::name(kind)
        << (in_place ? ", in place" : "") << ", temp_storage_bytes " << bytes;
    ++launch;
  }
}

}  // namespace

#define LOOKBACK_SPLIT_TESTS(Name, Cfg)                   \
  TEST(SplitLayout, Name##Wide12) {                       \
    LOOKBACK_REQUIRE_GPU();                               \
    reuse_with_poison<Cfg, lt::Wide12>();                 \
  }                                                       \
  TEST(SplitLayout, Name##U32Forced) {                    \
    LOOKBACK_REQUIRE_GPU();                               \
    reuse_with_poison<ForcedSplit<Cfg>, std::uint32_t>(); \
  }                                                       \
  TEST(SplitLayout, Name##F64Forced) {                    \
    LOOKBACK_REQUIRE_GPU();                               \
    reuse_with_poison<ForcedSplit<Cfg>, double>();        \
  }

LOOKBACK_SPLIT_TESTS(WarpLookback, lookback::WarpLookback)
LOOKBACK_SPLIT_TESTS(Coarsened, lookback::Coarsened)
LOOKBACK_SPLIT_TESTS(Fallback, lookback::Fallback)
