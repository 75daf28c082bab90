// Kernels of the GPU properties: the pipelined variant in deterministic mode and
// with the small and delayed tile policies, plain operator (see
// gpu_scan_runner.cuh).
#include "gpu_scan_runner.cuh"

namespace lookback::proptest {

std::string run_pipelined_plain(const ScanCase& c, Pool& pool) {
  return run_plain_configs<VariantKind::Pipelined>(c, pool);
}

}  // namespace lookback::proptest
