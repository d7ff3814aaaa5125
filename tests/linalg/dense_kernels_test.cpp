// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The one GEMM of the dense kernels against Eigen's plain product, on blocks with leading
// dimensions larger than their row counts (the models multiply the top rows of a parameter matrix).

#include "netdp/linalg/dense_kernels.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "netdp/util/rng.hpp"

namespace netdp::linalg {
namespace {

DenseMatrix counting(Eigen::Index rows, Eigen::Index cols, double scale) {
  DenseMatrix m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = scale * static_cast<double>((3 * i + 7 * j) % 11 - 5);
  return m;
}

/// `m` stored in the top rows of a matrix with `extra` more rows (a leading dimension above its rows).
DenseMatrix padded(const DenseMatrix& m, Eigen::Index extra) {
  DenseMatrix store = DenseMatrix::Constant(m.rows() + extra, m.cols(), 99.0);
  store.topRows(m.rows()) = m;
  return store;
}

TEST(MultiplyInto, EveryTransposeOnStridedBlocksEqualsEigen) {
  const DenseMatrix a = counting(7, 6, 0.5);
  const DenseMatrix b = counting(6, 4, -1.5);
  for (const bool ta : {false, true}) {
    for (const bool tb : {false, true}) {
      // op(a_stored) = a and op(b_stored) = b, each in the top rows of a taller matrix.
      const DenseMatrix a_store = padded(ta ? DenseMatrix(a.transpose()) : a, 2);
      const DenseMatrix b_store = padded(tb ? DenseMatrix(b.transpose()) : b, 3);
      DenseMatrix c_store = counting(10, 4, 0.25);
      const DenseMatrix before = c_store;
      multiply_into(c_store.topRows(7), 2.0, a_store.topRows(a_store.rows() - 2), ta,
                    b_store.topRows(b_store.rows() - 3), tb, 0.5);
      const DenseMatrix expected = 2.0 * (a * b) + 0.5 * before.topRows(7);
      EXPECT_LE((c_store.topRows(7) - expected).cwiseAbs().maxCoeff(), 1e-12) << ta << tb;
      EXPECT_EQ(c_store.bottomRows(3), before.bottomRows(3)) << "rows past the block are untouched";
    }
  }
}

TEST(MultiplyInto, EmptyInnerDimensionScalesAndMismatchThrows) {
  DenseMatrix c = counting(3, 2, 1.0);
  const DenseMatrix expected = 3.0 * c;
  multiply_into(c, 1.0, DenseMatrix(3, 0), false, DenseMatrix(0, 2), false, 3.0);
  EXPECT_EQ(c, expected);
  multiply_into(c, 1.0, DenseMatrix(3, 0), false, DenseMatrix(0, 2), false, 0.0);
  EXPECT_EQ(c, DenseMatrix::Zero(3, 2));
  EXPECT_THROW(multiply_into(c, 1.0, DenseMatrix(3, 4), false, DenseMatrix(5, 2), false, 0.0),
               std::invalid_argument);
}

TEST(ProductTransposedBlocked, RoundingWithinTheBlockedSummationBoundOfEveryBlockWidth) {
  // Entries of very different magnitudes, so that the products cancel; the reference is summed in
  // long double. For every block width (a last block shorter than the others, one block, more than N)
  // the error stays within γ_{block + ⌈N/block⌉} |a||b|ᵀ entrywise.
  util::Rng rng(11);
  const Eigen::Index n = 1000;
  DenseMatrix a(12, n);
  DenseMatrix b(9, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < a.rows(); ++i)
      a(i, j) = rng.standard_normal() * std::exp(6.0 * rng.standard_normal());
    for (Eigen::Index i = 0; i < b.rows(); ++i) b(i, j) = rng.standard_normal();
  }
  using LongMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
  const LongMatrix exact = a.cast<long double>() * b.cast<long double>().transpose();
  const DenseMatrix scale = a.cwiseAbs() * b.cwiseAbs().transpose();
  for (const Eigen::Index block : {1, 7, 32, 333, 1000, 2000}) {
    const DenseMatrix product = product_transposed_blocked(a, b, block);
    const double gamma = inner_product_gamma(static_cast<double>(block + (n + block - 1) / block));
    const DenseMatrix error = (product.cast<long double>() - exact).cwiseAbs().cast<double>();
    EXPECT_TRUE((error.array() <= gamma * scale.array()).all()) << "block " << block;
  }
  EXPECT_THROW(product_transposed_blocked(a, b, 0), std::invalid_argument);
  EXPECT_THROW(product_transposed_blocked(a, DenseMatrix(9, n + 1), 8), std::invalid_argument);
}

TEST(SinglePrecisionKernels, CholeskyInverseAndProductMatchDoublePrecision) {
  // n = 20 (LAPACK's triangular inverse) and n = 100 (the halving inverse): the single-precision
  // inverse of a well-conditioned SPD matrix, and a product, to single precision.
  util::Rng rng(3);
  for (const Eigen::Index n : {Eigen::Index{20}, Eigen::Index{100}}) {
    DenseMatrix a(n, n);
    for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = rng.standard_normal();
    const DenseMatrix spd = a * a.transpose() / static_cast<double>(n) + DenseMatrix::Identity(n, n);
    FloatMatrix inverse = spd.cast<float>();
    ASSERT_TRUE(cholesky_in_place(inverse));
    ASSERT_TRUE(spd_invert_from_cholesky(inverse));
    const DenseMatrix exact = spd.inverse();
    EXPECT_LT((inverse.cast<double>() - exact).cwiseAbs().maxCoeff(), 1e-5 * exact.cwiseAbs().maxCoeff())
        << n;
    EXPECT_EQ(inverse, inverse.transpose()) << n;  // both triangles filled
    FloatMatrix sum = FloatMatrix::Ones(n, n);
    add_product(sum, -2.0F, spd.cast<float>(), a.cast<float>());
    const DenseMatrix expected = DenseMatrix::Ones(n, n) - 2.0 * spd * a;
    EXPECT_LT((sum.cast<double>() - expected).cwiseAbs().maxCoeff(), 1e-5 * expected.cwiseAbs().maxCoeff())
        << n;
  }
  FloatMatrix indefinite = FloatMatrix::Identity(3, 3);
  indefinite(2, 2) = -1.0F;
  EXPECT_FALSE(cholesky_in_place(indefinite));
}

TEST(ThinSvd, TallWideAndRankDeficientMatchJacobi) {
  util::Rng rng(5);
  const auto gaussian = [&](Eigen::Index rows, Eigen::Index cols) {
    DenseMatrix m(rows, cols);
    for (Eigen::Index j = 0; j < cols; ++j)
      for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = rng.standard_normal();
    return m;
  };
  // Tall, wide, and a 40 x 30 matrix of rank 7 (its 23 smallest singular values are zero).
  for (const DenseMatrix& a :
       {gaussian(50, 12), gaussian(9, 31), DenseMatrix(gaussian(40, 7) * gaussian(7, 30))}) {
    const ThinSvd svd = thin_svd(a);
    const Eigen::JacobiSVD<DenseMatrix> reference(a, Eigen::ComputeThinU);
    const Eigen::Index k = std::min(a.rows(), a.cols());
    ASSERT_EQ(svd.values.size(), k);
    ASSERT_EQ(svd.left.rows(), a.rows());
    ASSERT_EQ(svd.left.cols(), k);
    const double scale = reference.singularValues()[0];
    EXPECT_LE((svd.values - reference.singularValues()).cwiseAbs().maxCoeff(), 1e-13 * scale);
    // The left vectors are orthonormal, and Uᵀ a has rows of norm σ_i (a = U Σ Vᵀ).
    EXPECT_LE((svd.left.transpose() * svd.left - DenseMatrix::Identity(k, k)).cwiseAbs().maxCoeff(), 1e-13);
    const Vector row_norms = (svd.left.transpose() * a).rowwise().norm();
    EXPECT_LE((row_norms - svd.values).cwiseAbs().maxCoeff(), 1e-13 * scale);
    // Without vectors: the same values.
    const Vector values = singular_values(a);
    ASSERT_EQ(values.size(), k);
    EXPECT_LE((values - reference.singularValues()).cwiseAbs().maxCoeff(), 1e-13 * scale);
  }
  EXPECT_EQ(thin_svd(DenseMatrix(0, 4)).values.size(), 0);
  EXPECT_EQ(singular_values(DenseMatrix(0, 4)).size(), 0);
}

TEST(ThinSvd, NonFiniteEntryIsRefusedByName) {
  DenseMatrix a = DenseMatrix::Identity(3, 2);
  a(2, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(
      {
        try {
          thin_svd(a);
        } catch (const std::exception& e) {
          EXPECT_NE(std::string(e.what()).find("non-finite"), std::string::npos) << e.what();
          throw;
        }
      },
      std::exception);
  a(2, 1) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(thin_svd(a), std::exception);
  EXPECT_THROW(singular_values(a), std::exception);
}

TEST(SymmetricEigen, EigenvaluesOnlyMatchTheFullDecompositionAndNonFiniteIsRefused) {
  const DenseMatrix b = (DenseMatrix(3, 3) << 4, 1, 0, 1, 3, -1, 0, -1, 2).finished();
  const SymmetricEigen full = symmetric_eigen(b);
  const SymmetricEigen values = symmetric_eigen(b, false);
  EXPECT_EQ(values.vectors.size(), 0);
  ASSERT_EQ(values.values.size(), 3);
  for (Eigen::Index i = 0; i < 3; ++i) EXPECT_NEAR(values.values(i), full.values(i), 1e-13);
  EXPECT_LT((full.vectors * full.values.asDiagonal() * full.vectors.transpose() - b).norm(), 1e-12);
  DenseMatrix upper_unset = b;  // only the lower triangle is read
  upper_unset(0, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NEAR(symmetric_eigen(upper_unset, false).values(2), full.values(2), 1e-13);
  DenseMatrix bad = b;
  bad(1, 0) = std::numeric_limits<double>::quiet_NaN();
  for (const bool vectors : {true, false}) {
    try {
      symmetric_eigen(bad, vectors);
      ADD_FAILURE() << "no exception";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("non-finite"), std::string::npos) << e.what();
    }
  }
  // The smallest eigenvalue alone (dsyevr) reads the same triangle and refuses the same NaN.
  EXPECT_NEAR(smallest_eigenvalue(upper_unset), full.values(0), 1e-13);
  try {
    smallest_eigenvalue(bad);
    ADD_FAILURE() << "no exception";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "smallest_eigenvalue: the 3 x 3 matrix has a non-finite entry in column 0"),
              std::string::npos)
        << e.what();
  }
}

