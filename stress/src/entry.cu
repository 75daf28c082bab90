// The kernel of catalogue entry LOOKBACK_STRESS_ENTRY (one translation unit
// per entry, so the build parallelises; stress/CMakeLists.txt compiles this
// file once per entry).
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

// The tile algorithm: the fallback family and "coarsened" run on the striped
// (coarsened, vectorised) agent; everything else, the warp-lookback mutants
// included, on the warp look-back agent whose tiles are smaller (more tiles,
// more look-back traffic per launch). Aligned buffers only: no scalar path.
constexpr bool kStriped = kProtocol.fallback || std::string_view(kEntry.name) == "coarsened" ||
                          std::string_view(kEntry.name) == "fenced-lookback";
using Config =
    ScanConfig<kStriped ? Variant::Coarsened : Variant::WarpLookback,
               detail::default_policy_t<kStriped ? Variant::Coarsened : Variant::WarpLookback>,
               /*deterministic=*/false, /*instrumented=*/true, /*scalar_path=*/false>;

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

}  // namespace

template <>
EntryRunner make_entry<kIndex>() {
  EntryRunner r;
  r.index = kIndex;
  r.name = kEntry.name;
  r.agent = kStriped ? "coarsened" : "warp-lookback";
  r.in_place = kProtocol.in_place;
  r.tile_items = detail::tile_items<Config, std::uint32_t>();
  r.temp_bytes = &temp_bytes;
  r.run = &run;
  return r;
}

}  // namespace lookback::stress
