// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The linear-view engine: K_u = A_uᵀ (B Bᵀ)⁺ A_u against a literal SVD
// pseudo-inverse, its diagnostics, and the per-pair assessment.

#include "netdp/accounting/linear_system/linear_view.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "accounting/linear_system_test_helpers.hpp"
#include "accounting/sdp_reference.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::accounting {
namespace {

using testing::brute_force_sign_max;
using testing::pinv;
using testing::relative_error;

DenseMatrix random_matrix(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> normal;
  DenseMatrix m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j) {
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = normal(gen);
  }
  return m;
}

TEST(LinearView, GramMatchesPseudoInverseWhenAEqualsBC) {
  // A = B C (Theorem 7 of the MF paper): K_u = (B⁺ A_u)ᵀ (B⁺ A_u).
  const DenseMatrix b = random_matrix(6, 15, 1);
  const DenseMatrix c = random_matrix(15, 4 * 3, 2);
  LinearView view{b * c, b, 3, 4};
  for (graph::NodeId u = 0; u < 3; ++u) {
    const TargetGram gram = target_gram_literal(view, u);
    DenseMatrix a_u(6, 4);
    for (int t = 0; t < 4; ++t) a_u.col(t) = view.A.col(t * 3 + u);
    const DenseMatrix x = pinv(b) * a_u;
    EXPECT_LT(relative_error(gram.K, x.transpose() * x), 1e-9);
    EXPECT_EQ(gram.rank, 6u);
    EXPECT_LT(gram.range_residual, 1e-12);
    EXPECT_GE(gram.condition, 1.0);
    EXPECT_TRUE(gram.warnings.empty());
  }
}

TEST(LinearView, ParticipationRoundsSelectColumns) {
  const DenseMatrix b = random_matrix(5, 9, 3);
  LinearView view{b * random_matrix(9, 4 * 2, 4), b, 2, 4};
  const std::size_t rounds[] = {1, 3};
  const TargetGram part = target_gram_literal(view, 1, rounds);
  const TargetGram full = target_gram_literal(view, 1);
  ASSERT_EQ(part.K.rows(), 2);
  EXPECT_NEAR(part.K(0, 0), full.K(1, 1), 1e-12);
  EXPECT_NEAR(part.K(0, 1), full.K(1, 3), 1e-12);
  EXPECT_NEAR(part.K(1, 1), full.K(3, 3), 1e-12);
}

TEST(LinearView, RankDeficientNoiseIsReportedAndHandled) {
  // B has rank 2 with 4 rows; A in its range: (B Bᵀ)⁺ on the range only.
  const DenseMatrix b = random_matrix(4, 2, 5) * random_matrix(2, 8, 6);
  const DenseMatrix a_u = b * random_matrix(8, 3, 7);
  const TargetGram gram = target_gram_from_columns(a_u, b);
  EXPECT_EQ(gram.rank, 2u);
  const DenseMatrix x = pinv(b) * a_u;
  EXPECT_LT(relative_error(gram.K, x.transpose() * x), 1e-8);
  EXPECT_LT(gram.range_residual, 1e-10);
  ASSERT_FALSE(gram.warnings.empty());
  EXPECT_EQ(gram.warnings.front().kind, DiagnosticKind::noise_rank_deficient);
}

TEST(LinearView, DataChangeOutsideRangeIsNotPrivate) {
  const DenseMatrix b = random_matrix(4, 2, 8) * random_matrix(2, 8, 9);
  const DenseMatrix a_u = random_matrix(4, 2, 10);  // generic: not in the 2-dim range
  const TargetGram gram = target_gram_from_columns(a_u, b);
  EXPECT_GT(gram.range_residual, 1e-3);
  const PairSensitivity pair = assess_pair(gram, 1.0, 1e-5);
  EXPECT_TRUE(std::isinf(pair.sensitivity));
  EXPECT_TRUE(std::isinf(pair.epsilon));
  EXPECT_FALSE(pair.exact);
  EXPECT_FALSE(pair.warnings.empty());
}

