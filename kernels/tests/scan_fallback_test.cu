// The fallback variant against the CPU reference: every value type
// (int32, uint32, int64, uint64, float, double, Affine under ComposeAffine),
// inclusive and exclusive, sizes around the tile boundaries and large ones,
// in place, out of place and misaligned by 1..3 elements.
#include "scan_test_util.hpp"

namespace {
// In place the fallback's output stores and its reads of other tiles' input
// are strong, but a tile's reads of its own input stay weak
// (protocol::input_load_order), so its staged items still move with
// cp.async: with strong ones it ran at 74% (u32) and 65% (u64) of pipelined
// (bench/results/fallback/h100_inplace_probe.log).
template <class T>
using InPlaceVectorAgent =
    lookback::detail::agent_t<lookback::Fallback, lookback::Fallback::protocol_in_place, false,
                              lookback::device::Access::Vector, T, lookback::Sum>;
static_assert(lookback::protocol::data_order(lookback::Fallback::protocol_in_place) ==
              lookback::protocol::Order::Relaxed);
static_assert(InPlaceVectorAgent<std::uint32_t>::kAsyncStage);
static_assert(InPlaceVectorAgent<std::uint64_t>::kAsyncStage);
}  // namespace

LOOKBACK_SCAN_MATRIX(FallbackScan, ::lookback::Fallback);
