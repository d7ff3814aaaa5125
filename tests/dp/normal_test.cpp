// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Φ, log Φ and erfcx against literal std::erfc formulas and high-precision references.
#include "netdp/dp/normal.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace netdp::dp {
namespace {

double literal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

TEST(NormalCdf, MatchesLiteralErfcFormulaInTheBulk) {
  for (double x = -8.0; x <= 8.0; x += 0.125) {
    EXPECT_NEAR(normal_cdf(x), literal_cdf(x), 1e-15 + 1e-13 * literal_cdf(x)) << "x = " << x;
    EXPECT_NEAR(log_normal_cdf(x), std::log(literal_cdf(x)),
                1e-13 * (1.0 + std::abs(std::log(literal_cdf(x)))))
        << "x = " << x;
  }
}

TEST(NormalCdf, FarLowerTailKeepsRelativeAccuracy) {
  // References from mpmath (60 digits): ncdf(-20), log ncdf(-40), log ncdf(-1e6).
  EXPECT_NEAR(normal_cdf(-20.0) / 2.7536241186062336951e-89, 1.0, 1e-12);
  EXPECT_NEAR(log_normal_cdf(-40.0) / -804.60844201375378817, 1.0, 1e-13);
  // Asymptotically log Φ(-z) = -z²/2 - log(z √(2π)) - 1/z² + ...
  const double z = 1e6;
  EXPECT_NEAR(log_normal_cdf(-z), -0.5 * z * z - std::log(z * std::sqrt(2.0 * M_PI)) - 1.0 / (z * z), 1e-3);
  EXPECT_TRUE(std::isfinite(log_normal_cdf(-1e150)));
}

TEST(NormalCdf, UpperTailIsOneMinusLowerTail) {
  EXPECT_DOUBLE_EQ(normal_cdf(0.0), 0.5);
  for (double x : {0.5, 3.0, 10.0, 40.0}) {
    EXPECT_NEAR(normal_cdf(x) + normal_cdf(-x), 1.0, 1e-15);
    EXPECT_LE(log_normal_cdf(x), 0.0);
    EXPECT_NEAR(log_normal_cdf(x), std::log1p(-literal_cdf(-x)), 1e-15);
  }
}

TEST(Erfcx, MatchesExpTimesErfcAndAsymptoticSwitchIsSmooth) {
  for (double x = 0.0; x < 20.0; x += 0.37) {
    const double literal = std::exp(x * x) * std::erfc(x);
    EXPECT_NEAR(erfcx(x), literal, 1e-12 * literal) << "x = " << x;
  }
  // Both sides of the switch to the asymptotic series at 26 (mpmath: erfc(x)*exp(x²)).
  EXPECT_NEAR(erfcx(25.999999) / 0.021683585683317804816, 1.0, 1e-13);
  EXPECT_NEAR(erfcx(26.000001) / 0.021683584017808072333, 1.0, 1e-13);
  EXPECT_NEAR(erfcx(1e8) * 1e8 * std::sqrt(M_PI), 1.0, 1e-15);
  EXPECT_EQ(erfcx(std::numeric_limits<double>::infinity()), 0.0);
}

TEST(NormalCdf, RejectsNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(normal_cdf(nan), std::invalid_argument);
  EXPECT_THROW(log_normal_cdf(nan), std::invalid_argument);
  EXPECT_THROW(erfcx(nan), std::invalid_argument);
  EXPECT_THROW(erfcx(-1.0), std::invalid_argument);
  EXPECT_THROW(inverse_mills_ratio(nan), std::invalid_argument);
  EXPECT_THROW(inverse_mills_ratio(-0.5), std::invalid_argument);
}

TEST(InverseMillsRatio, IsPhiOverUpperTailAndIncreases) {
  double before = 0.0;
  for (double b = 0.0; b < 30.0; b += 0.25) {
    const double literal =
        std::exp(-b * b / 2.0) / std::sqrt(2.0 * M_PI) / (0.5 * std::erfc(b / std::sqrt(2.0)));
    EXPECT_NEAR(inverse_mills_ratio(b), literal, 1e-12 * literal) << "b = " << b;
    EXPECT_GT(inverse_mills_ratio(b), before);
    EXPECT_GT(inverse_mills_ratio(b), b);  // λ(b) > b
    before = inverse_mills_ratio(b);
  }
}

}  // namespace
}  // namespace netdp::dp
