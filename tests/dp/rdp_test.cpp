// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// RDP curves, zCDP, conversions to (ε, δ) and σ calibration, against the papers'
// closed forms and a literal dense scan over α written here.
#include "netdp/dp/rdp.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "dp/special_values.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/rdp_converter.hpp"
#include "util/error_of.hpp"

namespace netdp::dp {
namespace {

using special::kInf;
using special::kNaN;
using ::testing::HasSubstr;

// Mironov 2017 Proposition 3 and Canonne-Kamath-Steinke 2020 Proposition 12, exactly as printed.
double literal_mironov(double alpha, double rdp, double delta) {
  return rdp + std::log(1.0 / delta) / (alpha - 1.0);
}
double literal_improved(double alpha, double rdp, double delta) {
  return rdp + std::log((alpha - 1.0) / alpha) - (std::log(delta) + std::log(alpha)) / (alpha - 1.0);
}

// min over α in (1, 40] on a step-1e-5 grid of the Gaussian (ρ-zCDP) conversion.
double literal_scan_minimum(double rho, double delta, bool improved) {
  double best = kInf;
  for (double alpha = 1.00001; alpha <= 40.0; alpha += 1e-5) {
    const double rdp = rho * alpha;
    best =
        std::min(best, improved ? literal_improved(alpha, rdp, delta) : literal_mironov(alpha, rdp, delta));
  }
  return best;
}

TEST(RdpToDp, ReferenceValuesForGaussianMuOne) {
  const RdpCurve curve = gaussian_rdp_curve(1.0);
  const RdpConversion mironov = rdp_to_dp(curve, 1e-5, RdpConversionMethod::mironov);
  EXPECT_NEAR(mironov.epsilon, 5.29852591, 1e-8);
  EXPECT_NEAR(mironov.alpha, 5.7985, 1e-4);
  const RdpConversion improved = rdp_to_dp(curve, 1e-5, RdpConversionMethod::improved);
  EXPECT_NEAR(improved.epsilon, 4.72838698, 1e-8);
  EXPECT_GE(mironov.epsilon, improved.epsilon);
}

// ε(α) = αμ²/2 at one order (Mironov 2017, Proposition 7), and the curve overload agrees.
TEST(GaussianRdp, ScalarOrderMatchesTheClosedFormAndTheCurve) {
  EXPECT_EQ(gaussian_rdp(2.0, 1.0), 1.0);
  EXPECT_EQ(gaussian_rdp(3.0, 0.5), 0.375);
  EXPECT_EQ(gaussian_rdp(1.5, 0.0), 0.0);
  EXPECT_EQ(gaussian_rdp(2.0, kInf), kInf);  // no guarantee, as an RdpCurve allows
  const RdpCurve curve = gaussian_rdp_curve(0.7);
  for (std::size_t i = 0; i < curve.orders().size(); ++i) {
    EXPECT_DOUBLE_EQ(gaussian_rdp(curve.orders()[i], 0.7), curve.epsilons()[i]) << curve.orders()[i];
  }
  EXPECT_THROW(gaussian_rdp(1.0, 1.0), std::invalid_argument);  // α must be > 1
  EXPECT_THROW(gaussian_rdp(0.5, 1.0), std::invalid_argument);
  EXPECT_THROW(gaussian_rdp(kInf, 1.0), std::invalid_argument);
  EXPECT_THROW(gaussian_rdp(kNaN, 1.0), std::invalid_argument);
  EXPECT_THROW(gaussian_rdp(2.0, -0.1), std::invalid_argument);
  EXPECT_THROW(gaussian_rdp(2.0, kNaN), std::invalid_argument);
  try {
    (void)gaussian_rdp(0.5, 1.0);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("alpha must be a finite number > 1, got 0.5"), std::string::npos)
        << e.what();
  }
}

TEST(RdpToDp, MironovMatchesClosedFormForZcdp) {
  // ρ-zCDP: min_α ρα + L/(α-1) = ρ + 2√(ρL) at α* = 1 + √(L/ρ), L = log(1/δ) (Bun-Steinke 2016,
  // Proposition 1.3).
  for (double rho : {0.005, 0.05, 0.5, 3.0, 40.0}) {
    for (double delta : {1e-3, 1e-6, 1e-12}) {
      const double log_inv = std::log(1.0 / delta);
      const RdpConversion result = rdp_to_dp(zcdp_rdp(rho), delta, RdpConversionMethod::mironov);
      SCOPED_TRACE(::testing::Message() << "rho = " << rho << ", delta = " << delta);
      const double exact = rho + 2.0 * std::sqrt(rho * log_inv);
      EXPECT_NEAR(result.epsilon, exact, 1e-9 * exact);
      EXPECT_GE(result.epsilon, exact * (1.0 - 1e-15));  // rounded up, never below
      EXPECT_NEAR(result.alpha, 1.0 + std::sqrt(log_inv / rho), 1e-3 * result.alpha);
    }
  }
}

TEST(RdpToDp, ContinuousRefinementMatchesDenseLiteralScan) {
  for (double rho : {0.08, 0.5, 2.0}) {
    for (bool improved : {false, true}) {
      const auto method = improved ? RdpConversionMethod::improved : RdpConversionMethod::mironov;
      const double scanned = literal_scan_minimum(rho, 1e-5, improved);
      const double refined = rdp_to_dp(zcdp_rdp(rho), 1e-5, method).epsilon;
      EXPECT_NEAR(refined, scanned, 1e-9 * scanned) << "rho = " << rho << ", improved = " << improved;
    }
  }
}

TEST(RdpToDp, TabulatedCurveUsesGridMinimumOnly) {
  const std::vector<double> orders = {1.5, 2.0, 4.0, 8.0, 16.0, 32.0};
  std::vector<double> epsilons;
  for (double alpha : orders) epsilons.push_back(0.3 * alpha);
  const RdpCurve curve(orders, epsilons);
  EXPECT_FALSE(curve.has_function());
  for (bool improved : {false, true}) {
    double best = kInf;
    double best_alpha = 0.0;
    for (std::size_t i = 0; i < orders.size(); ++i) {
      const double value = improved ? literal_improved(orders[i], epsilons[i], 1e-6)
                                    : literal_mironov(orders[i], epsilons[i], 1e-6);
      if (value < best) {
        best = value;
        best_alpha = orders[i];
      }
    }
    const RdpConversion result =
        rdp_to_dp(curve, 1e-6, improved ? RdpConversionMethod::improved : RdpConversionMethod::mironov);
    EXPECT_NEAR(result.epsilon, best, 1e-13 * best);
    EXPECT_GE(result.epsilon, best);
    EXPECT_EQ(result.alpha, best_alpha);
  }
}

TEST(RdpToDp, NeverBelowExactGdpAndInfiniteOrdersAreSkipped) {
  for (double mu : {0.05, 0.3, 1.0, 3.0, 10.0}) {
    const double exact = gdp_epsilon(mu, 1e-6);
    const RdpConversion rdp = rdp_to_dp(gaussian_rdp_curve(mu), 1e-6);
    EXPECT_GE(rdp.epsilon, exact) << "mu = " << mu;  // RDP is a bound on the exact GDP curve
    EXPECT_LT(rdp.epsilon, 1.5 * exact + 0.5) << "mu = " << mu;
  }
  const RdpCurve partly_infinite({2.0, 3.0, 4.0}, {kInf, 1.0, kInf});
  const RdpConversion result = rdp_to_dp(partly_infinite, 1e-3, RdpConversionMethod::mironov);
  EXPECT_EQ(result.alpha, 3.0);
  EXPECT_NEAR(result.epsilon, 1.0 + std::log(1e3) / 2.0, 1e-12);
  EXPECT_EQ(rdp_to_dp(RdpCurve({2.0}, {kInf}), 1e-3).epsilon, kInf);
}

// One converter for many curves gives rdp_to_dp's bits: grid terms precomputed, refinement through a
// plain callable, both conversion methods, tabulated and continuous curves.
TEST(RdpConverter, GivesRdpToDpBitForBit) {
  const std::vector<double> orders = default_rdp_orders();
  for (const RdpConversionMethod method : {RdpConversionMethod::improved, RdpConversionMethod::mironov}) {
    const RdpConverter converter(orders, 1e-7, method);
    for (const double rho : {1e-6, 0.003, 0.5, 7.0}) {
      const auto f = [rho](double alpha) { return rho * alpha + 0.01 * rho * alpha * alpha; };
      const RdpCurve curve = RdpCurve::from_function(f, orders);
      const RdpConversion reference = rdp_to_dp(curve, 1e-7, method);
      const RdpConversion fast = converter(curve.epsilons(), f);
      EXPECT_EQ(fast.epsilon, reference.epsilon);
      EXPECT_EQ(fast.alpha, reference.alpha);
      const RdpConversion tabulated = rdp_to_dp(RdpCurve(orders, curve.epsilons()), 1e-7, method);
      EXPECT_EQ(converter(curve.epsilons()).epsilon, tabulated.epsilon);
      EXPECT_EQ(converter(curve.epsilons()).alpha, tabulated.alpha);
    }
  }
  const RdpConverter converter(orders, 1e-7);
  const std::vector<double> short_curve(3, 1.0);
  EXPECT_THAT(netdp::testing::error_of([&] { converter(short_curve); }), HasSubstr("3 epsilons given for"));
  const std::vector<double> flat(orders.size(), 1.0);
  EXPECT_THAT(netdp::testing::error_of([&] { converter(flat, [](double) { return -1.0; }); }),
              HasSubstr("must be >= 0"));
  EXPECT_THAT(netdp::testing::error_of([] {
                RdpConverter({2.0, 1.5}, 1e-7);
              }),
              HasSubstr("increase strictly"));
  EXPECT_THAT(netdp::testing::error_of([] { RdpConverter({2.0}, 1.5); }),
              HasSubstr("delta must be in (0, 1)"));
}

TEST(RdpCurve, CompositionAddsAndMatchesComposedGaussian) {
  const RdpCurve a = gaussian_rdp_curve(0.6);
  const RdpCurve b = gaussian_rdp_curve(0.8);
  const RdpCurve sum = a + b;
  const RdpCurve composed = gaussian_rdp_curve(1.0);  // 0.6² + 0.8² = 1
  ASSERT_EQ(sum.orders(), composed.orders());
  for (std::size_t i = 0; i < sum.orders().size(); ++i) {
    EXPECT_NEAR(sum.epsilons()[i], composed.epsilons()[i], 1e-13 * composed.epsilons()[i]);
  }
  EXPECT_TRUE(sum.has_function());
  EXPECT_NEAR(sum(5.5), 5.5 * 0.5, 1e-14);
  EXPECT_NEAR(rdp_to_dp(sum, 1e-5).epsilon, 4.72838698, 1e-8);

  const RdpCurve tabulated(a.orders(), a.epsilons());
  const RdpCurve mixed = tabulated + b;
  EXPECT_FALSE(mixed.has_function());
  EXPECT_NEAR(mixed.epsilons()[3], sum.epsilons()[3], 1e-15);
}

TEST(RdpCurve, TimesIsRepeatedComposition) {
  const RdpCurve one = gaussian_rdp_curve(0.25);
  const RdpCurve sixteen = one.times(16.0);
  const RdpCurve by_hand =
      one + one + one + one + one + one + one + one + one + one + one + one + one + one + one + one;
  for (std::size_t i = 0; i < one.orders().size(); ++i) {
    EXPECT_NEAR(sixteen.epsilons()[i], by_hand.epsilons()[i], 1e-13 * by_hand.epsilons()[i]);
  }
  EXPECT_NEAR(sixteen(3.0), gaussian_rdp_curve(1.0)(3.0), 1e-14);
  EXPECT_EQ(RdpCurve({2.0}, {kInf}).times(0.0).epsilons()[0], 0.0);
}

TEST(RdpCurve, DefaultOrdersAreIncreasingAndCoverBothEnds) {
  const std::vector<double> orders = default_rdp_orders();
  ASSERT_GT(orders.size(), 50u);
  EXPECT_NEAR(orders.front(), 1.01, 1e-15);
  EXPECT_EQ(orders.back(), 1024.0);
  for (std::size_t i = 1; i < orders.size(); ++i) EXPECT_GT(orders[i], orders[i - 1]);
}

TEST(RdpSigmaFor, MatchesMironovClosedFormAndIsConservative) {
  // Unit curve: Gaussian with sensitivity 1 and σ = 1, so at σ the curve is α/(2σ²).
  const RdpCurve unit = gaussian_rdp_curve(1.0);
  for (double target : {0.5, 2.0, 8.0}) {
    const double delta = 1e-5;
    const double sigma = rdp_sigma_for(unit, target, delta, 3.0, RdpConversionMethod::mironov);
    // ρ + 2√(ρL) = ε with ρ = sensitivity²/(2σ²): √ρ = √(L + ε) - √L.
    const double log_inv = std::log(1.0 / delta);
    const double root_rho = std::sqrt(log_inv + target) - std::sqrt(log_inv);
    const double exact = 3.0 / (root_rho * std::sqrt(2.0));
    SCOPED_TRACE(::testing::Message() << "target = " << target);
    EXPECT_NEAR(sigma, exact, 1e-9 * exact);
    EXPECT_LE(rdp_to_dp(gaussian_rdp_curve(3.0 / sigma), delta, RdpConversionMethod::mironov).epsilon,
              target);
    EXPECT_GT(
        rdp_to_dp(gaussian_rdp_curve(3.0 / (sigma * (1.0 - 1e-10))), delta, RdpConversionMethod::mironov)
            .epsilon,
        target);
  }
  // The improved conversion needs less noise; exact GDP calibration needs less still.
  const double improved = rdp_sigma_for(unit, 1.0, 1e-5);
  EXPECT_LT(improved, rdp_sigma_for(unit, 1.0, 1e-5, 1.0, RdpConversionMethod::mironov));
  EXPECT_GT(improved, gdp_sigma_for(1.0, 1e-5, 1.0));
}

TEST(RdpInputs, BadValuesThrowNamingTheValue) {
  EXPECT_THROW(RdpCurve({1.0, 2.0}, {0.1, 0.2}), std::invalid_argument);  // α <= 1
  EXPECT_THROW(RdpCurve({0.5}, {0.1}), std::invalid_argument);
  EXPECT_THROW(RdpCurve({2.0, 2.0}, {0.1, 0.2}), std::invalid_argument);  // not increasing
  EXPECT_THROW(RdpCurve({2.0, kInf}, {0.1, 0.2}), std::invalid_argument);
  EXPECT_THROW(RdpCurve({2.0, 3.0}, {0.1}), std::invalid_argument);
  EXPECT_THROW(RdpCurve({2.0}, {kNaN}), std::invalid_argument);
  EXPECT_THROW(RdpCurve({2.0}, {-0.1}), std::invalid_argument);
  EXPECT_THROW(RdpCurve({}, {}), std::invalid_argument);
  try {
    RdpCurve({3.0, 0.9}, {0.1, 0.2});
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("0.9"), std::string::npos) << e.what();
  }
  EXPECT_THROW(gaussian_rdp_curve(0.0), std::invalid_argument);
  EXPECT_THROW(gaussian_rdp_curve(kNaN), std::invalid_argument);
  EXPECT_THROW(zcdp_rdp(-1.0), std::invalid_argument);
  EXPECT_THROW(rdp_to_dp(gaussian_rdp_curve(1.0), 0.0), std::invalid_argument);
  EXPECT_THROW(rdp_to_dp(gaussian_rdp_curve(1.0), 1.0), std::invalid_argument);
  EXPECT_THROW(rdp_to_dp(gaussian_rdp_curve(1.0), kNaN), std::invalid_argument);
  EXPECT_THROW(gaussian_rdp_curve(1.0) + RdpCurve({2.0}, {1.0}), std::invalid_argument);
  EXPECT_THROW(gaussian_rdp_curve(1.0)(0.5), std::invalid_argument);
  EXPECT_THROW(RdpCurve({2.0}, {1.0})(2.0), std::invalid_argument);  // tabulated only
  EXPECT_THROW(gaussian_rdp_curve(1.0).times(-1.0), std::invalid_argument);
  EXPECT_THROW(RdpCurve::from_function([](double) { return kNaN; }), std::invalid_argument);
  // Unreachable: on orders <= 3 the δ term alone is log(1/δ)/2 > 1 for δ = 1e-5.
  EXPECT_THROW(rdp_sigma_for(gaussian_rdp_curve(1.0, {2.0, 3.0}), 1.0, 1e-5), std::invalid_argument);
  EXPECT_THROW(rdp_sigma_for(gaussian_rdp_curve(1.0), 0.0, 1e-5), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::dp
