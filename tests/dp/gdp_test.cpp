// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// μ-GDP: δ(ε), ε(δ), μ for a target, composition. References: tabulated values (the ReferenceValues tests),
// mpmath at 60 digits (/tmp-free: the script is quoted in docs/reference/dp.md), and the
// literal formula Φ(-ε/μ + μ/2) - e^ε Φ(-ε/μ - μ/2) evaluated with std::erfc.
#include "netdp/dp/gdp.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "dp/special_values.hpp"

namespace netdp::dp {
namespace {

using special::kInf;
using special::kNaN;

// Dong-Roth-Su 2022 Corollary 2.13, exactly as written (fine where nothing cancels or underflows).
double literal_delta(double mu, double epsilon) {
  const auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  return phi(-epsilon / mu + mu / 2.0) - std::exp(epsilon) * phi(-epsilon / mu - mu / 2.0);
}

void expect_relative(double actual, double expected, double tolerance) {
  EXPECT_NEAR(actual, expected, tolerance * std::abs(expected)) << "expected " << expected;
}

TEST(GdpDelta, ReferenceValues) {
  expect_relative(gdp_delta(1.0, 0.0), 0.3829249225, 1e-9);
  expect_relative(gdp_delta(1.0, 1.0), 0.1269367375, 1e-9);
  expect_relative(gdp_delta(1.0, 3.0), 1.537185369e-3, 1e-9);
}

TEST(GdpDelta, MatchesLiteralFormulaOnModerateInputs) {
  for (double mu : {0.5, 1.0, 2.0, 4.0}) {
    for (double epsilon = 0.0; epsilon <= 8.0; epsilon += 0.25) {
      const double literal = literal_delta(mu, epsilon);
      if (literal < 1e-6) continue;  // the literal formula itself cancels below that
      expect_relative(gdp_delta(mu, epsilon), literal, 1e-11);
    }
  }
}

struct HighPrecisionDelta {
  double mu, epsilon, delta, log_delta;
};

// mpmath (mp.dps = 60): ncdf(-e/m + m/2) - exp(e) ncdf(-e/m - m/2).
const std::vector<HighPrecisionDelta> kMpmathDelta = {
    {1, 0, 0.38292492254802620728, -0.95991633369562231933},
    {1, 1, 0.1269367375066439458, -2.0640664465003905345},
    {1, 3, 0.0015371853694009548469, -6.4778022170127671064},
    {1e-06, 1e-06, 8.3315512245425392253e-8, -16.300631083676994831},
    {1e-06, 4e-06, 7.145272722936009018e-12, -25.664570135515051008},
    {0.01, 0.05, 5.4814402007468725614e-10, -21.324483053153855862},
    {0.1, 0.4, 8.7173170444978790071e-7, -13.952784138763407183},
    {0.3, 1.2, 3.8660731405300944247e-6, -12.463271258440878516},
    {100, 5000, 0.49601097601864319002, -0.70115722343220868127},
    {100, 6000, 6.9204018544273568559e-24, -53.327568392464559532},
    {1, 30, 4.709326318097522197e-193, -442.84937808230363541},
    {1, 37, 1.4764695344425281147e-293, -674.26777845889830214},
    {5, 30, 0.00013132627111337326316, -8.9378257120287098644},
    {2, 50, 1.066262024474971471e-128, -294.66673280612718378},
    {0.001, 0.02, 1.3837811770864424223e-93, -213.8155939127929108},
    {3, 2, 0.68587416571604936642, -0.37706109998274322638},
    {0.05, 0.9, 4.2164596519772050189e-75, -171.2548861436459336},
};

TEST(GdpDelta, MatchesHighPrecisionReferenceIncludingCancellingAndTinyCases) {
  for (const auto& ref : kMpmathDelta) {
    SCOPED_TRACE(testing::Message() << "mu = " << ref.mu << ", epsilon = " << ref.epsilon);
    expect_relative(gdp_delta(ref.mu, ref.epsilon), ref.delta, 1e-11);
    EXPECT_NEAR(gdp_log_delta(ref.mu, ref.epsilon), ref.log_delta, 1e-11 * (1.0 + std::abs(ref.log_delta)));
  }
}

// A sweep over μ in [1e-4, 55] and A = ε/μ - μ/2 of both signs, through both the closed
// form and the quadrature branch (tests/dp/make_gdp_reference.py, mpmath at 60 digits).
const std::vector<HighPrecisionDelta> kMpmathSweep = {
#include "dp/gdp_reference_table.inc"
};

TEST(GdpDelta, MatchesHighPrecisionSweep) {
  ASSERT_GT(kMpmathSweep.size(), 200u);
  for (const auto& ref : kMpmathSweep) {
    SCOPED_TRACE(testing::Message() << "mu = " << ref.mu << ", epsilon = " << ref.epsilon);
    expect_relative(gdp_delta(ref.mu, ref.epsilon), ref.delta, 1e-11);
    EXPECT_NEAR(gdp_log_delta(ref.mu, ref.epsilon), ref.log_delta, 1e-11 * (1.0 + std::abs(ref.log_delta)));
  }
}

TEST(GdpEpsilon, InvertsHighPrecisionSweep) {
  for (const auto& ref : kMpmathSweep) {
    if (ref.epsilon == 0.0 || ref.delta >= 0.5) continue;  // ε(δ) is ill-conditioned as δ -> 1
    SCOPED_TRACE(testing::Message() << "mu = " << ref.mu << ", delta = " << ref.delta);
    expect_relative(gdp_epsilon(ref.mu, ref.delta), ref.epsilon, 1e-10);
  }
}

TEST(GdpDelta, ExtremeInputsStayFiniteAndOrdered) {
  // δ below the double range: log δ is still right (mpmath: μ = 0.5, ε = 20 and μ = 1, ε = 1e4).
  EXPECT_NEAR(gdp_log_delta(0.5, 20.0), -799.02292664378085957, 1e-9);
  EXPECT_NEAR(gdp_log_delta(1.0, 1e4) / -49995019.464619304657, 1.0, 1e-13);
  EXPECT_EQ(gdp_delta(1.0, 1e4), 0.0);
  // μ = 100: δ(0) = 2Φ(50) - 1 rounds to 1; no overflow of e^ε for ε = 1e4.
  EXPECT_NEAR(gdp_delta(100.0, 0.0), 1.0, 1e-15);
  EXPECT_LE(gdp_delta(100.0, 1e4), 1.0);
  EXPECT_GE(gdp_delta(100.0, 1e4), 0.0);
  EXPECT_NEAR(gdp_log_delta(20.0, 1.0), -2.5095237742049362883e-23, 1e-30);
  // μ = 1e-6: δ(0) = 2Φ(μ/2) - 1 ≈ μ φ(0).
  expect_relative(gdp_delta(1e-6, 0.0), 1e-6 / std::sqrt(2.0 * M_PI), 1e-9);
  EXPECT_EQ(gdp_delta(1e-300, 1.0), 0.0);
}

TEST(GdpDelta, DecreasesInEpsilonAndIncreasesInMu) {
  for (double mu : {1e-3, 0.1, 1.0, 5.0, 30.0}) {
    double previous = gdp_log_delta(mu, 0.0);
    for (double epsilon = 0.05; epsilon < 100.0; epsilon *= 1.3) {
      const double current = gdp_log_delta(mu, epsilon);
      EXPECT_LT(current, previous) << "mu = " << mu << ", epsilon = " << epsilon;
      previous = current;
    }
  }
  for (double epsilon : {0.0, 0.5, 3.0, 20.0}) {
    double previous = -kInf;
    for (double mu = 1e-4; mu < 200.0; mu *= 1.5) {
      const double current = gdp_log_delta(mu, epsilon);
      EXPECT_GE(current, previous) << "mu = " << mu << ", epsilon = " << epsilon;
      previous = current;
    }
  }
}

TEST(GdpEpsilon, ReferenceValues) {
  expect_relative(gdp_epsilon(1.0, 1e-5), 4.3771780957, 1e-10);
  expect_relative(gdp_epsilon(0.5, 1e-5), 1.9930914044, 1e-10);
  expect_relative(gdp_epsilon(2.0, 1e-5), 9.9972561464, 1e-10);
  expect_relative(gdp_epsilon(5.0, 1e-6), 35.5663437141, 1e-10);
}

TEST(GdpEpsilon, MatchesHighPrecisionRootsAndIsConservative) {
  struct Ref {
    double mu, delta, epsilon;
  };
  // mpmath: 300 bisection steps on log δ(ε) = log δ at 60 digits.
  const std::vector<Ref> refs = {
      {1, 1e-05, 4.3771780956812246086},        {0.5, 1e-05, 1.9930914044151196213},
      {2, 1e-05, 9.9972561464343003591},        {5, 1e-06, 35.566343714136217522},
      {100, 1e-05, 5425.5098461474295628},      {1, 1e-300, 37.44884791213910494},
      {0.01, 1e-05, 0.027219419814577135925},   {0.1, 1e-08, 0.49285036535516416481},
      {0.3, 1e-06, 1.2917099372806183952},      {3, 0.1, 7.5244360688485761304},
      {20, 1e-10, 326.35895051488269934},       {1e-06, 1e-08, 1.938356675940721101e-6},
      {1e-06, 1e-12, 4.4248927590894820484e-6}, {1e-06, 1e-300, 0.000036574312514248887262},
  };
  for (const auto& ref : refs) {
    SCOPED_TRACE(testing::Message() << "mu = " << ref.mu << ", delta = " << ref.delta);
    const double epsilon = gdp_epsilon(ref.mu, ref.delta);
    expect_relative(epsilon, ref.epsilon, 1e-12);
    EXPECT_GE(epsilon, ref.epsilon * (1.0 - 1e-14));  // the conservative end, up to δ's own rounding
    EXPECT_LE(gdp_log_delta(ref.mu, epsilon), std::log(ref.delta));
  }
}

TEST(GdpEpsilon, FromAGuessMatchesTheHighPrecisionRootsWhateverTheGuess) {
  // The same references as above; the guess only changes the work, never the contract: δ at the
  // answer <= δ, and within the tolerance of the exact root, from exact, close, far, absurd or
  // no guesses.
  const std::vector<std::array<double, 3>> refs = {
      {1, 1e-05, 4.3771780956812246086},       {0.01, 1e-05, 0.027219419814577135925},
      {0.1, 1e-08, 0.49285036535516416481},    {20, 1e-10, 326.35895051488269934},
      {1e-06, 1e-08, 1.938356675940721101e-6}, {1e-06, 1e-300, 0.000036574312514248887262},
  };
  for (const auto& [mu, delta, root] : refs) {
    for (const double guess :
         {root, root * (1 + 1e-9), root * (1 - 1e-7), root * 1.5, root * 0.01, 1e9, -1.0, 0.0, kNaN, kInf}) {
      SCOPED_TRACE(testing::Message() << "mu = " << mu << ", delta = " << delta << ", guess = " << guess);
      const double epsilon = gdp_epsilon(mu, delta, guess);
      expect_relative(epsilon, root, 1e-12);
      EXPECT_GE(epsilon, root * (1.0 - 1e-14));
      EXPECT_LE(gdp_log_delta(mu, epsilon), std::log(delta));
    }
  }
  EXPECT_EQ(gdp_epsilon(1e-6, 1e-5, 1e-6), 0.0);  // δ(0) <= δ: zero, whatever the guess
  EXPECT_THROW(gdp_epsilon(-1.0, 1e-5, 1.0), std::invalid_argument);
}

TEST(GdpEpsilon, ZeroWhenDeltaAtZeroAlreadyMeetsTarget) {
  EXPECT_EQ(gdp_epsilon(1.0, 0.5), 0.0);    // δ(0) = 0.383
  EXPECT_EQ(gdp_epsilon(1e-6, 1e-5), 0.0);  // δ(0) ≈ 4e-7
  EXPECT_GT(gdp_epsilon(1.0, 0.38), 0.0);
}

TEST(GdpEpsilon, RoundTripsThroughDelta) {
  for (double mu : {1e-4, 0.2, 1.0, 7.0, 60.0}) {
    for (double epsilon : {0.01, 0.5, 2.0, 9.0, 40.0}) {
      const double delta = gdp_delta(mu, epsilon);
      if (!(delta > 1e-300 && delta < 1.0)) continue;
      SCOPED_TRACE(testing::Message() << "mu = " << mu << ", epsilon = " << epsilon);
      expect_relative(gdp_epsilon(mu, delta), epsilon, 1e-10);
    }
  }
}

TEST(GdpEpsilon, IncreasesInMuAndDecreasesInDelta) {
  double previous = 0.0;
  for (double mu = 0.01; mu < 50.0; mu *= 1.7) {
    const double epsilon = gdp_epsilon(mu, 1e-6);
    EXPECT_GT(epsilon, previous);
    previous = epsilon;
  }
  previous = kInf;
  for (double delta = 1e-300; delta < 0.3; delta *= 1e5) {
    const double epsilon = gdp_epsilon(1.0, delta);
    EXPECT_LT(epsilon, previous);
    previous = epsilon;
  }
}

TEST(GdpEpsilonSlope, IsTheDerivativeOfTheRootInMu) {
  // Against a central difference of the root, and against the implicit derivative as written,
  // φ(a) / (e^ε Φ(−b)), with std::erfc (fine where nothing underflows).
  const auto pdf = [](double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi); };
  const auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  for (const double delta : {1e-3, 1e-5, 1e-9}) {
    for (double mu = 0.02; mu < 12.0; mu *= 1.9) {
      const double epsilon = gdp_epsilon(mu, delta);
      if (epsilon == 0.0) continue;
      const double slope = gdp_epsilon_slope(mu, epsilon);
      const double h = 1e-5 * mu;
      const double difference = (gdp_epsilon(mu + h, delta) - gdp_epsilon(mu - h, delta)) / (2.0 * h);
      expect_relative(slope, difference, 1e-5);
      const double a = epsilon / mu - mu / 2.0;
      const double b = epsilon / mu + mu / 2.0;
      expect_relative(slope, pdf(a) / (std::exp(epsilon) * cdf(-b)), 1e-9);
    }
  }
  EXPECT_EQ(gdp_epsilon_slope(0.01, 0.0), 0.0);
  EXPECT_GT(gdp_epsilon_slope(1e3, 5e5), 0.0);  // far beyond exp's range: still finite
  EXPECT_TRUE(std::isfinite(gdp_epsilon_slope(1e3, 5e5)));
  EXPECT_THROW(gdp_epsilon_slope(0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(gdp_epsilon_slope(1.0, kNaN), std::invalid_argument);
}

// The conversion table relies on it: ε'(μ) = λ(b) with λ the inverse Mills ratio and b = ε/μ + μ/2
// increasing along δ(ε, μ) = δ (docs/reference/dp.md), so second differences of the root are >= 0.
TEST(GdpEpsilon, IsConvexInMu) {
  for (const double delta : {1e-10, 1e-5, 1e-2, 0.3}) {
    double before2 = 0.0;
    double before1 = 0.0;
    std::size_t concave = 0;
    // A geometric grid of μ from 1e-11 to 100, across the μ where ε leaves 0 (near δ√(2π) for small δ).
    const auto grid = [](int k) { return 1e-11 * std::pow(1e13, k / 2000.0); };
    for (int k = 0; k <= 2000; ++k) {
      const double mu = grid(k);
      const double e = gdp_epsilon(mu, delta);
      if (k >= 2) {
        const double mu_1 = grid(k - 1);
        const double mu_2 = grid(k - 2);
        const double slope_right = (e - before1) / (mu - mu_1);
        const double slope_left = (before1 - before2) / (mu_1 - mu_2);
        // the roots are within ~1e-12 relative: allow that much noise in the slopes
        if (slope_right < slope_left - 1e-9 * (std::abs(slope_left) + e / mu)) ++concave;
      }
      before2 = before1;
      before1 = e;
    }
    EXPECT_EQ(concave, 0u) << "δ = " << delta;
  }
}

TEST(GdpMuFor, InvertsEpsilonAndIsConservative) {
  // The reference pairs of GdpEpsilon.ReferenceValues, read backwards.
  expect_relative(gdp_mu_for(4.3771780957, 1e-5), 1.0, 1e-9);
  expect_relative(gdp_mu_for(35.5663437141, 1e-6), 5.0, 1e-9);
  for (double epsilon : {0.0, 0.1, 1.0, 8.0, 100.0}) {
    for (double delta : {1e-12, 1e-5, 0.1}) {
      const double mu = gdp_mu_for(epsilon, delta);
      SCOPED_TRACE(testing::Message() << "epsilon = " << epsilon << ", delta = " << delta);
      EXPECT_LE(gdp_delta(mu, epsilon), delta);
      EXPECT_GT(gdp_delta(mu * (1.0 + 1e-11), epsilon), delta);  // largest such μ, to 1e-11
    }
  }
  // ε = 0: δ = 2Φ(μ/2) - 1, so μ = 2Φ⁻¹((1 + δ)/2); for δ = 0.3829249225480262 that is μ = 1.
  expect_relative(gdp_mu_for(0.0, 0.38292492254802620728), 1.0, 1e-12);
}

TEST(GdpSigmaFor, IsSensitivityOverMuRoundedUp) {
  const double sigma = gdp_sigma_for(4.3771780957, 1e-5, 2.0);
  expect_relative(sigma, 2.0, 1e-9);
  EXPECT_GE(sigma, 2.0 / gdp_mu_for(4.3771780957, 1e-5));
  EXPECT_LE(gdp_delta(2.0 / sigma, 4.3771780957), 1e-5);
}

TEST(ComposeGdp, SquaresAdd) {
  const std::vector<double> mus = {3.0, 4.0};
  EXPECT_DOUBLE_EQ(compose_gdp(mus), 5.0);
  const std::vector<double> many(100, 0.1);
  expect_relative(compose_gdp(many), 1.0, 1e-14);
  const std::vector<double> huge = {1e200, 1e200};  // no overflow of μ²
  expect_relative(compose_gdp(huge), std::sqrt(2.0) * 1e200, 1e-15);
  EXPECT_EQ(compose_gdp(std::vector<double>{}), 0.0);
  EXPECT_EQ(compose_gdp(std::vector<double>{0.0, 2.0}), 2.0);
  // The composed mechanism's ε is that of one Gaussian with the composed μ.
  EXPECT_EQ(gdp_epsilon(compose_gdp(mus), 1e-5), gdp_epsilon(5.0, 1e-5));
}

TEST(GdpInputs, BadValuesThrowNamingTheValue) {
  const auto message_of = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  EXPECT_NE(message_of([] { gdp_delta(0.0, 1.0); }).find("mu"), std::string::npos);
  EXPECT_NE(message_of([] { gdp_delta(-1.0, 1.0); }).find("-1"), std::string::npos);
  EXPECT_NE(message_of([] { gdp_delta(1.0, -0.5); }).find("epsilon"), std::string::npos);
  EXPECT_NE(message_of([] { gdp_epsilon(1.0, 1.0); }).find("delta"), std::string::npos);
  EXPECT_THROW(gdp_delta(kNaN, 1.0), std::invalid_argument);
  EXPECT_THROW(gdp_delta(1.0, kNaN), std::invalid_argument);
  EXPECT_THROW(gdp_delta(kInf, 1.0), std::invalid_argument);
  EXPECT_THROW(gdp_delta(1.0, kInf), std::invalid_argument);
  EXPECT_THROW(gdp_epsilon(1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(gdp_epsilon(1.0, -1e-5), std::invalid_argument);
  EXPECT_THROW(gdp_epsilon(1.0, kNaN), std::invalid_argument);
  EXPECT_THROW(gdp_epsilon(0.0, 1e-5), std::invalid_argument);
  EXPECT_THROW(gdp_mu_for(-1.0, 1e-5), std::invalid_argument);
  EXPECT_THROW(gdp_mu_for(1.0, 2.0), std::invalid_argument);
  EXPECT_THROW(gdp_sigma_for(1.0, 1e-5, 0.0), std::invalid_argument);
  EXPECT_THROW(compose_gdp(std::vector<double>{1.0, kNaN}), std::invalid_argument);
  EXPECT_THROW(compose_gdp(std::vector<double>{-1.0}), std::invalid_argument);
  std::vector<double> out(2);
  EXPECT_NE(message_of([&] {
              gdp_epsilons_increasing(std::vector<double>{1.0, 0.5}, 1e-5, out);
            }).find("0.5"),
            std::string::npos);
  EXPECT_THROW(gdp_epsilons_increasing(std::vector<double>{1.0, kNaN}, 1e-5, out), std::invalid_argument);
  EXPECT_THROW(gdp_epsilons_increasing(std::vector<double>{kNaN, 1.0}, 1e-5, out), std::invalid_argument);
  EXPECT_THROW(gdp_epsilons_increasing(std::vector<double>{1.0}, 1e-5, out), std::invalid_argument);
  EXPECT_THROW(gdp_epsilons_increasing(std::vector<double>{1.0, 2.0}, 0.0, out), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::dp
