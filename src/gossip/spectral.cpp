// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/spectral.hpp"

#include <Spectra/SymEigsSolver.h>

#include <algorithm>
#include <cmath>

#include "netdp/util/check.hpp"
#include "support.hpp"

namespace netdp::gossip {

namespace {

/// Below this size `automatic` always uses the dense solver.
constexpr std::size_t kAutomaticDenseLimit = 1000;

/// S = Π^{1/2} W Π^{-1/2}, S_uv = sqrt(π_u / π_v) W_uv: symmetric when W is reversible w.r.t. π, and
/// similar to W (same eigenvalues). Symmetrized explicitly to remove rounding asymmetry.
SparseMatrix symmetrized(const SparseMatrix& w, const Vector& pi) {
  SparseMatrix s = w;
  for (Eigen::Index u = 0; u < s.outerSize(); ++u) {
    for (SparseMatrix::InnerIterator it(s, u); it; ++it) it.valueRef() *= std::sqrt(pi[u] / pi[it.col()]);
  }
  const SparseMatrix transposed = s.transpose();
  return SparseMatrix(0.5 * (s + transposed));
}

/// A symmetric matrix S similar to W, with its unit Perron vector (S v = v): v = 1/sqrt(n) for symmetric W,
/// v = sqrt(π)/||sqrt(π)|| for W reversible w.r.t. π.
struct SymmetricForm {
  SparseMatrix s;
  Vector perron;
};

/// The symmetric form of W, or nullopt for a general (non-reversible) W.
std::optional<SymmetricForm> symmetric_form(const GossipMatrix& w) {
  const auto n = static_cast<Eigen::Index>(w.num_nodes());
  if (w.is_symmetric(0.0))
    return SymmetricForm{w.matrix(), Vector::Constant(n, 1.0 / std::sqrt(static_cast<double>(n)))};
  if (auto pi = detail::detailed_balance_weights(w.matrix())) {
    Vector perron = pi->cwiseSqrt();
    perron.normalize();
    return SymmetricForm{symmetrized(w.matrix(), *pi), std::move(perron)};
  }
  return std::nullopt;
}

void require_dense_size(std::size_t n) {
  require(n <= kDenseEigenLimit, "dense eigen-decomposition needs n <= {} (kDenseEigenLimit), got n = {}",
          kDenseEigenLimit, n);
}

bool by_decreasing_modulus(const std::complex<double>& a, const std::complex<double>& b) {
  const double ma = std::abs(a);
  const double mb = std::abs(b);
  if (ma != mb) return ma > mb;
  return a.real() > b.real();
}

/// y = (S - v vᵀ) x with v the unit eigenvector of S for eigenvalue 1: the spectrum of S with the
/// eigenvalue 1 (Perron) replaced by 0, so its largest modulus is max_{i>=2} |λ_i|.
class DeflatedOperator {
 public:
  using Scalar = double;
  DeflatedOperator(const SparseMatrix& s, const Vector& v) : s_(s), v_(v) {}
  Eigen::Index rows() const { return s_.rows(); }
  Eigen::Index cols() const { return s_.cols(); }
  void perform_op(const double* x_in, double* y_out) const {
    const Eigen::Map<const Vector> x(x_in, s_.cols());
    Eigen::Map<Vector> y(y_out, s_.rows());
    y.noalias() = s_ * x;
    y -= v_ * v_.dot(x);
  }

 private:
  const SparseMatrix& s_;
  const Vector& v_;
};

SecondEigenvalue dense_second_eigenvalue(const GossipMatrix& w) {
  const auto values = eigenvalues(w);
  SecondEigenvalue out;
  out.method = SpectralMethod::dense;
  out.modulus = values.size() >= 2 ? std::min(1.0, std::abs(values[1])) : 0.0;
  out.spectral_gap = 1.0 - out.modulus;
  return out;
}

SecondEigenvalue lanczos_second_eigenvalue(const SymmetricForm& form) {
  const Eigen::Index n = form.s.rows();
  DeflatedOperator op(form.s, form.perron);
  const Eigen::Index ncv = std::min<Eigen::Index>(n, 40);
  Spectra::SymEigsSolver<DeflatedOperator> solver(op, 1, ncv);
  solver.init();
  constexpr Eigen::Index kMaxRestarts = 5000;
  constexpr double kTolerance = 1e-13;
  solver.compute(Spectra::SortRule::LargestMagn, kMaxRestarts, kTolerance);
  SecondEigenvalue out;
  out.method = SpectralMethod::lanczos;
  out.converged = solver.info() == Spectra::CompInfo::Successful;
  if (!out.converged) {
    out.modulus = 1.0;  // conservative: no claimed gap
    out.diagnostic =
        fmt::format("Lanczos (Spectra) did not converge in {} restarts; gap reported as 0", kMaxRestarts);
  } else {
    out.modulus = std::min(1.0, std::abs(solver.eigenvalues()[0]));
  }
  out.spectral_gap = 1.0 - out.modulus;
  return out;
}

}  // namespace

SymmetryClass symmetry_class(const GossipMatrix& w, double tol) {
  if (w.is_symmetric(tol)) return SymmetryClass::symmetric;
  if (detail::detailed_balance_weights(w.matrix())) return SymmetryClass::reversible;
  return SymmetryClass::general;
}

std::vector<std::complex<double>> eigenvalues(const GossipMatrix& w) {
  require_dense_size(w.num_nodes());
  std::vector<std::complex<double>> out;
  out.reserve(w.num_nodes());
  if (const auto s = symmetric_form(w)) {
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> solver(DenseMatrix(s->s), Eigen::EigenvaluesOnly);
    for (const double x : solver.eigenvalues()) out.emplace_back(x, 0.0);
  } else {
    const Eigen::EigenSolver<DenseMatrix> solver(DenseMatrix(w.matrix()), false);
    for (const auto& x : solver.eigenvalues()) out.push_back(x);
  }
  std::sort(out.begin(), out.end(), by_decreasing_modulus);
  return out;
}

SecondEigenvalue second_eigenvalue(const GossipMatrix& w, SpectralMethod method) {
  const std::size_t n = w.num_nodes();
  if (method == SpectralMethod::dense || n < 3 ||
      (method == SpectralMethod::automatic && n <= kAutomaticDenseLimit)) {
    return dense_second_eigenvalue(w);
  }
  const auto s = symmetric_form(w);
  if (!s) {
    require(
        method == SpectralMethod::automatic,
        "Lanczos needs a symmetric or reversible gossip matrix; this W is neither (use the dense method)");
    return dense_second_eigenvalue(w);
  }
  return lanczos_second_eigenvalue(*s);
}

}  // namespace netdp::gossip
