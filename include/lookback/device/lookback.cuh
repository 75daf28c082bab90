// The warp look-back, generated from a Protocol.
//
// One warp of the waiting tile reads the descriptors of a window of P.window
// predecessors at once (one lane each, or P.window / 32 consecutive ones a
// lane in a wider window; P.lookback_order, then P.lookback_fence), waits
// while any of them is INVALID, and combines the
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
// Deterministic mode: the exclusive prefix of tile i is always the left fold
// ((a_0 op a_1) op ...) op a_{i-1} of the tile aggregates, bitwise, whatever
// the scheduling. Every published PREFIX is such a fold, so a look-back that
// starts from the closest PREFIX p_s and folds a_{s+1}, ..., a_{i-1} one by
// one gives the same bits whichever PREFIX it met. Windows further back than
// the first are folded in a second pass, left to right, re-reading the nearer
// windows (whose descriptors can only have moved up to PREFIX, whose value is
// again a canonical fold). This costs a serial fold instead of a tree.
#pragma once

#include <cstdint>

#include <cub/util_ptx.cuh>

#include "lookback/device/descriptor.cuh"
#include "lookback/device/launch_state.cuh"
#include "lookback/device/partial.cuh"
#include "lookback/device/perturb.cuh"
#include "lookback/protocol/spec.hpp"

namespace lookback::device {

template <Protocol P, class T, class Op, bool kDeterministic, bool kInstrumented,
          int kSpinDelayNs = 0, bool kPollInvalidOnly = false>
class WindowLookback {
 public:
  using Desc = Descriptor<P, T>;
  using Word = typename Desc::Word;
  static constexpr int kWindow = P.window;
  static_assert(protocol::valid_window(kWindow), "a look-back window is read by one warp");
  // Lane l reads the kSlots consecutive predecessors base - kWindow +
  // l * kSlots + [0, kSlots): the higher the lane and slot, the nearer the
  // tile.
  static constexpr int kLanes = kWindow < 32 ? kWindow : 32;
  static constexpr int kSlots = kWindow / kLanes;
  static constexpr unsigned kFull = 0xffffffffu;

  __device__ WindowLookback(const Desc& desc, Op op, std::uint32_t epoch, Header* header,
                            std::uint32_t watchdog_limit, std::uint32_t tile, int lane,
                            const Perturbation& perturb)
      : desc_(desc),
        op_(op),
        epoch_(epoch),
        header_(header),
        wd_{header, watchdog_limit},
        tile_(tile),
        lane_(lane),
        perturb_(&perturb) {}

