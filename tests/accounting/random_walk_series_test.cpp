// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Tests of S_T(W) = Σ W^i/i (Lemma 2), Theorem 3 and the closed forms of
// Appendix E (complete graph, ring, star) against literal dense references.

#include "netdp/accounting/random_walk/random_walk_series.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "netdp/graph/generators.hpp"
#include "netdp/graph/metrics.hpp"
#include "random_walk_test_helpers.hpp"

namespace netdp::accounting {
namespace {

using rw_test::expect_matrix_near;
using rw_test::literal_series;

long double literal_partial_sum(long double lambda, std::size_t steps) {
  long double sum = 0.0L;
  long double power = 1.0L;
  for (std::size_t i = 1; i <= steps; ++i) {
    power *= lambda;
    sum += power / static_cast<long double>(i);
  }
  return sum;
}

TEST(RandomWalkPartialSum, MatchesLongDoubleDirectSum) {
  for (const double lambda : {-1.0, -0.999999, -0.7, -0.5, -1e-3, 0.0, 1e-3, 0.3, 0.9, 0.99999, 1.0}) {
    for (const std::size_t steps : {1, 2, 7, 1150, 300000}) {
      const double expected = static_cast<double>(literal_partial_sum(lambda, steps));
      const double actual = partial_log_series(lambda, steps);
      const double tol = (lambda < -0.9999 && steps > 131072) ? 1e-10 : 1e-12;  // see LongSums… below
      EXPECT_NEAR(actual, expected, tol * std::max(std::abs(expected), 1e-3))
          << "lambda " << lambda << " T " << steps;
    }
  }
}

TEST(RandomWalkPartialSum, LongSumsNearOneUseExactIdentities) {
  // 400000 terms: past the direct-summation limit, so Euler–Maclaurin / the even-odd identity are used.
  // Near −1 the identity s_T(−r) = s_{T/2}(r²) − s_T(r) subtracts two sums ~ ln(1/(1−r)) to get
  // ~ −ln 2, so about a digit is lost there: 1e-10 relative.
  for (const double lambda : {0.99999, 0.999999, -0.99999, -0.999999, -1.0}) {
    const double expected = static_cast<double>(literal_partial_sum(lambda, 400000));
    const double tol = lambda > 0 ? 1e-12 : 1e-10;
    EXPECT_NEAR(partial_log_series(lambda, 400000), expected, tol * std::abs(expected)) << lambda;
  }
}

TEST(RandomWalkPartialSum, LimitAndHarmonicNumbers) {
  EXPECT_NEAR(partial_log_series(0.5, 1000), std::log(2.0), 1e-15);  // −log(1 − ½)
  EXPECT_DOUBLE_EQ(harmonic_number(1), 1.0);
  EXPECT_NEAR(harmonic_number(4), 25.0 / 12.0, 1e-15);
  for (const std::size_t steps : {1000000, 1000001, 5000000}) {
    long double h = 0.0L;
    for (std::size_t i = steps; i >= 1; --i) h += 1.0L / static_cast<long double>(i);
    EXPECT_NEAR(harmonic_number(steps), static_cast<double>(h), 1e-14 * static_cast<double>(h));
  }
  EXPECT_DOUBLE_EQ(partial_log_series(1.0, 77), harmonic_number(77));
}

TEST(RandomWalkPartialSum, RejectsBadInput) {
  EXPECT_THROW(partial_log_series(0.5, 0), std::invalid_argument);
  EXPECT_THROW(partial_log_series(1.01, 3), std::invalid_argument);
  EXPECT_THROW(partial_log_series(std::nan(""), 3), std::invalid_argument);
}

struct SeriesCase {
  const char* name;
  gossip::GossipMatrix w;
};

std::vector<SeriesCase> symmetric_cases() {
  std::vector<SeriesCase> cases;
  cases.push_back({"ring7 (1/3, 1/3, 1/3)", rw_test::lazy_ring(7, 1.0 / 3.0)});
  cases.push_back({"ring8 no self-loop (bipartite)", rw_test::lazy_ring(8, 0.0)});
  cases.push_back({"hypercube d=3 hamilton (bipartite)", rw_test::hamilton(graph::hypercube(3))});
  cases.push_back({"star n=6 hamilton", rw_test::hamilton(graph::star(6))});
  cases.push_back({"complete n=5 hamilton", rw_test::hamilton(graph::complete(5))});
  cases.push_back({"grid 3x4 hamilton", rw_test::hamilton(graph::grid(3, 4))});
  return cases;
}

TEST(RandomWalkSeries, SpectralAndPropagationMatchLiteralPowers) {
  for (const auto& c : symmetric_cases()) {
    for (const std::size_t steps : {1, 2, 5, 40, 300}) {
      SCOPED_TRACE(std::string(c.name) + " T=" + std::to_string(steps));
      const DenseMatrix expected = literal_series(DenseMatrix(c.w.matrix()), steps);
      const RandomWalkSeries spectral = random_walk_series(c.w, steps, RandomWalkSeriesMethod::spectral);
      EXPECT_EQ(spectral.method, RandomWalkSeriesMethod::spectral);
      expect_matrix_near(spectral.matrix, expected, 1e-9);
      const RandomWalkSeries propagated = random_walk_series(c.w, steps, RandomWalkSeriesMethod::propagation);
      expect_matrix_near(propagated.matrix, expected, 1e-9);
      expect_matrix_near(random_walk_series_row(c.w, 2, steps).transpose(), expected.row(2), 1e-9);
    }
  }
}

TEST(RandomWalkSeries, BipartiteFastPathMatchesLiteralPowers) {
  for (const auto& w : {rw_test::lazy_ring(8, 0.0), rw_test::hamilton(graph::hypercube(3)),
                        rw_test::hamilton(graph::hypercube(5)), rw_test::hamilton(graph::torus(4, 6))}) {
    for (const std::size_t steps : {1, 2, 3, 8, 41, 300}) {
      SCOPED_TRACE("n=" + std::to_string(w.num_nodes()) + " T=" + std::to_string(steps));
      const RandomWalkSeries fast = random_walk_series(w, steps);
      EXPECT_EQ(fast.method, RandomWalkSeriesMethod::spectral_bipartite);
      expect_matrix_near(fast.matrix, literal_series(DenseMatrix(w.matrix()), steps), 1e-9);
    }
  }
  // Not applicable: self-loops (lazy ring), odd cycle.
  EXPECT_THROW(random_walk_series(rw_test::lazy_ring(8, 0.5), 5, RandomWalkSeriesMethod::spectral_bipartite),
               std::invalid_argument);
  EXPECT_THROW(random_walk_series(rw_test::lazy_ring(7, 0.0), 5, RandomWalkSeriesMethod::spectral_bipartite),
               std::invalid_argument);
  EXPECT_EQ(random_walk_series(rw_test::lazy_ring(7, 0.0), 5).method, RandomWalkSeriesMethod::spectral);
}

// Closed-row weights are reversible (π_u ∝ |N̄_u|): spectral through Π^{1/2} W Π^{-1/2}.
TEST(RandomWalkSeries, ReversibleUsesSymmetrizedSpectral) {
  for (const auto& w : {rw_test::closed_row(graph::star(5)), rw_test::closed_row(graph::grid(3, 4)),
                        rw_test::closed_row(graph::path(6))}) {
    for (const std::size_t steps : {1, 4, 30, 500}) {
      const DenseMatrix expected = literal_series(DenseMatrix(w.matrix()), steps);
      const RandomWalkSeries series = random_walk_series(w, steps);
      EXPECT_EQ(series.method, RandomWalkSeriesMethod::spectral);
      expect_matrix_near(series.matrix, expected, 1e-9);
      expect_matrix_near(random_walk_series(w, steps, RandomWalkSeriesMethod::propagation).matrix, expected,
                         1e-9);
    }
    EXPECT_THROW(random_walk_theorem3(w, 30), std::invalid_argument);
    EXPECT_THROW(random_walk_series(w, 30, RandomWalkSeriesMethod::spectral_bipartite),
                 std::invalid_argument);
  }
}

// A non-reversible W (a biased cycle) goes through sparse propagation.
TEST(RandomWalkSeries, GeneralUsesPropagation) {
  const std::size_t n = 5;
  DenseMatrix cycle = DenseMatrix::Zero(n, n);
  for (std::size_t u = 0; u < n; ++u) {
    cycle(u, u) = 0.2;
    cycle(u, (u + 1) % n) = 0.6;
    cycle(u, (u + n - 1) % n) = 0.2;
  }
  const gossip::GossipMatrix w = rw_test::from_dense(cycle);
  const RandomWalkSeries series = random_walk_series(w, 30);
  EXPECT_EQ(series.method, RandomWalkSeriesMethod::propagation);
  expect_matrix_near(series.matrix, literal_series(cycle, 30), 1e-9);
  EXPECT_THROW(random_walk_series(w, 30, RandomWalkSeriesMethod::spectral), std::invalid_argument);
  // One row is the target's row (the walk leaves the target), not its column.
  for (const std::size_t steps : {1, 3, 30}) {
    expect_matrix_near(random_walk_series_row(w, 1, steps).transpose(), literal_series(cycle, steps).row(1),
                       1e-12);
  }
}

// Pairs more than T hops apart have S_T(W)_uv = 0 exactly (no walk of T steps joins them); the
// spectral methods sum eigenvectors of both signs, so rounding must not leave them negative (an RDP
// curve below zero is refused downstream), nor any other entry: every term is non-negative.
TEST(RandomWalkSeries, EntriesAreNonNegativeAndZeroBeyondTHops) {
  for (const auto& c : symmetric_cases()) {
    for (const std::size_t steps : {1, 2, 3}) {
      SCOPED_TRACE(std::string(c.name) + " T=" + std::to_string(steps));
      const DenseMatrix expected = literal_series(DenseMatrix(c.w.matrix()), steps);
      const DenseMatrix spectral = random_walk_series(c.w, steps).matrix;
      EXPECT_GE(spectral.minCoeff(), 0.0);
      for (Eigen::Index u = 0; u < spectral.rows(); ++u) {
        const auto hops = graph::bfs_distances(c.w.graph(), static_cast<graph::NodeId>(u));
        for (Eigen::Index v = 0; v < spectral.cols(); ++v) {
          if (hops[static_cast<std::size_t>(v)] > steps) {
            EXPECT_LE(spectral(u, v), 1e-15) << u << " " << v;
          } else {
            EXPECT_NEAR(spectral(u, v), expected(u, v), 1e-9);
          }
        }
      }
    }
  }
}

TEST(RandomWalkSeries, RejectsZeroStepsDisconnectedAndOutOfRange) {
  const gossip::GossipMatrix ring = rw_test::lazy_ring(6, 0.5);
  EXPECT_THROW(random_walk_series(ring, 0), std::invalid_argument);
  EXPECT_THROW(random_walk_series_row(ring, 6, 3), std::invalid_argument);
  DenseMatrix two = DenseMatrix::Zero(4, 4);  // two components {0, 1}, {2, 3}
  two << 0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0, 0, 0, 0.5, 0.5, 0, 0, 0.5, 0.5;
  try {
    random_walk_series(rw_test::from_dense(two), 3);
    FAIL() << "a disconnected W must be rejected";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("connected"), std::string::npos) << e.what();
  }
  DenseMatrix not_stochastic = DenseMatrix::Constant(3, 3, 0.3);
  EXPECT_THROW(rw_test::from_dense(not_stochastic), std::invalid_argument);
}

// Appendix E.2, complete graph: W = 11ᵀ/n, so W^i = W and S_T(W) = H_T/n (the paper's "log T" is H_T).
TEST(RandomWalkClosedForms, CompleteGraph) {
  const std::size_t n = 6;
  const gossip::GossipMatrix w = rw_test::from_dense(DenseMatrix::Constant(n, n, 1.0 / n));
  for (const std::size_t steps : {1, 10, 1150}) {
    const double h = harmonic_number(steps);
    expect_matrix_near(random_walk_series(w, steps).matrix, DenseMatrix::Constant(n, n, h / n), 1e-12);
    // Remark 2: the log term vanishes (I − W + 11ᵀ/n = I).
    expect_matrix_near(random_walk_theorem3(w, steps).matrix, DenseMatrix::Constant(n, n, h / n), 1e-12);
  }
}

// Theorem 5 / Appendix E.2, ring with stay = left = right = 1/3: circulant, eigenvalues
// λ_k = (1 + 2 cos(2πk/n))/3 on Fourier modes, so (W^i)_{uv} = (1/n) Σ_k λ_k^i cos(2πk(u−v)/n).
// Corrected from the paper: the phase is u − v (not u + v − 2), and −log(1 − λ_k) = ln(3 csc²(πk/n)/4).
TEST(RandomWalkClosedForms, RingFourierForms) {
  const std::size_t n = 9;
  const gossip::GossipMatrix w = rw_test::lazy_ring(n, 1.0 / 3.0);
  const std::size_t steps = 60;
  const DenseMatrix series = random_walk_series(w, steps).matrix;
  const RandomWalkTheorem3 limit = random_walk_theorem3(w, steps);
  const double pi = std::numbers::pi;
  for (std::size_t u = 0; u < n; ++u) {
    for (std::size_t v = 0; v < n; ++v) {
      const double d = static_cast<double>(u) - static_cast<double>(v);
      double finite = 0.0;
      double closed = harmonic_number(steps) / n;
      for (std::size_t k = 0; k < n; ++k) {
        const double lambda = (1.0 + 2.0 * std::cos(2.0 * pi * k / n)) / 3.0;
        const double phase = std::cos(2.0 * pi * k * d / n);
        finite += static_cast<double>(literal_partial_sum(lambda, steps)) * phase / n;
        if (k > 0) closed += phase * std::log(3.0 / (4.0 * std::pow(std::sin(pi * k / n), 2))) / n;
      }
      EXPECT_NEAR(series(u, v), finite, 1e-12 * std::abs(finite));
      EXPECT_NEAR(limit.matrix(u, v), closed, 1e-12 * std::abs(closed));
      EXPECT_LE(std::abs(series(u, v) - limit.matrix(u, v)), limit.truncation_bound * (1 + 1e-9) + 1e-15);
    }
  }
}

// Theorem 3: −log(I − W + 11ᵀ/n) = Σ_{i>=1} (W − 11ᵀ/n)^i / i (spectral radius < 1 for a connected,
// aperiodic W), summed literally; the finite-T series approaches it within truncation_bound.
TEST(RandomWalkClosedForms, Theorem3MatchesLiteralLogSeries) {
  for (const auto& w : {rw_test::hamilton(graph::grid(3, 3)), rw_test::lazy_ring(7, 0.5),
                        rw_test::hamilton(graph::star(5))}) {
    const Eigen::Index n = w.matrix().rows();
    const DenseMatrix deflated = DenseMatrix(w.matrix()) - DenseMatrix::Constant(n, n, 1.0 / n);
    const std::size_t steps = 50;
    const DenseMatrix expected =
        literal_series(deflated, 3000) + DenseMatrix::Constant(n, n, harmonic_number(steps) / n);
    const RandomWalkTheorem3 limit = random_walk_theorem3(w, steps);
    expect_matrix_near(limit.matrix, expected, 1e-9, 1e-3);
    const DenseMatrix finite = literal_series(DenseMatrix(w.matrix()), steps);
    EXPECT_LE((finite - limit.matrix).cwiseAbs().maxCoeff(), limit.truncation_bound + 1e-14);
    EXPECT_GT(limit.second_eigenvalue_modulus, 0.0);
    EXPECT_LT(limit.second_eigenvalue_modulus, 1.0);
  }
}

// Star with Hamilton weights (centre 0; W_{0l} = W_{l0} = 1/(n−1), leaves lazy), derived as in
// Appendix E: spectrum {1, μ = (n−2)/(n−1) on leaf differences (×(n−2)), ν = −1/(n−1) on
// ψ = (√((n−1)/n), −1/√(n(n−1)) 1)}. The paper's Theorem 4 uses the sub-stochastic A/(n−1),
// which drops the λ = 1 mode (H_T/n); see the docs.
TEST(RandomWalkClosedForms, HamiltonStar) {
  const std::size_t n = 7;
  const gossip::GossipMatrix w = rw_test::hamilton(graph::star(n));
  const double nd = static_cast<double>(n);
  for (const std::size_t steps : {3, 25, 1150}) {
    const DenseMatrix s = random_walk_series(w, steps).matrix;
    const double h = harmonic_number(steps);
    const double mu = partial_log_series((nd - 2.0) / (nd - 1.0), steps);
    const double nu = partial_log_series(-1.0 / (nd - 1.0), steps);
    EXPECT_NEAR(s(0, 3), h / nd - nu / nd, 1e-12 * s(0, 3));
    const double leaves = h / nd - mu / (nd - 1.0) + nu / (nd * (nd - 1.0));
    EXPECT_NEAR(s(2, 5), leaves, 1e-12 * leaves);
  }
}

// Theorem 4 as printed is the T → ∞ value of Σ (A/(n−1))^p / p (A the star's adjacency).
TEST(RandomWalkClosedForms, Theorem4IsTheSubstochasticStarSeries) {
  const std::size_t n = 10;
  DenseMatrix a = DenseMatrix::Zero(n, n);
  for (std::size_t l = 1; l < n; ++l) a(0, l) = a(l, 0) = 1.0 / static_cast<double>(n - 1);
  const DenseMatrix s = literal_series(a, 400);
  const double r = std::sqrt(static_cast<double>(n - 1));
  EXPECT_NEAR(s(0, 4), std::log((r + 1.0) / (r - 1.0)) / (2.0 * r), 1e-12);
  // Leaves: Σ_even x^p/p = −½ ln(1 − x²) (the paper's Proposition 1 drops the ½, so Theorem 4's
  // leaf case is twice this: an over-estimate).
  EXPECT_NEAR(s(3, 4), -0.5 * std::log(1.0 - 1.0 / (n - 1.0)) / (n - 1.0), 1e-12);
}

TEST(RandomWalkSeries, HypercubeDependsOnlyOnDistance) {
  const unsigned d = 4;
  const gossip::GossipMatrix w = rw_test::hamilton(graph::hypercube(d));
  const DenseMatrix s = random_walk_series(w, 100).matrix;
  std::vector<double> by_distance(d + 1, -1.0);
  for (Eigen::Index u = 0; u < s.rows(); ++u) {
    for (Eigen::Index v = 0; v < s.cols(); ++v) {
      double& ref = by_distance[rw_test::hamming(u, v)];
      if (ref < 0) ref = s(u, v);
      EXPECT_NEAR(s(u, v), ref, 1e-12 * ref) << u << " " << v;
    }
  }
}

}  // namespace
}  // namespace netdp::accounting
