#pragma once
// Platform-independent random numbers: std::mt19937_64 (whose output sequence
// the C++ standard fixes) with netdp's own distributions. The standard
// std::uniform_*_distribution are implementation-defined and are never used.

#include <cstdint>
#include <random>

namespace netdp::graph {

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

 private:
  std::mt19937_64 engine_;
};

}  // namespace netdp::graph