  // Called by all 32 lanes of the warp, for tile >= 1. On success every lane
  // gets exclusive = (combined value of tiles 0 .. tile-1) and it returns
  // true; false when the watchdog made it give up. `reduce(t)` is the
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
      const int my_stop = nearest(base, me, [&](Word w) { return is_stop(status(w)); });
      const unsigned stop = __ballot_sync(kFull, my_stop >= 0);
      if (stop == 0 && base < kWindow) {
        // The window reaches tile 0 and holds no PREFIX: tile 0 never
        // published one (only a flawed variant does that). Wait, bounded.
        if (wd_.expired(tile_, lane_)) break;
        continue;
      }
      // The closest stop: lane lo, slot lo_slot (the whole window without one).
      const int lo = stop ? 31 - __clz(stop) : 0;
      const int lo_slot = stop ? cub::ShuffleIndex<32>(my_stop, lo, kFull) : 0;
      T v[kSlots]{};
      if (!kDeterministic || stop) values(base, me, lo, lo_slot, v);
      if constexpr (!kDeterministic) {
        // Each lane folds its own slots from the stop on, then a suffix
        // reduction: lane l ends with (lane l's part) op ... op (lane kLanes-1's).
        T mine = fold_slots(v, lane_ == lo ? lo_slot : 0);
#pragma unroll
        for (int off = 1; off < kLanes; off <<= 1) {
          const T other = cub::ShuffleDown<32>(mine, off, 31, kFull);
          if (lane_ + off < kLanes) mine = op_(mine, other);
        }
        const T window = cub::ShuffleIndex<32>(mine, lo, kFull);
        acc = acc.valid ? Partial<T>{op_(window, acc.value), true} : Partial<T>{window, true};
        if (stop) {
          exclusive = acc.value;
          ok = true;
          break;
        }
      } else {
        if (stop) {
          T folded = fold(v, lo, lo_slot);
          ok = true;
          for (int d = 0; d < depth && ok; ++d) {
            base += kWindow;
            ok = refold(base, folded);
          }
          exclusive = folded;
          break;
        }
        ++depth;
      }
      base -= kWindow;
    }
    if constexpr (kInstrumented) flush_stats();
    return ok;
  }

 private:
  struct View {
    Word w[kSlots];      // the descriptor words this lane last read
    bool known[kSlots];  // that value is already in v (set by a successful fallback)
    T v[kSlots];
  };

  __device__ std::int64_t index(std::int64_t base, int slot) const {
    return base - kWindow + static_cast<std::int64_t>(lane_) * kSlots + slot;
  }
  __device__ bool active(std::int64_t base, int slot) const {
    return lane_ < kLanes && index(base, slot) >= 0;
  }
  // This lane's nearest active slot whose word satisfies `pred`, or -1.
  template <class Pred>
  __device__ int nearest(std::int64_t base, const View& me, Pred pred) const {
    int found = -1;
#pragma unroll
    for (int m = 0; m < kSlots; ++m)
      if (active(base, m) && pred(me.w[m])) found = m;
    return found;
  }

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
  // The values of this lane's slots from the closest stop (lane lo, slot
  // lo_slot) on; the others, which the fold skips, stay T{} (a split layout
  // reads no value word for them).
  __device__ void values(std::int64_t base, const View& me, int lo, int lo_slot,
                         T (&v)[kSlots]) const {
#pragma unroll
    for (int m = 0; m < kSlots; ++m) {
      if (!active(base, m) || lane_ < lo || (lane_ == lo && m < lo_slot)) continue;
      v[m] =
          me.known[m] ? me.v[m] : desc_.value(static_cast<std::uint32_t>(index(base, m)), me.w[m]);
    }
  }
  // Left fold of this lane's slots [from, kSlots - 1].
  __device__ T fold_slots(const T (&v)[kSlots], int from) const {
    T a = v[kSlots - 1];
    if constexpr (kSlots > 1) {
      Partial<T> p{};
#pragma unroll
      for (int m = 0; m < kSlots; ++m)
        if (m >= from) p = combine(op_, p, v[m]);
      a = p.value;
    }
    return a;
  }

  // Reads window [base - kWindow, base - 1] until no lane's descriptor is
  // INVALID; runs the fallback when the spec bounds the wait.
  template <class Reducer>
  __device__ bool wait_window(std::int64_t base, View& me, Reducer& reduce) {
    int spins = 0;
    bool reload = true;
    bool first = true;
    while (true) {
      if (reload) {
        if (kLanes == 32 || lane_ < kLanes) {
          // Every slot loads (a slot before tile 0 reads tile 0's word and
          // is ignored): one basic block, so the loads issue back to back.
          // kPollInvalidOnly: a re-read skips the words already seen
          // non-INVALID (a descriptor never moves back).
#pragma unroll
          for (int m = 0; m < kSlots; ++m) {
            const std::int64_t j = index(base, m);
            if (!kPollInvalidOnly || first || status(me.w[m]) == protocol::Status::Invalid) {
              me.w[m] = desc_.load(static_cast<std::uint32_t>(j < 0 ? 0 : j));
              me.known[m] = false;
            }
          }
        }
        first = false;
        fence<P.lookback_fence>();
        if constexpr (kInstrumented)
          perturb_delay(*perturb_, tile_, PerturbPoint::InLookback,
                        static_cast<std::uint32_t>(base) * 64u + static_cast<std::uint32_t>(spins));
      }
      const int my_invalid =
          nearest(base, me, [&](Word w) { return status(w) == protocol::Status::Invalid; });
      const unsigned invalid = __ballot_sync(kFull, my_invalid >= 0);
      if (invalid == 0) return true;
      reload = true;
      if (wd_.expired(tile_, lane_)) return false;
      if constexpr (kInstrumented) ++spin_rounds_;
      if constexpr (kSpinDelayNs > 0) __nanosleep(kSpinDelayNs);
      if constexpr (protocol::bounded_wait(P)) {
        if (++spins >= P.spin_bound) {
          spins = 0;
          // The closest INVALID predecessor.
          const int blocker = 31 - __clz(invalid);
          const int slot = cub::ShuffleIndex<32>(my_invalid, blocker, kFull);
          fallback(base - kWindow + static_cast<std::int64_t>(blocker) * kSlots + slot, blocker,
                   slot, me, reduce);
          reload = false;  // use what the CAS observed; re-read the rest next round
        }
      }
    }
  }

  template <class Reducer>
  __device__ void fallback(std::int64_t jb, int blocker, int slot, View& me, Reducer& reduce) {
    const auto t = static_cast<std::uint32_t>(jb);
    const T aggregate = reduce(t);  // warp-collective
    if constexpr (kInstrumented)
      perturb_delay(*perturb_, tile_, PerturbPoint::BeforeFallbackPublish, t);
    // Tile 0's reduction is its inclusive prefix (protocol::fallback_status).
    const protocol::Status fs = protocol::fallback_status(jb);
    Word seen = cub::ShuffleIndex<32>(slot_word(me, slot), blocker, kFull);
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
    Word w = seen;
    bool known = false;
    if (lane_ == blocker) {
      if (!publish) {
        // keep what the re-read saw
      } else if constexpr (protocol::fallback_uses_cas(P)) {
        Word expected = seen;
        if (desc_.cas_publish(t, expected, fs, aggregate, epoch_)) {
          w = Desc::published_word(fs, aggregate, epoch_);
          known = true;
          won = true;
        } else {
          w = expected;  // what the CAS observed: AGGREGATE or PREFIX of this epoch
        }
      } else {
        desc_.publish(t, fs, aggregate, epoch_);  // flawed: plain store
        w = Desc::published_word(fs, aggregate, epoch_);
        known = true;
        won = true;
      }
#pragma unroll
      for (int m = 0; m < kSlots; ++m) {
        if (m != slot) continue;
        me.w[m] = w;
        me.known[m] = known;
        me.v[m] = aggregate;
      }
    }
    fence<P.lookback_fence>();  // the CAS's read is a look-back read too
    if constexpr (kInstrumented) {
      ++fallbacks_;
      if (__any_sync(kFull, won)) ++fallback_wins_;
    }
  }
  // me.w[slot] for a slot known at run time only (a register array is
  // indexed by constants).
  __device__ static Word slot_word(const View& me, int slot) {
    Word w = me.w[0];
#pragma unroll
    for (int m = 1; m < kSlots; ++m)
      if (m == slot) w = me.w[m];
    return w;
  }

  // Left fold, one value at a time, of lane `from`'s slots [from_slot,
  // kSlots - 1] and every slot of the lanes above it.
  __device__ T fold(const T (&v)[kSlots], int from, int from_slot) const {
    Partial<T> a{};
    for (int lane = from; lane < kLanes; ++lane) {
#pragma unroll
      for (int m = 0; m < kSlots; ++m) {
        const T x = cub::ShuffleIndex<32>(v[m], lane, kFull);
        if (lane > from || m >= from_slot) a = combine(op_, a, x);
      }
    }
    return a.value;
  }

  // Deterministic second pass: fold window [base - kWindow, base - 1] (all of
  // whose descriptors were seen non-INVALID) into `a`, restarting at its
  // closest PREFIX if it has one by now.
  __device__ bool refold(std::int64_t base, T& a) {
    View me{};
    while (true) {
#pragma unroll
      for (int m = 0; m < kSlots; ++m) {
        if (active(base, m)) me.w[m] = desc_.load(static_cast<std::uint32_t>(index(base, m)));
        me.known[m] = false;
      }
      fence<P.lookback_fence>();
      const int my_invalid =
          nearest(base, me, [&](Word w) { return status(w) == protocol::Status::Invalid; });
      if (__ballot_sync(kFull, my_invalid >= 0) == 0) break;
      if (wd_.expired(tile_, lane_)) return false;  // a descriptor moved backwards
    }
    const int my_stop = nearest(base, me, [&](Word w) { return is_stop(status(w)); });
    const unsigned stop = __ballot_sync(kFull, my_stop >= 0);
    const int lo = stop ? 31 - __clz(stop) : 0;
    const int lo_slot = stop ? cub::ShuffleIndex<32>(my_stop, lo, kFull) : 0;
    T v[kSlots]{};
    values(base, me, lo, lo_slot, v);
    if (stop) {
      a = fold(v, lo, lo_slot);
    } else {
      for (int lane = 0; lane < kLanes; ++lane) {
#pragma unroll
        for (int m = 0; m < kSlots; ++m)
          a = op_(a, cub::ShuffleIndex<32>(v[m], lane, kFull));
      }
    }
    return true;
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
  }

  Desc desc_;
  Op op_;
  std::uint32_t epoch_;
  Header* header_;
  Watchdog wd_;
  std::uint32_t tile_;
  int lane_;
  const Perturbation* perturb_;  // instrumented kernels only
  unsigned long long windows_ = 0, spin_rounds_ = 0, fallbacks_ = 0, fallback_wins_ = 0;
};

}  // namespace lookback::device
