// Links the coarsened variant's kernels (gpu_scan_coarsened_*.cu) into this property
// binary: see link_variant() in gpu_scan_runner.hpp.
#include "gpu_scan_runner.hpp"

namespace lookback::proptest {
namespace {

[[maybe_unused]] const bool kLinked =
    link_variant(VariantKind::Coarsened, {&run_coarsened_ops, &run_coarsened_plain});

}  // namespace
}  // namespace lookback::proptest
