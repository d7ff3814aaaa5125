// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Dense kernels of the accountants (see dense_kernels.hpp).

#include "netdp/linalg/dense_kernels.hpp"

#include <omp.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "netdp/util/check.hpp"

#if defined(NETDP_HAVE_LAPACKE)
#include <cblas.h>
#include <lapacke.h>
// OpenBLAS-only entry points, weak so that another CBLAS still links (the guard is then a no-op).
#pragma weak openblas_set_num_threads
#pragma weak openblas_get_num_threads
#endif

namespace netdp::linalg {
namespace {

/// Columns of U scaled by sqrt(|f_k|) for the k with sign(f_k) == sign.
DenseMatrix scaled_columns(const DenseMatrix& vectors, const Vector& f, int sign) {
  Eigen::Index count = 0;
  for (Eigen::Index k = 0; k < f.size(); ++k) count += (sign * f[k] > 0.0) ? 1 : 0;
  DenseMatrix b(vectors.rows(), count);
  Eigen::Index j = 0;
  for (Eigen::Index k = 0; k < f.size(); ++k) {
    if (sign * f[k] > 0.0) b.col(j++) = vectors.col(k) * std::sqrt(std::abs(f[k]));
  }
  return b;
}

/// c (lower triangle) += weight · b bᵀ, or weight · bᵀ b when `transposed` (one symmetric rank-k
/// update).
void rank_update(DenseMatrix& c, ConstMatrixBlock b, double weight, bool transposed = false) {
  if (b.size() == 0) return;
#if defined(NETDP_HAVE_LAPACKE)
  const auto n = static_cast<blasint>(c.rows());
  const auto k = static_cast<blasint>(transposed ? b.rows() : b.cols());
  cblas_dsyrk(CblasColMajor, CblasLower, transposed ? CblasTrans : CblasNoTrans, n, k, weight, b.data(),
              static_cast<blasint>(b.outerStride()), 1.0, c.data(), n);
#else
  if (transposed) {
    c.selfadjointView<Eigen::Lower>().rankUpdate(b.transpose(), weight);
  } else {
    c.selfadjointView<Eigen::Lower>().rankUpdate(b, weight);
  }
#endif
}

#if defined(NETDP_HAVE_LAPACKE)
/// The LAPACK/BLAS routines of the Cholesky kernels in each precision (lower triangle, column-major).
template <class Scalar>
struct CholeskyRoutines;

template <>
struct CholeskyRoutines<double> {
  // The _work entry points: no NaN scan of the input (a NaN fails the factorisation anyway).
  static lapack_int potrf(lapack_int n, double* a) {
    return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, a, n);
  }
  static lapack_int trtri(lapack_int n, double* a, lapack_int ld) {
    return LAPACKE_dtrtri_work(LAPACK_COL_MAJOR, 'L', 'N', n, a, ld);
  }
  static lapack_int lauum(lapack_int n, double* a) {
    return LAPACKE_dlauum_work(LAPACK_COL_MAJOR, 'L', n, a, n);
  }
  static void trmm(CBLAS_SIDE side, blasint m, blasint n, double alpha, const double* a, blasint lda,
                   double* b, blasint ldb) {
    cblas_dtrmm(CblasColMajor, side, CblasLower, CblasNoTrans, CblasNonUnit, m, n, alpha, a, lda, b, ldb);
  }
};

template <>
struct CholeskyRoutines<float> {
  static lapack_int potrf(lapack_int n, float* a) {
    return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', n, a, n);
  }
  static lapack_int trtri(lapack_int n, float* a, lapack_int ld) {
    return LAPACKE_strtri_work(LAPACK_COL_MAJOR, 'L', 'N', n, a, ld);
  }
  static lapack_int lauum(lapack_int n, float* a) {
    return LAPACKE_slauum_work(LAPACK_COL_MAJOR, 'L', n, a, n);
  }
  static void trmm(CBLAS_SIDE side, blasint m, blasint n, float alpha, const float* a, blasint lda, float* b,
                   blasint ldb) {
    cblas_strmm(CblasColMajor, side, CblasLower, CblasNoTrans, CblasNonUnit, m, n, alpha, a, lda, b, ldb);
  }
};

/// L⁻¹ in place for the n × n lower-triangular L at `a` (leading dimension ld), by halving:
/// [L11 0; L21 L22]⁻¹ = [L11⁻¹ 0; −L22⁻¹ L21 L11⁻¹ L22⁻¹]. Most of the work is in TRMM (level 3);
/// LAPACK's xTRTRI runs its unblocked level-2 kernel below its block size (2× slower at n = 100).
template <class Scalar>
bool invert_lower_in_place(Scalar* a, blasint n, blasint ld) {
  using Routines = CholeskyRoutines<Scalar>;
  if (n <= 32) return Routines::trtri(n, a, ld) == 0;
  const blasint h = n / 2;
  Scalar* l21 = a + h;
  Scalar* l22 = a + static_cast<std::ptrdiff_t>(h) * ld + h;
  if (!invert_lower_in_place(a, h, ld) || !invert_lower_in_place(l22, n - h, ld)) return false;
  Routines::trmm(CblasRight, n - h, h, Scalar{-1}, a, ld, l21, ld);
  Routines::trmm(CblasLeft, n - h, h, Scalar{1}, l22, ld, l21, ld);
  return true;
}
#endif

template <class Scalar>
bool cholesky_in_place_of(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& symmetric) {
  if (symmetric.size() == 0) return true;
  if (symmetric.rows() <= kSmallSpdMaxOrder)
    return small_cholesky_in_place(symmetric.data(), symmetric.rows());
#if defined(NETDP_HAVE_LAPACKE)
  return CholeskyRoutines<Scalar>::potrf(static_cast<lapack_int>(symmetric.rows()), symmetric.data()) == 0;
#else
  Eigen::LLT<Eigen::Ref<Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> > > llt(symmetric);  // in place
  return llt.info() == Eigen::Success;
#endif
}

template <class Scalar>
bool spd_invert_from_cholesky_of(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& symmetric) {
  if (symmetric.rows() <= kSmallSpdMaxOrder) {
    if (!small_spd_invert_from_cholesky(symmetric.data(), symmetric.rows())) return false;
  } else {
#if defined(NETDP_HAVE_LAPACKE)
    // Z⁻¹ = L⁻ᵀ L⁻¹: xPOTRI's two steps, the triangular inverse blocked.
    const auto r = static_cast<lapack_int>(symmetric.rows());
    if (!invert_lower_in_place(symmetric.data(), r, r)) return false;
    if (CholeskyRoutines<Scalar>::lauum(r, symmetric.data()) != 0) return false;
#else
    using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
    const Matrix lower = symmetric.template triangularView<Eigen::Lower>();
    const Matrix lower_inverse = lower.template triangularView<Eigen::Lower>().solve(
        Matrix::Identity(symmetric.rows(), symmetric.rows()));
    symmetric = lower_inverse.transpose() * lower_inverse;
#endif
  }
  symmetric.template triangularView<Eigen::StrictlyUpper>() = symmetric.transpose();
  return true;
}

}  // namespace

