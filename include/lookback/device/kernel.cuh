// The scan kernel: one block per tile, the tile algorithm chosen by the agent
// type. Templated on a type (the agent wraps ProtocolTag<P>), never on a
// Protocol value directly (nvcc 13 miscompiles that for __global__).
#pragma once

namespace lookback::device {

template <class Agent>
__global__ void __launch_bounds__(Agent::kThreads, Agent::kMinBlocks)
    scan_kernel(const typename Agent::Params params) {
  Agent::run(params);
}

}  // namespace lookback::device
