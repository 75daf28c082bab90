// The warp look-back, generated from a Protocol.
//
// One warp of the waiting tile reads the descriptors of a window of P.window
// predecessors at once (one lane each, P.lookback_order, then
// P.lookback_fence), waits while any of them is INVALID, and combines the
// window's values in tile order (the operator may be non-commutative:
// value(j_low) op ... op value(j_high)), stopping at the closest PREFIX. Each
// further window lies to the left of what was combined so far.
//
// Decoupled fallback (protocol::bounded_wait(P)): after P.spin_bound rounds in
// which the window still held an INVALID descriptor, the warp reduces the
// input tile of the closest INVALID predecessor itself and publishes that
// aggregate with a monotone CAS INVALID -> AGGREGATE (never overwriting an
// AGGREGATE or PREFIX); if the CAS fails it uses the word the CAS observed.
// In place (protocol::fallback_validates(P)) the warp re-reads the
// descriptor after reducing (after the reader's half of output_fence(P)); if
// it is no longer INVALID the owner may have overwritten its input with
// output, so the reduction is discarded and the descriptor used instead.
//
// Deterministic mode (P.fold == Fold::LeftFold): the exclusive prefix of tile
// i is always the left fold ((a_0 op a_1) op ...) op a_{i-1} of the tile
// aggregates, bitwise, whatever the scheduling. Every published PREFIX is
// such a fold, so a look-back that starts from the closest PREFIX p_s and
// folds a_{s+1}, ..., a_{i-1} one by one gives the same bits whichever PREFIX
// it met. Windows further back than the first are passed over without their
// values and folded in a second pass, left to right, re-reading the nearer
// windows (whose descriptors can only have moved up to PREFIX, whose value is
// again a canonical fold), except the P.held_windows nearest, whose
// aggregates the first pass kept (an aggregate never changes).
// This costs a serial fold instead of a tree. The model checks the
// bracketing (Property::LeftFold).
#pragma once

#include <cstdint>
#include <type_traits>

#include <cub/util_ptx.cuh>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/launch_state.cuh"
#include "lookback/device/partial.cuh"
#include "lookback/device/perturb.cuh"
#include "lookback/protocol/spec.hpp"

namespace lookback::device {

template <Protocol P, class T, class Op, bool kInstrumented, int kSpinDelayNs = 0>
class WindowLookback {
 public:
  using Desc = Descriptor<P, T>;
  using Word = typename Desc::Word;
  static constexpr bool kLeftFold = P.fold == protocol::Fold::LeftFold;
  // A left fold whose second pass folds the passed windows; the flawed one
  // (a mutant) puts each window's fold in front of the nearer windows' fold
  // instead.
  static constexpr bool kSecondPass = protocol::has_second_pass(P);
  static constexpr int kWindow = P.window;
  static constexpr int kHeld = protocol::held_windows(P);
  static_assert(P.held_windows >= 0, "a look-back holds no windows or some");
  static_assert(kWindow >= 1 && kWindow <= 32, "a look-back window is read by one warp");
  static constexpr unsigned kFull = 0xffffffffu;

  // `first`: what tile 0's PREFIX begins with (an exclusive scan's init, none
  // for an inclusive one), for a fallback that publishes tile 0's.
  __device__ WindowLookback(const Desc& desc, Op op, const Partial<T>& first, std::uint32_t epoch,
                            Header* header, std::uint32_t watchdog_limit, std::uint32_t tile,
                            int lane, const Perturbation& perturb)
      : desc_(desc),
        op_(op),
        first_(first),
        epoch_(epoch),
        header_(header),
        wd_{header, watchdog_limit},
        tile_(tile),
        lane_(lane),
        perturb_(&perturb) {}