bool cholesky_in_place(DenseMatrix& symmetric) { return cholesky_in_place_of(symmetric); }
bool cholesky_in_place(FloatMatrix& symmetric) { return cholesky_in_place_of(symmetric); }
bool spd_invert_from_cholesky(DenseMatrix& symmetric) { return spd_invert_from_cholesky_of(symmetric); }
bool spd_invert_from_cholesky(FloatMatrix& symmetric) { return spd_invert_from_cholesky_of(symmetric); }

bool spectral_backend_is_lapack() {
#if defined(NETDP_HAVE_LAPACKE)
  return true;
#else
  return false;
#endif
}

namespace {

/// Throws (naming `where`) unless the lower triangle of a square matrix is finite. LAPACK's
/// symmetric eigensolvers do not check: a NaN can come back as eigenvalues with info = 0. Only the
/// lower triangle is read (callers may leave the upper one unset), so only it is checked.
void require_finite_lower(const DenseMatrix& symmetric, const char* where) {
  for (Eigen::Index j = 0; j < symmetric.cols(); ++j)
    require(symmetric.col(j).tail(symmetric.rows() - j).allFinite(),
            "{}: the {} x {} matrix has a non-finite entry in column {}", where, symmetric.rows(),
            symmetric.cols(), j);
}

/// A square, non-empty matrix whose lower triangle is finite, or an error naming `where`.
void require_square_finite(const DenseMatrix& symmetric, const char* where) {
  require(symmetric.rows() == symmetric.cols() && symmetric.rows() > 0,
          "{}: matrix must be square and non-empty, got {} x {}", where, symmetric.rows(), symmetric.cols());
  require_finite_lower(symmetric, where);
}

}  // namespace

