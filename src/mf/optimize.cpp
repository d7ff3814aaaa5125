// The optimal correlation: min tr(H X⁻¹) s.t. diag(X) = 1 and X_ij = 0 for i ≠ j in one
// participation class (docs/mf.md, "Optimal"). The Lagrangian with multipliers Λ supported on
// those entries, tr(HX⁻¹) + ⟨Λ, X⟩ − tr Λ, is minimized over X ≻ 0 at
// X = Λ^{−½}(Λ^½HΛ^½)^½Λ^{−½}, so for every Λ ⪰ 0 on the pattern
//     g(Λ) = 2 tr((Λ^½ H Λ^½)^½) − tr Λ ≤ min tr(H X⁻¹)
// (Denisov et al. 2022, Thm 3.1 for the diagonal case) — the certificate we report.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

#include "netdp/mf/factorize.hpp"
#include "netdp/util/check.hpp"

namespace netdp::mf {
namespace {

struct Bounds {
  double primal = std::numeric_limits<double>::infinity();  // tr(H X⁻¹) of the best feasible X
  double dual = -std::numeric_limits<double>::infinity();   // best g(Λ)
  DenseMatrix x;
  double relative_gap() const { return std::max(0.0, (primal - dual) / primal); }
};

// Single participation: Denisov et al.'s fixed point v ← diag((V^½HV^½)^½). Each iterate gives
// the dual value g(V) = 2 tr S − Σv (S = (V^½HV^½)^½) and the feasible primal X = D^{−½}XD^{−½}
// with X = V^{−½}SV^{−½}, D = diag(X) (unit diagonal).
Bounds fixed_point(const DenseMatrix& h, const OptimizeOptions& options, std::size_t& iterations) {
  Vector v = h.diagonal().cwiseSqrt();
  Bounds best;
  Eigen::SelfAdjointEigenSolver<DenseMatrix> eig;
  for (iterations = 1; iterations <= options.max_iterations; ++iterations) {
    const Vector root_v = v.cwiseSqrt();
    eig.compute(root_v.asDiagonal() * h * root_v.asDiagonal());
    const Vector lambda = eig.eigenvalues().cwiseMax(0.0);
    const Vector sqrt_lambda = lambda.cwiseSqrt();
    const DenseMatrix& q = eig.eigenvectors();
    const DenseMatrix s = q * sqrt_lambda.asDiagonal() * q.transpose();
    best.dual = std::max(best.dual, 2.0 * sqrt_lambda.sum() - v.sum());
    const Vector d = s.diagonal().cwiseQuotient(v);  // diag(X)
    if ((sqrt_lambda.array() > 0.0).all()) {
      // X̃⁻¹ = D^½ V^½ S⁻¹ V^½ D^½; tr(H X̃⁻¹) = Σ_ij H_ij (X̃⁻¹)_ij.
      const Vector scale = (d.cwiseProduct(v)).cwiseSqrt();
      const DenseMatrix s_inv = q * sqrt_lambda.cwiseInverse().asDiagonal() * q.transpose();
      const DenseMatrix x_inv = scale.asDiagonal() * s_inv * scale.asDiagonal();
      const double primal = h.cwiseProduct(x_inv).sum();
      if (primal < best.primal) {
        best.primal = primal;
        const Vector inv_scale = (d.cwiseProduct(v)).cwiseSqrt().cwiseInverse();
        best.x = inv_scale.asDiagonal() * s * inv_scale.asDiagonal();
      }
    }
    if (best.relative_gap() <= options.tolerance) break;
    v = s.diagonal();
  }
  iterations = std::min(iterations, options.max_iterations);
  return best;
}

// f(X) = tr(H X⁻¹) = ‖L⁻¹R‖²_F (X = LLᵀ, H = RRᵀ) and G = X⁻¹HX⁻¹ = YYᵀ with Y = X⁻¹R.
struct Evaluation {
  bool ok = false;
  double f = 0.0;
  DenseMatrix g;  // X⁻¹ H X⁻¹ (−gradient)
};

Evaluation evaluate(const DenseMatrix& x, const DenseMatrix& r) {
  Evaluation e;
  const Eigen::LLT<DenseMatrix> llt(x);
  if (llt.info() != Eigen::Success) return e;
  DenseMatrix y = llt.matrixL().solve(r);
  e.f = y.squaredNorm();
  llt.matrixU().solveInPlace(y);
  e.g = DenseMatrix::Zero(x.rows(), x.cols());
  e.g.selfadjointView<Eigen::Lower>().rankUpdate(y);
  e.g.triangularView<Eigen::StrictlyUpper>() = e.g.transpose();
  e.ok = std::isfinite(e.f) && e.f > 0.0;
  return e;
}

// g(Λ) for Λ = the pattern part of G; −∞ when Λ is not positive semidefinite.
double dual_value(const DenseMatrix& g, const Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>& pattern,
                  const DenseMatrix& r) {
  const DenseMatrix lambda = pattern.select(g, 0.0);
  Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(r.transpose() * lambda * r, Eigen::EigenvaluesOnly);
  const Vector mu = eig.eigenvalues();
  if (mu.minCoeff() < -1e-12 * mu.cwiseAbs().maxCoeff()) return -std::numeric_limits<double>::infinity();
  return 2.0 * mu.cwiseMax(0.0).cwiseSqrt().sum() - lambda.trace();
}

// (k, b)-cyclic: L-BFGS on the free entries of X (different classes), starting from X = I.
Bounds lbfgs(const DenseMatrix& h, const Participation& p, const OptimizeOptions& options,
             std::size_t& iterations) {
  const Eigen::Index t = h.rows();
  const Eigen::LLT<DenseMatrix> h_llt(h);
  require(h_llt.info() == Eigen::Success, "the workload Gram H must be positive definite");
  const DenseMatrix r = h_llt.matrixL();
  Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic> pattern(t, t);
  for (Eigen::Index i = 0; i < t; ++i) {
    for (Eigen::Index j = 0; j < t; ++j) pattern(i, j) = p.class_of[i] == p.class_of[j];
  }
  const auto project = [&](const DenseMatrix& m) -> DenseMatrix { return pattern.select(0.0, m); };
  const auto inner = [](const DenseMatrix& a, const DenseMatrix& b) { return a.cwiseProduct(b).sum(); };

  DenseMatrix x = DenseMatrix::Identity(t, t);
  Evaluation e = evaluate(x, r);
  DenseMatrix grad = project(-e.g);
  Bounds best;
  std::deque<std::pair<DenseMatrix, DenseMatrix>> memory;  // (s, y)
  constexpr std::size_t kMemory = 12;
  constexpr std::size_t kCheckEvery = 25;  // a dual evaluation costs an eigen-decomposition
  for (iterations = 1; iterations <= options.max_iterations; ++iterations) {
    if (iterations % kCheckEvery == 1 || memory.empty()) {
      best.primal = e.f;
      best.x = x;
      best.dual = std::max(best.dual, dual_value(e.g, pattern, r));
      if (best.relative_gap() <= options.tolerance) break;
    }
    // Two-loop recursion: d = −H_k ∇f.
    DenseMatrix d = -grad;
    std::vector<double> alpha(memory.size());
    for (std::size_t i = memory.size(); i-- > 0;) {
      const auto& [s, y] = memory[i];
      alpha[i] = inner(s, d) / inner(s, y);
      d -= alpha[i] * y;
    }
    if (!memory.empty()) {
      const auto& [s, y] = memory.back();
      d *= inner(s, y) / inner(y, y);
    } else {
      d *= 1.0 / std::max(1.0, grad.norm());
    }
    for (std::size_t i = 0; i < memory.size(); ++i) {
      const auto& [s, y] = memory[i];
      d += (alpha[i] - inner(y, d) / inner(s, y)) * s;
    }
    double slope = inner(grad, d);
    if (slope >= 0.0) {  // not a descent direction: restart from steepest descent
      memory.clear();
      d = -grad / std::max(1.0, grad.norm());
      slope = inner(grad, d);
    }
    double step = 1.0;
    Evaluation next;
    for (int tries = 0; tries < 60; ++tries, step *= 0.5) {
      next = evaluate(x + step * d, r);
      if (next.ok && next.f <= e.f + 1e-4 * step * slope) break;
      next.ok = false;
    }
    if (!next.ok) break;  // no decrease at machine precision
    DenseMatrix new_grad = project(-next.g);
    DenseMatrix s = step * d;
    DenseMatrix y = new_grad - grad;
    if (inner(s, y) > 1e-300) {
      memory.emplace_back(std::move(s), std::move(y));
      if (memory.size() > kMemory) memory.pop_front();
    }
    x += step * d;
    e = std::move(next);
    grad = std::move(new_grad);
  }
  iterations = std::min(iterations, options.max_iterations);
  best.primal = e.f;
  best.x = x;
  best.dual = std::max(best.dual, dual_value(e.g, pattern, r));
  return best;
}

}  // namespace

Factorization optimal_factorization(const DenseMatrix& h, const Participation& p,
                                    const OptimizeOptions& options) {
  require(h.rows() == h.cols() && static_cast<std::size_t>(h.rows()) == p.rounds,
          "H is {} x {}, expected {} x {}", h.rows(), h.cols(), p.rounds, p.rounds);
  require(h.allFinite(), "H has a non-finite entry");
  require(options.tolerance > 0.0 && options.max_iterations >= 1,
          "optimizer needs tolerance > 0 and max_iterations >= 1, got {} and {}", options.tolerance,
          options.max_iterations);
  const bool single =
      std::all_of(p.classes.begin(), p.classes.end(), [](const auto& c) { return c.size() == 1; });
  std::size_t iterations = 0;
  const Bounds b = single ? fixed_point(h, options, iterations) : lbfgs(h, p, options, iterations);
  require(b.x.size() > 0, "the optimizer found no positive definite X (is H positive definite?)");
  Factorization f = evaluate_factorization(h, lower_factor(b.x), p);
  f.iterations = iterations;
  if (std::isfinite(b.dual)) {
    const double sens2 = f.sensitivity * f.sensitivity;
    f.certificate_kind = CertificateKind::duality_gap;
    f.lower_bound = sens2 * b.dual;
    f.certificate = std::max(0.0, (f.loss - f.lower_bound) / f.loss);
  } else {
    f.certificate_kind = CertificateKind::none;
    f.certificate = std::numeric_limits<double>::infinity();
  }
  f.converged = f.certificate <= options.tolerance;
  return f;
}

}  // namespace netdp::mf
