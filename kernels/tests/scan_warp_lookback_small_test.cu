// warp-lookback on small tiles (lookback::WarpLookbackSmall, the default's
// small half) against the CPU reference: every value type (int32, uint32,
// int64, uint64, float, double, Affine under ComposeAffine), inclusive and
// exclusive, sizes around the tile boundaries and large ones (past the 1024
// tiles from which its look-back delay applies), in place, out of place and
// misaligned by 1..3 elements.
#include "scan_test_util.hpp"

LOOKBACK_SCAN_MATRIX(WarpLookbackSmallScan, ::lookback::WarpLookbackSmall);
