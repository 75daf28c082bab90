// Shared machinery of the device-scan GPU tests: inputs, the CPU reference
// (lookback::reference), device buffers and comparison with a readable
// first mismatch.
//
// Floating-point inputs of the main matrix are small integers whose running
// sums stay far below 2^24, so every association of the sums is exact and a
// protocol error (a tile counted twice, a gap, a wrong order) shows as an
// exact mismatch; real-valued inputs are checked against a bound relative to
// the sum of absolute values (accuracy test) and bitwise across runs
// (determinism test).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_test_util.hpp"
#include "lookback/device_scan.cuh"
#include "lookback/ops.hpp"
#include "lookback/reference/scan.hpp"
#include "lookback/splitmix.hpp"

namespace lookback::testing {

enum class Type { I32, U32, I64, U64, F32, F64, Affine };
enum class Kind { Inclusive, Exclusive };
// Where input and output live. OffsetN: both pointers N elements past a
// 256-byte aligned allocation; Offset2InPlace: in place at +2; Offset3Mixed:
// input at +3, output aligned.
enum class Placement { OutOfPlace, InPlace, Offset1, Offset2InPlace, Offset3Mixed };

inline const char* name(Type t) {
  switch (t) {
    case Type::I32:
      return "i32";
    case Type::U32:
      return "u32";
    case Type::I64:
      return "i64";
    case Type::U64:
      return "u64";
    case Type::F32:
      return "f32";
    case Type::F64:
      return "f64";
    case Type::Affine:
      return "affine";
  }
  return "?";
}
inline const char* name(Kind k) {
  return k == Kind::Inclusive ? "inclusive" : "exclusive";
}
inline const char* name(Placement p) {
  switch (p) {
    case Placement::OutOfPlace:
      return "out_of_place";
    case Placement::InPlace:
      return "in_place";
    case Placement::Offset1:
      return "offset1";
    case Placement::Offset2InPlace:
      return "offset2_in_place";
    case Placement::Offset3Mixed:
      return "offset3_mixed";
  }
  return "?";
}

using lookback::splitmix64;

// A 12-byte value (three 32-bit words: more than 8 bytes, so the split
// layout) under an associative, non-commutative operator: an affine map
// over Z/2^32 (as Affine) paired with a count of the items it covers.
struct Wide12 {
  std::uint32_t a = 1;
  std::uint32_t b = 0;
  std::uint32_t n = 0;
  friend LOOKBACK_HD constexpr bool operator==(const Wide12& l, const Wide12& r) {
    return l.a == r.a && l.b == r.b && l.n == r.n;
  }
};
struct ComposeWide12 {
  LOOKBACK_HD constexpr Wide12 operator()(const Wide12& l, const Wide12& r) const {
    return Wide12{r.a * l.a, r.a * l.b + r.b, l.n + r.n};
  }
};
static_assert(sizeof(Wide12) == 12);

// Inputs. Signed integers stay small enough that no prefix overflows;
// unsigned ones use all bits (wrapping is defined); floats are integers in
// [-4, 4] kept near zero (exact sums); Affine maps are random.
template <class T>
std::vector<T> make_input(std::int64_t n, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  std::int64_t running = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = splitmix64(seed * 0x100000001b3ull + static_cast<std::uint64_t>(i));
    if constexpr (std::is_same_v<T, Affine>) {
      v[i] = Affine{static_cast<std::uint32_t>(r) | 1u, static_cast<std::uint32_t>(r >> 32)};
    } else if constexpr (std::is_same_v<T, Wide12>) {
      v[i] = Wide12{static_cast<std::uint32_t>(r) | 1u, static_cast<std::uint32_t>(r >> 32), 1u};
    } else if constexpr (std::is_floating_point_v<T>) {
      std::int64_t x = static_cast<std::int64_t>(r % 9) - 4;
      if (running > (1 << 20) && x > 0) x = -x;
      if (running < -(1 << 20) && x < 0) x = -x;
      running += x;
      v[i] = static_cast<T>(x);
    } else if constexpr (std::is_signed_v<T>) {
      v[i] = static_cast<T>(static_cast<std::int64_t>(r % 129) - 64);
    } else {
      v[i] = static_cast<T>(r);
    }
  }
  return v;
}

