// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Tests of maximize_over_signs against a plain enumeration of all 2^m sign vectors, the closed
// forms of small examples, and the bound relations (lower <= exact <= certified <= sum_abs).

#include "netdp/accounting/worst_case/sign_max.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>

#include "accounting/linear_system_test_helpers.hpp"

namespace netdp::accounting {
namespace {

using testing::brute_force_sign_max;

double plain_quadratic_form(const DenseMatrix& k, const Vector& s) {
  double value = 0.0;
  for (Eigen::Index i = 0; i < k.rows(); ++i) {
    for (Eigen::Index j = 0; j < k.cols(); ++j) value += s(i) * k(i, j) * s(j);
  }
  return value;
}

// K = G Gᵀ with G m × rank Gaussian: PSD, with negative entries.
DenseMatrix random_psd(int m, int rank, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  DenseMatrix g(m, rank);
  for (Eigen::Index i = 0; i < g.size(); ++i) g.data()[i] = normal(rng);
  return g * g.transpose();
}

void expect_consistent(const SignMaxResult& r, const DenseMatrix& k) {
  const double tol = 1e-9 * std::max(1.0, r.sum_abs);
  ASSERT_EQ(r.maximiser.size(), k.rows());
  for (Eigen::Index i = 0; i < r.maximiser.size(); ++i) EXPECT_EQ(std::abs(r.maximiser(i)), 1.0);
  EXPECT_NEAR(plain_quadratic_form(k, r.maximiser), r.lower_bound, tol);
  EXPECT_GE(r.certified, r.lower_bound);
  EXPECT_LE(r.certified, r.sum_abs + tol);
  EXPECT_GE(r.relative_gap, 0.0);
  EXPECT_LE(r.relative_gap, 1.0);
  if (r.exact) {
    EXPECT_NEAR(*r.exact, r.lower_bound, tol);
  }
}

TEST(SignMax, RandomPsdMatchesBruteForce) {
  for (std::uint64_t seed = 0; seed < 80; ++seed) {
    const int m = 1 + static_cast<int>(seed % 12);
    const int rank = 1 + static_cast<int>(seed % 4);
    const DenseMatrix k = random_psd(m, rank, seed);
    const double reference = brute_force_sign_max(k);
    const SignMaxResult r = maximize_over_signs(k);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", m " << m);
    expect_consistent(r, k);
    ASSERT_TRUE(r.exact.has_value());
    EXPECT_TRUE(r.is_exact);
    EXPECT_EQ(r.certified_by, SignMaxBound::exact);
    EXPECT_NEAR(*r.exact, reference, 1e-9 * reference);
    EXPECT_GE(r.certified, reference);
    EXPECT_LE(r.certified, reference * (1.0 + 1e-9));
    EXPECT_NEAR(r.ones, k.sum(), 1e-12 * r.sum_abs);
    EXPECT_NEAR(r.sum_abs, k.cwiseAbs().sum(), 1e-12 * r.sum_abs);
  }
}

// The budgeted branch-and-bound path (after the SDP) must find the same maximum.
TEST(SignMax, BranchAndBoundMatchesBruteForce) {
  for (std::uint64_t seed = 100; seed < 140; ++seed) {
    const int m = 4 + static_cast<int>(seed % 11);
    const DenseMatrix k = random_psd(m, 2 + static_cast<int>(seed % 5), seed);
    const double reference = brute_force_sign_max(k);
    SignMaxOptions options;
    options.unbudgeted_max_dim = 0;
    options.random_starts = 0;
    options.two_flip = (seed % 2) == 0;
    options.sdp = (seed % 3) != 0;
    const SignMaxResult r = maximize_over_signs(k, options);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", m " << m);
    expect_consistent(r, k);
    ASSERT_TRUE(r.exact.has_value());
    EXPECT_NEAR(*r.exact, reference, 1e-9 * reference);
    EXPECT_GE(r.certified, reference);
  }
}

