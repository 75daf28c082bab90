// Device side of the schedule perturbations (perturb.hpp). Instrumented
// kernels call these at the protocol points; every call is warp-uniform
// (the same hash on every lane), so a warp sleeps or not as one.
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "lookback/device/global_timer.cuh"
#include "lookback/device/perturb.hpp"
#include "lookback/splitmix.hpp"

namespace lookback::device {

// A 32-bit hash of three words through the project's mixer (splitmix64):
// adjacent tiles get unrelated values, and host tests can compute it too.
__host__ __device__ constexpr std::uint32_t perturb_hash(std::uint32_t a, std::uint32_t b,
                                                         std::uint32_t c) {
  return static_cast<std::uint32_t>(
      splitmix64(splitmix64((static_cast<std::uint64_t>(a) << 32) | b) ^ c));
}

__device__ inline void sleep_ns(std::uint32_t ns) {
  for (std::uint32_t slept = 0; slept < ns; slept += 1000)
    __nanosleep(ns - slept < 1000 ? ns - slept : 1000);
}

// A random delay at `point` (round: which look-back window, 0 elsewhere).
__device__ inline void perturb_delay(const Perturbation& q, std::uint32_t tile, PerturbPoint point,
                                     std::uint32_t round = 0) {
  const std::uint32_t max_ns = q.max_delay_ns(point);
  if (q.delay_chance == 0 || max_ns == 0) return;
  static_assert(kPerturbPoints <= 8, "the point takes the salt's low 3 bits");
  const std::uint32_t h =
      perturb_hash(q.seed, tile, (round << 3) | static_cast<std::uint32_t>(point));
  if ((h & 0xffffu) >= q.delay_chance) return;
  sleep_ns(perturb_hash(h, tile, q.seed) % (max_ns + 1));
}

// Starvation (Perturbation::starve_tile): the tile waits until the launch's
// other blocks have all counted themselves finished, bounded by starve_ns.
__device__ inline void perturb_starve(const Perturbation& q, std::uint32_t tile) {
  if (tile != q.starve_tile || q.starve_ns == 0 || q.starve_done == nullptr) return;
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> done(*q.starve_done);
  const std::uint64_t start = global_timer_ns();
  while (done.load(cuda::memory_order_relaxed) < q.starve_until_done &&
         global_timer_ns() - start < q.starve_ns)
    __nanosleep(2000);
}

// A block is done with descriptors: the starved tile's counter
// (Perturbation::starve_done) counts it. Called by one thread per block.
__device__ inline void perturb_count_done(const Perturbation& q) {
  if (q.starve_done == nullptr) return;
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(*q.starve_done)
      .fetch_add(1u, cuda::memory_order_relaxed);
}

// The blocking simulation: the chosen tiles sleep before publishing; the
// starved tile waits for everyone else.
__device__ inline void perturb_stall(const Perturbation& q, std::uint32_t tile) {
  perturb_starve(q, tile);
  if (q.stall_ns == 0) return;
  const bool every = q.stall_every != 0 && tile % q.stall_every == q.stall_every - 1;
  const bool chance =
      q.stall_chance != 0 && (perturb_hash(q.seed, tile, 0xabcdu) & 0xffffu) < q.stall_chance;
  if (every || chance) sleep_ns(q.stall_ns);
}

// The tile a block works on when it drew `t` (a bijection of [0, num_tiles)).
__host__ __device__ inline std::uint32_t perturb_tile(const Perturbation& q, std::uint32_t t,
                                                      std::uint32_t num_tiles) {
  if (q.tile_map == TileMap::Identity || t >= num_tiles) return t;
  const std::uint32_t w = q.map_window == 0 ? num_tiles : q.map_window;
  const std::uint32_t base = t / w * w;
  const std::uint32_t len = num_tiles - base < w ? num_tiles - base : w;
  const std::uint32_t off = t - base;
  if (q.tile_map == TileMap::Reversed) return base + (len - 1 - off);
  // Shuffled: off -> (a * off + b) mod len, a bijection when gcd(a, len) = 1;
  // a is a prime that does not divide len.
  const std::uint32_t h = perturb_hash(q.seed, base, 0x5eedu);
  constexpr std::uint32_t kPrimes[3] = {65537u, 131071u, 524287u};
  std::uint32_t a = kPrimes[h % 3];
  if (len % a == 0) a = 2147483647u;
  const std::uint64_t mixed = static_cast<std::uint64_t>(a) * off + (h >> 2);
  return base + static_cast<std::uint32_t>(mixed % len);
}

// Memory pre-stress of the scanning threads: relaxed stores and loads of
// random scratch words (other blocks hammer the same lines).
__device__ inline void prestress(const Perturbation& q) {
  if (q.prestress_rounds == 0 || q.scratch == nullptr || q.scratch_words == 0) return;
  std::uint32_t sink = 0;
  for (std::uint32_t r = 0; r < q.prestress_rounds; ++r) {
    const std::uint32_t h = perturb_hash(q.seed ^ blockIdx.x, threadIdx.x, r);
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> word(q.scratch[h % q.scratch_words]);
    if (h & 0x10000u) {
      word.store(h, cuda::memory_order_relaxed);
    } else {
      sink += word.load(cuda::memory_order_relaxed);
    }
  }
  // Keeps the loads alive without a visible effect in practice.
  if (sink == 0xfeedf00du) q.scratch[0] = sink;
}

}  // namespace lookback::device
