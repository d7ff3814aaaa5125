// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Theorem 7's hypotheses (MF paper): A column-echelon (no observation depends on a
// future gradient, so the guarantee holds for adaptive gradients) and A = B C.

#include <Eigen/Eigenvalues>
#include <cmath>

#include "netdp/accounting/mf/mf_views.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {
namespace {

using Index = Eigen::Index;

/// ‖(I − Π_range(B)) A‖_F / ‖A‖_F with Π from the eigenvectors of B Bᵀ above the rank tolerance.
double range_residual(const DenseMatrix& a, const DenseMatrix& b, const RankOptions& rank) {
  const double a_norm = a.norm();
  if (a_norm == 0.0 || b.rows() == 0) return 0.0;
  const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(b * b.transpose());
  require(eig.info() == Eigen::Success, "eigendecomposition of B Bᵀ failed");
  const Vector& lambda = eig.eigenvalues();
  const double cut = rank.rank_tolerance * std::max(lambda(lambda.size() - 1), 0.0);
  Index kept = 0;
  for (Index k = 0; k < lambda.size(); ++k) kept += (lambda(k) > cut && lambda(k) > 0.0) ? 1 : 0;
  const DenseMatrix q = eig.eigenvectors().rightCols(kept);
  return (a - q * (q.transpose() * a)).norm() / a_norm;
}

}  // namespace

Theorem7Check check_theorem7(const MfView& mf, double tolerance, const RankOptions& rank) {
  require(std::isfinite(tolerance) && tolerance > 0.0, "tolerance must be a finite number > 0, got {}",
          tolerance);
  const DenseMatrix& a = mf.view.A;
  const DenseMatrix& b = mf.view.B;
  require(static_cast<std::size_t>(a.rows()) == mf.row_rounds.size(),
          "the view has {} rows but {} row rounds", a.rows(), mf.row_rounds.size());
  require(a.rows() == b.rows(), "A has {} rows but B has {}", a.rows(), b.rows());
  const std::size_t n = mf.view.num_nodes;
  require(n > 0 && static_cast<std::size_t>(a.cols()) == n * mf.view.rounds,
          "A has {} columns, expected n·T = {}", a.cols(), n * mf.view.rounds);

  Theorem7Check out;
  const double scale = a.cwiseAbs().maxCoeff();
  out.column_echelon = true;
  for (Index i = 0; i < a.rows() && out.column_echelon; ++i) {
    for (Index c = 0; c < a.cols(); ++c) {
      const std::size_t input_round = (static_cast<std::size_t>(c) / n) * mf.gossip_steps;
      if (input_round > mf.row_rounds[static_cast<std::size_t>(i)] && std::abs(a(i, c)) > tolerance * scale) {
        out.column_echelon = false;
        out.warnings.push_back(
            {DiagnosticKind::theorem_condition_fails,
             fmt::format("A is not column-echelon in time: observation row {} (round {}) depends on the "
                         "input of step {}",
                         i, mf.row_rounds[static_cast<std::size_t>(i)], static_cast<std::size_t>(c) / n)});
        break;
      }
    }
  }
  const double a_norm = a.norm();
  if (mf.encoder.size() > 0) {
    require(mf.encoder.rows() == b.cols() && mf.encoder.cols() == a.cols(),
            "the encoder is {} x {}, expected {} x {}", mf.encoder.rows(), mf.encoder.cols(), b.cols(),
            a.cols());
    out.factorization_residual = a_norm == 0.0 ? 0.0 : (a - b * mf.encoder).norm() / a_norm;
  }
  out.range_residual = range_residual(a, b, rank);
  out.factorization_holds = out.range_residual <= tolerance;
  if (!out.factorization_holds) {
    out.warnings.push_back(
        {DiagnosticKind::not_in_noise_range,
         fmt::format(
             "A = B C has no solution (range residual {:.3e}): some combination of inputs is observed "
             "without noise",
             out.range_residual)});
  }
  if (out.factorization_residual > tolerance) {
    out.warnings.push_back({DiagnosticKind::theorem_condition_fails,
                            fmt::format("the construction's encoder does not factor A (residual {:.3e})",
                                        out.factorization_residual)});
  }
  return out;
}

}  // namespace netdp::accounting