// Real-valued floats in [-1, 1) (accuracy and determinism tests).
template <class T>
std::vector<T> make_real_input(std::int64_t n, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = splitmix64(seed * 0x100000001b3ull + static_cast<std::uint64_t>(i));
    v[i] = static_cast<T>(static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0);
  }
  return v;
}

template <class T>
struct OpFor {
  using type = Sum;
};
template <>
struct OpFor<Affine> {
  using type = ComposeAffine;
};
template <>
struct OpFor<Wide12> {
  using type = ComposeWide12;
};
template <class T>
using op_for = typename OpFor<T>::type;

template <class T>
T init_for() {
  if constexpr (std::is_same_v<T, Affine>) {
    return Affine{3u, 7u};  // not the identity: checks that init is applied once
  } else if constexpr (std::is_same_v<T, Wide12>) {
    return Wide12{3u, 7u, 1u};
  } else {
    return T{};  // ExclusiveSum's init
  }
}

template <class T>
std::vector<T> reference_scan(const std::vector<T>& in, Kind kind) {
  const op_for<T> op{};
  if (kind == Kind::Inclusive) return reference::inclusive_scan(std::span<const T>(in), op);
  return reference::exclusive_scan(std::span<const T>(in), init_for<T>(), op);
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
std::string show(const T& v) {
  std::ostringstream s;
  if constexpr (std::is_same_v<T, Affine>) {
    s << "{" << v.a << "," << v.b << "}";
  } else if constexpr (std::is_same_v<T, Wide12>) {
    s << "{" << v.a << "," << v.b << "," << v.n << "}";
  } else {
    s.precision(17);
    s << +v;
  }
  return s.str();
}

// Exact comparison; reports the first mismatch, its tile and the count.
template <class T>
::testing::AssertionResult equal_exactly(const std::vector<T>& want, const std::vector<T>& got,
                                         std::int64_t tile_items) {
  if (want.size() != got.size()) return ::testing::AssertionFailure() << "size differs";
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!same_bits(want[i], got[i])) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << want.size() << " outputs differ; first at " << first << " (tile "
         << static_cast<std::int64_t>(first) / tile_items << "): want " << show(want[first])
         << ", got " << show(got[first]);
}

// Items per tile of the configuration that scans n items (a SizeAdaptive's
// half that n picks, a DeviceAdaptive's half that the current device picks,
// nested ones too; of what Cfg runs on T: runs_on_t), for reports and
// tile-edge sizes.
template <class Config, class T>
std::int64_t tile_items_for(std::int64_t n) {
  using Cfg = lookback::runs_on_t<Config, T>;
  if constexpr (is_size_adaptive_v<Cfg>) {
    return Cfg::template picks_small<T>(n) ? tile_items_for<typename Cfg::small, T>(n)
                                           : tile_items_for<typename Cfg::large, T>(n);
  } else if constexpr (is_device_adaptive_v<Cfg>) {
    return lookback::detail::picks_wide_here<Cfg>() ? tile_items_for<typename Cfg::wide, T>(n)
                                                    : tile_items_for<typename Cfg::base, T>(n);
  } else {
    return detail::tile_items<Cfg, T>();
  }
}

// The largest n of each tier (whole configuration) of C, smallest tier
// first (the last tier's: the most C takes); of a DeviceAdaptive the half
// the current device picks.
template <class C, class T>
void tier_bounds(std::vector<std::int64_t>& bounds) {
  if constexpr (is_size_adaptive_v<C>) {
    tier_bounds<typename C::small, T>(bounds);
    bounds.back() = std::min(bounds.back(), C::template max_small_items<T>());
    tier_bounds<typename C::large, T>(bounds);
  } else if constexpr (is_device_adaptive_v<C>) {
    if (lookback::detail::picks_wide_here<C>())
      tier_bounds<typename C::wide, T>(bounds);
    else
      tier_bounds<typename C::base, T>(bounds);
  } else {
    bounds.push_back(detail::max_items<C, T>());
  }
}