TEST(SymmetricEigen, ExtremeEigenvaluesMatchEveryEigenvalueAndNonFiniteIsRefused) {
  util::Rng rng(5);
  for (const Eigen::Index n : {1, 2, 7, 60}) {
    DenseMatrix a(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < n; ++i) a(i, j) = rng.standard_normal();
    const DenseMatrix gram = a * a.transpose() / static_cast<double>(n);
    const SymmetricEigen all = symmetric_eigen(gram, false);
    DenseMatrix upper_unset = gram;  // only the lower triangle is read
    if (n > 1) upper_unset(0, n - 1) = std::numeric_limits<double>::quiet_NaN();
    const EigenvalueRange ends = extreme_eigenvalues(upper_unset);
    const double scale = all.values(n - 1);
    EXPECT_NEAR(ends.smallest, all.values(0), 1e-13 * scale) << "n = " << n;
    EXPECT_NEAR(ends.largest, all.values(n - 1), 1e-13 * scale) << "n = " << n;
  }
  DenseMatrix bad = DenseMatrix::Identity(3, 3);
  bad(2, 1) = std::numeric_limits<double>::infinity();
  try {
    extreme_eigenvalues(bad);
    ADD_FAILURE() << "no exception";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("extreme_eigenvalues: the 3 x 3 matrix has a non-finite entry"),
              std::string::npos)
        << e.what();
  }
}