TEST(SignMax, NonnegativeKIsMaximisedByOnes) {
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const DenseMatrix g = random_psd(7, 3, seed).cwiseAbs();
    const DenseMatrix k = g * g.transpose();  // PSD and entrywise >= 0
    for (const SignMaxOptions& options : {SignMaxOptions{}, SignMaxOptions::cheap()}) {
      const SignMaxResult r = maximize_over_signs(k, options);
      ASSERT_TRUE(r.exact.has_value());
      EXPECT_NEAR(*r.exact, r.ones, 1e-12 * r.ones);
      EXPECT_NEAR(r.sum_abs, r.ones, 1e-12 * r.ones);
      EXPECT_NEAR(r.certified, r.ones, 1e-12 * r.ones);
      EXPECT_NEAR(*r.exact, brute_force_sign_max(k), 1e-9 * r.ones);
      EXPECT_TRUE(r.is_exact);
    }
  }
}

// D K D with D = Diag(±1) and K >= 0: balanced sign pattern, the maximum is Σ|K| at s = D1.
TEST(SignMax, BalancedSignPatternAttainsSumAbsInCheapMode) {
  const DenseMatrix g = random_psd(9, 2, 7).cwiseAbs();
  Vector d(9);
  d << 1, -1, -1, 1, 1, -1, 1, -1, -1;
  const DenseMatrix k = d.asDiagonal() * (g * g.transpose()) * d.asDiagonal();
  const SignMaxResult r = maximize_over_signs(k, SignMaxOptions::cheap());
  ASSERT_TRUE(r.exact.has_value());
  EXPECT_NEAR(*r.exact, r.sum_abs, 1e-12 * r.sum_abs);
  EXPECT_LT(r.ones, 0.9 * r.sum_abs);
  EXPECT_TRUE(r.maximiser == d || r.maximiser == -d);
  EXPECT_EQ(r.search_nodes, 0);
}

// Laplacian of a triangle, K = 3I − J (PSD, eigenvalues 0, 3, 3): 1ᵀK1 = 0 while s = (1, 1, −1)
// gives 8. Closed forms: Σ|K| = 12, m·λ_max = 9, SDP max tr(KX) = 9 − 1ᵀX1 min = 9.
TEST(SignMax, TriangleLaplacianClosedForms) {
  DenseMatrix k(3, 3);
  k << 2, -1, -1, -1, 2, -1, -1, -1, 2;
  SignMaxOptions options;
  options.exact_max_dim = 0;  // so that the SDP step runs
  // The mixing method's accuracy depends on its random start (it stops on a 1e-10 relative primal
  // improvement): from seeds 1..9 the bound is 9 + 0.7e-6 .. 9 + 2.6e-6, from the default 9 + 4.6e-6.
  options.seed = 1;
  const SignMaxResult r = maximize_over_signs(k, options);
  EXPECT_NEAR(r.ones, 0.0, 1e-15);
  EXPECT_NEAR(r.sum_abs, 12.0, 1e-15);
  EXPECT_NEAR(r.lower_bound, 8.0, 1e-12);
  ASSERT_TRUE(r.spectral_bound.has_value());
  EXPECT_NEAR(*r.spectral_bound, 9.0, 1e-9);
  EXPECT_GE(*r.spectral_bound, 9.0);
  ASSERT_TRUE(r.sdp_bound.has_value());
  EXPECT_GE(*r.sdp_bound, 9.0 - 1e-12);  // cannot beat the SDP optimum
  EXPECT_NEAR(*r.sdp_bound, 9.0, 1e-6);
  EXPECT_FALSE(r.exact.has_value());
  EXPECT_NEAR(r.certified, 9.0, 1e-6);
  EXPECT_NEAR(r.relative_gap, 1.0 / 9.0, 1e-6);

  const SignMaxResult full = maximize_over_signs(k);
  ASSERT_TRUE(full.exact.has_value());
  EXPECT_NEAR(*full.exact, 8.0, 1e-12);
  EXPECT_EQ(full.certified_by, SignMaxBound::exact);
}

