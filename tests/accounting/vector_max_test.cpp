// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Tests of maximize_over_vectors against a literal dense solver of the SDP's dual (a log-barrier
// Newton method, written as a textbook states it), the bound relations scalar ≤ vector ≤ Σ|K|,
// and K from real secure-sum views.

#include "netdp/accounting/worst_case/vector_max.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>

#include "accounting/linear_system_test_helpers.hpp"
#include "accounting/sdp_reference.hpp"
#include "netdp/accounting/linear_system/linear_system.hpp"
#include "netdp/accounting/worst_case/sign_max.hpp"
#include "netdp/graph/generators.hpp"

namespace netdp::accounting {
namespace {

/// K = Zᵀ Z for an r × m block of a random orthonormal basis: a projector block, as in every view.
DenseMatrix random_projector_block(int m, int r, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  DenseMatrix a(n, r);
  for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(rng);
  const DenseMatrix q = Eigen::HouseholderQR<DenseMatrix>(a).householderQ() * DenseMatrix::Identity(n, r);
  const DenseMatrix z = q.topRows(m).transpose();
  return z.transpose() * z;
}

void expect_brackets(const VectorMaxResult& v, const DenseMatrix& k, double reference) {
  const SignMaxResult scalar = maximize_over_signs(k);
  const double tol = 1e-9 * std::max(1.0, v.sum_abs);
  EXPECT_GE(v.lower, scalar.lower_bound - tol);            // a vector release can do what a scalar can
  EXPECT_LE(v.lower, reference + 1e-7 * reference + tol);  // nothing attains more than the SDP
  EXPECT_GE(v.upper, reference - 1e-7 * reference - tol);  // the certificate is an upper bound
  EXPECT_LE(v.upper, v.sum_abs * (1 + 1e-12) + tol);       // never worse than Σ|K|
  if (v.exact) {
    EXPECT_NEAR(v.upper, reference, 1e-7 * reference + tol);
  }
  // The factor attains `lower`.
  ASSERT_EQ(v.factor.rows(), k.rows());
  for (Eigen::Index i = 0; i < k.rows(); ++i) EXPECT_NEAR(v.factor.row(i).norm(), 1.0, 1e-12);
  EXPECT_NEAR((v.factor.transpose() * k * v.factor).trace(), v.lower, tol);
}

TEST(VectorMax, MatchesTheBarrierReferenceOnRandomProjectorBlocks) {
  int exact = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    const int m = 2 + static_cast<int>(seed % 9);
    const int r = 1 + static_cast<int>(seed % 7);
    const DenseMatrix k = random_projector_block(m, r, 3 * m + r + 4, seed);
    const double reference = testing::barrier_sdp_value(k);
    const VectorMaxResult v = maximize_over_vectors(k);
    SCOPED_TRACE(seed);
    expect_brackets(v, k, reference);
    exact += v.exact ? 1 : 0;
  }
  EXPECT_GE(exact, 110);  // the bracket closes almost always; when it does not, upper is still valid
}

TEST(VectorMax, LargeBlocksCloseTheBracketThroughBothPrecisions) {
  // m >= 32: the interior point runs on LAPACK/BLAS, single precision to a gap of 1e-5, then
  // double; the bracket still closes to 1e-9 and matches the reference.
  for (const int m : {33, 48, 64}) {
    const DenseMatrix k = random_projector_block(m, m / 3, 2 * m, static_cast<std::uint64_t>(m));
    const VectorMaxResult v = maximize_over_vectors(k);
    SCOPED_TRACE(m);
    EXPECT_TRUE(v.exact);
    EXPECT_GT(v.iterations, 0);
    expect_brackets(v, k, testing::barrier_sdp_value(k));
  }
}

TEST(VectorMax, LinearSystemViewsOnRandomGraphs) {
  // Every pair of a few observers on ER(24) views of the three Koskela–Kulkarni kinds, T = 8: K_u
  // from the engine, hundreds of them with negative entries.
  int beyond_scalar = 0;
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    graph::ErdosRenyiOptions er;
    er.connected = true;
    const graph::Graph g = graph::erdos_renyi(24, 0.2, seed, er);
    const DenseMatrix w = seed % 2 == 0 ? testing::hamilton_dense(g) : testing::closed_row_dense(g);
    LinearSystemOptions options;
    options.rounds = 8;
    options.view = std::array{LinearSystemView::secure_sum, LinearSystemView::secure_sum_adaptive,
                              LinearSystemView::plain}[seed % 3];
    PairwiseOptions pairwise;
    pairwise.keep_gram = true;
    pairwise.sign_search = SignSearch::none;
    pairwise.release_dimension = 1;
    const std::vector<graph::NodeId> observers{0, 1, 2};
    std::vector<graph::NodeId> targets(24);
    for (std::size_t i = 0; i < targets.size(); ++i) targets[i] = static_cast<graph::NodeId>(i);
    const auto results = account_all_pairs(gossip::Schedule::fixed(SparseMatrix(w.sparseView()), 8),
                                           observers, targets, options, pairwise);
    for (const auto& pair : results) {
      const DenseMatrix& k = *pair.gram;
      if (k.minCoeff() >= 0.0) continue;  // Σ|K| = 1ᵀK1 is attained: nothing to search
      const double reference = testing::barrier_sdp_value(k);
      const VectorMaxResult v = maximize_over_vectors(k);
      expect_brackets(v, k, reference);
      beyond_scalar += v.lower > maximize_over_signs(k).lower_bound * (1 + 1e-6) ? 1 : 0;
      ++checked;
    }
  }
  EXPECT_GT(checked, 200);
  EXPECT_GT(beyond_scalar, 0);  // vector releases can lose more than any scalar one
}