// Sizes around LAPACK's and OpenBLAS's block boundaries (32, 64, 128) and the small SPD kernels'
// order (kSmallSpdMaxOrder). Under the sanitizers these run each LAPACK call with the buffers its
// documentation asks for; a buffer too short (a one-entry W for DSYEVR) is a stack overflow there.
const Eigen::Index kBoundarySizes[] = {1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129};

/// Symmetric matrices whose spectra repeat: c·I (one value n times), the star's adjacency (0 with
/// multiplicity n − 2), a rank-one matrix (0 with multiplicity n − 1), and the zero matrix.
std::vector<DenseMatrix> repeated_spectra(Eigen::Index n) {
  std::vector<DenseMatrix> out;
  out.push_back(2.5 * DenseMatrix::Identity(n, n));
  DenseMatrix star = DenseMatrix::Zero(n, n);
  for (Eigen::Index i = 1; i < n; ++i) star(i, 0) = star(0, i) = 1.0;
  out.push_back(star);
  const Vector ones = Vector::Ones(n);
  out.push_back(ones * ones.transpose());
  out.push_back(DenseMatrix::Zero(n, n));
  return out;
}

TEST(LapackContracts, EigenvalueEndsOfRepeatedSpectraAtBlockBoundaries) {
  for (const Eigen::Index n : kBoundarySizes) {
    for (const DenseMatrix& a : repeated_spectra(n)) {
      const Eigen::SelfAdjointEigenSolver<DenseMatrix> reference(a, Eigen::EigenvaluesOnly);
      const double low = reference.eigenvalues()(0);
      const double high = reference.eigenvalues()(n - 1);
      const double scale = std::max(1.0, a.cwiseAbs().maxCoeff()) * static_cast<double>(n);
      EXPECT_NEAR(smallest_eigenvalue(a), low, 1e-13 * scale) << "n = " << n;
      const EigenvalueRange ends = extreme_eigenvalues(a);
      EXPECT_NEAR(ends.smallest, low, 1e-13 * scale) << "n = " << n;
      EXPECT_NEAR(ends.largest, high, 1e-13 * scale) << "n = " << n;
      const SymmetricEigen all = symmetric_eigen(a);
      EXPECT_NEAR(all.values(0), low, 1e-13 * scale) << "n = " << n;
      EXPECT_LT((all.vectors * all.values.asDiagonal() * all.vectors.transpose() - a).cwiseAbs().maxCoeff(),
                1e-12 * scale)
          << "n = " << n;
    }
  }
}