// Negatively equicorrelated K = (1 + a) I − a J (PSD for a·m <= 1 + a): sᵀKs = (1 + a) m − a (Σs)²,
// so 1ᵀK1 = (1 + a) m − a m² while the maximum is (1 + a) m − a (m mod 2) at a balanced s;
// Σ|K| = m + a m (m − 1). For m = 6, a = 0.15: ones 1.5, maximum 6.9 (4.6×), Σ|K| 10.5.
TEST(SignMax, NegativeEntriesMakeOnesUnderReport) {
  for (const auto& [m, a] : {std::pair{6, 0.15}, std::pair{5, 0.2}, std::pair{9, 0.1}}) {
    const DenseMatrix k = (1.0 + a) * DenseMatrix::Identity(m, m) - a * DenseMatrix::Ones(m, m);
    const double md = m;
    const double maximum = (1.0 + a) * md - a * (m % 2);
    const SignMaxResult r = maximize_over_signs(k);
    SCOPED_TRACE(::testing::Message() << "m " << m);
    EXPECT_NEAR(r.ones, (1.0 + a) * md - a * md * md, 1e-12);
    EXPECT_NEAR(r.sum_abs, md + a * md * (md - 1.0), 1e-12);
    ASSERT_TRUE(r.exact.has_value());
    EXPECT_NEAR(*r.exact, maximum, 1e-12);
    EXPECT_NEAR(*r.exact, brute_force_sign_max(k), 1e-12);
    EXPECT_GT(*r.exact, 2.0 * r.ones);
    EXPECT_NEAR(std::abs(r.maximiser.sum()), m % 2, 1e-15);
  }
}

// A gossip Gram matrix, built literally: path graph 0-1-2-3-4, Hamilton weights
// W_uv = 1/max(d_u, d_v), diagonal 1 − row sum; secure-sum view of Koskela–Kulkarni Theorem 8: observer 1
// sees y_t = e_1ᵀθ_t = Σ_{s<t} e_1ᵀW^{t−s}(x_s + u_s), t = 1..T, its own noise removed; target 2
// (a neighbour) participates in all T = 6 rounds. K = A_uᵀ (B Bᵀ)⁺ A_u has negative entries and
// its worst sign pattern is about twice 1ᵀK1 (numpy cross-check: 3.662 vs 1.824).
DenseMatrix path_secure_sum_gram(int rounds) {
  const int n = 5, observer = 1, target = 2;
  DenseMatrix w = DenseMatrix::Zero(n, n);
  const int degree[n] = {1, 2, 2, 2, 1};
  for (int v = 0; v + 1 < n; ++v) w(v, v + 1) = w(v + 1, v) = 1.0 / std::max(degree[v], degree[v + 1]);
  for (int v = 0; v < n; ++v) w(v, v) = 1.0 - w.row(v).sum();
  DenseMatrix a = DenseMatrix::Zero(rounds, rounds * n);  // column s * n + v: input of node v at round s
  for (int t = 1; t <= rounds; ++t) {
    DenseMatrix power = DenseMatrix::Identity(n, n);
    for (int s = t - 1; s >= 0; --s) {
      power = power * w;  // W^{t−s}
      a.block(t - 1, s * n, 1, n) = power.row(observer);
    }
  }
  DenseMatrix b(rounds, rounds * (n - 1)), a_u(rounds, rounds);
  for (int s = 0, col = 0; s < rounds; ++s) {
    a_u.col(s) = a.col(s * n + target);
    for (int v = 0; v < n; ++v) {
      if (v != observer) b.col(col++) = a.col(s * n + v);
    }
  }
  const Eigen::SelfAdjointEigenSolver<DenseMatrix> eigen(b * b.transpose());
  const Vector& lambda = eigen.eigenvalues();
  Vector inverse = Vector::Zero(rounds);
  for (int i = 0; i < rounds; ++i) {
    if (lambda(i) > 1e-12 * lambda(rounds - 1)) inverse(i) = 1.0 / lambda(i);
  }
  const DenseMatrix pinv = eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose();
  return a_u.transpose() * pinv * a_u;
}