SymmetricEigen symmetric_eigen(DenseMatrix symmetric, bool vectors) {
  require(symmetric.rows() == symmetric.cols(), "symmetric_eigen: matrix must be square, got {} x {}",
          symmetric.rows(), symmetric.cols());
  require_finite_lower(symmetric, "symmetric_eigen");
  SymmetricEigen result;
#if defined(NETDP_HAVE_LAPACKE)
  const auto n = static_cast<lapack_int>(symmetric.rows());
  result.values.resize(n);
  // The tridiagonal reduction makes one threaded BLAS call per column: up to n ≈ 1000 a second
  // thread gains nothing idle, and with a core busy elsewhere each call waits for the thread that
  // shares it (docs/reference/performance.md, "Under load, against numpy"). One thread there; a rule on n, so the
  // result does not depend on the load. (Inside a parallel region the caller has set one already.)
  std::optional<SingleThreadedBlas> one_thread;
  if (n < kThreadedEigenMinSize && omp_in_parallel() == 0) one_thread.emplace();
  const lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, vectors ? 'V' : 'N', 'L', n, symmetric.data(),
                                         std::max<lapack_int>(n, 1), result.values.data());
  if (info != 0) {
    throw std::runtime_error(fmt::format("symmetric_eigen: LAPACK dsyevd failed (info = {})", info));
  }
  if (vectors) result.vectors = std::move(symmetric);
#else
  Eigen::SelfAdjointEigenSolver<DenseMatrix> solver(
      symmetric, vectors ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("symmetric_eigen: Eigen SelfAdjointEigenSolver did not converge");
  }
  result.values = solver.eigenvalues();
  if (vectors) result.vectors = solver.eigenvectors();
#endif
  return result;
}

namespace {

/// The thin SVD behind thin_svd and singular_values, with the left singular vectors or without.
/// dgesdd's divide and conquer can fail to converge (info > 0) where the QR iteration of dgesvd does
/// not; Jacobi, which always converges, is the last resort.
ThinSvd svd_with_fallbacks(DenseMatrix a, bool left_vectors, const char* caller) {
  require(a.allFinite(), "{}: the {} x {} matrix has a non-finite entry", caller, a.rows(), a.cols());
  ThinSvd result;
  const Eigen::Index k = std::min(a.rows(), a.cols());
  if (k == 0) {
    result.left = DenseMatrix::Zero(a.rows(), 0);
    return result;
  }
#if defined(NETDP_HAVE_LAPACKE)
  const auto m = static_cast<lapack_int>(a.rows());
  const auto n = static_cast<lapack_int>(a.cols());
  const char job = left_vectors ? 'S' : 'N';
  result.values.resize(k);
  if (left_vectors) result.left.resize(a.rows(), k);
  // dgesdd's job 'S' forms the right vectors too (dgesvd is asked for none); with 'N' neither
  // driver touches U or Vᵀ.
  DenseMatrix right(left_vectors ? k : 1, left_vectors ? a.cols() : 1);
  double* const left = left_vectors ? result.left.data() : right.data();
  const lapack_int left_stride = left_vectors ? m : 1;
  const auto right_stride = static_cast<lapack_int>(right.rows());
  DenseMatrix copy = a;
  if (LAPACKE_dgesdd(LAPACK_COL_MAJOR, job, m, n, copy.data(), m, result.values.data(), left, left_stride,
                     right.data(), right_stride) == 0)
    return result;
  copy = a;
  Vector superdiagonal(std::max<Eigen::Index>(k - 1, 1));
  if (LAPACKE_dgesvd(LAPACK_COL_MAJOR, job, 'N', m, n, copy.data(), m, result.values.data(), left,
                     left_stride, right.data(), right_stride, superdiagonal.data()) == 0)
    return result;
#endif
  const Eigen::JacobiSVD<DenseMatrix> svd(a, left_vectors ? Eigen::ComputeThinU : 0);
  if (left_vectors) result.left = svd.matrixU();
  result.values = svd.singularValues();
  return result;
}

}  // namespace