TEST(LinearView, AssessPairFieldsAndSignSearch) {
  // K with negative entries: c = 1 is not optimal; brute force is the truth.
  TargetGram gram;
  gram.K.resize(3, 3);
  gram.K << 1.0, -0.4, 0.1, -0.4, 0.8, -0.3, 0.1, -0.3, 0.6;
  const double truth = brute_force_sign_max(gram.K);
  const PairSensitivity cheap = assess_pair(gram, 2.0, 1e-5, {SignSearch::none, 1});
  EXPECT_FALSE(cheap.sensitivity_squared_vector_upper.has_value());
  EXPECT_NEAR(cheap.sensitivity_squared_ones, gram.K.sum(), 1e-15);
  EXPECT_NEAR(cheap.sensitivity_squared_sum_abs, gram.K.cwiseAbs().sum(), 1e-15);
  // A scalar release never costs more than a vector one: min(SDP, Σ|K|), above the sign maximum.
  EXPECT_LE(cheap.sensitivity_squared_certified, cheap.sensitivity_squared_sum_abs);
  EXPECT_GE(cheap.sensitivity_squared_certified, truth);
  EXPECT_EQ(cheap.exact, cheap.sensitivity_squared_exact.has_value());
  if (cheap.exact) {
    EXPECT_NEAR(*cheap.sensitivity_squared_exact, truth, 1e-9 * truth);
  }
  const PairSensitivity full = assess_pair(gram, 2.0, 1e-5, {SignSearch::automatic, 1});
  ASSERT_TRUE(full.sensitivity_squared_exact.has_value());
  EXPECT_NEAR(*full.sensitivity_squared_exact, truth, 1e-12);
  EXPECT_GE(full.sensitivity_squared_certified, truth);
  EXPECT_LE(full.sensitivity_squared_certified, truth * (1 + 1e-6));
  EXPECT_GT(truth, full.sensitivity_squared_ones);
  EXPECT_DOUBLE_EQ(full.sensitivity, std::sqrt(full.sensitivity_squared_certified));
  EXPECT_DOUBLE_EQ(full.mu, full.sensitivity / 2.0);
  EXPECT_DOUBLE_EQ(full.epsilon, dp::gdp_epsilon(full.mu, 1e-5));
  // The default release is a vector: the SDP value, between the sign maximum and Σ|K|.
  const PairSensitivity vector = assess_pair(gram, 2.0, 1e-5);
  ASSERT_TRUE(vector.sensitivity_squared_vector_upper.has_value());
  ASSERT_TRUE(vector.sensitivity_squared_vector_lower.has_value());
  EXPECT_EQ(vector.sensitivity_squared_certified, *vector.sensitivity_squared_vector_upper);
  EXPECT_TRUE(vector.exact);
  EXPECT_NEAR(vector.sensitivity_squared_certified, testing::barrier_sdp_value(gram.K), 1e-7);
  EXPECT_GE(vector.sensitivity_squared_certified, truth);
  EXPECT_LE(vector.sensitivity_squared_certified, vector.sensitivity_squared_sum_abs * (1 + 1e-12));
  EXPECT_LE(cheap.sensitivity_squared_certified, vector.sensitivity_squared_certified);
}

// Scalar <= vector <= Σ|K| on random indefinite K: the scalar release's certified value is never
// above the vector release's, and never below the exact sign maximum.
TEST(LinearView, ScalarReleaseIsNeverAboveTheVectorRelease) {
  util::Rng rng(31);
  for (int trial = 0; trial < 40; ++trial) {
    const Eigen::Index m = 2 + trial % 6;
    DenseMatrix a(m, m);
    for (Eigen::Index j = 0; j < m; ++j)
      for (Eigen::Index i = 0; i < m; ++i) a(i, j) = rng.standard_normal();
    TargetGram gram;
    gram.K = a * a.transpose();
    const PairSensitivity scalar = assess_pair(gram, 1.0, 1e-5, {SignSearch::none, 1});
    const PairSensitivity vector = assess_pair(gram, 1.0, 1e-5);
    const double truth = brute_force_sign_max(gram.K);
    EXPECT_LE(scalar.sensitivity_squared_certified, vector.sensitivity_squared_certified) << trial;
    EXPECT_LE(scalar.sensitivity_squared_certified, scalar.sensitivity_squared_sum_abs) << trial;
    EXPECT_GE(scalar.sensitivity_squared_certified, truth * (1 - 1e-12)) << trial;
    if (scalar.exact) {
      EXPECT_NEAR(*scalar.sensitivity_squared_exact, truth, 1e-8 * truth) << trial;
    }
  }
}

TEST(LinearView, NonnegativeGramIsExactAtOnes) {
  TargetGram gram;
  gram.K = DenseMatrix::Constant(4, 4, 0.1) + 0.2 * DenseMatrix::Identity(4, 4);
  const PairSensitivity pair = assess_pair(gram, 1.0, 1e-5, {SignSearch::none});
  EXPECT_TRUE(pair.exact);
  ASSERT_TRUE(pair.sensitivity_squared_exact.has_value());
  EXPECT_NEAR(*pair.sensitivity_squared_exact, brute_force_sign_max(gram.K), 1e-12);
}

TEST(LinearView, ZeroGramHasZeroEpsilon) {
  TargetGram gram;
  gram.K = DenseMatrix::Zero(2, 2);
  const PairSensitivity pair = assess_pair(gram, 1.0, 1e-5);
  EXPECT_EQ(pair.sensitivity, 0.0);
  EXPECT_EQ(pair.epsilon, 0.0);
}

TEST(LinearView, BadInputsThrow) {
  const DenseMatrix b = random_matrix(3, 5, 11);
  EXPECT_THROW(target_gram_from_columns(random_matrix(4, 2, 12), b), std::invalid_argument);
  DenseMatrix nan = b;
  nan(0, 0) = std::nan("");
  EXPECT_THROW(target_gram_from_columns(random_matrix(3, 2, 13), nan), std::invalid_argument);
  EXPECT_THROW(target_gram_from_columns(random_matrix(3, 2, 13), b, RankOptions{0.0}), std::invalid_argument);
  LinearView view{random_matrix(3, 6, 14), b, 3, 2};
  EXPECT_THROW(target_gram_literal(view, 3), std::invalid_argument);
  const std::size_t late[] = {2};
  EXPECT_THROW(target_gram_literal(view, 0, late), std::invalid_argument);
  LinearView wrong{random_matrix(3, 5, 15), b, 3, 2};
  EXPECT_THROW(target_gram_literal(wrong, 0), std::invalid_argument);
  TargetGram asym;
  asym.K.resize(2, 2);
  asym.K << 1.0, 0.5, 0.2, 1.0;
  EXPECT_THROW(assess_pair(asym, 1.0, 1e-5), std::invalid_argument);
  TargetGram ok;
  ok.K = DenseMatrix::Identity(2, 2);
  EXPECT_THROW(assess_pair(ok, 0.0, 1e-5), std::invalid_argument);
  EXPECT_THROW(assess_pair(ok, 1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(assess_pair(ok, 1.0, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
