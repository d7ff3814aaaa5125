// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The MF objective, baselines and optimizers (include/netdp/mf/factorize.hpp).
#include "netdp/mf/factorize.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <stdexcept>

namespace netdp::mf {
namespace {

DenseMatrix prefix_workload(Eigen::Index t) { return DenseMatrix::Ones(t, t).triangularView<Eigen::Lower>(); }

// Literal sens²: max over classes and all sign vectors (no Gray code).
double literal_sensitivity_squared(const DenseMatrix& x, const Participation& p) {
  double best = 0.0;
  for (const auto& cls : p.classes) {
    const std::size_t m = cls.size();
    for (std::size_t mask = 0; mask < (std::size_t{1} << m); ++mask) {
      double q = 0.0;
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < m; ++j) {
          const double si = (mask >> i & 1U) ? -1.0 : 1.0;
          const double sj = (mask >> j & 1U) ? -1.0 : 1.0;
          q += si * sj * x(static_cast<Eigen::Index>(cls[i]), static_cast<Eigen::Index>(cls[j]));
        }
      }
      best = std::max(best, q);
    }
  }
  return best;
}

TEST(MfParticipation, CyclicClassesAndErrors) {
  const Participation p = make_participation(16, 4, 4);
  ASSERT_EQ(p.classes.size(), 4U);
  EXPECT_EQ(p.classes[1], (std::vector<std::size_t>{1, 5, 9, 13}));
  EXPECT_EQ(p.class_of[14], 2U);
  EXPECT_EQ(make_participation(10).classes.size(), 10U);  // single participation
  EXPECT_EQ(make_participation(16, 4).separation, 4U);    // b = 0 → T / k
  EXPECT_THROW(make_participation(0), std::invalid_argument);
  EXPECT_THROW(make_participation(16, 0), std::invalid_argument);
  EXPECT_THROW(make_participation(16, 4, 5), std::invalid_argument);  // k·b = 20 > 16
}

TEST(MfSensitivity, MatchesLiteralEnumeration) {
  const Participation p = make_participation(12, 3, 4);
  DenseMatrix c = DenseMatrix::Random(12, 12).triangularView<Eigen::Lower>();
  c.diagonal().array() += 3.0;
  const DenseMatrix x = c.transpose() * c;
  const Sensitivity s = sensitivity_squared(x, p);
  EXPECT_TRUE(s.exact);
  EXPECT_NEAR(s.squared, literal_sensitivity_squared(x, p), 1e-9 * s.squared);
  // Single participation: the max squared column norm of C.
  const Sensitivity single = sensitivity_squared(x, make_participation(12));
  EXPECT_NEAR(single.squared, c.colwise().squaredNorm().maxCoeff(), 1e-12 * single.squared);
}

TEST(MfObjective, LowerFactorIsLowerTriangularWithGramX) {
  DenseMatrix a = DenseMatrix::Random(7, 7);
  const DenseMatrix x = a.transpose() * a + DenseMatrix::Identity(7, 7);
  const DenseMatrix c = lower_factor(x);
  EXPECT_TRUE(c.isLowerTriangular(0.0));
  EXPECT_LE((c.transpose() * c - x).norm(), 1e-12 * x.norm());
  EXPECT_THROW(lower_factor(-x), std::invalid_argument);
}

TEST(MfObjective, TraceIsWorkloadTimesInverseNorm) {
  const Eigen::Index t = 9;
  const DenseMatrix a = prefix_workload(t);
  EXPECT_LE((prefix_sum_gram(9) - a.transpose() * a).norm(), 0.0);
  const DenseMatrix c = prefix_sqrt_correlation(9);
  const double literal = (a * c.inverse()).squaredNorm();
  EXPECT_NEAR(trace_h_xinv(prefix_sum_gram(9), c.transpose() * c), literal, 1e-10 * literal);
}