ThinSvd thin_svd(DenseMatrix a) { return svd_with_fallbacks(std::move(a), true, "thin_svd"); }

Vector singular_values(DenseMatrix a) {
  return svd_with_fallbacks(std::move(a), false, "singular_values").values;
}

double smallest_eigenvalue(DenseMatrix symmetric) {
  require_square_finite(symmetric, "smallest_eigenvalue");
#if defined(NETDP_HAVE_LAPACKE)
  // DSYEVR's contract: W has N entries even when RANGE = 'I' asks for one (the bisection and MRRR
  // steps use all of it); Z is not referenced for JOBZ = 'N' but LDZ >= 1; ISUPPZ has 2·max(1, M)
  // entries, M = IU − IL + 1 = 1.
  const auto n = static_cast<lapack_int>(symmetric.rows());
  lapack_int found = 0;
  std::vector<double> values(static_cast<std::size_t>(n));
  double unused_vector = 0.0;
  lapack_int unused_support[2] = {0, 0};
  const lapack_int info = LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'N', 'I', 'L', n, symmetric.data(), n, 0.0, 0.0, 1,
                                         1, 0.0, &found, values.data(), &unused_vector, 1, unused_support);
  if (info != 0 || found != 1) {
    throw std::runtime_error(fmt::format("smallest_eigenvalue: LAPACK dsyevr failed (info = {})", info));
  }
  return values.front();
#else
  Eigen::SelfAdjointEigenSolver<DenseMatrix> solver(symmetric, Eigen::EigenvaluesOnly);
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("smallest_eigenvalue: Eigen SelfAdjointEigenSolver did not converge");
  }
  return solver.eigenvalues()(0);
#endif
}

EigenvalueRange extreme_eigenvalues(DenseMatrix symmetric) {
  require_square_finite(symmetric, "extreme_eigenvalues");
#if defined(NETDP_HAVE_LAPACKE)
  const auto n = static_cast<lapack_int>(symmetric.rows());
  const auto size = static_cast<std::size_t>(n);
  std::vector<double> diagonal(size), off(size), tau(size);
  lapack_int info =
      LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', n, symmetric.data(), n, diagonal.data(), off.data(), tau.data());
  if (info != 0)
    throw std::runtime_error(fmt::format("extreme_eigenvalues: LAPACK dsytrd failed (info = {})", info));
  const double abstol = 2.0 * LAPACKE_dlamch('S');  // the most accurate bisection
  // DSTEBZ's contract: W, IBLOCK and ISPLIT have N entries whatever the range asked for (M may
  // exceed IU − IL + 1 when eigenvalues are too close to be told apart); the LAPACKE wrapper
  // allocates WORK (4N) and IWORK (3N).
  const auto one_end = [&](lapack_int index) {
    lapack_int found = 0;
    lapack_int splits = 0;
    std::vector<double> values(size);
    std::vector<lapack_int> block(size), split(size);
    info = LAPACKE_dstebz('I', 'E', n, 0.0, 0.0, index, index, abstol, diagonal.data(), off.data(), &found,
                          &splits, values.data(), block.data(), split.data());
    if (info != 0 || found < 1) {
      throw std::runtime_error(fmt::format("extreme_eigenvalues: LAPACK dstebz failed (info = {})", info));
    }
    // The wanted end of what was found (more than one value when a tie could not be split).
    const auto last = values.begin() + found;
    return index == 1 ? *std::min_element(values.begin(), last) : *std::max_element(values.begin(), last);
  };
  return {one_end(1), one_end(n)};
#else
  Eigen::SelfAdjointEigenSolver<DenseMatrix> solver(symmetric, Eigen::EigenvaluesOnly);
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("extreme_eigenvalues: Eigen SelfAdjointEigenSolver did not converge");
  }
  return {solver.eigenvalues()(0), solver.eigenvalues()(symmetric.rows() - 1)};
