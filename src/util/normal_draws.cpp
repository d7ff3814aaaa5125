// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Standard normal draws in bulk (rng.hpp; the training simulator's and the audit's Gaussian noise,
// docs/reference/learn.md, "Noise").
//
// fill_standard_normal: the ziggurat method of Marsaglia & Tsang (J. Stat. Softw. 5(8), 2000) with
// 128 layers, in Doornik's form ("An improved ziggurat method to generate normal random samples",
// 2005: the layer index and the uniform come from disjoint bits of one draw, so they are
// independent). It is an exact sampler of N(0, 1) (up to floating point). The buffer is cut into
// fixed chunks of kNormalChunk draws; chunk k has its own generator seeded from (one draw of the
// caller's rng, k), so the chunks fill in parallel (OpenMP) and the output does not depend on the
// thread count.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "netdp/util/rng.hpp"

namespace netdp::util {

namespace {

constexpr int kLayers = 128;
constexpr double kTailStart = 3.442619855899;       // r of Marsaglia & Tsang (2000), 128 layers
constexpr double kLayerArea = 9.91256303526217e-3;  // v: the area of every layer (f unnormalized)

/// f(x) = exp(−x²/2), the unnormalized normal density the layers are built on.
double density(double x) { return std::exp(-0.5 * x * x); }

struct ZigguratTables {
  std::array<double, kLayers + 1> x{};        ///< x[0] = v/f(r) (base strip), x[1] = r, …, x[128] = 0
  std::array<double, kLayers + 1> f{};        ///< f(x[i])
  std::array<double, kLayers> inner_ratio{};  ///< x[i+1]/x[i]: |u| below it is inside the curve

  ZigguratTables() {
    x[0] = kLayerArea / density(kTailStart);
    x[1] = kTailStart;
    x[kLayers] = 0.0;
    // Layer i (between heights f(x[i]) and f(x[i+1])) has area v = x[i] (f(x[i+1]) − f(x[i])).
    for (int i = 2; i < kLayers; ++i)
      x[i] = std::sqrt(-2.0 * std::log(kLayerArea / x[i - 1] + density(x[i - 1])));
    for (int i = 0; i <= kLayers; ++i) f[i] = density(x[i]);
    for (int i = 0; i < kLayers; ++i) inner_ratio[i] = x[i + 1] / x[i];
  }
};

const ZigguratTables& tables() {
  static const ZigguratTables t;  // thread-safe initialization
  return t;
}

/// Uniform on (0, 1] (never 0: the tail takes its logarithm).
double uniform_open0(Rng& rng) { return 1.0 - rng.uniform01(); }

/// One N(0, 1) draw by the ziggurat; ~99% of draws take the first branch (one 64-bit output).
double ziggurat_normal(Rng& rng, const ZigguratTables& t) {
  while (true) {
    const std::uint64_t bits = rng.next();
    const auto i = static_cast<int>(bits & 0x7F);                                // layer: bits 0..6
    const double u = 2.0 * (static_cast<double>(bits >> 11) * 0x1.0p-53) - 1.0;  // bits 11..63
    if (std::abs(u) < t.inner_ratio[i]) return u * t.x[i];
    if (i == 0) {
      // The base strip beyond r is the tail: Marsaglia's (1964) exact tail sampler.
      double s = 0.0;
      double e = 0.0;
      do {
        s = -std::log(uniform_open0(rng)) / kTailStart;
        e = -std::log(uniform_open0(rng));
      } while (2.0 * e < s * s);
      return u < 0.0 ? -(kTailStart + s) : kTailStart + s;
    }
    // The wedge of layer i: accept if a uniform height in [f(x[i]), f(x[i+1])] is under f(x).
    const double x = u * t.x[i];
    if (t.f[i] + rng.uniform01() * (t.f[i + 1] - t.f[i]) < density(x)) return x;
  }
}

}  // namespace

void fill_standard_normal(double* out, std::size_t count, Rng& rng) {
  if (count == 0) return;
  const std::uint64_t base = rng.next();  // the caller's stream advances by exactly one draw
  const ZigguratTables& t = tables();
  const auto chunks = static_cast<std::int64_t>((count + kNormalChunk - 1) / kNormalChunk);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::int64_t k = 0; k < chunks; ++k) {
    Rng chunk_rng(sub_seed(base, static_cast<std::uint64_t>(k)));
    const std::size_t first = static_cast<std::size_t>(k) * kNormalChunk;
    const std::size_t last = std::min(first + kNormalChunk, count);
    for (std::size_t i = first; i < last; ++i) out[i] = ziggurat_normal(chunk_rng, t);
  }
}

}  // namespace netdp::util
