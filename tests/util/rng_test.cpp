// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The RNG and its distributions.
#include "netdp/util/rng.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace netdp::util {
namespace {

TEST(Rng, IsTheStandardMt19937_64) {
  // The C++ standard fixes this value: the 10000th output of a default-seeded
  // mt19937_64 ([rand.predef]); default seed is 5489.
  Rng rng(5489);
  std::uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = rng.next();
  EXPECT_EQ(x, 9981545732273789042ull);
}

TEST(Rng, Uniform01UsesTheTop53Bits) {
  std::mt19937_64 engine(42);
  Rng rng(42);
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t raw = engine();
    EXPECT_EQ(rng.uniform01(), std::ldexp(static_cast<double>(raw >> 11), -53));
  }
}

TEST(Rng, UniformBelowIsRejectionThenModulo) {
  // Literal definition: draw r until r >= 2^64 mod b, return r mod b.
  const std::uint64_t bound = (std::uint64_t{1} << 63) + 12345;  // large bound: rejection happens often
  const std::uint64_t threshold = static_cast<std::uint64_t>(-bound) % bound;
  std::mt19937_64 engine(7);
  Rng rng(7);
  int rejections = 0;
  for (int i = 0; i < 200; ++i) {
    std::uint64_t r = engine();
    while (r < threshold) {
      r = engine();
      ++rejections;
    }
    EXPECT_EQ(rng.uniform_below(bound), r % bound);
  }
  EXPECT_GT(rejections, 0);
  EXPECT_EQ(Rng(1).uniform_below(1), 0u);
}

TEST(Rng, UniformBelowIsUniform) {
  Rng rng(3);
  const int bound = 7;
  const int draws = 70000;
  std::vector<int> count(bound, 0);
  for (int i = 0; i < draws; ++i) ++count[rng.uniform_below(bound)];
  const double expected = draws / static_cast<double>(bound);
  for (int c : count) EXPECT_NEAR(c, expected, 5 * std::sqrt(expected));
}

TEST(Rng, StandardNormalIsThePolarMethodOnUniform01) {
  // Literal Marsaglia polar method on an identical stream.
  Rng literal(11);
  Rng rng(11);
  for (int i = 0; i < 200; ++i) {
    double expected = 0.0;
    while (true) {
      const double u = 2.0 * literal.uniform01() - 1.0;
      const double v = 2.0 * literal.uniform01() - 1.0;
      const double s = u * u + v * v;
      if (s > 0.0 && s < 1.0) {
        expected = u * std::sqrt(-2.0 * std::log(s) / s);
        break;
      }
    }
    EXPECT_EQ(rng.standard_normal(), expected);
  }
}

TEST(Rng, StandardNormalMoments) {
  Rng rng(5);
  const int draws = 200000;
  double sum = 0.0, sum2 = 0.0, sum4 = 0.0;
  for (int i = 0; i < draws; ++i) {
    const double x = rng.standard_normal();
    sum += x;
    sum2 += x * x;
    sum4 += x * x * x * x;
  }
  EXPECT_NEAR(sum / draws, 0.0, 5.0 / std::sqrt(draws));
  EXPECT_NEAR(sum2 / draws, 1.0, 5.0 * std::sqrt(2.0 / draws));
  EXPECT_NEAR(sum4 / draws, 3.0, 5.0 * std::sqrt(96.0 / draws));
}

TEST(Rng, GammaMeanAndVariance) {
  // Gamma(k, 1): mean k, variance k (both branches: k < 1 and k >= 1).
  for (const double shape : {0.05, 0.3, 1.0, 2.5, 40.0}) {
    Rng rng(17);
    const int draws = 200000;
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < draws; ++i) {
      const double x = rng.gamma(shape);
      ASSERT_GE(x, 0.0);
      sum += x;
      sum2 += x * x;
    }
    const double mean = sum / draws;
    const double variance = sum2 / draws - mean * mean;
    // sd of the mean √(k/N); of the sample variance ≈ √((μ4 − k²)/N), μ4 = 3k² + 6k.
    EXPECT_NEAR(mean, shape, 5.0 * std::sqrt(shape / draws)) << shape;
    EXPECT_NEAR(variance, shape, 5.0 * std::sqrt((2.0 * shape * shape + 6.0 * shape) / draws)) << shape;
  }
  Rng rng(1);
  EXPECT_THROW((void)rng.gamma(0.0), std::invalid_argument);
  EXPECT_THROW((void)rng.gamma(-1.0), std::invalid_argument);
  EXPECT_THROW((void)rng.gamma(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  EXPECT_THROW((void)rng.gamma(std::numeric_limits<double>::infinity()), std::invalid_argument);
}

TEST(Rng, ShuffleIsFisherYatesOnUniformBelow) {
  Rng literal(23);
  Rng rng(23);
  std::vector<int> expected(50);
  std::iota(expected.begin(), expected.end(), 0);
  std::vector<int> shuffled = expected;
  for (std::size_t i = expected.size() - 1; i > 0; --i)
    std::swap(expected[i], expected[literal.uniform_below(i + 1)]);
  rng.shuffle(shuffled.begin(), shuffled.end());
  EXPECT_EQ(shuffled, expected);
  std::vector<int> empty;
  rng.shuffle(empty.begin(), empty.end());
  std::vector<int> one{7};
  rng.shuffle(one.begin(), one.end());
  EXPECT_EQ(one, std::vector<int>{7});
}

TEST(Rng, ShuffleIsUniform) {
  // Each of the 3! = 6 orders of {0, 1, 2} equally often.
  Rng rng(29);
  const int draws = 60000;
  std::vector<int> count(6, 0);
  for (int i = 0; i < draws; ++i) {
    std::vector<int> v{0, 1, 2};
    rng.shuffle(v.begin(), v.end());
    int rank = 0;
    std::vector<int> sorted{0, 1, 2};
    while (sorted != v) {
      std::next_permutation(sorted.begin(), sorted.end());
      ++rank;
    }
    ++count[rank];
  }
  const double expected = draws / 6.0;
  for (int c : count) EXPECT_NEAR(c, expected, 5 * std::sqrt(expected));
}

}  // namespace
}  // namespace netdp::util