TEST(LapackContracts, SvdOfRankDeficientTallAndWideMatricesAtBlockBoundaries) {
  for (const Eigen::Index n : kBoundarySizes) {
    for (const Eigen::Index m : {Eigen::Index{1}, n, n + 5}) {
      // Rank at most 2: every other singular value is zero (repeated).
      const DenseMatrix a = counting(m, 2, 1.0) * counting(2, n, 0.5);
      for (const DenseMatrix& x : {a, DenseMatrix(a.transpose())}) {
        const Eigen::JacobiSVD<DenseMatrix> reference(x);
        const ThinSvd svd = thin_svd(x);
        const Vector values = singular_values(x);
        const double scale =
            std::max(1.0, reference.singularValues().size() > 0 ? reference.singularValues()(0) : 0.0);
        ASSERT_EQ(values.size(), reference.singularValues().size());
        EXPECT_LT((values - reference.singularValues()).cwiseAbs().maxCoeff(), 1e-12 * scale);
        EXPECT_LT((svd.values - reference.singularValues()).cwiseAbs().maxCoeff(), 1e-12 * scale);
        EXPECT_EQ(svd.left.rows(), x.rows());
        EXPECT_EQ(svd.left.cols(), std::min(x.rows(), x.cols()));
      }
    }
  }
}

TEST(LapackContracts, PivotedCholeskyOfRankDeficientGramsAtBlockBoundaries) {
  for (const Eigen::Index n : kBoundarySizes) {
    const Eigen::Index rank = std::min<Eigen::Index>(n, 3);
    const DenseMatrix factor = counting(n, rank, 0.25) + DenseMatrix::Identity(n, rank);
    const DenseMatrix gram = factor * factor.transpose();
    const PivotedCholesky pc = pivoted_cholesky(gram, 1e-10 * gram.diagonal().maxCoeff());
    EXPECT_LE(pc.rank, rank) << "n = " << n;
    ASSERT_EQ(static_cast<Eigen::Index>(pc.pivots.size()), pc.rank);
    // The pivoted rows are reproduced: L Lᵀ = G[p, p].
    DenseMatrix picked(pc.rank, pc.rank);
    for (Eigen::Index i = 0; i < pc.rank; ++i)
      for (Eigen::Index j = 0; j < pc.rank; ++j) picked(i, j) = gram(pc.pivots[i], pc.pivots[j]);
    EXPECT_LT((pc.factor * pc.factor.transpose() - picked).cwiseAbs().maxCoeff(),
              1e-10 * gram.diagonal().maxCoeff())
        << "n = " << n;
  }
}