TEST(VectorMax, AnOpenBracketIsNeverExactAndStillBoundsTheMaximum) {
  const DenseMatrix k = random_projector_block(12, 5, 41, 3);
  const double reference = testing::barrier_sdp_value(k);
  for (const int iterations : {1, 2, 4}) {
    VectorMaxOptions stopped;
    stopped.max_iterations = iterations;
    const VectorMaxResult v = maximize_over_vectors(k, stopped);
    SCOPED_TRACE(iterations);
    EXPECT_FALSE(v.exact);
    EXPECT_GE(v.upper, reference * (1 - 1e-12));
    EXPECT_LE(v.lower, reference * (1 + 1e-12));
    ASSERT_FALSE(v.warnings.empty());
    EXPECT_EQ(v.warnings.front().kind, DiagnosticKind::optimization_not_closed);
  }
  VectorMaxOptions two;  // a rank-2 release below the optimum's possible rank: mixing method from below
  two.dimension = 2;
  const VectorMaxResult v2 = maximize_over_vectors(k, two);
  EXPECT_EQ(v2.rank, 2);
  EXPECT_LE(v2.lower, reference * (1 + 1e-12));
  EXPECT_GE(v2.upper, reference * (1 - 1e-12));
}

TEST(VectorMax, NonNegativeKIsExactAtAllOnes) {
  DenseMatrix k(3, 3);
  k << 2, 1, 0, 1, 2, 1, 0, 1, 2;
  const VectorMaxResult v = maximize_over_vectors(k);
  EXPECT_TRUE(v.exact);
  EXPECT_EQ(v.rank, 1);
  EXPECT_NEAR(v.upper, 10.0, 1e-12);
  EXPECT_NEAR(v.lower, 10.0, 1e-12);
}

TEST(VectorMax, ThreeRoundsAtOneHundredTwentyDegrees) {
  // K = 1.5·I − 0.5·J (K_ii = 1, K_ij = −1/2, PSD): tr(KG) = 4.5 − 0.5·1ᵀG1 <= 4.5, attained by
  // three unit vectors at 120° (G_ij = −1/2). Signs reach only 4 (two equal, one opposite).
  DenseMatrix k = DenseMatrix::Identity(3, 3);
  k -= 0.5 * (DenseMatrix::Ones(3, 3) - DenseMatrix::Identity(3, 3));
  const VectorMaxResult v = maximize_over_vectors(k);
  EXPECT_TRUE(v.exact);
  EXPECT_NEAR(v.upper, 4.5, 1e-8);
  EXPECT_NEAR(maximize_over_signs(k).lower_bound, 4.0, 1e-12);
  VectorMaxOptions two;
  two.dimension = 2;
  EXPECT_NEAR(maximize_over_vectors(k, two).lower, 4.5, 1e-8);  // 120° fits in the plane
}

TEST(VectorMax, RejectsBadInput) {
  VectorMaxOptions scalar;
  scalar.dimension = 1;
  EXPECT_THROW(maximize_over_vectors(DenseMatrix::Identity(2, 2), scalar), std::invalid_argument);
  EXPECT_THROW(maximize_over_vectors(DenseMatrix::Ones(2, 3)), std::invalid_argument);
  DenseMatrix asym = DenseMatrix::Identity(2, 2);
  asym(0, 1) = 0.5;
  EXPECT_THROW(maximize_over_vectors(asym), std::invalid_argument);
  DenseMatrix nan = DenseMatrix::Identity(2, 2);
  nan(1, 1) = std::nan("");
  EXPECT_THROW(maximize_over_vectors(nan), std::invalid_argument);
  EXPECT_EQ(maximize_over_vectors(DenseMatrix(0, 0)).upper, 0.0);
}

}  // namespace
}  // namespace netdp::accounting