TEST(MfBaselines, DefinitionsFromTheirNoise) {
  const Eigen::Index t = 8;
  const DenseMatrix a = prefix_workload(t);
  // Anti-PGD: noise z_t − z_{t−1} means C⁻¹ = first difference.
  DenseMatrix diff = DenseMatrix::Identity(t, t);
  diff.diagonal(-1).setConstant(-1.0);
  EXPECT_LE((antipgd_correlation(8).inverse() - diff).norm(), 1e-12);
  // Square root: C² = A.
  const DenseMatrix r = prefix_sqrt_correlation(8);
  EXPECT_LE((r * r - a).norm(), 1e-12);
  EXPECT_TRUE(r.isLowerTriangular(0.0));
  // Banded: the square root cut to 3 diagonals.
  const DenseMatrix band = banded_sqrt_correlation(8, 3);
  EXPECT_DOUBLE_EQ(band(5, 3), r(5, 3));
  EXPECT_EQ(band(5, 2), 0.0);
  EXPECT_LE((banded_sqrt_correlation(8, 8) - r).norm(), 0.0);
  // Output perturbation: CᵀC = H, so tr(H X⁻¹) = T.
  const Factorization g = evaluate_factorization(
      prefix_sum_gram(8), gram_sqrt_correlation(prefix_sum_gram(8)), make_participation(8));
  EXPECT_NEAR(g.trace, 8.0, 1e-10);
  // Identity: loss = k tr(H) under k participations.
  const Factorization id =
      evaluate_factorization(prefix_sum_gram(8), identity_correlation(8), make_participation(8, 2));
  EXPECT_NEAR(id.loss, 2.0 * prefix_sum_gram(8).trace(), 1e-12);
  EXPECT_THROW(banded_sqrt_correlation(8, 0), std::invalid_argument);
}

// Known single-participation optima for the prefix-sum workload.
TEST(MfOptimal, SingleParticipationKnownOptima) {
  const std::pair<std::size_t, double> known[] = {
      {2, 2.618033988750}, {3, 4.607861648440}, {16, 45.665356811985}, {64, 282.201421052}};
  for (const auto& [t, loss] : known) {
    const Factorization f = optimal_factorization(prefix_sum_gram(t), make_participation(t));
    EXPECT_NEAR(f.loss, loss, 1e-8 * loss) << "T = " << t;
    EXPECT_EQ(f.certificate_kind, CertificateKind::duality_gap);
    EXPECT_TRUE(f.converged) << "T = " << t << " gap " << f.certificate;
    EXPECT_LE(f.lower_bound, f.loss);
    EXPECT_NEAR(f.sensitivity, 1.0, 1e-12);
    EXPECT_TRUE(f.c.isLowerTriangular(0.0));
  }
  const Factorization two = optimal_factorization(prefix_sum_gram(2), make_participation(2));
  const DenseMatrix x = two.c.transpose() * two.c;
  // The loss is quadratic around X*, so a 1e-10 relative gap pins X only to ~1e-5.
  EXPECT_NEAR(x(0, 1), (3.0 - std::sqrt(5.0)) / 2.0, 1e-5);
}

TEST(MfOptimal, SingleParticipationT256) {
  const Factorization f = optimal_factorization(prefix_sum_gram(256), make_participation(256));
  EXPECT_NEAR(f.loss, 1631.403044505, 1e-8 * 1631.403044505);
  EXPECT_TRUE(f.converged);
}

// Largest |(X⁻¹HX⁻¹)_ij| over pairs in different classes (the literal KKT residual: the gradient of
// tr(HX⁻¹) must vanish on the free entries), relative to max_i (X⁻¹HX⁻¹)_ii.
double off_pattern_gradient(const DenseMatrix& x, const DenseMatrix& h, const Participation& p) {
  const DenseMatrix xinv = x.inverse();
  const DenseMatrix g = xinv * h * xinv;
  double off = 0.0;
  for (Eigen::Index i = 0; i < g.rows(); ++i) {
    for (Eigen::Index j = 0; j < g.cols(); ++j) {
      if (p.class_of[i] != p.class_of[j]) off = std::max(off, std::abs(g(i, j)));
    }
  }
  return off / g.diagonal().maxCoeff();
}

