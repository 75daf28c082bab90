// Links the warp-lookback variant's kernels (gpu_scan_warp_*.cu) into this property
// binary: see link_variant() in gpu_scan_runner.hpp.
#include "gpu_scan_runner.hpp"

namespace lookback::proptest {
namespace {

[[maybe_unused]] const bool kLinked =
    link_variant(VariantKind::WarpLookback, {&run_warp_ops, &run_warp_plain});

}  // namespace
}  // namespace lookback::proptest
