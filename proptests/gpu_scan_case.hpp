// One random device-scan case of the GPU properties (gpu_scan_properties_<variant>):
// what to scan, with which configuration, through which entry point. Plain
// host C++ (no CUDA, no RapidCheck), shared by the generator (.cpp) and the
// runner (.cu), so both agree on tile sizes and on which combinations are
// compiled.
//
// A case prints as one line that parse_case() reads back:
//   variant=fallback det=0 tuning=default type=u32 op=sum mode=exclusive init=7 n=4097
//   misalign=1,0 inplace=0 vector=1 entry=plan values=small seed=12
// (misalign=in,out; in place just misalign=k; init only when exclusive;
// stall=ns/every only with tuning=stalled.)
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "lookback/device/policy.hpp"

namespace lookback::proptest {

// The protocol variants (lookback::Variant), Coarsened first: shrinking moves
// toward one tile per block, the simplest tile program (the library's default
// configuration until 2026-11-26; since 2026-11-27 lookback::DefaultConfig<T>
// is warp-lookback on small tiles for small inputs and pipelined for large
// ones, with a middle tier between for 1-, 2- and 4-byte values, config.hpp).
enum class VariantKind : std::uint8_t { Coarsened, WarpLookback, Fallback, Pipelined };
inline constexpr int kVariantKinds = 4;
// Tile policies (lookback::TilePolicy) the cases draw from. Default: the
// variant's own tuned policy. Small: 32-thread tiles of 16 bytes per thread
// (128 u32 / 64 u64 items), so even small inputs span many tiles and long
// look-back chains (pipelined: many persistent blocks, each drawing many
// tiles). Delayed: 64 threads x 32 bytes, look-back delay 500 ns
// in every grid, 200 ns spin back-off, streaming (.cs) data accesses.
// Stalled: the default policy in an Instrumented<> configuration, with
// Options::stall_ns / stall_every (every stall_every-th tile sleeps before
// publishing its aggregate: successors wait, and the fallback variant reduces
// the stalled tiles itself).
enum class Tuning : std::uint8_t { Default, Small, Delayed, Stalled };
enum class ValueType : std::uint8_t { U32, I32, U64, I64, F32, F64, Affine };
// Operators; Compose is lookback::ComposeAffine (the only one for Affine).
enum class OpKind : std::uint8_t { Sum, Max, Min, Xor, Compose };
// Entry points: lookback::DeviceScan (Reset::HostMemset, temp storage from
// the pool) or one persistent lookback::ScanPlan per (type, configuration).
enum class Entry : std::uint8_t { DeviceScan, Plan };
// Input values, simplest first. Ones: every element is 1 ({1,1} for Affine).
// Small: small non-zero integers (exact in every type, also floats). Full:
// the type's range (unsigned and xor/max/min: all bits, non-zero; signed sums
// bounded so no prefix overflows; floats: real values in [-1, 1), non-zero;
// Affine: odd a, any b).
enum class Values : std::uint8_t { Ones, Small, Full };

using SmallTilePolicy = lookback::TilePolicy<32, 16, 1>;
using DelayedPolicy = lookback::TilePolicy<64, 32, 2, 500, 200, true, 0>;

struct ScanCase {
  VariantKind variant = VariantKind::Coarsened;
  bool deterministic = false;  // lookback::Deterministic<C>
  Tuning tuning = Tuning::Default;
  ValueType type = ValueType::U32;
  OpKind op = OpKind::Sum;
  bool exclusive = false;
  std::int64_t init = 0;  // exclusive only; converted per type (init_value<T>)
  std::int64_t n = 0;
  int misalign_in = 0;  // elements past a 16-byte aligned address, 0..3
  int misalign_out = 0;
  bool in_place = false;  // d_out == d_in (misalign_out ignored)
  bool vector = true;     // lookback::Options::allow_vector
  Entry entry = Entry::DeviceScan;
  Values values = Values::Ones;
  std::uint64_t seed = 0;      // input values: splitmix64(seed, index)
  std::uint32_t stall_ns = 0;  // Tuning::Stalled only (else 0)
  std::uint32_t stall_every = 0;

