// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Platform-independent random numbers: std::mt19937_64 (whose output sequence
// the C++ standard fixes) with netdp's own distributions. The standard
// std::*_distribution and std::shuffle are implementation-defined and are never
// used: a seed gives the same draws with every standard library. (The floating-point
// calls std::log, std::sqrt and std::pow below are the only libm dependence.)

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <random>
#include <utility>

namespace netdp::util {

/// A seed for component `stream` of a run seeded with `seed` (splitmix64 of seed + stream·φ).
std::uint64_t sub_seed(std::uint64_t seed, std::uint64_t stream);

/// Counter-mode PRF word (keyed splitmix64): the `index`-th word of the stream for `key`. Statistically
/// uniform, not cryptographically secure.
std::uint64_t prf_word(std::uint64_t key, std::uint64_t index);

/// A seeded 64-bit Mersenne twister with exactly specified distributions.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  /// The next raw 64-bit output of std::mt19937_64.
  std::uint64_t next() { return engine_(); }

  /// Uniform on [0, 1): the top 53 bits of one output times 2^-53.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Uniform on {0, ..., bound-1} by rejection: draws r until r >= 2^64 mod bound,
  /// returns r mod bound (no modulo bias). Requires bound >= 1.
  std::uint64_t uniform_below(std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
    std::uint64_t r = next();
    while (r < threshold) r = next();
    return r % bound;
  }

  /// True with probability p (uniform01() < p).
  bool bernoulli(double p) { return uniform01() < p; }

  /// N(0, 1) by the Marsaglia polar method: u, v = 2·uniform01() − 1 until 0 < s = u² + v² < 1,
  /// returns u·√(−2 ln s / s) (the second normal of the pair is discarded).
  double standard_normal();

  /// Gamma(shape, 1) by Marsaglia & Tsang (2000, "A simple method for generating gamma
  /// variables"), on standard_normal and uniform01; shape < 1 as Gamma(shape + 1) · U^(1/shape)
  /// (which may underflow to 0 for a tiny shape). Throws std::invalid_argument unless shape is
  /// finite and > 0.
  double gamma(double shape);

  /// Fisher–Yates: for i = n−1 down to 1, swaps element i with element uniform_below(i + 1).
  template <class RandomIt>
  void shuffle(RandomIt first, RandomIt last) {
    const auto n = static_cast<std::uint64_t>(std::distance(first, last));
    for (std::uint64_t i = n; i > 1; --i) {
      using std::swap;
      swap(first[static_cast<std::ptrdiff_t>(i - 1)], first[static_cast<std::ptrdiff_t>(uniform_below(i))]);
    }
  }

 private:
  std::mt19937_64 engine_;
};

/// Draws per independently seeded chunk of fill_standard_normal (fixed: the output must not
/// depend on the thread count).
inline constexpr std::size_t kNormalChunk = 16384;
/// `count` standard normal draws into out[0..count): ziggurat (Marsaglia–Tsang 2000, Doornik 2005)
/// on chunks of kNormalChunk, chunk k seeded from (one rng.next(), k); filled in parallel (OpenMP),
/// identical for any thread count. Advances `rng` by exactly one draw.
void fill_standard_normal(double* out, std::size_t count, Rng& rng);

}  // namespace netdp::util
