// The kernel of catalogue entry LOOKBACK_STRESS_ENTRY (one translation unit
// per entry, so the build parallelises; stress/CMakeLists.txt compiles this
// file once per entry).
#include <algorithm>
#include <cstdint>
#include <string>

#include "lookback/device/dispatch.cuh"
#include "lookback/ops.hpp"
#include "lookback/protocol/catalogue.hpp"
#include "stress/entry.hpp"

#ifndef LOOKBACK_STRESS_ENTRY
#error "compile with -DLOOKBACK_STRESS_ENTRY=<catalogue index>"
#endif

namespace lookback::stress {
namespace {

constexpr int kIndex = LOOKBACK_STRESS_ENTRY;
constexpr protocol::NamedVariant kEntry = protocol::kCatalogue[kIndex];
constexpr protocol::Protocol kProtocol = kEntry.protocol;

// The tile algorithm: the fallback family, "coarsened" and the persistent
// entries ("pipelined" and its mutant) run on the striped (coarsened,
// vectorised) agent; everything else, the warp-lookback mutants included, on
// the warp look-back agent (CUB block primitives; its tiles are smaller than
// coarsened's, so more tiles and more look-back traffic per launch). Aligned
// buffers only: no scalar path.
constexpr bool kStriped = kProtocol.fallback || protocol::persistent(kProtocol) ||
                          std::string_view(kEntry.name).starts_with("coarsened") ||
                          std::string_view(kEntry.name) == "fenced-lookback";
// The fallback family runs with the fallback's own tuning, as in production.
constexpr Variant kVariant = kProtocol.fallback                ? Variant::Fallback
                             : protocol::persistent(kProtocol) ? Variant::Pipelined
                             : kStriped                        ? Variant::Coarsened
                                                               : Variant::WarpLookback;
using Config = ScanConfig<kVariant, detail::default_policy_t<kVariant>,
                          /*deterministic=*/false, /*instrumented=*/true, /*scalar_path=*/false>;
using Desc = device::Descriptor<kProtocol, std::uint32_t>;

std::size_t temp_bytes(std::int64_t n) {
  std::size_t bytes = 0;
  detail::scan_with_protocol<Config, kProtocol, false, std::uint32_t>(
      nullptr, bytes, nullptr, nullptr, n, Sum{}, 0u, nullptr, Options{});
  return bytes;
}

int run(void* temp, std::size_t bytes, const std::uint32_t* in, std::uint32_t* out, std::int64_t n,
        const device::Perturbation& perturb, std::uint32_t watchdog, CUstream_st* stream,
        std::string* message) {
  Options o;
  o.watchdog_rounds = watchdog;
  o.check_errors = false;  // the harness reads the error flag itself, asynchronously
  o.perturb = perturb;
  const cudaError_t e = detail::scan_with_protocol<Config, kProtocol, false, std::uint32_t>(
      temp, bytes, in, out, n, Sum{}, 0u, stream, o);
  if (e != cudaSuccess && message) *message = last_error_message();
  return static_cast<int>(e);
}

// (A template on the protocol value, like detail::scan_with_protocol: nvcc
// 13 cannot name a kernel or an agent with a Protocol argument from a
// non-template host function.)
template <class Cfg, protocol::Protocol P>
int occupancy() {
  using A = detail::agent_t<Cfg, P, false, device::Access::Vector, std::uint32_t, Sum>;
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, device::scan_kernel<A>, A::kThreads,
                                                    0) != cudaSuccess)
    return 0;
  return blocks;
}
int blocks_per_sm() {
  return occupancy<Config, kProtocol>();
}

// The status each tile's owner publishes last: PREFIX, except for tile 0,
// which publishes once (protocol::first_publish_status).
__device__ protocol::Status last_owner_status(std::uint32_t tile) {
  return tile == 0 ? protocol::first_publish_status(kProtocol, 0) : protocol::Status::Prefix;
}

__global__ void final_state_kernel(const device::Header* header,
                                   device::DescriptorStorage descriptors, std::uint32_t num_tiles,
                                   std::uint32_t* slot) {
  // A launch that gave up (watchdog, ticket overflow) leaves tiles unfinished.
  if (header->error != 0) return;
  // The harness starts from zeroed storage, so a correct launch ends at
  // epoch 0 only where its epoch wrapped, and then every descriptor was
  // cleared. The two flaws that leave epoch-0 descriptors behind are checked.
  if constexpr (kProtocol.reset == protocol::Reset::Epoch &&
                kProtocol.flaw != protocol::Flaw::EpochWrapNotCleared &&
                kProtocol.flaw != protocol::Flaw::HandOverKeepsEpoch) {
    if (device::draw_epoch(header->draw) == 0) return;
  }
  const Desc desc(descriptors);
  for (std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < num_tiles;
       t += gridDim.x * blockDim.x) {
    const protocol::Status s = protocol::tag_status(Desc::tag(desc.load(t)));
    if (static_cast<int>(s) < static_cast<int>(last_owner_status(t))) {
      atomicAdd(&slot[0], 1u);
      atomicMax(&slot[1], encode_regression(t, static_cast<std::uint32_t>(s)));
    }
  }
}

int check_final(void* temp, std::size_t temp_bytes, std::int64_t n, std::uint32_t* slot,
                CUstream_st* stream) {
  const auto tiles =
      static_cast<std::uint32_t>((n + detail::tile_items<Config, std::uint32_t>() - 1) /
                                 detail::tile_items<Config, std::uint32_t>());
  device::Header* header = device::header_of(temp);
  const int blocks = static_cast<int>(std::min<std::uint32_t>((tiles + 255) / 256, 64));
  // The same capacity (and so the same descriptor placement) as the scan's.
  const device::DescriptorStorage descriptors =
      device::descriptors_of(header, device::descriptor_capacity(temp_bytes, Desc::kShape));
  final_state_kernel<<<blocks, 256, 0, stream>>>(header, descriptors, tiles, slot);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

template <>
EntryRunner make_entry<kIndex>() {
  EntryRunner r;
  r.index = kIndex;
  r.name = kEntry.name;
  r.agent = kStriped ? "coarsened" : "warp-lookback";
  r.in_place = kProtocol.in_place;
  r.fallback = kProtocol.fallback;
  r.blockidx_tiles = kProtocol.tile_id == protocol::TileIdSource::BlockIdx;
  r.persistent = protocol::persistent(kProtocol);
  r.tile_items = detail::tile_items<Config, std::uint32_t>();
  r.temp_bytes = &temp_bytes;
  r.run = &run;
  r.blocks_per_sm = &blocks_per_sm;
  r.check_final = &check_final;
  return r;
}

}  // namespace lookback::stress