#endif
}

DenseMatrix spectral_reconstruction(const DenseMatrix& vectors, const Vector& f) {
  const Eigen::Index n = vectors.rows();
  DenseMatrix c = DenseMatrix::Zero(n, n);
  rank_update(c, scaled_columns(vectors, f, +1), 1.0);
  rank_update(c, scaled_columns(vectors, f, -1), -1.0);
  c.triangularView<Eigen::StrictlyUpper>() = c.transpose();
  return c;
}

DenseMatrix scaled_product(const DenseMatrix& a, const Vector& f, const DenseMatrix& b) {
  return product_transposed(a * f.asDiagonal(), b);
}

DenseMatrix lower_gram(const DenseMatrix& a) {
  DenseMatrix gram = DenseMatrix::Zero(a.rows(), a.rows());
  rank_update(gram, a, 1.0);
  return gram;
}

void add_gram(DenseMatrix& lower, ConstMatrixBlock a) { rank_update(lower, a, 1.0); }

void add_transposed_gram(DenseMatrix& lower, const DenseMatrix& block) {
  rank_update(lower, block, 1.0, true);
}

bool cholesky_succeeds(DenseMatrix symmetric) { return cholesky_in_place(symmetric); }

bool spd_invert_in_place(DenseMatrix& symmetric) {
  return cholesky_in_place(symmetric) && spd_invert_from_cholesky(symmetric);
}

namespace {

/// DTRSM / DTRMM with SIDE = 'L' read an M × M triangle (LDA >= max(1, M)) for an M × N right side.
void require_left_triangle(const DenseMatrix& lower, const DenseMatrix& z, const char* where) {
  require(lower.rows() == lower.cols() && lower.rows() == z.rows(),
          "{}: a {} x {} triangle applied to a {} x {} matrix", where, lower.rows(), lower.cols(), z.rows(),
          z.cols());
}

}  // namespace

void solve_lower_in_place(const DenseMatrix& lower, DenseMatrix& z) {
  if (z.size() == 0) return;
  require_left_triangle(lower, z, "solve_lower_in_place");
#if defined(NETDP_HAVE_LAPACKE)
  cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit,
              static_cast<blasint>(z.rows()), static_cast<blasint>(z.cols()), 1.0, lower.data(),
              static_cast<blasint>(lower.rows()), z.data(), static_cast<blasint>(z.rows()));
#else
  lower.triangularView<Eigen::Lower>().solveInPlace(z);
#endif
}

void multiply_lower_in_place(const DenseMatrix& lower, DenseMatrix& z) {
  if (z.size() == 0) return;
  require_left_triangle(lower, z, "multiply_lower_in_place");
#if defined(NETDP_HAVE_LAPACKE)
  CholeskyRoutines<double>::trmm(CblasLeft, static_cast<blasint>(z.rows()), static_cast<blasint>(z.cols()),
                                 1.0, lower.data(), static_cast<blasint>(lower.rows()), z.data(),
                                 static_cast<blasint>(z.rows()));
#else
  z = (lower.triangularView<Eigen::Lower>() * z).eval();
#endif
}

bool invert_lower_in_place(DenseMatrix& lower) {
  if (lower.size() == 0) return true;
#if defined(NETDP_HAVE_LAPACKE)
  const auto n = static_cast<blasint>(lower.rows());
  return invert_lower_in_place(lower.data(), n, n);
#else
  if ((lower.diagonal().array() == 0.0).any()) return false;
  const DenseMatrix inverse =
      lower.triangularView<Eigen::Lower>().solve(DenseMatrix::Identity(lower.rows(), lower.cols()));
  lower.triangularView<Eigen::Lower>() = inverse;
  return true;
#endif
}

