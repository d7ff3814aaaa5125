// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The sign-pattern relaxation of the (k, b)-cyclic MF problem (docs/reference/mf.md, "Sign relaxation"):
//     min tr(H X⁻¹)  s.t.  sᵀ X_c s ≤ 1  for every class c and s ∈ {±1}^c (s_0 = +1).
// Lagrangian with μ_{c,s} ≥ 0: Λ = Σ μ_{c,s} s sᵀ (PSD, block diagonal on classes), minimized at
// X(Λ) = Λ^{−½}(Λ^½HΛ^½)^½Λ^{−½}; dual g(μ) = 2 tr((Λ^½HΛ^½)^½) − Σμ ≤ the optimum. KKT:
// μ_{c,s} > 0 only where sᵀX_c s = 1, so we iterate μ_{c,s} ← μ_{c,s} · sᵀX(Λ)_c s.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

#include "netdp/mf/factorize.hpp"
#include "netdp/util/check.hpp"

namespace netdp::mf {
namespace {

constexpr std::size_t kMaxClass = 13;

double sign_value(const DenseMatrix& x, const std::vector<std::size_t>& cls, std::size_t pattern) {
  double q = 0.0;
  for (std::size_t i = 0; i < cls.size(); ++i) {
    const double si = (i > 0 && (pattern >> (i - 1) & 1U)) ? -1.0 : 1.0;
    for (std::size_t j = 0; j < cls.size(); ++j) {
      const double sj = (j > 0 && (pattern >> (j - 1) & 1U)) ? -1.0 : 1.0;
      q += si * sj * x(static_cast<Eigen::Index>(cls[i]), static_cast<Eigen::Index>(cls[j]));
    }
  }
  return q;
}

}  // namespace

Factorization sign_relaxed_factorization(const DenseMatrix& h, const Participation& p,
                                         const OptimizeOptions& options) {
  require(h.rows() == h.cols() && static_cast<std::size_t>(h.rows()) == p.rounds,
          "H is {} x {}, expected {} x {}", h.rows(), h.cols(), p.rounds, p.rounds);
  std::size_t largest = 0;
  for (const auto& c : p.classes) largest = std::max(largest, c.size());
  require(largest <= kMaxClass,
          "sign relaxation: a class of {} steps exceeds the limit of {} (2^(m-1) multipliers)", largest,
          kMaxClass);
  const auto t = h.rows();
  std::vector<std::vector<double>> mu(p.classes.size());
  for (std::size_t c = 0; c < p.classes.size(); ++c) {
    const std::size_t patterns = std::size_t{1} << (p.classes[c].size() - 1);
    mu[c].assign(patterns, 1.0 / static_cast<double>(patterns));
  }
  double best_primal = std::numeric_limits<double>::infinity();
  double best_dual = -std::numeric_limits<double>::infinity();
  DenseMatrix best_x;
  std::size_t it = 1;
  for (; it <= options.max_iterations; ++it) {
    DenseMatrix lambda = DenseMatrix::Zero(t, t);
    double mu_sum = 0.0;
    for (std::size_t c = 0; c < p.classes.size(); ++c) {
      const auto& cls = p.classes[c];
      for (std::size_t pattern = 0; pattern < mu[c].size(); ++pattern) {
        mu_sum += mu[c][pattern];
        for (std::size_t i = 0; i < cls.size(); ++i) {
          const double si = (i > 0 && (pattern >> (i - 1) & 1U)) ? -1.0 : 1.0;
          for (std::size_t j = 0; j < cls.size(); ++j) {
            const double sj = (j > 0 && (pattern >> (j - 1) & 1U)) ? -1.0 : 1.0;
            lambda(static_cast<Eigen::Index>(cls[i]), static_cast<Eigen::Index>(cls[j])) +=
                mu[c][pattern] * si * sj;
          }
        }
      }
    }
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> el(lambda);
    const Vector root = el.eigenvalues().cwiseMax(std::numeric_limits<double>::min()).cwiseSqrt();
    const DenseMatrix& u = el.eigenvectors();
    const DenseMatrix lh = u * root.asDiagonal() * u.transpose();
    const DenseMatrix lmh = u * root.cwiseInverse().asDiagonal() * u.transpose();
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> es(lh * h * lh);
    const Vector sr = es.eigenvalues().cwiseMax(0.0).cwiseSqrt();
    best_dual = std::max(best_dual, 2.0 * sr.sum() - mu_sum);
    const DenseMatrix x = lmh * (es.eigenvectors() * sr.asDiagonal() * es.eigenvectors().transpose()) * lmh;
    double worst = 0.0;
    for (std::size_t c = 0; c < p.classes.size(); ++c) {
      for (std::size_t pattern = 0; pattern < mu[c].size(); ++pattern) {
        const double q = sign_value(x, p.classes[c], pattern);
        worst = std::max(worst, q);
        mu[c][pattern] *= q;
      }
    }
    const Eigen::LLT<DenseMatrix> llt(x / worst);  // feasible: max sᵀX_c s = 1
    if (llt.info() == Eigen::Success) {
      const double primal = llt.solve(h).trace();
      if (primal < best_primal) {
        best_primal = primal;
        best_x = x / worst;
      }
    }
    if (best_x.size() > 0 && (best_primal - best_dual) / best_primal <= options.tolerance) break;
  }
  require(best_x.size() > 0, "sign relaxation found no positive definite X (is H positive definite?)");
  Factorization f = evaluate_factorization(h, lower_factor(best_x), p);
  f.iterations = std::min(it, options.max_iterations);
  f.certificate_kind = CertificateKind::duality_gap;
  f.lower_bound = best_dual;  // constraint sᵀX_c s ≤ 1: the bound is on sens² · tr(H X⁻¹) itself
  f.global_lower_bound = best_dual;  // {X : every sᵀX_c s ≤ 1} is exactly {X : sens² ≤ 1}
  f.certificate = std::max(0.0, (f.loss - f.lower_bound) / f.loss);
  f.converged = f.certificate <= options.tolerance;
  return f;
}

}  // namespace netdp::mf
