// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Baseline correlations as factorizations (docs/reference/mf.md, "Baselines").
#include <Eigen/Eigenvalues>

#include "netdp/mf/factorize.hpp"
#include "netdp/util/check.hpp"

namespace netdp::mf {
namespace {

Eigen::Index checked_size(std::size_t rounds) {
  require(rounds >= 1, "rounds T must be >= 1, got {}", rounds);
  return static_cast<Eigen::Index>(rounds);
}

// Lower-triangular Toeplitz matrix with first column coeffs[0..] (zero beyond coeffs.size()).
DenseMatrix lower_toeplitz(Eigen::Index t, const Vector& coeffs) {
  DenseMatrix c = DenseMatrix::Zero(t, t);
  for (Eigen::Index d = 0; d < std::min(t, coeffs.size()); ++d) {
    c.diagonal(-d).setConstant(coeffs(d));
  }
  return c;
}

// Coefficients of (1 − x)^{−½}: r_0 = 1, r_k = r_{k−1} (2k − 1) / (2k) = binom(2k, k) / 4^k.
Vector sqrt_coefficients(Eigen::Index count) {
  Vector r(count);
  r(0) = 1.0;
  for (Eigen::Index k = 1; k < count; ++k)
    r(k) = r(k - 1) * static_cast<double>(2 * k - 1) / static_cast<double>(2 * k);
  return r;
}

}  // namespace

DenseMatrix identity_correlation(std::size_t rounds) {
  const Eigen::Index t = checked_size(rounds);
  return DenseMatrix::Identity(t, t);
}

// Anti-PGD adds z_t − z_{t−1} at step t: C⁻¹ = I − (subdiagonal ones), so C = the lower-triangular
// ones matrix (the prefix-sum workload itself).
DenseMatrix antipgd_correlation(std::size_t rounds) {
  const Eigen::Index t = checked_size(rounds);
  return lower_toeplitz(t, Vector::Ones(t));
}

DenseMatrix prefix_sqrt_correlation(std::size_t rounds) {
  const Eigen::Index t = checked_size(rounds);
  return lower_toeplitz(t, sqrt_coefficients(t));
}

DenseMatrix banded_sqrt_correlation(std::size_t rounds, std::size_t bands) {
  const Eigen::Index t = checked_size(rounds);
  require(bands >= 1, "bands must be >= 1, got {}", bands);
  return lower_toeplitz(t, sqrt_coefficients(std::min(t, static_cast<Eigen::Index>(bands))));
}

DenseMatrix gram_sqrt_correlation(const DenseMatrix& h) {
  require(h.rows() == h.cols() && h.rows() >= 1, "H must be square and non-empty, got {} x {}", h.rows(),
          h.cols());
  return lower_factor(h);  // CᵀC = H: the same X, loss and sensitivity as C = H^½
}

}  // namespace netdp::mf
