// Kernels of the GPU properties: the coarsened variant with its default tuning,
// every value type and operator (see gpu_scan_runner.cuh).
#include "gpu_scan_runner.cuh"

namespace lookback::proptest {

std::string run_coarsened_ops(const ScanCase& c, Pool& pool) {
  return run_any_op<DefaultConfig<VariantKind::Coarsened>>(c, pool);
}

}  // namespace lookback::proptest
