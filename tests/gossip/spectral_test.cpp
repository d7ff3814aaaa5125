// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/spectral.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
#include "reference.hpp"

namespace netdp::gossip {
namespace {

using std::numbers::pi;

std::vector<double> real_parts(const std::vector<std::complex<double>>& values) {
  std::vector<double> out;
  for (const auto& x : values) {
    EXPECT_EQ(x.imag(), 0.0);
    out.push_back(x.real());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expect_same_spectrum(std::vector<double> actual, std::vector<double> expected, double tol = 1e-12) {
  ASSERT_EQ(actual.size(), expected.size());
  std::sort(actual.begin(), actual.end());
  std::sort(expected.begin(), expected.end());
  for (std::size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], tol) << "index " << i;
}

GossipMatrix from_dense(const DenseMatrix& w) { return GossipMatrix::from_support(w.sparseView()); }

TEST(Spectral, RingWithHamiltonHasCosineEigenvalues) {
  for (const std::size_t n : {9u, 10u}) {
    const GossipMatrix w = make_gossip_matrix(graph::ring(n), Weighting::hamilton);
    std::vector<double> expected;
    for (std::size_t k = 0; k < n; ++k) expected.push_back(std::cos(2 * pi * static_cast<double>(k) / n));
    expect_same_spectrum(real_parts(eigenvalues(w)), expected);
    // Odd n: max_{k != 0} |cos(2πk/n)| = cos(π/n); even n: -1 is an eigenvalue (bipartite), gap 0.
    const SecondEigenvalue second = second_eigenvalue(w);
    const double expected_modulus = n % 2 == 1 ? std::cos(pi / static_cast<double>(n)) : 1.0;
    EXPECT_NEAR(second.modulus, expected_modulus, 1e-12);
    EXPECT_NEAR(second.spectral_gap, 1.0 - expected_modulus, 1e-12);
    EXPECT_EQ(second.method, SpectralMethod::dense);
  }
}

TEST(Spectral, ClosedRowOnARingIsThirdOfOnePlusTwoCosines) {
  // W = (A + I)/3 on C_n: eigenvalues (1 + 2 cos(2πk/n)) / 3.
  const std::size_t n = 12;
  const GossipMatrix w = make_gossip_matrix(graph::ring(n), Weighting::closed_row);
  std::vector<double> expected;
  for (std::size_t k = 0; k < n; ++k)
    expected.push_back((1 + 2 * std::cos(2 * pi * static_cast<double>(k) / n)) / 3);
  expect_same_spectrum(real_parts(eigenvalues(w)), expected);
}

TEST(Spectral, CompleteGraph) {
  const std::size_t n = 8;
  // Hamilton: W = (J - I)/(n-1): eigenvalues 1 and -1/(n-1) (n-1 times).
  const GossipMatrix hamilton = make_gossip_matrix(graph::complete(n), Weighting::hamilton);
  std::vector<double> expected(n, -1.0 / (n - 1));
  expected[0] = 1.0;
  expect_same_spectrum(real_parts(eigenvalues(hamilton)), expected);
  EXPECT_NEAR(second_eigenvalue(hamilton).spectral_gap, 1.0 - 1.0 / (n - 1), 1e-12);
  // Metropolis: W = J/n: eigenvalues 1 and 0: gap 1.
  const GossipMatrix metropolis = make_gossip_matrix(graph::complete(n), Weighting::metropolis);
  EXPECT_NEAR(second_eigenvalue(metropolis).spectral_gap, 1.0, 1e-12);
}

TEST(Spectral, Hypercube) {
  // Q_d: adjacency eigenvalues d - 2k with multiplicity C(d, k).
  const unsigned d = 5;
  std::vector<double> hamilton_expected;
  std::vector<double> metropolis_expected;
  for (unsigned k = 0; k <= d; ++k) {
    const auto multiplicity = static_cast<std::size_t>(
        std::lround(std::tgamma(d + 1) / (std::tgamma(k + 1) * std::tgamma(d - k + 1))));
    for (std::size_t i = 0; i < multiplicity; ++i) {
      hamilton_expected.push_back((static_cast<double>(d) - 2.0 * k) / d);                // W = A/d
      metropolis_expected.push_back((static_cast<double>(d) - 2.0 * k + 1.0) / (d + 1));  // W = (A + I)/(d+1)
    }
  }
  const GossipMatrix hamilton = make_gossip_matrix(graph::hypercube(d), Weighting::hamilton);
  const GossipMatrix metropolis = make_gossip_matrix(graph::hypercube(d), Weighting::metropolis);
  expect_same_spectrum(real_parts(eigenvalues(hamilton)), hamilton_expected);
  expect_same_spectrum(real_parts(eigenvalues(metropolis)), metropolis_expected);
  EXPECT_NEAR(second_eigenvalue(hamilton).spectral_gap, 0.0, 1e-12);  // -1 is an eigenvalue
  EXPECT_NEAR(second_eigenvalue(metropolis).modulus, (d - 1.0) / (d + 1.0), 1e-12);
}

TEST(Spectral, ReversibleSymmetrizationMatchesTheGeneralSolver) {
  const graph::Graph g = graph::karate_club();
  for (const Weighting weighting : {Weighting::closed_row, Weighting::lazy_uniform}) {
    const GossipMatrix w = make_gossip_matrix(g, weighting);
    EXPECT_EQ(symmetry_class(w), SymmetryClass::reversible);
    // Literal reference: the unsymmetric dense eigen-solver on W itself.
    const Eigen::EigenSolver<DenseMatrix> literal(DenseMatrix(w.matrix()), false);
    std::vector<double> expected;
    for (const auto& x : literal.eigenvalues()) {
      EXPECT_NEAR(x.imag(), 0.0, 1e-9);
      expected.push_back(x.real());
    }
    expect_same_spectrum(real_parts(eigenvalues(w)), expected, 1e-9);
  }
}

TEST(Spectral, GeneralMatrixHasComplexEigenvaluesSortedByModulus) {
  // Circulant 0.5 I + 0.5 P (P the 3-cycle): eigenvalues 0.5 + 0.5 ω^k, |·| = 1, 0.5, 0.5.
  DenseMatrix w(3, 3);
  w << 0.5, 0.5, 0.0,  //
      0.0, 0.5, 0.5,   //
      0.5, 0.0, 0.5;
  const GossipMatrix m = from_dense(w);
  EXPECT_EQ(symmetry_class(m), SymmetryClass::general);
  const auto values = eigenvalues(m);
  EXPECT_NEAR(values[0].real(), 1.0, 1e-12);
  EXPECT_NEAR(std::abs(values[1]), 0.5, 1e-12);
  EXPECT_NEAR(std::abs(values[1].imag()), std::sqrt(3.0) / 4, 1e-12);
  EXPECT_NEAR(second_eigenvalue(m).modulus, 0.5, 1e-12);
  EXPECT_THROW(second_eigenvalue(m, SpectralMethod::lanczos), std::invalid_argument);
}

TEST(Spectral, LanczosAgreesWithDense) {
  graph::ErdosRenyiOptions connected;
  connected.connected = true;
  std::vector<graph::Graph> graphs;
  graphs.push_back(graph::erdos_renyi(300, 0.03, 3, connected));
  graphs.push_back(graph::ring(301));
  graphs.push_back(graph::karate_club());
  for (const graph::Graph& g : graphs) {
    for (const Weighting weighting : kDegreeWeightings) {
      const GossipMatrix w = make_gossip_matrix(g, weighting);
      const SecondEigenvalue dense = second_eigenvalue(w, SpectralMethod::dense);
      const SecondEigenvalue lanczos = second_eigenvalue(w, SpectralMethod::lanczos);
      EXPECT_EQ(lanczos.method, SpectralMethod::lanczos);
      EXPECT_TRUE(lanczos.converged) << lanczos.diagnostic;
      EXPECT_NEAR(lanczos.modulus, dense.modulus, 1e-9 * dense.modulus)
          << weighting_name(weighting) << " n=" << g.num_nodes();
    }
  }
}

TEST(Spectral, AutomaticUsesLanczosForLargeSymmetricMatrices) {
  const GossipMatrix w = make_gossip_matrix(graph::hypercube(11), Weighting::metropolis);  // n = 2048
  const SecondEigenvalue second = second_eigenvalue(w);
  EXPECT_EQ(second.method, SpectralMethod::lanczos);
  EXPECT_NEAR(second.modulus, 10.0 / 12.0, 1e-9);  // (d - 1)/(d + 1)
}

TEST(Spectral, DenseRefusesMatricesAboveTheLimit) {
  const GossipMatrix w = make_gossip_matrix(graph::ring(kDenseEigenLimit + 1), Weighting::metropolis);
  EXPECT_THROW(eigenvalues(w), std::invalid_argument);
}

TEST(Spectral, DisconnectedGraphHasNoGap) {
  const graph::Graph g = graph::Graph::from_edges(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}});
  const GossipMatrix w = make_gossip_matrix(g, Weighting::metropolis);
  EXPECT_NEAR(second_eigenvalue(w).modulus, 1.0, 1e-12);
  EXPECT_FALSE(primitivity(w).irreducible);
  const Stationary stationary = stationary_distribution(w);
  EXPECT_FALSE(stationary.unique);
  EXPECT_NEAR(stationary.pi.sum(), 1.0, 1e-12);
}

TEST(Stationary, ClosedRowIsProportionalToDegreePlusOne) {
  const graph::Graph g = graph::karate_club();
  const GossipMatrix w = make_gossip_matrix(g, Weighting::closed_row);
  const Stationary stationary = stationary_distribution(w);
  EXPECT_EQ(stationary.method, StationaryMethod::detailed_balance);
  EXPECT_TRUE(stationary.unique);
  double total = 0;
  for (graph::NodeId v = 0; v < g.num_nodes(); ++v) total += static_cast<double>(g.degree(v) + 1);
  for (graph::NodeId v = 0; v < g.num_nodes(); ++v) {
    EXPECT_NEAR(stationary.pi[v], static_cast<double>(g.degree(v) + 1) / total, 1e-15);
  }
  EXPECT_LE(stationary.residual, 1e-14);
}

TEST(Stationary, LazyUniformIsProportionalToDegreeAndHamiltonIsUniform) {
  const graph::Graph g = graph::karate_club();
  const Stationary lazy = stationary_distribution(make_gossip_matrix(g, Weighting::lazy_uniform));
  const double total = 2.0 * static_cast<double>(g.num_edges());
  for (graph::NodeId v = 0; v < g.num_nodes(); ++v) {
    EXPECT_NEAR(lazy.pi[v], static_cast<double>(g.degree(v)) / total, 1e-15);
  }
  const Stationary hamilton = stationary_distribution(make_gossip_matrix(g, Weighting::hamilton));
  EXPECT_EQ(hamilton.method, StationaryMethod::uniform);
  EXPECT_TRUE((hamilton.pi.array() == 1.0 / 34).all());
}

TEST(Stationary, GeneralMatrixByPowerIterationMatchesTheLeftNullVector) {
  DenseMatrix w(3, 3);
  w << 0.5, 0.5, 0.0,  //
      0.0, 0.5, 0.5,   //
      0.25, 0.25, 0.5;
  const Stationary stationary = stationary_distribution(from_dense(w));
  EXPECT_EQ(stationary.method, StationaryMethod::power_iteration);
  EXPECT_TRUE(stationary.converged);
  // Literal reference: the kernel of (W - I)ᵀ, normalised.
  const Eigen::FullPivLU<DenseMatrix> lu((w - DenseMatrix::Identity(3, 3)).transpose());
  ASSERT_EQ(lu.kernel().cols(), 1);
  const Vector expected = lu.kernel().col(0) / lu.kernel().col(0).sum();
  EXPECT_LE((stationary.pi - expected).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LE(stationary.residual, 1e-12);
}

TEST(Stationary, PowerIterationReportsNonConvergence) {
  DenseMatrix w(3, 3);
  w << 0.5, 0.5, 0.0,  //
      0.0, 0.5, 0.5,   //
      0.25, 0.25, 0.5;
  const Stationary stationary = stationary_distribution(from_dense(w), 1e-15, 2);
  EXPECT_FALSE(stationary.converged);
  EXPECT_EQ(stationary.iterations, 2u);
  EXPECT_GT(stationary.residual, 0.0);
  EXPECT_THROW(stationary_distribution(from_dense(w), 0.0), std::invalid_argument);
}

TEST(Primitivity, PeriodsFromTheSupport) {
  EXPECT_EQ(primitivity(make_gossip_matrix(graph::ring(10), Weighting::hamilton)).period, 2u);  // bipartite
  EXPECT_EQ(primitivity(make_gossip_matrix(graph::ring(9), Weighting::hamilton)).period, 1u);   // odd cycle
  EXPECT_TRUE(
      primitivity(make_gossip_matrix(graph::ring(10), Weighting::metropolis)).primitive());  // W_vv > 0
  DenseMatrix cycle(3, 3);  // the permutation 0 -> 1 -> 2 -> 0: period 3
  cycle << 0, 1, 0,         //
      0, 0, 1,              //
      1, 0, 0;
  const Primitivity p = primitivity(from_dense(cycle));
  EXPECT_TRUE(p.irreducible);
  EXPECT_EQ(p.period, 3u);
  EXPECT_FALSE(p.primitive());
  DenseMatrix absorbing(2, 2);  // 1 -> 0 but not back: reducible
  absorbing << 1, 0,            //
      0.5, 0.5;
  EXPECT_FALSE(primitivity(from_dense(absorbing)).irreducible);
  EXPECT_TRUE(stationary_distribution(from_dense(absorbing)).unique);  // one closed class {0}
}

TEST(Mixing, BoundIsLevinPeresWilmerTheorem12_4) {
  const unsigned d = 4;
  const GossipMatrix w = make_gossip_matrix(graph::hypercube(d), Weighting::metropolis);
  const double gap = 2.0 / (d + 1);  // 1 - (d-1)/(d+1)
  const double expected = std::ceil(std::log(1.0 / (0.25 / 16.0)) / gap);
  ASSERT_TRUE(mixing_time_bound(w).has_value());
  EXPECT_DOUBLE_EQ(*mixing_time_bound(w), expected);
  EXPECT_FALSE(mixing_time_bound(make_gossip_matrix(graph::ring(10), Weighting::hamilton)).has_value());
  EXPECT_THROW(mixing_time_bound(0.5, 0.1, 1.0), std::invalid_argument);
  EXPECT_THROW(mixing_time_bound(1.5, 0.1, 0.25), std::invalid_argument);
}

TEST(Mixing, BoundIsAnUpperBoundOnTheTotalVariationMixingTime) {
  const GossipMatrix w = make_gossip_matrix(graph::karate_club(), Weighting::closed_row);
  const double epsilon = 0.1;
  const auto bound = mixing_time_bound(w, epsilon);
  ASSERT_TRUE(bound.has_value());
  const Vector pi_law = stationary_distribution(w).pi;
  DenseMatrix power = DenseMatrix::Identity(34, 34);
  for (int t = 0; t < static_cast<int>(*bound); ++t) power = power * DenseMatrix(w.matrix());
  for (int u = 0; u < 34; ++u) {
    const double tv = 0.5 * (power.row(u).transpose() - pi_law).lpNorm<1>();
    EXPECT_LE(tv, epsilon) << "row " << u;
  }
}

}  // namespace
}  // namespace netdp::gossip
