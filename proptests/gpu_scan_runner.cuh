// The typed part of the GPU properties: inputs, the CPU reference
// (lookback::reference), one scan through DeviceScan or a ScanPlan on the
// pool, and the element-by-element check. Included by the per-variant
// translation units (gpu_scan_<variant>_{ops,plain}.cu).
//
// Float tolerance (sums of real-valued inputs, Values::Full). Any evaluation
// of a sum as a binary tree of depth d satisfies
//   |computed - exact| <= gamma(d) * sum |x_i|,   gamma(d) = d*u / (1 - d*u)
// (Higham, Accuracy and Stability of Numerical Algorithms, 4.2), u = unit
// roundoff of T. Output i of a single-pass scan is a tree whose leaves are
// the init (exclusive), one aggregate per predecessor tile and the local
// part of its own tile, each leaf itself a tree over at most tile_items
// inputs: d <= tiles + tile_items + 2, whatever association the kernel, its
// look-back or a fallback chooses. The exact prefix is taken from
// lookback::reference over a wider type W (double for float, long double for
// double), whose own error is at most gamma_W(n + 1) * sum |x_i|. So:
//   |out[i] - ref_W[i]| <= (gamma_T(tiles + tile_items + 2) + gamma_W(n + 1))
//                          * (|init| + sum of |x_j| over the prefix of i)
// For f32 with the default tuning (8192-item tiles) and n = 2^24 that is
// about 6e-4 of the sum of absolute values; for f64, about 1e-12. Integer-
// valued float inputs (Values::Ones/Small) whose |init| + sum |x| stays below
// 2^digits are exact under any association and are compared exactly, like
// integers and Affine; max and min are always exact.
#pragma once

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_scan_case.hpp"
#include "gpu_scan_runner.hpp"
#include "lookback/device_scan.cuh"
#include "lookback/ops.hpp"
#include "lookback/reference/scan.hpp"
#include "lookback/splitmix.hpp"