TEST(LapackContracts, CholeskyAndInverseAroundTheSmallKernelOrder) {
  util::Rng rng(23);
  for (const Eigen::Index n : {kSmallSpdMaxOrder - 1, kSmallSpdMaxOrder, kSmallSpdMaxOrder + 1}) {
    DenseMatrix a(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < n; ++i) a(i, j) = rng.standard_normal();
    const DenseMatrix spd = a * a.transpose() / static_cast<double>(n) + DenseMatrix::Identity(n, n);
    DenseMatrix inverse = spd;
    ASSERT_TRUE(spd_invert_in_place(inverse)) << n;
    EXPECT_LT((inverse * spd - DenseMatrix::Identity(n, n)).cwiseAbs().maxCoeff(), 1e-10) << n;
    // Rank-deficient: refused, not a crash.
    DenseMatrix singular = spd;
    singular.row(n - 1).setZero();
    singular.col(n - 1).setZero();
    EXPECT_FALSE(cholesky_succeeds(singular)) << n;
  }
}

TEST(LowerTriangular, ProductAndInverseMatchEigenAndLeaveTheUpperTriangle) {
  for (const Eigen::Index n : {1, 5, 33, 100}) {
    DenseMatrix lower = counting(n, n, 0.1);
    lower.diagonal().array() += 3.0;                                 // well away from singular
    lower.triangularView<Eigen::StrictlyUpper>().setConstant(99.0);  // neither read nor written
    const DenseMatrix l = lower.triangularView<Eigen::Lower>();
    const DenseMatrix z = counting(n, 4, 0.5);
    DenseMatrix product = z;
    multiply_lower_in_place(lower, product);
    EXPECT_LT((product - l * z).cwiseAbs().maxCoeff(), 1e-12 * (l * z).cwiseAbs().maxCoeff()) << "n = " << n;
    DenseMatrix inverse = lower;
    ASSERT_TRUE(invert_lower_in_place(inverse));
    const DenseMatrix expected = l.triangularView<Eigen::Lower>().solve(DenseMatrix::Identity(n, n));
    EXPECT_LT((DenseMatrix(inverse.triangularView<Eigen::Lower>()) - expected).cwiseAbs().maxCoeff(), 1e-12)
        << "n = " << n;
    EXPECT_TRUE((inverse.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().array() ==
                 lower.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().array())
                    .all());
  }
  DenseMatrix singular = DenseMatrix::Identity(4, 4);
  singular(2, 2) = 0.0;
  EXPECT_FALSE(invert_lower_in_place(singular));
}

/// A random well-conditioned n × n symmetric positive definite matrix.
DenseMatrix random_spd(Eigen::Index n, util::Rng& rng) {
  DenseMatrix g(n, n);
  for (Eigen::Index i = 0; i < g.size(); ++i) g.data()[i] = rng.standard_normal();
  return g * g.transpose() / static_cast<double>(n) + DenseMatrix::Identity(n, n);
}

/// The strict upper triangle of `m` set to 99 (the kernels must neither read nor write it).
template <class Matrix>
Matrix with_marked_upper(Matrix m) {
  m.template triangularView<Eigen::StrictlyUpper>().setConstant(99);
  return m;
}