  friend bool operator==(const ScanCase&, const ScanCase&) = default;
};

inline const char* name(VariantKind v) {
  switch (v) {
    case VariantKind::Coarsened:
      return "coarsened";
    case VariantKind::WarpLookback:
      return "warp-lookback";
    case VariantKind::Fallback:
      return "fallback";
    case VariantKind::Pipelined:
      return "pipelined";
  }
  return "?";
}
inline const char* name(Tuning t) {
  switch (t) {
    case Tuning::Default:
      return "default";
    case Tuning::Small:
      return "small";
    case Tuning::Delayed:
      return "delayed";
    case Tuning::Stalled:
      return "stalled";
  }
  return "?";
}
inline const char* name(ValueType t) {
  switch (t) {
    case ValueType::U32:
      return "u32";
    case ValueType::I32:
      return "i32";
    case ValueType::U64:
      return "u64";
    case ValueType::I64:
      return "i64";
    case ValueType::F32:
      return "f32";
    case ValueType::F64:
      return "f64";
    case ValueType::Affine:
      return "affine";
  }
  return "?";
}
inline const char* name(OpKind o) {
  switch (o) {
    case OpKind::Sum:
      return "sum";
    case OpKind::Max:
      return "max";
    case OpKind::Min:
      return "min";
    case OpKind::Xor:
      return "xor";
    case OpKind::Compose:
      return "compose";
  }
  return "?";
}
inline const char* name(Entry e) {
  return e == Entry::DeviceScan ? "device" : "plan";
}
inline const char* name(Values v) {
  switch (v) {
    case Values::Ones:
      return "ones";
    case Values::Small:
      return "small";
    case Values::Full:
      return "full";
  }
  return "?";
}

inline int size_of(ValueType t) {
  return t == ValueType::U32 || t == ValueType::I32 || t == ValueType::F32 ? 4 : 8;
}
inline bool is_float(ValueType t) {
  return t == ValueType::F32 || t == ValueType::F64;
}

// Operators a type has, simplest first (index 0 is where shrinking ends).
inline int op_count(ValueType t) {
  if (t == ValueType::Affine) return 1;
  return is_float(t) ? 3 : 4;
}
inline OpKind op_at(ValueType t, int i) {
  if (t == ValueType::Affine) return OpKind::Compose;
  constexpr OpKind kOps[] = {OpKind::Sum, OpKind::Max, OpKind::Min, OpKind::Xor};
  return kOps[i % op_count(t)];
}
// Sum, or the only operator of Affine.
inline bool is_plain_op(OpKind o) {
  return o == OpKind::Sum || o == OpKind::Compose;
}

// Items per tile of the case's configuration (policy_tile_items).
template <class Policy>
std::int64_t tile_items_for(int value_bytes) {
  return value_bytes == 4 ? policy_tile_items<Policy, std::uint32_t>()
                          : policy_tile_items<Policy, std::uint64_t>();
}
inline std::int64_t tile_items(VariantKind v, Tuning t, ValueType type) {
  const int b = size_of(type);
  switch (t) {
    case Tuning::Small:
      return tile_items_for<SmallTilePolicy>(b);
    case Tuning::Delayed:
      return tile_items_for<DelayedPolicy>(b);
    case Tuning::Default:
    case Tuning::Stalled:
      break;
  }
  switch (v) {
    case VariantKind::WarpLookback:
      return tile_items_for<WarpLookbackPolicy>(b);
    case VariantKind::Fallback:
      return tile_items_for<FallbackPolicy>(b);
    case VariantKind::Pipelined:
      return tile_items_for<PipelinedPolicy>(b);
    case VariantKind::Coarsened:
      break;
  }
  return tile_items_for<CoarsenedPolicy>(b);
}
inline std::int64_t tile_items(const ScanCase& c) {
  return tile_items(c.variant, c.tuning, c.type);
}

// Largest n a case draws: LOOKBACK_PROP_MAX_N (decimal, or 2^k), default 2^24.
std::int64_t prop_max_items();

// What the test binary compiles (every combination is a set of kernels, and
// the build has to stay affordable): every (type, operator) with the default
// tuning; the deterministic mode and the other tunings with the plain
// operator of each type (sum, ComposeAffine); deterministic with the default
// tuning only; the stalled tuning: stall_every >= 1.
inline bool compiled(const ScanCase& c) {
  bool op_ok = false;
  for (int i = 0; i < op_count(c.type); ++i)
    op_ok = op_ok || op_at(c.type, i) == c.op;
  if (!op_ok) return false;
  if (c.deterministic && c.tuning != Tuning::Default) return false;
  if ((c.deterministic || c.tuning != Tuning::Default) && !is_plain_op(c.op)) return false;
  if (c.tuning == Tuning::Stalled ? c.stall_every < 1 : (c.stall_ns != 0 || c.stall_every != 0))
    return false;
  return true;
}

// Moves a case onto the compiled set with the least change: an operator the
// type lacks becomes the type's plain one; deterministic or tuned cases keep
// only the plain operator; deterministic keeps the default tuning. Also
// clamps the pointer offsets and the size.
inline ScanCase normalize(ScanCase c) {
  bool op_ok = false;
  for (int i = 0; i < op_count(c.type); ++i)
    op_ok = op_ok || op_at(c.type, i) == c.op;
  if (!op_ok) c.op = op_at(c.type, 0);
  if (c.deterministic) c.tuning = Tuning::Default;
  if ((c.deterministic || c.tuning != Tuning::Default) && !is_plain_op(c.op))
    c.op = op_at(c.type, 0);
  if (!c.exclusive) c.init = 0;
  if (c.tuning != Tuning::Stalled) {
    c.stall_ns = c.stall_every = 0;
  } else if (c.stall_every < 1) {
    c.stall_every = 1;
  }
  c.misalign_in = ((c.misalign_in % 4) + 4) % 4;
  c.misalign_out = c.in_place ? c.misalign_in : ((c.misalign_out % 4) + 4) % 4;
  if (c.n < 0) c.n = 0;
  return c;
}

// The one-line reproducer.
inline std::ostream& operator<<(std::ostream& os, const ScanCase& c) {
  os << "variant=" << name(c.variant) << " det=" << c.deterministic << " tuning=" << name(c.tuning)
     << " type=" << name(c.type) << " op=" << name(c.op)
     << " mode=" << (c.exclusive ? "exclusive" : "inclusive");
  if (c.exclusive) os << " init=" << c.init;
  if (c.tuning == Tuning::Stalled) os << " stall=" << c.stall_ns << "/" << c.stall_every;
  os << " n=" << c.n << " misalign=" << c.misalign_in;
  if (!c.in_place) os << "," << c.misalign_out;
  os << " inplace=" << c.in_place << " vector=" << c.vector << " entry=" << name(c.entry)
     << " values=" << name(c.values) << " seed=" << c.seed;
  return os;
}
std::string to_string(const ScanCase& c);

// Reads a line printed by operator<< (keys in any order, missing keys keep
// their defaults); nullopt and a message in `error` on a bad key or value.
std::optional<ScanCase> parse_case(const std::string& line, std::string* error);

}  // namespace lookback::proptest
