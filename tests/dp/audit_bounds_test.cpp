// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The audit's statistics: Clopper–Pearson against the binomial tail it inverts, the normal
// quantile against Φ, and the lower bounds' coverage on attacks of known μ.
#include "netdp/dp/audit_bounds.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "netdp/dp/gdp.hpp"
#include "netdp/dp/normal.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::dp {
namespace {

// P(Binomial(n, p) <= k), summed in long double from the pmf recurrence.
double binomial_cdf(std::size_t k, std::size_t n, double p) {
  long double term = std::pow(1.0L - p, static_cast<long double>(n));  // P(X = 0)
  long double sum = term;
  for (std::size_t i = 1; i <= k; ++i) {
    term *= static_cast<long double>(n - i + 1) / i * p / (1.0L - p);
    sum += term;
  }
  return static_cast<double>(sum);
}

TEST(ClopperPearson, InvertsTheBinomialTail) {
  for (const auto& [k, n] :
       {std::pair<std::size_t, std::size_t>{0, 10}, {3, 10}, {9, 10}, {30, 1000}, {500, 1000}, {10, 200}}) {
    for (const double level : {0.025, 0.001}) {
      const double p = clopper_pearson_upper(k, n, level);
      EXPECT_GT(p, static_cast<double>(k) / static_cast<double>(n));
      EXPECT_NEAR(binomial_cdf(k, n, p), level, 1e-9 * level + 1e-14) << k << "/" << n;
    }
  }
  EXPECT_EQ(clopper_pearson_upper(10, 10, 0.025), 1.0);
  EXPECT_THROW(clopper_pearson_upper(11, 10, 0.025), std::invalid_argument);
  EXPECT_THROW(clopper_pearson_upper(0, 0, 0.025), std::invalid_argument);
  EXPECT_THROW(clopper_pearson_upper(1, 10, 1.0), std::invalid_argument);
}

TEST(NormalQuantile, InvertsPhi) {
  // Above 0, Φ(x) rounds to 1 − O(1e-16): the lower tail carries the precision.
  for (const double x : {-30.0, -7.0, -5.0, -1.0, 0.0, 0.3, 2.0}) {
    const double p = normal_cdf(x);
    if (p < 1.0) {
      EXPECT_NEAR(normal_quantile(p), x, 1e-9 * std::max(1.0, std::abs(x)));
    }
  }
  EXPECT_EQ(normal_quantile(0.0), -INFINITY);
  EXPECT_EQ(normal_quantile(1.0), INFINITY);
  EXPECT_THROW(normal_quantile(1.5), std::invalid_argument);
  EXPECT_THROW(normal_quantile(NAN), std::invalid_argument);
}

// An attack on a μ-GDP mechanism at the midpoint threshold errs with probability Φ(−μ/2) on each
// input. Over 2000 repetitions the 95% lower bound exceeds the true μ (and ε(μ, δ)) in at most 5%
// of them (plus binomial slack), and the point estimate is centred on μ.
TEST(PrivacyLowerBound, CoversTheTrueValueAtItsConfidence) {
  util::Rng rng(7);
  for (const double mu : {0.5, 1.0, 3.0}) {
    const double rate = normal_cdf(-mu / 2.0);
    const double epsilon = gdp_epsilon(mu, 1e-5);
    const std::size_t trials = 2000;
    const int repetitions = 2000;
    int above_mu = 0;
    int above_epsilon = 0;
    double mean_estimate = 0.0;
    for (int r = 0; r < repetitions; ++r) {
      std::size_t fp = 0;
      std::size_t fn = 0;
      for (std::size_t i = 0; i < trials; ++i) {
        fp += rng.uniform01() < rate ? 1 : 0;
        fn += rng.uniform01() < rate ? 1 : 0;
      }
      const PrivacyLowerBound b = privacy_lower_bound(fp, trials, fn, trials, 0.95, 1e-5);
      above_mu += b.mu > mu ? 1 : 0;
      above_epsilon += b.epsilon > epsilon ? 1 : 0;
      EXPECT_LE(b.mu, b.mu_estimate);
      mean_estimate += b.mu_estimate / repetitions;
    }
    EXPECT_LE(above_mu, repetitions * 0.05 + 3 * std::sqrt(repetitions * 0.05)) << mu;
    EXPECT_LE(above_epsilon, repetitions * 0.05 + 3 * std::sqrt(repetitions * 0.05)) << mu;
    EXPECT_NEAR(mean_estimate, mu, 0.02 * mu) << mu;
  }
}

TEST(PrivacyLowerBound, NoInformationGivesZeroAndBadArgumentsThrow) {
  const PrivacyLowerBound b = privacy_lower_bound(500, 1000, 500, 1000, 0.95, 1e-5);
  EXPECT_EQ(b.mu, 0.0);
  EXPECT_EQ(b.epsilon, 0.0);
  // A perfect attack: the bounds are large but finite.
  const PrivacyLowerBound perfect = privacy_lower_bound(0, 1000, 0, 1000, 0.95, 1e-5);
  EXPECT_GT(perfect.mu, 4.0);
  EXPECT_TRUE(std::isfinite(perfect.mu));
  EXPECT_THROW(privacy_lower_bound(1, 10, 1, 10, 1.0, 1e-5), std::invalid_argument);
  EXPECT_THROW(privacy_lower_bound(1, 10, 1, 10, 0.95, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::dp