// |got - want| <= bound * (sum of |x| up to i) for real-valued floats.
template <class T>
::testing::AssertionResult close_relative(const std::vector<T>& in, const std::vector<T>& want,
                                          const std::vector<T>& got, Kind kind, double bound) {
  double abs_sum = 0.0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (kind == Kind::Inclusive) abs_sum += std::fabs(static_cast<double>(in[i]));
    const double err = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    if (!(err <= bound * abs_sum + 1e-30))
      return ::testing::AssertionFailure()
             << "at " << i << ": want " << show(want[i]) << ", got " << show(got[i]) << ", |error| "
             << err << " > " << bound << " * " << abs_sum;
    if (kind == Kind::Exclusive) abs_sum += std::fabs(static_cast<double>(in[i]));
  }
  return ::testing::AssertionSuccess();
}

// A device allocation, freed on scope exit.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n) {
    const cudaError_t e = cudaMalloc(&p_, n * sizeof(T) + 64);
    if (e != cudaSuccess) p_ = nullptr;
  }
  ~DeviceBuffer() {
    if (p_) cudaFree(p_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  T* p_ = nullptr;
};

// Runs one scan through the stateless API (or a plan, if given).
template <class Cfg, class T>
cudaError_t device_scan(void* temp, std::size_t& bytes, const T* in, T* out, std::int64_t n,
                        Kind kind, const Options& options = {}) {
  using Op = op_for<T>;
  if (kind == Kind::Inclusive) {
    if constexpr (std::is_same_v<Op, Sum>) {
      return DeviceScan::InclusiveSum<Cfg>(temp, bytes, in, out, n, 0, options);
    } else {
      return DeviceScan::InclusiveScan<Cfg>(temp, bytes, in, out, Op{}, n, 0, options);
    }
  }
  if constexpr (std::is_same_v<Op, Sum>) {
    return DeviceScan::ExclusiveSum<Cfg>(temp, bytes, in, out, n, 0, options);
  } else {
    return DeviceScan::ExclusiveScan<Cfg>(temp, bytes, in, out, Op{}, init_for<T>(), n, 0, options);
  }
}

template <class T, class Cfg>
cudaError_t plan_scan(ScanPlan<T, Cfg>& plan, const T* in, T* out, std::int64_t n, Kind kind,
                      const Options& options = {}) {
  using Op = op_for<T>;
  if (kind == Kind::Inclusive) return plan.InclusiveScan(in, out, Op{}, n, 0, options);
  return plan.ExclusiveScan(in, out, Op{}, init_for<T>(), n, 0, options);
}

// Input and reference per (type, size, kind), computed once per process.
template <class T>
const std::vector<T>& cached_input(std::int64_t n) {
  static std::map<std::int64_t, std::vector<T>> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, make_input<T>(n, 0x5eed + n)).first;
  return it->second;
}
template <class T>
const std::vector<T>& cached_reference(std::int64_t n, Kind kind) {
  static std::map<std::pair<std::int64_t, int>, std::vector<T>> cache;
  const auto key = std::make_pair(n, static_cast<int>(kind));
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, reference_scan(cached_input<T>(n), kind)).first;
  return it->second;
}