/// The small kernels in precision Scalar against Eigen in double: the factor and the inverse of
/// random SPD matrices of orders around every tile and panel boundary (and the LAPACK path just
/// above kSmallSpdMaxOrder, through the dispatching entry points), to `tolerance` relative.
template <class Scalar>
void expect_small_spd_kernels_match_eigen(double tolerance) {
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  util::Rng rng(17);
  for (const Eigen::Index n : {1,
                               2,
                               3,
                               4,
                               5,
                               7,
                               15,
                               16,
                               17,
                               31,
                               32,
                               33,
                               34,
                               35,
                               47,
                               64,
                               100,
                               101,
                               102,
                               103,
                               130,
                               static_cast<int>(kSmallSpdMaxOrder),
                               static_cast<int>(kSmallSpdMaxOrder) + 1}) {
    const DenseMatrix spd = random_spd(n, rng);
    const DenseMatrix factor = Eigen::LLT<DenseMatrix>(spd).matrixL();
    const DenseMatrix inverse = spd.inverse();
    const bool small = n <= kSmallSpdMaxOrder;
    Matrix work = with_marked_upper<Matrix>(spd.cast<Scalar>());
    ASSERT_TRUE(small ? small_cholesky_in_place(work.data(), n) : cholesky_in_place(work)) << n;
    const DenseMatrix lower = work.template cast<double>().template triangularView<Eigen::Lower>();
    EXPECT_LT((lower - factor).cwiseAbs().maxCoeff(), tolerance * factor.cwiseAbs().maxCoeff()) << n;
    EXPECT_TRUE((work.template triangularView<Eigen::StrictlyUpper>().toDenseMatrix().array() == Scalar{99})
                    .count() == n * (n - 1) / 2)
        << "the factorisation wrote above the diagonal at n = " << n;
    if (small) {
      ASSERT_TRUE(small_spd_invert_from_cholesky(work.data(), n)) << n;
      const DenseMatrix got = work.template cast<double>().template triangularView<Eigen::Lower>();
      const DenseMatrix expected = inverse.triangularView<Eigen::Lower>();
      EXPECT_LT((got - expected).cwiseAbs().maxCoeff(), tolerance * inverse.cwiseAbs().maxCoeff()) << n;
      EXPECT_TRUE((work.template triangularView<Eigen::StrictlyUpper>().toDenseMatrix().array() == Scalar{99})
                      .count() == n * (n - 1) / 2)
          << "the inverse wrote above the diagonal at n = " << n;
    }
    // The dispatching entry points fill both triangles of the inverse.
    Matrix both = spd.cast<Scalar>();
    ASSERT_TRUE(cholesky_in_place(both) && spd_invert_from_cholesky(both)) << n;
    EXPECT_LT((both.template cast<double>() - inverse).cwiseAbs().maxCoeff(),
              tolerance * inverse.cwiseAbs().maxCoeff())
        << n;
    EXPECT_EQ(both, both.transpose()) << n;
  }
}

TEST(SmallSpd, CholeskyAndInverseMatchEigenInDoublePrecision) {
  expect_small_spd_kernels_match_eigen<double>(1e-12);
}

TEST(SmallSpd, CholeskyAndInverseMatchEigenInSinglePrecision) {
  expect_small_spd_kernels_match_eigen<float>(1e-5);
}

TEST(SmallSpd, IndefiniteNaNAndSingularFactorsAreRefused) {
  util::Rng rng(19);
  for (const Eigen::Index n : {5, 100}) {  // the column-by-column path and the tiled one
    const DenseMatrix spd = random_spd(n, rng);
    DenseMatrix indefinite = spd;
    indefinite(n - 2, n - 2) = -1.0;  // a late pivot: the factorisation runs almost to the end
    EXPECT_FALSE(small_cholesky_in_place(indefinite.data(), n)) << n;
    DenseMatrix not_a_number = spd;
    not_a_number(n - 1, 1) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(small_cholesky_in_place(not_a_number.data(), n)) << n;
    FloatMatrix single = spd.cast<float>();
    single(n - 1, n - 1) = -1.0F;
    EXPECT_FALSE(small_cholesky_in_place(single.data(), n)) << n;
    DenseMatrix singular_factor = DenseMatrix::Identity(n, n);
    singular_factor(n / 2, n / 2) = 0.0;
    EXPECT_FALSE(small_spd_invert_from_cholesky(singular_factor.data(), n)) << n;
  }
}

}  // namespace
}  // namespace netdp::linalg
