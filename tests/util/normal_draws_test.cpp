// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// fill_standard_normal (ziggurat, chunked, parallel): the N(0, 1) law, its tail, and outputs that do
// not depend on the thread count.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "netdp/util/rng.hpp"

namespace netdp::util {
namespace {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

/// sup |F_n − F| of the sorted sample `z` against the cdf F (Kolmogorov–Smirnov statistic).
template <class Cdf>
double ks_statistic(std::vector<double> z, Cdf cdf) {
  std::sort(z.begin(), z.end());
  const auto n = static_cast<double>(z.size());
  double d = 0.0;
  for (std::size_t i = 0; i < z.size(); ++i) {
    const double f = cdf(z[i]);
    d = std::max({d, static_cast<double>(i + 1) / n - f, f - static_cast<double>(i) / n});
  }
  return d;
}

std::vector<double> draws(std::size_t count, std::uint64_t seed) {
  std::vector<double> z(count);
  Rng rng(seed);
  fill_standard_normal(z.data(), count, rng);
  return z;
}

// The ziggurat's first layer ends where the tail sampler starts (Marsaglia & Tsang's r, 128 layers).
constexpr double kTailStart = 3.442619855899;

TEST(SimulatorNoiseTest, DrawsFollowTheStandardNormalLaw) {
  const std::size_t n = 400000;
  const std::vector<double> z = draws(n, 11);
  // KS at level 0.001: sqrt(n) D < 1.95.
  EXPECT_LT(std::sqrt(static_cast<double>(n)) * ks_statistic(z, normal_cdf), 1.95);
  double mean = 0.0;
  double second = 0.0;
  double fourth = 0.0;
  for (const double x : z) {
    mean += x;
    second += x * x;
    fourth += x * x * x * x;
  }
  mean /= static_cast<double>(n);
  second /= static_cast<double>(n);
  fourth /= static_cast<double>(n);
  const double se = 1.0 / std::sqrt(static_cast<double>(n));
  EXPECT_NEAR(mean, 0.0, 5.0 * se);
  EXPECT_NEAR(second, 1.0, 5.0 * std::sqrt(2.0) * se);   // Var(x²) = 2
  EXPECT_NEAR(fourth, 3.0, 5.0 * std::sqrt(96.0) * se);  // Var(x⁴) = 105 − 9
}

TEST(SimulatorNoiseTest, TailBeyondTheBaseLayerHasTheNormalLaw) {
  const std::size_t n = 2000000;
  const std::vector<double> z = draws(n, 12);
  std::vector<double> tail;
  for (const double x : z) {
    if (std::abs(x) > kTailStart) tail.push_back(std::abs(x));
  }
  // The tail mass 2(1 − Φ(r)) ≈ 5.8e-4, within 5 binomial standard deviations.
  const double p = std::erfc(kTailStart / std::sqrt(2.0));
  const double expected = p * static_cast<double>(n);
  EXPECT_NEAR(static_cast<double>(tail.size()), expected, 5.0 * std::sqrt(expected));
  // Conditional law of |z| given |z| > r: F(x) = 1 − erfc(x/√2)/erfc(r/√2).
  const auto conditional = [p](double x) { return 1.0 - std::erfc(x / std::sqrt(2.0)) / p; };
  EXPECT_LT(std::sqrt(static_cast<double>(tail.size())) * ks_statistic(tail, conditional), 1.95);
}

TEST(SimulatorNoiseTest, OutputDoesNotDependOnTheThreadCount) {
  const std::size_t n = 5 * kNormalChunk + 123;  // several chunks and a partial one
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::vector<double> one = draws(n, 21);
  omp_set_num_threads(2);
  const std::vector<double> two = draws(n, 21);
  omp_set_num_threads(saved);
  EXPECT_EQ(one, two);
  // Chunks are seeded by their index: a shorter fill is a prefix of a longer one.
  const std::vector<double> shorter = draws(2 * kNormalChunk + 7, 21);
  EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), one.begin()));
  // ... and the chunks differ from each other.
  EXPECT_FALSE(std::equal(one.begin(), one.begin() + 100, one.begin() + kNormalChunk));
}

TEST(SimulatorNoiseTest, AdvancesTheCallersStreamByOneDraw) {
  Rng a(5);
  Rng b(5);
  std::vector<double> z(3 * kNormalChunk);
  fill_standard_normal(z.data(), z.size(), a);
  b.next();
  EXPECT_EQ(a.next(), b.next());
  fill_standard_normal(z.data(), 0, a);  // nothing drawn, nothing consumed
  EXPECT_EQ(a.next(), b.next());
}

}  // namespace
}  // namespace netdp::util