PivotedCholesky pivoted_cholesky(const DenseMatrix& gram, double floor) {
  const Eigen::Index m = gram.rows();
  PivotedCholesky out;
#if defined(NETDP_HAVE_LAPACKE)
  // LAPACK's blocked DPSTRF: the same greedy pivots (largest remaining diagonal), the same stop
  // (a pivot <= floor ends it), the trailing updates as SYRKs.
  if (m > 0) {
    DenseMatrix factor = gram;
    std::vector<lapack_int> pivots(static_cast<std::size_t>(m));
    std::vector<double> work(2 * static_cast<std::size_t>(m));
    lapack_int rank = 0;
    const auto r = static_cast<lapack_int>(m);
    const lapack_int info = LAPACKE_dpstrf_work(LAPACK_COL_MAJOR, 'L', r, factor.data(), r, pivots.data(),
                                                &rank, std::max(floor, 0.0), work.data());
    require(info >= 0, "internal: DPSTRF rejected argument {}", -info);
    out.rank = rank;
    for (lapack_int k = 0; k < rank; ++k) out.pivots.push_back(pivots[static_cast<std::size_t>(k)] - 1);
    out.factor = factor.topLeftCorner(rank, rank).triangularView<Eigen::Lower>();
    return out;
  }
#endif
  std::vector<Eigen::Index> order(static_cast<std::size_t>(m));
  for (Eigen::Index i = 0; i < m; ++i) order[static_cast<std::size_t>(i)] = i;
  Vector remaining = gram.diagonal();  // diagonal of the Schur complement, by original row
  // Row k = the k-th row in pivot order (row-major: the updates read rows).
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> l =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>::Zero(m, m);
  const auto entry = [&](Eigen::Index i, Eigen::Index j) { return i >= j ? gram(i, j) : gram(j, i); };
  Eigen::Index k = 0;
  for (; k < m; ++k) {
    Eigen::Index best = k;
    for (Eigen::Index i = k + 1; i < m; ++i) {
      if (remaining(order[static_cast<std::size_t>(i)]) > remaining(order[static_cast<std::size_t>(best)]))
        best = i;
    }
    const double pivot = remaining(order[static_cast<std::size_t>(best)]);
    if (!(pivot > floor)) break;
    std::swap(order[static_cast<std::size_t>(k)], order[static_cast<std::size_t>(best)]);
    l.row(k).head(k).swap(l.row(best).head(k));
    const Eigen::Index p = order[static_cast<std::size_t>(k)];
    const double diagonal = std::sqrt(pivot);
    l(k, k) = diagonal;
    for (Eigen::Index i = k + 1; i < m; ++i) {
      const Eigen::Index q = order[static_cast<std::size_t>(i)];
      const double value = (entry(q, p) - l.row(i).head(k).dot(l.row(k).head(k))) / diagonal;
      l(i, k) = value;
      remaining(q) -= value * value;
    }
  }
  out.rank = k;
  out.pivots.assign(order.begin(), order.begin() + k);
  out.factor = l.topLeftCorner(k, k);
  return out;
}

bool orthonormalize_rows(DenseMatrix& z) {
  if (z.size() == 0) return true;
  DenseMatrix factor = lower_gram(z);
  if (!cholesky_in_place(factor)) return false;
  solve_lower_in_place(factor, z);
  return true;
}

void multiply_into(MatrixBlock c, double alpha, ConstMatrixBlock a, bool transpose_a, ConstMatrixBlock b,
                   bool transpose_b, double beta) {
  const Eigen::Index m = transpose_a ? a.cols() : a.rows();
  const Eigen::Index k = transpose_a ? a.rows() : a.cols();
  const Eigen::Index n = transpose_b ? b.rows() : b.cols();
  require(c.rows() == m && c.cols() == n && (transpose_b ? b.cols() : b.rows()) == k,
          "multiply_into: a {} x {} times a {} x {} product into {} x {}", m, k,
          transpose_b ? b.cols() : b.rows(), n, c.rows(), c.cols());
  if (c.size() == 0) return;
  if (k == 0) {
    if (beta == 0.0) {
      c.setZero();
    } else {
      c *= beta;
    }
    return;
  }
#if defined(NETDP_HAVE_LAPACKE)
  // Leading dimensions of at least 1, as BLAS requires even for empty dimensions.
  const auto ld = [](Eigen::Index stride) { return static_cast<blasint>(std::max<Eigen::Index>(stride, 1)); };
  cblas_dgemm(CblasColMajor, transpose_a ? CblasTrans : CblasNoTrans, transpose_b ? CblasTrans : CblasNoTrans,
              static_cast<blasint>(m), static_cast<blasint>(n), static_cast<blasint>(k), alpha, a.data(),
              ld(a.outerStride()), b.data(), ld(b.outerStride()), beta, c.data(), ld(c.outerStride()));
#else
  const auto product = [&](const auto& left) {
    if (transpose_b) return (alpha * (left * b.transpose())).eval();
    return (alpha * (left * b)).eval();
  };
  const DenseMatrix p = transpose_a ? product(a.transpose()) : product(a);
  if (beta == 0.0) {
    c = p;
  } else {
    c = beta * c + p;
  }
#endif
}

