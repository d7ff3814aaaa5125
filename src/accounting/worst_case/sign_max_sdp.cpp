// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Verified semidefinite-relaxation bound for max_{c ∈ [-1,1]^m} cᵀKc (sign_max_detail.hpp).
//
// Primal: max tr(KX) s.t. diag(X) = 1, X ⪰ 0 (Goemans–Williamson / Nesterov relaxation), solved
// by the mixing method (Wang, Chang & Kolter 2017): X = VVᵀ with unit rows v_i, and
// v_i ← Σ_{j≠i} K_ij v_j / ‖·‖ cyclically, which never decreases tr(KVVᵀ).
// Dual: min Σ y_i s.t. Diag(y) − K ⪰ 0. Any such y bounds the box maximum:
// cᵀKc <= cᵀ Diag(y) c = Σ y_i c_i² <= Σ max(y_i, 0). We read y from the primal and then
// VERIFY it: λ_min(Diag(y) − K) is computed and y is shifted up by its negative part plus a
// margin for the eigen-solver's rounding.

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

#include "accounting/worst_case/sign_max_detail.hpp"
#include "netdp/linalg/dense_kernels.hpp"

namespace netdp::accounting::sign_max_detail {

double eigenvalue_margin(const DenseMatrix& a) {
  const double eps = std::numeric_limits<double>::epsilon();
  return 64.0 * static_cast<double>(a.rows() + 1) * eps * a.norm();
}

// K V, whose entries must not depend on the thread count: one BLAS GEMM where netdp is built with
// it (OpenBLAS divides a product between its threads by blocks of the result, never along a sum);
// otherwise row by row (matrix-vector products), since Eigen would run a large K·V product on
// OpenMP threads with blocking chosen by their number.
DenseMatrix times_factor(const DenseMatrix& k, const DenseMatrix& v) {
  DenseMatrix kv(k.rows(), v.cols());
#if defined(NETDP_HAVE_LAPACKE)
  linalg::multiply_into(kv, 1.0, k, false, v, false, 0.0);
#else
  for (Eigen::Index i = 0; i < k.rows(); ++i) kv.row(i).noalias() = k.row(i) * v;
#endif
  return kv;
}

double primal_objective(const DenseMatrix& k, const DenseMatrix& v) {
  return times_factor(k, v).cwiseProduct(v).sum();
}

DenseMatrix random_unit_rows(Eigen::Index m, int rank, util::Rng& rng) {
  DenseMatrix v(m, rank);
  for (Eigen::Index i = 0; i < m; ++i) {
    double norm = 0.0;
    while (norm == 0.0) {
      for (int r = 0; r < rank; ++r) v(i, r) = rng.standard_normal();
      norm = v.row(i).norm();
    }
    v.row(i) /= norm;
  }
  return v;
}

void mixing_sweep(const DenseMatrix& k, DenseMatrix& v) {
  Eigen::RowVectorXd w(v.cols());
  for (Eigen::Index i = 0; i < k.rows(); ++i) {
    w.noalias() = k.row(i) * v;
    w -= k(i, i) * v.row(i);
    const double norm = w.norm();
    if (norm > 0.0) v.row(i) = w / norm;
  }
}

VerifiedDual verified_dual(const DenseMatrix& k, const DenseMatrix& v) {
  // Dual from the first-order condition: y_i = K_ii + ‖Σ_{j≠i} K_ij v_j‖.
  return verified_bound(k,
                        k.diagonal() + (times_factor(k, v) - k.diagonal().asDiagonal() * v).rowwise().norm());
}

VerifiedDual verified_bound(const DenseMatrix& k, Vector y) {
  const Eigen::Index m = k.rows();
  VerifiedDual out;
  DenseMatrix slack = -k;
  slack.diagonal() += y;
  const double trace = slack.diagonal().sum();
  if (m > 0 && slack.diagonal().minCoeff() > 0.0 && linalg::cholesky_succeeds(slack)) {
    // A Cholesky factorisation that completes in floating point is exact for slack + E with
    // ‖E‖₂ <= γ_{m+1}·‖R‖_F² = γ_{m+1}·tr(slack + E) (Higham, Accuracy and Stability, Theorem 10.3;
    // blocked variants change the constant only), and forming slack errs by ε·max diag: so
    // slack ⪰ −16(m + 2)ε·tr(slack)·I, a generous cover of both. One m³/3 factorisation.
    out.shift = 16.0 * static_cast<double>(m + 2) * std::numeric_limits<double>::epsilon() * trace;
  } else {
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> solver(slack, Eigen::EigenvaluesOnly);
    const double lambda_min = m > 0 ? solver.eigenvalues()(0) : 0.0;
    out.shift = std::max(0.0, eigenvalue_margin(slack) - lambda_min);
  }
  y.array() += out.shift;
  // Round the sum up: recursive summation of m nonnegative terms errs by at most m·ε·sum.
  const double sum = y.cwiseMax(0.0).sum();
  out.bound = sum * (1.0 + static_cast<double>(m + 1) * std::numeric_limits<double>::epsilon());
  return out;
}

SdpOutcome sdp_dual_bound(const DenseMatrix& k, int rank, int max_sweeps, util::Rng& rng) {
  SdpOutcome out;
  out.factor = random_unit_rows(k.rows(), rank, rng);
  DenseMatrix& v = out.factor;
  // Relative improvement of the primal below which the ascent has converged.
  const double tolerance = 1e-10;
  double objective = primal_objective(k, v);
  for (out.sweeps = 1; out.sweeps <= max_sweeps; ++out.sweeps) {
    mixing_sweep(k, v);
    const double updated = primal_objective(k, v);
    const bool stalled = updated - objective <= tolerance * std::abs(updated);
    objective = updated;
    if (stalled) {
      out.converged = true;
      break;
    }
  }
  out.sweeps = std::min(out.sweeps, max_sweeps);
  out.primal = objective;
  const VerifiedDual dual = verified_dual(k, v);
  out.shift = dual.shift;
  out.bound = dual.bound;
  return out;
}

}  // namespace netdp::accounting::sign_max_detail