  // Called by all 32 lanes of the warp, for tile >= 1. On success every lane
  // gets exclusive = (combined value of tiles 0 .. tile-1) and it returns
  // true; false when it gave up (the watchdog, or DescriptorWentBack). `reduce(t)` is the
  // warp-collective reduction of input tile t (used by the fallback only).
  template <class Reducer>
  __device__ bool run(Reducer& reduce, T& exclusive) {
    std::int64_t base = tile_;  // the window is [base - kWindow, base - 1]
    Partial<T> acc{};           // combined value of the windows right of it
    int depth = 0;
    View me{};
    bool ok = false;
    while (true) {
      if (!wait_window(base, me, reduce)) break;
      if constexpr (kInstrumented) ++windows_;
      const std::int64_t j = base - kWindow + lane_;
      const bool active = lane_ < kWindow && j >= 0;
      const unsigned stop = __ballot_sync(kFull, active && is_stop(status(me.w)));
      const int first_active = base >= kWindow ? 0 : static_cast<int>(kWindow - base);
      if (stop == 0 && first_active > 0) {
        // The window reaches tile 0 and holds no PREFIX: tile 0 never
        // published one (only a flawed variant does that). Wait, bounded.
        if (wd_.expired(tile_, lane_)) break;
        continue;
      }
      const int lo = stop ? 31 - __clz(stop) : 0;
      T v{};
      if ((!kSecondPass || stop || depth < kHeld) && active && lane_ >= lo) v = lane_value(j, me);
      if constexpr (kSecondPass) {
        if (stop) {
          T folded = fold(v, lo);
          ok = true;
          // Farthest first: the windows passed beyond the held ones are
          // read again, then the held ones folded from their slots.
          for (int d = depth; d > kHeld && ok; --d) {
            base += kWindow;
            ok = refold(base, folded);
            if constexpr (kInstrumented) ++rereads_;
          }
          if constexpr (kHeld > 0) {
            __syncwarp(kFull);  // each lane stored its own slots
            for (int k = (depth < kHeld ? depth : kHeld) - 1; k >= 0; --k)
              for (int m = 0; m < kWindow; ++m)
                folded = op_(folded, held_slots()[k * 32 + m]);
            __syncwarp(kFull);  // read before the warp's next look-back stores
          }
          exclusive = folded;
          break;
        }
        // A passed window: every active lane read AGGREGATE (no padding
        // lanes: a window that reaches tile 0 holds its PREFIX).
        if constexpr (kHeld > 0) {
          if (depth < kHeld) held_slots()[depth * 32 + lane_] = v;
        }
        ++depth;
      } else {
        // Each window's value in front of the nearer ones' (a tree; the
        // flawed left fold folds within the window only).
        const T window = kLeftFold ? fold(v, lo) : tree(v, lo);
        acc = acc.valid ? Partial<T>{op_(window, acc.value), true} : Partial<T>{window, true};
        if (stop) {
          exclusive = acc.value;
          ok = true;
          break;
        }
      }
      base -= kWindow;
    }
    if constexpr (kInstrumented) flush_stats();
    return ok;
  }

 private:
  struct View {
    Word w;      // the descriptor word this lane last read
    bool known;  // its value is already in v (set by a successful fallback)
    T v;
  };

  __device__ protocol::Status status(Word w) const {
    return protocol::effective_status(Desc::tag(w), epoch_, P.reset);
  }
  __device__ static bool is_stop(protocol::Status s) {
    if constexpr (P.flaw == protocol::Flaw::StopAtAggregate) {
      return s != protocol::Status::Invalid;
    } else {
      return s == protocol::Status::Prefix;
    }
  }
  __device__ T lane_value(std::int64_t j, const View& me) const {
    return me.known ? me.v : desc_.value(static_cast<std::uint32_t>(j), me.w);
  }

  // Reads window [base - kWindow, base - 1] until no lane's descriptor is
  // INVALID; runs the fallback when the spec bounds the wait.
  template <class Reducer>
  __device__ bool wait_window(std::int64_t base, View& me, Reducer& reduce) {
    const std::int64_t j = base - kWindow + lane_;
    const bool active = lane_ < kWindow && j >= 0;
    int spins = 0;
    bool reload = true;
    while (true) {
      if (reload) {
        if (active) {
          me.w = desc_.load(static_cast<std::uint32_t>(j));
          me.known = false;
        }
        fence<P.lookback_fence>();
        if constexpr (kInstrumented)
          perturb_delay(*perturb_, tile_, PerturbPoint::InLookback,
                        static_cast<std::uint32_t>(base) * 64u + static_cast<std::uint32_t>(spins));
      }
      const unsigned invalid =
          __ballot_sync(kFull, active && status(me.w) == protocol::Status::Invalid);
      if (invalid == 0) return true;
      reload = true;
      if (wd_.expired(tile_, lane_)) return false;
      if constexpr (kInstrumented) ++spin_rounds_;
      if constexpr (kSpinDelayNs > 0) __nanosleep(kSpinDelayNs);
      if constexpr (protocol::bounded_wait(P)) {
        if (++spins >= P.spin_bound) {
          spins = 0;
          const int blocker = 31 - __clz(invalid);  // the closest INVALID predecessor
          fallback(base - kWindow + blocker, blocker, me, reduce);
          reload = false;  // use what the CAS observed; re-read the rest next round
        }
      }
    }
  }