DenseMatrix transposed_product(const DenseMatrix& u, const DenseMatrix& a) {
  DenseMatrix c(u.cols(), a.cols());
  multiply_into(c, 1.0, u, true, a, false, 0.0);
  return c;
}

DenseMatrix product_transposed(const DenseMatrix& a, const DenseMatrix& b) {
  DenseMatrix c(a.rows(), b.rows());
  multiply_into(c, 1.0, a, false, b, true, 0.0);
  return c;
}

double inner_product_gamma(double k) {
  constexpr double unit_roundoff = std::numeric_limits<double>::epsilon() / 2.0;
  return k * unit_roundoff / (1.0 - k * unit_roundoff);
}

DenseMatrix product_transposed_blocked(const DenseMatrix& a, const DenseMatrix& b, Eigen::Index block) {
  require(a.cols() == b.cols() && block > 0,
          "product_transposed_blocked: a {} x {} times the transpose of a {} x {} in blocks of {}", a.rows(),
          a.cols(), b.rows(), b.cols(), block);
  DenseMatrix sum = DenseMatrix::Zero(a.rows(), b.rows());
  DenseMatrix part(a.rows(), b.rows());
  for (Eigen::Index first = 0; first < a.cols(); first += block) {
    const Eigen::Index width = std::min(block, a.cols() - first);
    multiply_into(part, 1.0, a.middleCols(first, width), false, b.middleCols(first, width), true, 0.0);
    sum += part;
  }
  return sum;
}

void add_product(DenseMatrix& target, double alpha, const DenseMatrix& a, const DenseMatrix& b) {
  multiply_into(target, alpha, a, false, b, false, 1.0);
}

void add_product(FloatMatrix& target, float alpha, const FloatMatrix& a, const FloatMatrix& b) {
  require(target.rows() == a.rows() && target.cols() == b.cols() && a.cols() == b.rows(),
          "add_product: a {} x {} times a {} x {} product into {} x {}", a.rows(), a.cols(), b.rows(),
          b.cols(), target.rows(), target.cols());
  if (target.size() == 0 || a.cols() == 0) return;
#if defined(NETDP_HAVE_LAPACKE)
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(target.rows()),
              static_cast<blasint>(target.cols()), static_cast<blasint>(a.cols()), alpha, a.data(),
              static_cast<blasint>(a.rows()), b.data(), static_cast<blasint>(b.rows()), 1.0F, target.data(),
              static_cast<blasint>(target.rows()));
#else
  target.noalias() += alpha * a * b;
#endif
}

void subtract_product(DenseMatrix& target, const DenseMatrix& a, const DenseMatrix& b) {
  add_product(target, -1.0, a, b);
}

SingleThreadedBlas::SingleThreadedBlas() {
#if defined(NETDP_HAVE_LAPACKE)
  if (openblas_set_num_threads != nullptr && openblas_get_num_threads != nullptr) {
    previous_ = openblas_get_num_threads();
    openblas_set_num_threads(1);
  }
#endif
}

SingleThreadedBlas::~SingleThreadedBlas() {
#if defined(NETDP_HAVE_LAPACKE)
  if (previous_ > 0) openblas_set_num_threads(previous_);
#endif
}

}  // namespace netdp::linalg
