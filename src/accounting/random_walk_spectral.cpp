// Spectral backend of the random-walk accountant (see random_walk_spectral.hpp).

#include "random_walk_spectral.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "netdp/util/check.hpp"

#if defined(NETDP_HAVE_LAPACKE)
#include <cblas.h>
#include <lapacke.h>
#endif

namespace netdp::accounting::detail {
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

/// c (lower triangle) += weight · b bᵀ.
void rank_update(DenseMatrix& c, const DenseMatrix& b, double weight) {
  if (b.cols() == 0) return;
#if defined(NETDP_HAVE_LAPACKE)
  const auto n = static_cast<blasint>(c.rows());
  const auto k = static_cast<blasint>(b.cols());
  cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, k, weight, b.data(), n, 1.0, c.data(), n);
#else
  c.selfadjointView<Eigen::Lower>().rankUpdate(b, weight);
#endif
}

}  // namespace

bool spectral_backend_is_lapack() {
#if defined(NETDP_HAVE_LAPACKE)
  return true;
#else
  return false;
#endif
}

SymmetricEigen symmetric_eigen(DenseMatrix symmetric) {
  require(symmetric.rows() == symmetric.cols(), "symmetric_eigen: matrix must be square, got {} x {}",
          symmetric.rows(), symmetric.cols());
  SymmetricEigen result;
#if defined(NETDP_HAVE_LAPACKE)
  const auto n = static_cast<lapack_int>(symmetric.rows());
  result.values.resize(n);
  const lapack_int info =
      LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', n, symmetric.data(), n, result.values.data());
  if (info != 0) {
    throw std::runtime_error(fmt::format("symmetric_eigen: LAPACK dsyevd failed (info = {})", info));
  }
  result.vectors = std::move(symmetric);
#else
  Eigen::SelfAdjointEigenSolver<DenseMatrix> solver(symmetric, Eigen::ComputeEigenvectors);
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("symmetric_eigen: Eigen SelfAdjointEigenSolver did not converge");
  }
  result.values = solver.eigenvalues();
  result.vectors = solver.eigenvectors();
#endif
  return result;
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
  const DenseMatrix scaled = a * f.asDiagonal();
  DenseMatrix c(a.rows(), b.rows());
#if defined(NETDP_HAVE_LAPACKE)
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, static_cast<blasint>(a.rows()),
              static_cast<blasint>(b.rows()), static_cast<blasint>(a.cols()), 1.0, scaled.data(),
              static_cast<blasint>(a.rows()), b.data(), static_cast<blasint>(b.rows()), 0.0, c.data(),
              static_cast<blasint>(c.rows()));
#else
  c.noalias() = scaled * b.transpose();
#endif
  return c;
}

}  // namespace netdp::accounting::detail