// Equal column norms (diag(X) = 1, zero within-class entries; Choquette-Choo et al. 2023): a stricter
// set than the default, certified at T = 16: 227.67255, T = 64: 1299.4389 (docs/reference/mf.md).
TEST(MfOptimal, EqualNormMultiEpochIsCertifiedStationary) {
  OptimizeOptions options;
  options.constraints = MultiEpochConstraints::unit_diagonal;
  for (const std::size_t t : {16, 64}) {
    const Participation p = make_participation(t, 4, t / 4);
    const DenseMatrix h = prefix_sum_gram(t);
    const Factorization f = optimal_factorization(h, p, options);
    EXPECT_EQ(f.certificate_kind, CertificateKind::duality_gap);
    EXPECT_LE(f.lower_bound, f.loss);
    EXPECT_LE(f.certificate, 1e-8) << "T = " << t;
    EXPECT_NEAR(f.sensitivity, 2.0, 1e-9);  // √k
    const DenseMatrix x = f.c.transpose() * f.c;
    EXPECT_NEAR(x(1, 1 + t / 4), 0.0, 1e-9);  // zero within a class
    EXPECT_NEAR(x(3, 3), 1.0, 1e-9);
    EXPECT_LE(off_pattern_gradient(x, h, p), 1e-4) << "T = " << t;
    for (const DenseMatrix& c :
         {identity_correlation(t), antipgd_correlation(t), prefix_sqrt_correlation(t)}) {
      EXPECT_LE(f.loss, evaluate_factorization(h, c, p).loss);
    }
  }
}

// The default (class_trace: zero within-class entries, tr(X_c) = 1) reaches the reference k = 4 values
// (an independent primal solver: T = 16: 215.57381, T = 64: 1243.4670) with a duality gap.
TEST(MfOptimal, MultiEpochReachesReferenceOptima) {
  const std::pair<std::size_t, double> known[] = {{16, 215.57381}, {64, 1243.4670}};
  for (const auto& [t, target] : known) {
    const Participation p = make_participation(t, 4, t / 4);
    const DenseMatrix h = prefix_sum_gram(t);
    const Factorization f = optimal_factorization(h, p);
    EXPECT_LE(f.loss, target * (1.0 + 1e-8)) << "T = " << t;
    EXPECT_GE(f.loss, target * (1.0 - 1e-6)) << "T = " << t;
    EXPECT_EQ(f.certificate_kind, CertificateKind::duality_gap);
    EXPECT_LE(f.lower_bound, f.loss);
    EXPECT_LE(f.certificate, 1e-10) << "T = " << t;
    EXPECT_TRUE(f.converged);
    // The arcsine test passes at the optimum: the bound holds over every C, so this is the optimum
    // of the MF problem itself (docs/reference/mf.md, "Global lower bound").
    EXPECT_LE(f.global_lower_bound, f.loss);
    EXPECT_GE(f.global_lower_bound, f.loss * (1.0 - 1e-9)) << "T = " << t;
    // sens² from the literal max over all sign vectors agrees: within-class entries vanish.
    const DenseMatrix x = f.c.transpose() * f.c;
    EXPECT_TRUE(f.sensitivity_exact);
    EXPECT_NEAR(f.sensitivity * f.sensitivity, literal_sensitivity_squared(x, p), 1e-12);
    EXPECT_NEAR(f.sensitivity, 1.0, 1e-12);
    for (const auto& cls : p.classes) {
      double trace = 0.0;
      for (const std::size_t i : cls) {
        trace += x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i));
        for (const std::size_t j : cls) {
          if (i != j) {
            EXPECT_NEAR(x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)), 0.0, 1e-12);
          }
        }
      }
      EXPECT_NEAR(trace, 1.0, 1e-12);
    }
    // KKT: the gradient vanishes on the free entries and is constant on each class diagonal (μ_c).
    EXPECT_LE(off_pattern_gradient(x, h, p), 1e-4) << "T = " << t;
    const DenseMatrix xinv = x.inverse();
    const DenseMatrix g = xinv * h * xinv;
    for (const auto& cls : p.classes) {
      for (const std::size_t i : cls) {
        EXPECT_NEAR(g(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)),
                    g(static_cast<Eigen::Index>(cls[0]), static_cast<Eigen::Index>(cls[0])),
                    1e-4 * g.diagonal().maxCoeff());
      }
    }
  }
}

