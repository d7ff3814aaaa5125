// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Literal dense reference of the vector worst case max tr(KG), G ⪰ 0, diag(G) <= 1 (the SDP of
// vector_max.hpp), solved through its dual by a textbook barrier method. Used only by the tests.

#include <Eigen/Dense>

#include "netdp/util/types.hpp"

namespace netdp::accounting::testing {

/// Literal reference: min Σ y_i s.t. S = Diag(y) − K ≻ 0 by the barrier method (Boyd &
/// Vandenberghe §11.3): Newton steps on t·Σy − log det S (gradient t − diag(S⁻¹), Hessian
/// S⁻¹ ∘ S⁻¹) with backtracking that keeps S positive definite, t ×= 10 until m/t < 1e-13·scale.
/// The returned Σy is within m/t of the optimum, above it.
inline double barrier_sdp_value(const DenseMatrix& k) {
  const Eigen::Index m = k.rows();
  const double scale = k.cwiseAbs().maxCoeff() * static_cast<double>(m);
  Vector y =
      Vector::Constant(m, Eigen::SelfAdjointEigenSolver<DenseMatrix>(k).eigenvalues().maxCoeff() + scale);
  const auto barrier = [&](const Vector& yy, double t, double& value) {
    DenseMatrix s = -k;
    s.diagonal() += yy;
    const Eigen::LLT<DenseMatrix> llt(s);
    if (llt.info() != Eigen::Success) return false;
    value = t * yy.sum() - 2.0 * llt.matrixLLT().diagonal().array().log().sum();
    return true;
  };
  for (double t = 1.0 / scale; static_cast<double>(m) / t > 1e-13 * scale; t *= 10.0) {
    for (int newton = 0; newton < 200; ++newton) {
      DenseMatrix s = -k;
      s.diagonal() += y;
      const DenseMatrix inv = s.inverse();
      const Vector gradient = Vector::Constant(m, t) - inv.diagonal();
      const DenseMatrix hessian = inv.cwiseProduct(inv);
      const Vector step = -hessian.ldlt().solve(gradient);
      const double decrement = -gradient.dot(step);
      if (decrement < 1e-14) break;
      double current = 0.0;
      barrier(y, t, current);
      double a = 1.0;
      double next = 0.0;
      while (!barrier(y + a * step, t, next) || next > current - 0.25 * a * decrement) a *= 0.5;
      y += a * step;
    }
  }
  return y.sum();
}

}  // namespace netdp::accounting::testing