TEST(SignMax, GossipGramMatrixWorstSignsBeatOnes) {
  const DenseMatrix k = path_secure_sum_gram(6);
  const double reference = brute_force_sign_max(k);
  const SignMaxResult r = maximize_over_signs(k);
  expect_consistent(r, k);
  EXPECT_LT(k.minCoeff(), 0.0);
  ASSERT_TRUE(r.exact.has_value());
  EXPECT_NEAR(*r.exact, reference, 1e-9 * reference);
  EXPECT_GT(*r.exact, 1.9 * r.ones);
  EXPECT_NEAR(r.ones, 1.8237332338564705, 1e-8);  // numpy, literal pinv
  EXPECT_NEAR(*r.exact, 3.6621100931599595, 1e-8);
  EXPECT_GE(r.certified, reference);
}

// K = diag(1, −1) is indefinite: the sign maximum is 0 but the box maximum is 1 at c = (1, 0).
TEST(SignMax, IndefiniteKIsBoundedOverTheWholeBox) {
  DenseMatrix k(2, 2);
  k << 1, 0, 0, -1;
  const SignMaxResult r = maximize_over_signs(k);
  EXPECT_FALSE(r.exact.has_value());
  EXPECT_FALSE(r.is_exact);
  EXPECT_NEAR(r.lower_bound, 0.0, 1e-15);
  EXPECT_GE(r.certified, 1.0);
  ASSERT_TRUE(r.min_eigenvalue.has_value());
  EXPECT_NEAR(*r.min_eigenvalue, -1.0, 1e-12);
  EXPECT_EQ(diagnostic_count(r.warnings, DiagnosticKind::sign_search_incomplete), 1u);
  // Box maximum on a grid (literal): every grid value is below certified.
  for (int a = -10; a <= 10; ++a) {
    for (int b = -10; b <= 10; ++b) {
      Vector c(2);
      c << a / 10.0, b / 10.0;
      EXPECT_LE(plain_quadratic_form(k, c), r.certified);
    }
  }
}

// Tiny negative eigenvalues (rounding in K) still give an exact answer.
TEST(SignMax, RoundingSizedNegativeEigenvaluesAreTolerated) {
  DenseMatrix k = random_psd(8, 3, 42);  // rank 3: five zero eigenvalues
  k(0, 0) -= 1e-13;
  const SignMaxResult r = maximize_over_signs(k);
  ASSERT_TRUE(r.exact.has_value());
  EXPECT_NEAR(*r.exact, brute_force_sign_max(k), 1e-9 * r.sum_abs);
  EXPECT_GE(r.certified, *r.exact);
}

// The SDP certificate is verified: its bound is above the true maximum for PSD and indefinite K,
// and tight (= (Σ|v|)²) for rank one K = vvᵀ.
TEST(SignMax, SdpBoundIsValidAndTightForRankOne) {
  SignMaxOptions options;
  options.exact_max_dim = 0;
  options.spectral = false;
  for (std::uint64_t seed = 200; seed < 230; ++seed) {
    const int m = 3 + static_cast<int>(seed % 10);
    DenseMatrix k = random_psd(m, 1 + static_cast<int>(seed % 6), seed);
    if (seed % 3 == 0) k -= 0.5 * DenseMatrix::Identity(m, m);  // often indefinite
    const SignMaxResult r = maximize_over_signs(k, options);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", m " << m);
    ASSERT_TRUE(r.sdp_bound.has_value() || r.is_exact);
    const double reference = brute_force_sign_max(k);
    if (r.sdp_bound) {
      EXPECT_GE(*r.sdp_bound, reference);
    }
    EXPECT_GE(r.certified, reference);
    EXPECT_LE(r.certified, r.sum_abs * (1.0 + 1e-12));
  }
  Vector v(6);
  v << 0.3, -1.2, 0.7, 2.0, -0.1, 0.9;
  const SignMaxResult r =
      maximize_over_signs(v * v.transpose() + 1e-3 * DenseMatrix::Identity(6, 6), options);
  const double expected = std::pow(v.cwiseAbs().sum(), 2) + 6e-3;
  EXPECT_NEAR(r.certified, expected, 1e-6 * expected);
}