  template <class Reducer>
  __device__ void fallback(std::int64_t jb, int blocker, View& me, Reducer& reduce) {
    const auto t = static_cast<std::uint32_t>(jb);
    T aggregate = reduce(t);  // warp-collective
    // Tile 0's reduction is its inclusive prefix (protocol::fallback_status),
    // which in an exclusive scan begins with the init, as its owner's
    // publish does (TilePrefix::publish_aggregate): the same bits.
    if (jb == 0 && first_.valid) aggregate = op_(first_.value, aggregate);
    if constexpr (kInstrumented)
      perturb_delay(*perturb_, tile_, PerturbPoint::BeforeFallbackPublish, t);
    const protocol::Status fs = protocol::fallback_status(jb);
    Word seen = cub::ShuffleIndex<32>(me.w, blocker, kFull);
    bool publish = true;
    if constexpr (protocol::fallback_validates(P)) {
      fence<protocol::validation_fence(P)>();
      // Every lane read part of tile t and fenced; the blocker alone
      // re-reads the descriptor. Shuffles order nothing in the memory model:
      // the barrier makes each lane's read-then-fence precede the blocker's
      // re-read, so an output value any lane took implies the owner's
      // publish is visible to the re-read. (The model runs one thread per
      // block, so this is the kernel's to keep.)
      __syncwarp(kFull);
      Word again{};
      if (lane_ == blocker) again = desc_.load(t);
      fence<P.lookback_fence>();
      again = cub::ShuffleIndex<32>(again, blocker, kFull);
      if (status(again) != protocol::Status::Invalid) publish = false;  // discard
      seen = again;
    }
    bool won = false;
    if (lane_ == blocker) {
      if (!publish) {
        me.w = seen;
        me.known = false;
      } else if constexpr (protocol::fallback_uses_cas(P)) {
        Word expected = seen;
        if (desc_.cas_publish(t, expected, fs, aggregate, epoch_)) {
          me.w = Desc::published_word(fs, aggregate, epoch_);
          me.known = true;
          me.v = aggregate;
          won = true;
        } else {
          me.w = expected;  // what the CAS observed: AGGREGATE or PREFIX of this epoch
          me.known = false;
        }
      } else {
        desc_.publish(t, fs, aggregate, epoch_);  // flawed: plain store
        me.w = Desc::published_word(fs, aggregate, epoch_);
        me.known = true;
        me.v = aggregate;
        won = true;
      }
    }
    fence<P.lookback_fence>();  // the CAS's read is a look-back read too
    if constexpr (kInstrumented) {
      ++fallbacks_;
      if (__any_sync(kFull, won)) ++fallback_wins_;
    }
  }

  // value(from) op ... op value(kWindow - 1) as a tree: a suffix reduction,
  // after which lane l holds value(l) op ... op value(kWindow - 1).
  __device__ T tree(T v, int from) const {
#pragma unroll
    for (int off = 1; off < kWindow; off <<= 1) {
      const T other = cub::ShuffleDown<32>(v, off, 31, kFull);
      if (lane_ + off < kWindow) v = op_(v, other);
    }
    return cub::ShuffleIndex<32>(v, from, kFull);
  }

  // Left fold of the lanes [from, kWindow - 1] of v, one by one. (Unrolled
  // over all 32 lanes, with the ops predicated, it made pipelined's and the
  // fallback's deterministic scans 8-15% slower at 2^21-2^24 on an H200 and
  // coarsened's 1-3% faster: bench/results/h200/held-windows/.)
  __device__ T fold(const T& v, int from) const {
    T a = cub::ShuffleIndex<32>(v, from, kFull);
    for (int m = from + 1; m < kWindow; ++m)
      a = op_(a, cub::ShuffleIndex<32>(v, m, kFull));
    return a;
  }