namespace lookback::proptest {

// The configuration type of a case (kernels: config.hpp).
template <VariantKind V>
constexpr lookback::Variant kVariant =
    V == VariantKind::Coarsened      ? lookback::Variant::Coarsened
    : V == VariantKind::WarpLookback ? lookback::Variant::WarpLookback
    : V == VariantKind::Pipelined    ? lookback::Variant::Pipelined
                                     : lookback::Variant::Fallback;
template <VariantKind V>
using DefaultConfig = lookback::ScanConfig<kVariant<V>>;
template <VariantKind V, class Policy>
using TunedConfig = lookback::ScanConfig<kVariant<V>, Policy>;

// gpu_scan_case.hpp computes tile sizes from the policies without the
// kernel headers; check it names the policies the configurations use.
static_assert(std::is_same_v<lookback::Coarsened::policy, CoarsenedPolicy>);
static_assert(std::is_same_v<lookback::Fallback::policy, FallbackPolicy>);
static_assert(std::is_same_v<lookback::WarpLookback::policy, WarpLookbackPolicy>);
static_assert(std::is_same_v<lookback::Pipelined::policy, PipelinedPolicy>);
static_assert(std::is_same_v<DefaultConfig<VariantKind::Coarsened>, lookback::Coarsened>);

using lookback::splitmix64;

template <class T>
constexpr bool kIsAffine = std::is_same_v<T, lookback::Affine>;

// Input element i of a case (never zero; see Values).
template <class T, class Op>
T make_value(Values v, std::uint64_t seed, std::int64_t i, std::int64_t n) {
  const std::uint64_t r = splitmix64(splitmix64(seed) ^ static_cast<std::uint64_t>(i));
  if constexpr (kIsAffine<T>) {
    if (v == Values::Ones) return T{1u, 1u};
    if (v == Values::Small)
      return T{1u + 2u * static_cast<std::uint32_t>(r % 4),
               1u + static_cast<std::uint32_t>((r >> 8) % 8)};
    return T{static_cast<std::uint32_t>(r) | 1u, static_cast<std::uint32_t>(r >> 32)};
  } else if constexpr (std::is_floating_point_v<T>) {
    if (v == Values::Ones) return T(1);
    if (v == Values::Small) {
      const T x = static_cast<T>(1 + static_cast<int>(r % 8));
      return (r >> 8) & 1 ? -x : x;
    }
    const double x = static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0;  // [-1, 1)
    const T t = static_cast<T>(x);
    return t == T(0) ? T(0.5) : t;
  } else {
    if (v == Values::Ones) return T(1);
    if constexpr (std::is_signed_v<T>) {
      if constexpr (std::is_same_v<Op, lookback::Sum>) {
        // |init| <= 1000 plus n values of at most `amp` never overflows.
        const std::uint64_t top = static_cast<std::uint64_t>(std::numeric_limits<T>::max()) - 1001;
        std::uint64_t amp = top / static_cast<std::uint64_t>(n < 1 ? 1 : n);
        if (v == Values::Small && amp > 8) amp = 8;
        const T x = static_cast<T>(1 + r % (amp < 1 ? 1 : amp));
        return (r >> 63) ? static_cast<T>(-x) : x;
      }
    }
    if (v == Values::Small) {
      const T x = static_cast<T>(1 + r % 8);
      if constexpr (std::is_signed_v<T>) return (r >> 8) & 1 ? static_cast<T>(-x) : x;
      return x;
    }
    const T x = static_cast<T>(r);
    return x == T(0) ? T(1) : x;
  }
}

// The init of an exclusive scan from the case's integer.
template <class T>
T init_value(std::int64_t init) {
  if constexpr (kIsAffine<T>) {
    const std::uint64_t m = static_cast<std::uint64_t>(init < 0 ? -init : init);
    return T{static_cast<std::uint32_t>(2 * m + 1), static_cast<std::uint32_t>(init)};
  } else {
    return static_cast<T>(init);
  }
}

template <class T>
std::string show(const T& v) {
  std::ostringstream s;
  if constexpr (kIsAffine<T>) {
    s << "{" << v.a << "," << v.b << "}";
  } else if constexpr (std::is_floating_point_v<T>) {
    s.precision(std::numeric_limits<T>::max_digits10);
    s << v;
  } else {
    s << +v;
  }
  return s.str();
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

inline const char* cuda_text(cudaError_t e) {
  return cudaGetErrorName(e);
}

// The process's plan for (T, Cfg): sized for the largest case, made again
// after a failed case (its descriptors may hold an unfinished epoch) and
// after a device reset.
template <class T, class Cfg>
lookback::ScanPlan<T, Cfg>* plan_for(Pool& pool, std::string* error) {
  static std::unique_ptr<lookback::ScanPlan<T, Cfg>> plan;
  static std::uint64_t plan_gen = 0, context_gen = 0;
  if (plan && plan_gen == pool.plan_generation() && context_gen == pool.context_generation())
    return plan.get();
  if (plan && context_gen != pool.context_generation()) {
    // Its storage died with the old context; freeing the stale address could
    // free a new allocation that reuses it. The host object is leaked.
    (void)plan.release();
  }
  plan.reset();
  cudaGetLastError();
  plan = std::make_unique<lookback::ScanPlan<T, Cfg>>();
  if (plan->init(pool.max_items(), pool.stream()) != cudaSuccess) {
    *error = std::string("ScanPlan::init: ") + lookback::last_error_message();
    plan.reset();
    return nullptr;
  }
  plan_gen = pool.plan_generation();
  context_gen = pool.context_generation();
  return plan.get();
}

// One scan through the case's entry point, with the Sum shapes
// (InclusiveSum, ExclusiveSum when init is 0) where they apply.
template <class Cfg, class T, class Op>
cudaError_t scan_once(const ScanCase& c, Pool& pool, const T* d_in, T* d_out, T init,
                      std::string* error) {
  lookback::Options options;
  options.allow_vector = c.vector;
  options.perturb.stall_ns = c.stall_ns;
  options.perturb.stall_every = c.stall_every;
  cudaStream_t s = pool.stream();
  const std::int64_t n = c.n;
  bool sum_shape = false;
  if constexpr (std::is_same_v<Op, lookback::Sum>) sum_shape = !c.exclusive || init == T{};
  cudaError_t e = cudaSuccess;
  if (c.entry == Entry::DeviceScan) {
    std::size_t bytes = 0;
    e = c.exclusive
            ? lookback::DeviceScan::ExclusiveScan<Cfg>(nullptr, bytes, d_in, d_out, Op{}, init, n,
                                                       s)
            : lookback::DeviceScan::InclusiveScan<Cfg>(nullptr, bytes, d_in, d_out, Op{}, n, s);
    if (e != cudaSuccess) {
      *error = std::string("size query: ") + lookback::last_error_message();
      return e;
    }
    if (bytes > pool.temp_bytes()) {
      *error = "temp storage needs " + std::to_string(bytes) + " bytes, the pool holds " +
               std::to_string(pool.temp_bytes());
      return cudaErrorMemoryAllocation;
    }
    void* t = pool.temp();
    if constexpr (std::is_same_v<Op, lookback::Sum>) {
      if (sum_shape) {
        e = c.exclusive
                ? lookback::DeviceScan::ExclusiveSum<Cfg>(t, bytes, d_in, d_out, n, s, options)
                : lookback::DeviceScan::InclusiveSum<Cfg>(t, bytes, d_in, d_out, n, s, options);
      }
    }
    if (!sum_shape) {
      e = c.exclusive ? lookback::DeviceScan::ExclusiveScan<Cfg>(t, bytes, d_in, d_out, Op{}, init,
                                                                 n, s, options)
                      : lookback::DeviceScan::InclusiveScan<Cfg>(t, bytes, d_in, d_out, Op{}, n, s,
                                                                 options);
    }
    if (e != cudaSuccess) *error = std::string("DeviceScan: ") + lookback::last_error_message();
    return e;
  }
  lookback::ScanPlan<T, Cfg>* plan = plan_for<T, Cfg>(pool, error);
  if (plan == nullptr) return cudaErrorMemoryAllocation;
  if constexpr (std::is_same_v<Op, lookback::Sum>) {
    if (sum_shape) {
      e = c.exclusive ? plan->ExclusiveSum(d_in, d_out, n, s, options)
                      : plan->InclusiveSum(d_in, d_out, n, s, options);
    }
  }
  if (!sum_shape) {
    e = c.exclusive ? plan->ExclusiveScan(d_in, d_out, Op{}, init, n, s, options)
                    : plan->InclusiveScan(d_in, d_out, Op{}, n, s, options);
  }
  if (e != cudaSuccess) *error = std::string("ScanPlan: ") + lookback::last_error_message();
  return e;
}

// The bytes [begin, end) of `host` all equal `poison`? Otherwise describes
// the first that does not.
inline std::string check_poison(const unsigned char* host, std::size_t begin, std::size_t end,
                                unsigned char poison, const char* what) {
  for (std::size_t i = begin; i < end; ++i) {
    if (host[i] != poison) {
      std::ostringstream s;
      s << what << " was written: byte " << i << " of the region is 0x" << std::hex << +host[i]
        << ", poison 0x" << +poison;
      return s.str();
    }
  }
  return {};
}

template <class T>
constexpr int digits_of() {
  return std::numeric_limits<T>::digits;
}
inline double gamma(double d, double u) {
  return d * u / (1.0 - d * u);
}

// Runs the case with configuration Cfg, value type T and operator Op.
template <class Cfg, class T, class Op>
std::string run_typed(const ScanCase& c, Pool& pool) {
  static_assert(sizeof(T) <= Pool::kMaxValueBytes);
  const std::int64_t n = c.n;
  if (n > pool.max_items())
    return "n = " + std::to_string(n) +
           " exceeds the pool (LOOKBACK_PROP_MAX_N = " + std::to_string(pool.max_items()) + ")";
  const std::int64_t tile = lookback::detail::tile_items<Cfg, T>();
  if (tile != tile_items(c))
    return "gpu_scan_case.hpp's tile size " + std::to_string(tile_items(c)) +
           " differs from the configuration's " + std::to_string(tile);
  const Op op{};
  const T init = init_value<T>(c.init);
  const std::size_t count = static_cast<std::size_t>(n);

  // Input, in pinned staging memory.
  T* h_in = reinterpret_cast<T*>(pool.host_in());
  for (std::int64_t i = 0; i < n; ++i)
    h_in[i] = make_value<T, Op>(c.values, c.seed, i, n);
  const std::span<const T> in(h_in, count);

  // Device placement: kGuard poisoned elements, the misalignment, the data,
  // kGuard more; out of place, the output region is laid out the same way.
  const std::int64_t off_in = Pool::kGuard + c.misalign_in;
  const std::int64_t off_out = Pool::kGuard + (c.in_place ? c.misalign_in : c.misalign_out);
  const std::size_t region = (2 * Pool::kGuard + 3 + n) * sizeof(T);
  T* d_in = reinterpret_cast<T*>(pool.region_a()) + off_in;
  T* d_out = c.in_place ? d_in : reinterpret_cast<T*>(pool.region_b()) + off_out;
  const unsigned char* h_outregion = c.in_place ? pool.host_a() : pool.host_b();
  const T* h_out = reinterpret_cast<const T*>(h_outregion) + off_out;
  cudaStream_t s = pool.stream();

  // Reference. Float sums of real values: in the wider type, with the bound
  // above; everything else exactly.
  using Wide = std::conditional_t<std::is_same_v<T, float>, double, long double>;
  constexpr bool kFloatSum = std::is_floating_point_v<T> && std::is_same_v<Op, lookback::Sum>;
  bool exact = true;
  double abs_total = 0.0;
  if constexpr (kFloatSum) {
    abs_total = std::fabs(static_cast<double>(init));
    for (std::size_t i = 0; i < count; ++i)
      abs_total += std::fabs(static_cast<double>(in[i]));
    exact = c.values != Values::Full && abs_total <= std::ldexp(1.0, digits_of<T>());
  }
  std::vector<T> want;
  std::vector<Wide> want_wide;
  if (exact) {
    want = c.exclusive ? lookback::reference::exclusive_scan(in, init, op)
                       : lookback::reference::inclusive_scan(in, op);
  } else if constexpr (kFloatSum) {
    std::vector<Wide> wide(in.begin(), in.end());
    want_wide = c.exclusive ? lookback::reference::exclusive_scan(std::span<const Wide>(wide),
                                                                  static_cast<Wide>(init), op)
                            : lookback::reference::inclusive_scan(std::span<const Wide>(wide), op);
  }
  double bound_factor = 0.0;
  if constexpr (kFloatSum) {
    const double tiles = static_cast<double>((n + tile - 1) / tile);
    bound_factor =
        gamma(tiles + static_cast<double>(tile) + 2.0, std::numeric_limits<T>::epsilon() / 2.0) +
        gamma(static_cast<double>(n) + 1.0,
              static_cast<double>(std::numeric_limits<Wide>::epsilon()) / 2.0);
  }

  const int runs = c.deterministic ? 3 : 1;
  static constexpr unsigned char kPoison[3] = {0xA5, 0x5A, 0xC3};
  std::vector<T> first_run;
  for (int run = 0; run < runs; ++run) {
    const unsigned char poison = kPoison[run];
    std::string error;
    cudaError_t e = cudaMemsetAsync(pool.region_a(), poison, region, s);
    if (e == cudaSuccess && !c.in_place) e = cudaMemsetAsync(pool.region_b(), poison, region, s);
    if (e == cudaSuccess && n > 0)
      e = cudaMemcpyAsync(d_in, h_in, count * sizeof(T), cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess) return std::string("poison/upload: ") + cuda_text(e);
    e = scan_once<Cfg, T, Op>(c, pool, d_in, d_out, init, &error);
    if (e != cudaSuccess) return "run " + std::to_string(run) + ": " + cuda_text(e) + ": " + error;
    count_scan(n);
    e = cudaMemcpyAsync(pool.host_a(), pool.region_a(), region, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess && !c.in_place)
      e = cudaMemcpyAsync(pool.host_b(), pool.region_b(), region, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (e != cudaSuccess)
      return "run " + std::to_string(run) + ": after the scan: " + cuda_text(e) + ": " +
             cudaGetErrorString(e);

    // Nothing outside [d_out, d_out + n) was written; out of place, the
    // input is untouched.
    const std::size_t out_begin = static_cast<std::size_t>(off_out) * sizeof(T);
    const std::size_t out_end = out_begin + count * sizeof(T);
    std::string bad = check_poison(h_outregion, 0, out_begin, poison, "the guard before d_out");
    if (bad.empty())
      bad = check_poison(h_outregion, out_end, region, poison, "the guard after d_out + n");
    if (bad.empty() && !c.in_place) {
      const std::size_t in_begin = static_cast<std::size_t>(off_in) * sizeof(T);
      bad = check_poison(pool.host_a(), 0, in_begin, poison, "the guard before d_in");
      if (bad.empty())
        bad = check_poison(pool.host_a(), in_begin + count * sizeof(T), region, poison,
                           "the guard after d_in + n");
      if (bad.empty() && n > 0 &&
          std::memcmp(pool.host_a() + in_begin, h_in, count * sizeof(T)) != 0)
        bad = "the input was modified by an out-of-place scan";
    }
    if (!bad.empty()) return "run " + std::to_string(run) + ": " + bad;

    // Every output element.
    std::int64_t mismatches = 0, first = -1;
    double first_err = 0.0, first_bound = 0.0;
    double abs_sum = 0.0;
    if constexpr (kFloatSum) abs_sum = std::fabs(static_cast<double>(init));
    for (std::size_t i = 0; i < count; ++i) {
      bool ok;
      if (exact) {
        if constexpr (std::is_floating_point_v<T>) {
          ok = h_out[i] == want[i];
        } else {
          ok = same_bits(h_out[i], want[i]);
        }
      } else {
        if constexpr (kFloatSum) {
          if (!c.exclusive) abs_sum += std::fabs(static_cast<double>(in[i]));
          const double err =
              static_cast<double>(std::fabs(static_cast<Wide>(h_out[i]) - want_wide[i]));
          const double bound = bound_factor * abs_sum;
          ok = err <= bound;  // false for NaN
          if (!ok && first < 0) first_err = err, first_bound = bound;
          if (c.exclusive) abs_sum += std::fabs(static_cast<double>(in[i]));
        } else {
          ok = true;
        }
      }
      if (!ok && mismatches++ == 0) first = static_cast<std::int64_t>(i);
    }
    if (mismatches > 0) {
      std::ostringstream m;
      m << "run " << run << ": " << mismatches << " of " << n << " outputs wrong; first at "
        << first << " (tile " << first / tile << " of " << (n + tile - 1) / tile << ", " << tile
        << " items per tile): got " << show(h_out[first]) << ", want ";
      if (exact) {
        m << show(want[first]);
      } else {
        m.precision(17);
        m << static_cast<double>(want_wide[first]) << " (|error| " << first_err << " > bound "
          << first_bound << " = " << bound_factor << " * sum|x|)";
      }
      return m.str();
    }
    if (c.deterministic) {
      if (run == 0) {
        first_run.assign(h_out, h_out + count);
      } else {
        for (std::size_t i = 0; i < count; ++i) {
          if (!same_bits(first_run[i], h_out[i])) {
            std::ostringstream m;
            m << "deterministic mode: run " << run << " differs from run 0 at " << i << " (tile "
              << static_cast<std::int64_t>(i) / tile << "): " << show(h_out[i]) << " vs "
              << show(first_run[i]);
            return m.str();
          }
        }
      }
    }
  }
  return {};
}

// Dispatch on the value type and operator for one configuration.
template <class Cfg>
std::string run_any_op(const ScanCase& c, Pool& pool) {
  auto integral = [&]<class T>() -> std::string {
    switch (c.op) {
      case OpKind::Sum:
        return run_typed<Cfg, T, lookback::Sum>(c, pool);
      case OpKind::Max:
        return run_typed<Cfg, T, lookback::Max>(c, pool);
      case OpKind::Min:
        return run_typed<Cfg, T, lookback::Min>(c, pool);
      case OpKind::Xor:
        if constexpr (std::is_integral_v<T>) return run_typed<Cfg, T, lookback::Xor>(c, pool);
        break;
      case OpKind::Compose:
        break;
    }
    return std::string("operator ") + name(c.op) + " is not compiled for " + name(c.type);
  };
  switch (c.type) {
    case ValueType::U32:
      return integral.template operator()<std::uint32_t>();
    case ValueType::I32:
      return integral.template operator()<std::int32_t>();
    case ValueType::U64:
      return integral.template operator()<std::uint64_t>();
    case ValueType::I64:
      return integral.template operator()<std::int64_t>();
    case ValueType::F32:
      return integral.template operator()<float>();
    case ValueType::F64:
      return integral.template operator()<double>();
    case ValueType::Affine:
      if (c.op == OpKind::Compose)
        return run_typed<Cfg, lookback::Affine, lookback::ComposeAffine>(c, pool);
      break;
  }
  return std::string("operator ") + name(c.op) + " is not compiled for " + name(c.type);
}

// Dispatch for the plain operator only (sum; ComposeAffine for Affine).
template <class Cfg>
std::string run_plain_op(const ScanCase& c, Pool& pool) {
  if (!is_plain_op(c.op)) return std::string("operator ") + name(c.op) + " is not compiled here";
  switch (c.type) {
    case ValueType::U32:
      return run_typed<Cfg, std::uint32_t, lookback::Sum>(c, pool);
    case ValueType::I32:
      return run_typed<Cfg, std::int32_t, lookback::Sum>(c, pool);
    case ValueType::U64:
      return run_typed<Cfg, std::uint64_t, lookback::Sum>(c, pool);
    case ValueType::I64:
      return run_typed<Cfg, std::int64_t, lookback::Sum>(c, pool);
    case ValueType::F32:
      return run_typed<Cfg, float, lookback::Sum>(c, pool);
    case ValueType::F64:
      return run_typed<Cfg, double, lookback::Sum>(c, pool);
    case ValueType::Affine:
      return run_typed<Cfg, lookback::Affine, lookback::ComposeAffine>(c, pool);
  }
  return "unknown type";
}

// Deterministic (default tuning) or another tuning, for variant V.
template <VariantKind V>
std::string run_plain_configs(const ScanCase& c, Pool& pool) {
  if (c.deterministic) {
    if (c.tuning != Tuning::Default)
      return "deterministic mode is compiled with the default tuning only";
    return run_plain_op<lookback::Deterministic<DefaultConfig<V>>>(c, pool);
  }
  switch (c.tuning) {
    case Tuning::Small:
      return run_plain_op<TunedConfig<V, SmallTilePolicy>>(c, pool);
    case Tuning::Delayed:
      return run_plain_op<TunedConfig<V, DelayedPolicy>>(c, pool);
    case Tuning::Stalled:
      return run_plain_op<lookback::Instrumented<DefaultConfig<V>>>(c, pool);
    case Tuning::Default:
      break;
  }
  return "the default tuning without deterministic mode runs through run_*_ops";
}

}  // namespace lookback::proptest