TEST(SignMax, ExhaustedBudgetReportsNoExactButAValidBound) {
  const DenseMatrix k = random_psd(16, 3, 9);
  const double reference = brute_force_sign_max(k);
  SignMaxOptions options;
  options.unbudgeted_max_dim = 4;
  options.node_budget = 5;
  options.sdp = false;
  const SignMaxResult r = maximize_over_signs(k, options);
  EXPECT_FALSE(r.search_completed);
  EXPECT_FALSE(r.exact.has_value());
  EXPECT_FALSE(r.is_exact);
  EXPECT_LE(r.search_nodes, 5);
  EXPECT_GE(r.certified, reference);
  EXPECT_LE(r.lower_bound, reference * (1.0 + 1e-12));
  EXPECT_GT(r.relative_gap, 0.0);
  EXPECT_EQ(diagnostic_count(r.warnings, DiagnosticKind::sign_search_incomplete), 1u);
}

TEST(SignMax, CheapModeIsValid) {
  for (std::uint64_t seed = 300; seed < 330; ++seed) {
    const int m = 2 + static_cast<int>(seed % 11);
    const DenseMatrix k = random_psd(m, 2, seed);
    const SignMaxResult r = maximize_over_signs(k, SignMaxOptions::cheap());
    expect_consistent(r, k);
    EXPECT_FALSE(r.spectral_bound.has_value());
    EXPECT_FALSE(r.sdp_bound.has_value());
    EXPECT_EQ(r.search_nodes, 0);
    EXPECT_GE(r.certified, brute_force_sign_max(k));
    EXPECT_GE(r.lower_bound, r.ones - 1e-12 * r.sum_abs);  // the search starts at c = 1
  }
}

TEST(SignMax, SmallAndDegenerateSizes) {
  const SignMaxResult empty = maximize_over_signs(DenseMatrix(0, 0));
  EXPECT_EQ(empty.dim, 0);
  ASSERT_TRUE(empty.exact.has_value());
  EXPECT_EQ(*empty.exact, 0.0);
  EXPECT_EQ(empty.certified, 0.0);

  const SignMaxResult one = maximize_over_signs(DenseMatrix::Constant(1, 1, 2.5));
  ASSERT_TRUE(one.exact.has_value());
  EXPECT_DOUBLE_EQ(*one.exact, 2.5);
  EXPECT_GE(one.certified, 2.5);

  const SignMaxResult zero = maximize_over_signs(DenseMatrix::Zero(5, 5));
  ASSERT_TRUE(zero.exact.has_value());
  EXPECT_EQ(zero.certified, 0.0);
  EXPECT_EQ(zero.relative_gap, 0.0);
}

TEST(SignMax, SameSeedSameResult) {
  const DenseMatrix k = random_psd(30, 4, 5);
  SignMaxOptions options;
  options.node_budget = 20000;
  const SignMaxResult a = maximize_over_signs(k, options);
  const SignMaxResult b = maximize_over_signs(k, options);
  EXPECT_EQ(a.certified, b.certified);
  EXPECT_EQ(a.lower_bound, b.lower_bound);
  EXPECT_EQ(a.search_nodes, b.search_nodes);
}

