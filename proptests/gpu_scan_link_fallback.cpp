// Links the fallback variant's kernels (gpu_scan_fallback_*.cu) into this property
// binary: see link_variant() in gpu_scan_runner.hpp.
#include "gpu_scan_runner.hpp"

namespace lookback::proptest {
namespace {

[[maybe_unused]] const bool kLinked =
    link_variant(VariantKind::Fallback, {&run_fallback_ops, &run_fallback_plain});

}  // namespace
}  // namespace lookback::proptest