// One case of the matrix: scan `n` items placed as `placement`, compare with
// the reference exactly.
template <class Cfg, class T>
void run_matrix_case(std::int64_t n, Kind kind, Placement placement) {
  const std::vector<T>& in = cached_input<T>(n);
  const std::vector<T>& want = cached_reference<T>(n, kind);
  const std::size_t count = static_cast<std::size_t>(n);
  DeviceBuffer<T> a(count + 4), b(count + 4);
  ASSERT_TRUE(a && b) << "cudaMalloc of " << 2 * (count + 4) * sizeof(T) << " bytes";
  T* d_in = a.get();
  T* d_out = b.get();
  switch (placement) {
    case Placement::OutOfPlace:
      break;
    case Placement::InPlace:
      d_out = d_in;
      break;
    case Placement::Offset1:
      d_in += 1, d_out += 1;
      break;
    case Placement::Offset2InPlace:
      d_in += 2, d_out = d_in;
      break;
    case Placement::Offset3Mixed:
      d_in += 3;
      break;
  }
  // Poison both allocations first: a freed buffer can come back at the same
  // address with an earlier case's output in it (the same input and
  // reference), which would hide items this scan never wrote.
  constexpr unsigned char kPoison = 0xA5;
  const std::size_t allocated = (count + 4) * sizeof(T);
  LOOKBACK_CUDA_OK(cudaMemset(a.get(), kPoison, allocated));
  LOOKBACK_CUDA_OK(cudaMemset(b.get(), kPoison, allocated));
  if (count) {
    LOOKBACK_CUDA_OK(cudaMemcpy(d_in, in.data(), count * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::size_t bytes = 0;
  ASSERT_EQ(device_scan<Cfg>(nullptr, bytes, d_in, d_out, n, kind), cudaSuccess)
      << last_error_message();
  DeviceBuffer<unsigned char> temp(bytes);
  ASSERT_TRUE(temp);
  ASSERT_EQ(device_scan<Cfg>(temp.get(), bytes, d_in, d_out, n, kind), cudaSuccess)
      << last_error_message();
  // The output's whole allocation: the items, and around them poison that
  // the scan must have left alone.
  T* const out_base = d_out == d_in ? a.get() : b.get();
  const std::size_t offset = static_cast<std::size_t>(d_out - out_base);
  std::vector<unsigned char> all(allocated);
  LOOKBACK_CUDA_OK(cudaMemcpy(all.data(), out_base, allocated, cudaMemcpyDeviceToHost));
  LOOKBACK_CUDA_OK(cudaDeviceSynchronize());
  std::vector<T> got(count);
  if (count) std::memcpy(got.data(), all.data() + offset * sizeof(T), count * sizeof(T));
  EXPECT_TRUE(equal_exactly(want, got, tile_items_for<Cfg, T>(n)));
  for (std::size_t i = 0; i < allocated; ++i) {
    const bool output = i >= offset * sizeof(T) && i < (offset + count) * sizeof(T);
    if (!output && all[i] != kPoison) {
      ADD_FAILURE() << "byte " << i << " of the output's allocation, outside the " << count
                    << " items from item " << offset << ", was written";
      break;
    }
  }
}

struct MatrixCase {
  Type type;
  Kind kind;
  std::int64_t n;
  Placement placement;
};

inline std::string case_name(const ::testing::TestParamInfo<MatrixCase>& info) {
  const MatrixCase& c = info.param;
  return std::string(name(c.type)) + "_" + name(c.kind) + "_n" + std::to_string(c.n) + "_" +
         name(c.placement);
}

// The sizes of the matrix for a type whose tiles hold `tile` items. Partial
// last tiles end in the first vector, one item short of the tile, one item
// into it, and mid-tile (tile / 2 + 777: inside a vector of a middle warp,
// a staged one for pipelined u32 and u64), where the warps after the end
// hold nothing but copies of the tile's first item. tile / 2 + 896 ends on
// a chunk boundary of the warp holding the end in every striped shape (896
// = 7 chunks of 4-byte vectors, 14 of 8-byte ones, 28 on the scalar path):
// its partial loops stop exactly at a chunk, where its fills begin.
inline std::vector<std::int64_t> matrix_sizes(std::int64_t tile) {
  return {0,        1,    2,        31,          32, 33, tile / 2 + 777, tile / 2 + 896,
          tile - 1, tile, tile + 1, 3 * tile + 5};
}
inline constexpr std::int64_t kBigSizes[] = {(1 << 20) + 3, 1 << 24};

template <class Cfg>
std::vector<MatrixCase> matrix_cases() {
  std::vector<MatrixCase> cases;
  const Type types[] = {Type::I32, Type::U32, Type::I64,   Type::U64,
                        Type::F32, Type::F64, Type::Affine};
  const Placement all[] = {Placement::OutOfPlace, Placement::InPlace, Placement::Offset1,
                           Placement::Offset2InPlace, Placement::Offset3Mixed};
  for (Type t : types) {
    const std::int64_t tile = (t == Type::I32 || t == Type::U32 || t == Type::F32)
                                  ? detail::tile_items<Cfg, std::uint32_t>()
                                  : detail::tile_items<Cfg, std::uint64_t>();
    for (Kind k : {Kind::Inclusive, Kind::Exclusive}) {
      for (std::int64_t n : matrix_sizes(tile))
        for (Placement p : all)
          cases.push_back({t, k, n, p});
      // Big sizes: aligned out-of-place and a misaligned in-place run.
      for (std::int64_t n : kBigSizes) {
        cases.push_back({t, k, n, Placement::OutOfPlace});
        cases.push_back({t, k, n, Placement::Offset2InPlace});
      }
    }
  }
  return cases;
}

template <class Cfg>
void run_matrix(const MatrixCase& c) {
  switch (c.type) {
    case Type::I32:
      return run_matrix_case<Cfg, std::int32_t>(c.n, c.kind, c.placement);
    case Type::U32:
      return run_matrix_case<Cfg, std::uint32_t>(c.n, c.kind, c.placement);
    case Type::I64:
      return run_matrix_case<Cfg, std::int64_t>(c.n, c.kind, c.placement);
    case Type::U64:
      return run_matrix_case<Cfg, std::uint64_t>(c.n, c.kind, c.placement);
    case Type::F32:
      return run_matrix_case<Cfg, float>(c.n, c.kind, c.placement);
    case Type::F64:
      return run_matrix_case<Cfg, double>(c.n, c.kind, c.placement);
    case Type::Affine:
      return run_matrix_case<Cfg, Affine>(c.n, c.kind, c.placement);
  }
}

// Cfg with a 2-bit launch epoch, so the epoch wraps (and the descriptors are
// cleared) every 4 launches on one storage.
template <class Cfg>
struct TwoBitEpoch : Cfg {
  static constexpr protocol::Protocol narrow(protocol::Protocol p) {
    p.epoch_bits = 2;
    return p;
  }
  static constexpr protocol::Protocol protocol = narrow(Cfg::protocol);
  static constexpr protocol::Protocol protocol_in_place = narrow(Cfg::protocol_in_place);
};

// Whether timing-dependent checks hold: under compute-sanitizer
// (ci/run-gpu-bins sets LOOKBACK_SANITIZER) every memory access and spin
// round is orders of magnitude slower, so what depends on time is not
// checked there (results still are). `what` names the skipped checks once.
inline bool timing_checked(const char* what) {
  const bool checked = std::getenv("LOOKBACK_SANITIZER") == nullptr;
  static bool said = false;
  if (!checked && !said) {
    std::printf("LOOKBACK_SANITIZER set: %s not checked\n", what);
    said = true;
  }
  return checked;
}

}  // namespace lookback::testing

// One parameterized suite per variant.
#define LOOKBACK_SCAN_MATRIX(Suite, Cfg)                                                  \
  class Suite : public ::testing::TestWithParam<::lookback::testing::MatrixCase> {};      \
  TEST_P(Suite, MatchesReference) {                                                       \
    LOOKBACK_REQUIRE_GPU();                                                               \
    ::lookback::testing::run_matrix<Cfg>(GetParam());                                     \
  }                                                                                       \
  INSTANTIATE_TEST_SUITE_P(Matrix, Suite,                                                 \
                           ::testing::ValuesIn(::lookback::testing::matrix_cases<Cfg>()), \
                           ::lookback::testing::case_name)