TEST(SignMax, ResultDoesNotDependOnThreadCount) {
  const DenseMatrix k = random_psd(120, 30, 11);
  SignMaxOptions options;
  options.exact_max_dim = 0;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const SignMaxResult one = maximize_over_signs(k, options);
  omp_set_num_threads(2);
  const SignMaxResult two = maximize_over_signs(k, options);
  omp_set_num_threads(threads);
  ASSERT_TRUE(one.sdp_bound.has_value());
  EXPECT_EQ(one.sdp_bound, two.sdp_bound);
  EXPECT_EQ(one.certified, two.certified);
  EXPECT_EQ(one.lower_bound, two.lower_bound);
  EXPECT_GE(one.certified, one.lower_bound);
}

// K is scaled internally by a power of two, so results scale exactly and nothing overflows.
TEST(SignMax, ExtremeScalesGiveScaledResults) {
  const DenseMatrix k = random_psd(12, 3, 21);
  SignMaxOptions options;
  options.exact_max_dim = 0;  // exercise the spectral and SDP steps
  const SignMaxResult base = maximize_over_signs(k, options);
  for (const int power : {-1000, -300, 300, 1000}) {
    SCOPED_TRACE(::testing::Message() << "2^" << power);
    const SignMaxResult r = maximize_over_signs(std::ldexp(1.0, power) * k, options);
    EXPECT_DOUBLE_EQ(r.certified, std::ldexp(base.certified, power));
    EXPECT_DOUBLE_EQ(r.lower_bound, std::ldexp(base.lower_bound, power));
    ASSERT_TRUE(r.sdp_bound.has_value());
    EXPECT_TRUE(std::isfinite(*r.sdp_bound));
    EXPECT_DOUBLE_EQ(*r.sdp_bound, std::ldexp(*base.sdp_bound, power));
    EXPECT_EQ(r.relative_gap, base.relative_gap);
  }
}

TEST(SignMax, AcceptsAsymmetryWithinToleranceAndUsesTheSymmetricPart) {
  DenseMatrix k = random_psd(6, 2, 3);
  k(1, 4) += 1e-12;
  const SignMaxResult r = maximize_over_signs(k);
  const DenseMatrix symmetric = 0.5 * (k + k.transpose());
  ASSERT_TRUE(r.exact.has_value());
  EXPECT_NEAR(*r.exact, brute_force_sign_max(symmetric), 1e-9 * r.sum_abs);
}

TEST(SignMax, RejectsBadInput) {
  EXPECT_THROW(maximize_over_signs(DenseMatrix::Zero(2, 3)), std::invalid_argument);
  DenseMatrix nan = DenseMatrix::Identity(3, 3);
  nan(1, 2) = std::numeric_limits<double>::quiet_NaN();
  nan(2, 1) = nan(1, 2);
  EXPECT_THROW(maximize_over_signs(nan), std::invalid_argument);
  DenseMatrix inf = DenseMatrix::Identity(3, 3);
  inf(0, 0) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(maximize_over_signs(inf), std::invalid_argument);
  DenseMatrix asym = DenseMatrix::Identity(4, 4);
  asym(2, 3) = 0.5;
  try {
    maximize_over_signs(asym);
    ADD_FAILURE() << "asymmetric K accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("|K(2, 3) - K(3, 2)|"));
  }
  DenseMatrix huge = DenseMatrix::Constant(3, 3, 1e308);
  EXPECT_THROW(maximize_over_signs(huge), std::invalid_argument);

  const DenseMatrix ok = DenseMatrix::Identity(2, 2);
  SignMaxOptions bad;
  bad.node_budget = -1;
  EXPECT_THROW(maximize_over_signs(ok, bad), std::invalid_argument);
  bad = {};
  bad.unbudgeted_max_dim = 40;
  EXPECT_THROW(maximize_over_signs(ok, bad), std::invalid_argument);
  bad = {};
  bad.sdp_max_sweeps = 0;
  EXPECT_THROW(maximize_over_signs(ok, bad), std::invalid_argument);
  bad = {};
  bad.psd_tolerance = -1.0;
  EXPECT_THROW(maximize_over_signs(ok, bad), std::invalid_argument);
  bad = {};
  bad.symmetry_tolerance = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(maximize_over_signs(ok, bad), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
