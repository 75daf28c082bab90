// The pipelined variant (persistent blocks holding two tiles) against the
// CPU reference: every value type (int32, uint32, int64, uint64, float,
// double, Affine under ComposeAffine), inclusive and exclusive, sizes around
// the tile boundaries and large ones, in place, out of place and misaligned
// by 1..3 elements. Its own cases: scan_persistent_test.
#include "scan_test_util.hpp"

LOOKBACK_SCAN_MATRIX(PipelinedScan, ::lookback::Pipelined);