// A class of more than 13 steps (beyond the sign relaxation) and a non-prefix H: certified, and no
// worse than the feasible baselines (identity scaled to tr(X_c) = 1 and the banded square root).
TEST(MfOptimal, MultiEpochLargeClassesAndOtherWorkload) {
  const std::size_t t = 40;
  const Participation p = make_participation(t, 20, 2);
  DenseMatrix a = DenseMatrix::Random(50, 40);
  const DenseMatrix h = a.transpose() * a + 0.1 * DenseMatrix::Identity(40, 40);
  const Factorization f = optimal_factorization(h, p);
  EXPECT_LE(f.certificate, 1e-10);
  EXPECT_TRUE(f.sensitivity_exact);
  // For a random H the arcsine test (docs/reference/mf.md) may fail at θ = 1: the global bound is then lower.
  EXPECT_LE(f.global_lower_bound, f.loss);
  EXPECT_GT(f.global_lower_bound, 0.0);
  EXPECT_LE(f.loss, evaluate_factorization(h, identity_correlation(t), p).loss);
  EXPECT_LE(f.loss, evaluate_factorization(h, banded_sqrt_correlation(t, 2), p).loss);
  OptimizeOptions equal_norm;
  equal_norm.constraints = MultiEpochConstraints::unit_diagonal;
  EXPECT_LE(f.loss, optimal_factorization(h, p, equal_norm).loss * (1.0 + 1e-10));
}

// The global bound holds for X with arbitrary within-class entries near the optimum (where it is
// tight), with sens² from the literal sign enumeration (so a small case: T = 12, classes of 6).
TEST(MfOptimal, GlobalBoundHoldsNearTheOptimum) {
  const Participation q = make_participation(12, 6, 2);
  const DenseMatrix hq = prefix_sum_gram(12);
  const Factorization fq = optimal_factorization(hq, q);
  EXPECT_GE(fq.global_lower_bound, fq.loss * (1.0 - 1e-9));
  const DenseMatrix xq = fq.c.transpose() * fq.c;
  int evaluated = 0;
  for (int trial = 0; trial < 20; ++trial) {
    DenseMatrix e = DenseMatrix::Random(12, 12);
    e = 0.5 * (e + e.transpose()).eval();
    if (trial % 2 == 0) {  // within-class entries only
      for (Eigen::Index i = 0; i < 12; ++i) {
        for (Eigen::Index j = 0; j < 12; ++j) {
          if (q.class_of[i] != q.class_of[j] || i == j) e(i, j) = 0.0;
        }
      }
    }
    const DenseMatrix x = xq + (0.02 * (1 + trial % 5)) * e * xq.diagonal().minCoeff();
    if (Eigen::LLT<DenseMatrix>(x).info() != Eigen::Success) continue;
    ++evaluated;
    const double literal_loss = literal_sensitivity_squared(x, q) * (hq * x.inverse()).trace();
    EXPECT_GE(literal_loss, fq.global_lower_bound * (1.0 - 1e-12)) << "trial " << trial;
  }
  EXPECT_GE(evaluated, 10);  // most perturbations keep X positive definite
}

// The sign-vector relaxation (every sᵀX_c s ≤ 1, within-class entries free) is exactly sens² ≤ 1,
// so its dual bounds every C; its optimum equals the class_trace optimum on the reference cases.
TEST(MfSignRelaxed, MatchesPublishedMultiEpochOptima) {
  const std::pair<std::size_t, double> known[] = {{16, 215.57381}, {64, 1243.4670}};
  for (const auto& [t, target] : known) {
    const Participation p = make_participation(t, 4, t / 4);
    const Factorization f = sign_relaxed_factorization(prefix_sum_gram(t), p);
    EXPECT_LE(f.loss, target * (1.0 + 1e-7)) << "T = " << t;
    EXPECT_GE(f.loss, target * (1.0 - 1e-6)) << "T = " << t;
    EXPECT_LE(f.lower_bound, f.loss * (1.0 + 1e-12));
    EXPECT_DOUBLE_EQ(f.global_lower_bound, f.lower_bound);
    EXPECT_LE(f.certificate, 1e-8) << "T = " << t;
    EXPECT_TRUE(f.sensitivity_exact);
    // The global bound certifies the class_trace optimum too (equal to 1e-8).
    EXPECT_LE(optimal_factorization(prefix_sum_gram(t), p).loss, f.lower_bound * (1.0 + 1e-8));
  }
  EXPECT_THROW(sign_relaxed_factorization(prefix_sum_gram(14), make_participation(14, 14, 1)),
               std::invalid_argument);
}

}  // namespace
}  // namespace netdp::mf
