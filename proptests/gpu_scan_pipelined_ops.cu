// Kernels of the GPU properties: the pipelined variant with its default tuning,
// every value type and operator (see gpu_scan_runner.cuh).
#include "gpu_scan_runner.cuh"

namespace lookback::proptest {

std::string run_pipelined_ops(const ScanCase& c, Pool& pool) {
  return run_any_op<DefaultConfig<VariantKind::Pipelined>>(c, pool);
}

}  // namespace lookback::proptest
