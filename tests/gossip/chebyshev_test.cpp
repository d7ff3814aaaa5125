// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "netdp/gossip/spectral.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"

namespace netdp::gossip {
namespace {

TEST(Chebyshev, GammaIsMuffliatoAlgorithm1) {
  for (const double gap : {1e-3, 0.01, 0.1, 0.3, 0.5, 0.9, 1.0}) {
    // Literally as printed: γ = 2(1 - sqrt(λ(1 - λ/4))) / (1 - λ/2)².
    const double literal = 2.0 * (1.0 - std::sqrt(gap * (1.0 - gap / 4.0))) / std::pow(1.0 - gap / 2.0, 2);
    EXPECT_NEAR(muffliato_chebyshev_gamma(gap), literal, 1e-12 * literal) << gap;
  }
  EXPECT_EQ(muffliato_chebyshev_gamma(0.0), 2.0);
  double previous = 2.0;
  for (double gap = 0.05; gap <= 1.0; gap += 0.05) {
    const double gamma = muffliato_chebyshev_gamma(gap);
    EXPECT_LT(gamma, previous);
    EXPECT_GE(gamma, 1.0);
    previous = gamma;
  }
  EXPECT_THROW(muffliato_chebyshev_gamma(-0.1), std::invalid_argument);
  EXPECT_THROW(muffliato_chebyshev_gamma(1.1), std::invalid_argument);
  EXPECT_THROW(muffliato_chebyshev_gamma(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
}

/// Closed form of P_{t+1} = γ x P_t + (1-γ) P_{t-1}, P_0 = 1, P_1 = x: P_t = a r₊^t + b r₋^t with
/// r± the roots of r² - γ x r + (γ - 1) = 0 (distinct unless the discriminant vanishes).
double closed_form(std::size_t t, double gamma, double x) {
  using C = std::complex<double>;
  const C root = std::sqrt(C(gamma * gamma * x * x - 4.0 * (gamma - 1.0)));
  const C plus = (gamma * x + root) / 2.0;
  const C minus = (gamma * x - root) / 2.0;
  const C b = (plus - x) / (plus - minus);
  const C a = 1.0 - b;
  return (a * std::pow(plus, static_cast<double>(t)) + b * std::pow(minus, static_cast<double>(t))).real();
}

TEST(Chebyshev, PolynomialMatchesItsClosedForm) {
  for (const double gap : {0.01, 0.2, 0.7}) {
    const double gamma = muffliato_chebyshev_gamma(gap);
    for (const double x : {-0.95, -0.3, 0.1, 0.6, 0.99}) {
      for (const std::size_t t : {0u, 1u, 2u, 5u, 30u}) {
        EXPECT_NEAR(chebyshev_polynomial(t, gamma, x), closed_form(t, gamma, x), 1e-10)
            << gap << " " << x << " " << t;
      }
    }
    for (const std::size_t t : {0u, 3u, 50u}) EXPECT_NEAR(chebyshev_polynomial(t, gamma, 1.0), 1.0, 1e-12);
  }
}

TEST(Chebyshev, ContractsAtRateSqrtGammaMinusOneOnTheNonPrincipalSpectrum) {
  // For |x| <= 1 - λ (inside 1 - λ/2, for which γ is tuned) the roots are complex of modulus sqrt(γ - 1),
  // and sqrt(γ - 1) <= exp(-sqrt(λ)), the rate of Muffliato Theorem 7.
  for (const double gap : {1e-3, 0.05, 0.3, 1.0}) {
    const double gamma = muffliato_chebyshev_gamma(gap);
    const double rate = std::sqrt(gamma - 1.0);
    EXPECT_LE(rate, std::exp(-std::sqrt(gap)));
    for (double x = -(1.0 - gap); x <= 1.0 - gap; x += (1.0 - gap) / 50 + 1e-3) {
      for (std::size_t t = 1; t <= 200; t += 13) {
        EXPECT_LE(std::abs(chebyshev_polynomial(t, gamma, x)),
                  2.0 * std::pow(rate, static_cast<double>(t)) + 1e-300);
      }
    }
  }
}

TEST(Chebyshev, GossipEqualsThePolynomialOfTheMatrix) {
  const GossipMatrix w = make_gossip_matrix(graph::karate_club(), Weighting::closed_row);
  const DenseMatrix dense_w(w.matrix());
  const double gamma = muffliato_chebyshev_gamma(second_eigenvalue(w).spectral_gap);
  DenseMatrix x0(34, 2);
  for (int v = 0; v < 34; ++v) {
    x0(v, 0) = std::sin(v + 1.0);
    x0(v, 1) = v;
  }
  // Literal: P_t(W) as dense matrices from Definition 3, applied to x0.
  std::vector<DenseMatrix> literal{DenseMatrix::Identity(34, 34), dense_w};
  const std::size_t steps = 25;
  for (std::size_t t = 1; t < steps; ++t) {
    literal.push_back(gamma * dense_w * literal[t] + (1.0 - gamma) * literal[t - 1]);
  }
  std::size_t visited = 0;
  const DenseMatrix result =
      chebyshev_gossip(w.matrix(), x0, steps, gamma, [&](std::size_t t, const DenseMatrix& x) {
        EXPECT_EQ(t, visited++);
        EXPECT_LE((x - literal[t] * x0).cwiseAbs().maxCoeff(), 1e-12) << "t = " << t;
      });
  EXPECT_EQ(visited, steps + 1);
  EXPECT_LE((result - literal[steps] * x0).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(Chebyshev, PreservesTheMeanOfADoublyStochasticMatrixAndConverges) {
  const GossipMatrix w = make_gossip_matrix(graph::ring(31), Weighting::metropolis);
  const double gap = second_eigenvalue(w).spectral_gap;
  Vector x0 = Vector::Zero(31);
  x0[0] = 31.0;  // mean 1
  const DenseMatrix x = chebyshev_gossip(w.matrix(), x0, 400, muffliato_chebyshev_gamma(gap));
  EXPECT_NEAR(x.mean(), 1.0, 1e-12);
  EXPECT_LE((x.array() - 1.0).abs().maxCoeff(), 1e-6);
}

TEST(Chebyshev, RejectsBadInputs) {
  const GossipMatrix w = make_gossip_matrix(graph::ring(5), Weighting::metropolis);
  EXPECT_THROW(chebyshev_gossip(w.matrix(), Vector::Zero(4), 3, 1.5), std::invalid_argument);
  EXPECT_THROW(chebyshev_gossip(w.matrix(), Vector::Zero(5), 3, 2.5), std::invalid_argument);
  EXPECT_THROW(chebyshev_polynomial(3, 0.5, 0.1), std::invalid_argument);
  EXPECT_EQ(chebyshev_gossip(w.matrix(), Vector::Ones(5), 0, 1.5), DenseMatrix(Vector::Ones(5)));
}

}  // namespace
}  // namespace netdp::gossip
