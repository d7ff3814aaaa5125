// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/util/rng.hpp"

#include <cmath>

#include "netdp/util/check.hpp"

namespace netdp::util {

namespace {

constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;  // 2^64 / φ, splitmix64's increment

// splitmix64's output function (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
std::uint64_t splitmix_output(std::uint64_t z) {
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

std::uint64_t mix64(std::uint64_t z) { return splitmix_output(z + kGolden); }

}  // namespace

std::uint64_t sub_seed(std::uint64_t seed, std::uint64_t stream) {
  return splitmix_output(seed + stream * kGolden);
}

std::uint64_t prf_word(std::uint64_t key, std::uint64_t index) { return mix64(key ^ mix64(index)); }

double Rng::standard_normal() {
  while (true) {
    const double u = 2.0 * uniform01() - 1.0;
    const double v = 2.0 * uniform01() - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) return u * std::sqrt(-2.0 * std::log(s) / s);
  }
}

double Rng::gamma(double shape) {
  require(std::isfinite(shape) && shape > 0.0, "gamma: the shape must be a finite number > 0, got {}", shape);
  if (shape < 1.0) {
    const double g = gamma(shape + 1.0);
    return g * std::pow(uniform01(), 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    double x = 0.0;
    double v = 0.0;
    do {
      x = standard_normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniform01();
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;  // squeeze
    if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v;
  }
}

}  // namespace netdp::util