  // Deterministic second pass: fold window [base - kWindow, base - 1] (all of
  // whose descriptors were seen non-INVALID) into `a`, restarting at its
  // closest PREFIX if it has one by now. One read per lane, no wait: each
  // lane reads again the word it read non-INVALID, and a descriptor only
  // moves up, so INVALID means the storage changed under the scan. That is
  // an error, not a wait (which would be unbounded in the fallback, whose
  // waits are bounded); the model checks that it cannot happen.
  __device__ bool refold(std::int64_t base, T& a) {
    const std::int64_t j = base - kWindow + lane_;
    const bool active = lane_ < kWindow;
    if constexpr (kInstrumented)
      perturb_delay(*perturb_, tile_, PerturbPoint::InSecondPass, static_cast<std::uint32_t>(base));
    Word w{};
    if (active) w = desc_.load(static_cast<std::uint32_t>(j));
    fence<P.lookback_fence>();
    const unsigned back = __ballot_sync(kFull, active && status(w) == protocol::Status::Invalid);
    if (back != 0) {
      if (lane_ == 0)
        raise_error(header_, DeviceError::DescriptorWentBack,
                    static_cast<std::uint32_t>(base - kWindow + (31 - __clz(back))));
      return false;
    }
    const unsigned stop = __ballot_sync(kFull, active && is_stop(status(w)));
    const int lo = stop ? 31 - __clz(stop) : 0;
    T v{};
    if (active && lane_ >= lo) v = desc_.value(static_cast<std::uint32_t>(j), w);
    if constexpr (kInstrumented) rereads_restarted_ += stop != 0;
    a = stop ? fold(v, lo) : fold_onto(a, v);
    return true;
  }

  // a op v(lane 0) op ... op v(lane kWindow - 1), one by one.
  __device__ T fold_onto(T a, const T& v) const {
#pragma unroll
    for (int m = 0; m < kWindow; ++m)
      a = op_(a, cub::ShuffleIndex<32>(v, m, kFull));
    return a;
  }

  // The lane values of the kHeld nearest passed windows ([window][lane]),
  // in shared memory: registers would be taken from every thread of the
  // block, and ptxas spilled coarsened f64's (72 bytes with 4 windows in
  // registers, 9.8% slower at 2^28 on an H200). Warp 0 alone looks back.
  __device__ static T* held_slots() {
    static_assert(std::is_trivially_copyable_v<T>, "held values are copied as bytes");
    __shared__ alignas(alignof(T)) unsigned char raw[(kHeld > 0 ? kHeld : 1) * 32 * sizeof(T)];
    return reinterpret_cast<T*>(raw);
  }

  __device__ void flush_stats() {
    if (lane_ != 0) return;
    LookbackStats& s = header_->stats;
    device_ref<unsigned long long>(s.windows).fetch_add(windows_, cuda::memory_order_relaxed);
    if (spin_rounds_)
      device_ref<unsigned long long>(s.spin_rounds)
          .fetch_add(spin_rounds_, cuda::memory_order_relaxed);
    if (fallbacks_)
      device_ref<unsigned long long>(s.fallbacks).fetch_add(fallbacks_, cuda::memory_order_relaxed);
    if (fallback_wins_)
      device_ref<unsigned long long>(s.fallback_wins)
          .fetch_add(fallback_wins_, cuda::memory_order_relaxed);
    if (rereads_)
      device_ref<unsigned long long>(s.reread_windows)
          .fetch_add(rereads_, cuda::memory_order_relaxed);
    if (rereads_restarted_)
      device_ref<unsigned long long>(s.reread_restarts)
          .fetch_add(rereads_restarted_, cuda::memory_order_relaxed);
  }

  Desc desc_;
  Op op_;
  Partial<T> first_;
  std::uint32_t epoch_;
  Header* header_;
  Watchdog wd_;
  std::uint32_t tile_;
  int lane_;
  const Perturbation* perturb_;  // instrumented kernels only
  unsigned long long windows_ = 0, spin_rounds_ = 0, fallbacks_ = 0, fallback_wins_ = 0,
                     rereads_ = 0, rereads_restarted_ = 0;
};

}  // namespace lookback::device
