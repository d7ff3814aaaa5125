// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The optimal correlation: min tr(H X⁻¹) s.t. diag(X) = 1 and X_ij = 0 for i ≠ j in one
// participation class (docs/reference/mf.md, "Optimal"). The Lagrangian with multipliers Λ supported on
// those entries, tr(HX⁻¹) + ⟨Λ, X⟩ − tr Λ, is minimized over X ≻ 0 at
// X = Λ^{−½}(Λ^½HΛ^½)^½Λ^{−½}, so for every Λ ⪰ 0 on the pattern
//     g(Λ) = 2 tr((Λ^½ H Λ^½)^½) − tr Λ ≤ min tr(H X⁻¹)
// (Denisov et al. 2022, Theorem 3.1 for the diagonal case) — the certificate we report.
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
  double primal = std::numeric_limits<double>::infinity();        // tr(H X⁻¹) of the best feasible X
  double dual = -std::numeric_limits<double>::infinity();         // best g(Λ)
  double global_dual = -std::numeric_limits<double>::infinity();  // a bound over all X (if known)
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

// f(X) = tr(H X⁻¹) = ‖L⁻¹R‖²_F (X = LLᵀ, H = RRᵀ) and G = X⁻¹HX⁻¹ = YYᵀ with Y = X⁻¹R, from one
// Cholesky of X (the two triangular solves and the rank update are the whole cost).
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

// The (k, b)-cyclic constraint sets (docs/reference/mf.md, "Multi-epoch"): X_ij = 0 for i ≠ j in one class,
// and either X_ii = 1 (unit_diagonal) or Σ_{i∈c} X_ii = 1 per class c (class_trace). Both are affine,
// so L-BFGS runs in the tangent subspace: `project` is the Frobenius-orthogonal projection onto it.
class Constraints {
 public:
  Constraints(const Participation& p, MultiEpochConstraints kind)
      : p_(p), kind_(kind), same_(static_cast<Eigen::Index>(p.rounds), static_cast<Eigen::Index>(p.rounds)) {
    for (Eigen::Index i = 0; i < same_.rows(); ++i) {
      for (Eigen::Index j = 0; j < same_.cols(); ++j) same_(i, j) = p.class_of[i] == p.class_of[j];
    }
  }

  // A feasible X = D X₀ D (D diagonal > 0, so X ≻ 0 and the zero pattern of X₀ is kept) with
  // X_ii = 1 (unit_diagonal) or tr(X_c) = 1 per class (class_trace). X₀ needs zero within-class
  // off-diagonal entries.
  DenseMatrix make_feasible(const DenseMatrix& x0) const {
    Vector d(x0.rows());
    if (kind_ == MultiEpochConstraints::unit_diagonal) {
      d = x0.diagonal().cwiseSqrt().cwiseInverse();
    } else {
      const Vector trace = class_means(x0.diagonal());
      for (Eigen::Index i = 0; i < d.size(); ++i) {
        const auto c = p_.class_of[i];
        d(i) =
            1.0 / std::sqrt(trace(static_cast<Eigen::Index>(c)) * static_cast<double>(p_.classes[c].size()));
      }
    }
    return d.asDiagonal() * x0 * d.asDiagonal();
  }

  DenseMatrix project(const DenseMatrix& m) const {
    DenseMatrix out = same_.select(0.0, m);
    if (kind_ == MultiEpochConstraints::class_trace) {
      const Vector mean = class_means(m.diagonal());
      for (Eigen::Index i = 0; i < m.rows(); ++i)
        out(i, i) = m(i, i) - mean(static_cast<Eigen::Index>(p_.class_of[i]));
    }
    return out;
  }

  // The L-BFGS initial inverse Hessian: entrywise 1 / h_ij with h_ij = G_jj / X_ii + G_ii / X_jj
  // (the diagonal of the Hessian D ↦ X⁻¹DG + GDX⁻¹ of tr(HX⁻¹) with (X⁻¹)_ii ≈ 1 / X_ii), restricted
  // to the tangent subspace: on a class diagonal d_i = w_i (q_i − ν_c) with ν_c = Σ w q / Σ w, the
  // minimizer of ½ dᵀW⁻¹d − qᵀd under Σ_{i∈c} d_i = 0 (symmetric, positive definite on the subspace).
  DenseMatrix precondition(const DenseMatrix& q, const DenseMatrix& weight) const {
    DenseMatrix out = q.cwiseProduct(weight);
    if (kind_ == MultiEpochConstraints::class_trace) {
      const Vector w = weight.diagonal();
      const Vector num = class_means(out.diagonal());
      const Vector den = class_means(w);
      for (Eigen::Index i = 0; i < q.rows(); ++i) {
        const auto c = static_cast<Eigen::Index>(p_.class_of[i]);
        out(i, i) = w(i) * (q(i, i) - num(c) / den(c));
      }
    }
    return same_.select(0.0, out) + DenseMatrix(out.diagonal().asDiagonal());
  }

  // The dual bound g(Λ) = 2 tr((Λ^½HΛ^½)^½) − Σ (multiplier · right-hand side) for the multipliers
  // read off G = X⁻¹HX⁻¹ (at the optimum, KKT makes G equal to Λ on the pattern): Λ = the within-class
  // off-diagonal part of G plus, on the diagonal, G_ii (unit_diagonal) or the class mean μ_c of G_ii
  // (class_trace; cost Σ_c μ_c). −∞ when Λ is not positive semidefinite.
  double dual_value(const DenseMatrix& g, const DenseMatrix& r) const {
    DenseMatrix lambda = same_.select(g, 0.0);
    double cost = lambda.trace();
    if (kind_ == MultiEpochConstraints::class_trace) {
      const Vector mu = class_means(g.diagonal());
      for (Eigen::Index i = 0; i < g.rows(); ++i)
        lambda(i, i) = mu(static_cast<Eigen::Index>(p_.class_of[i]));
      cost = mu.sum();
    }
    return bound(lambda, cost, r);
  }

  // A lower bound on sens_Π² · tr(H X⁻¹) over ALL X ≻ 0 (class_trace only; docs/reference/mf.md, "Global
  // lower bound"). Λ_c = μ_c Y_c with Y_c = I + θ_c A_c, A_c the within-class off-diagonal part of G
  // over μ_c (the class mean of G_ii). If |Y_ij| ≤ 1 and the entrywise sin(π/2 · Y) is positive
  // semidefinite, i.e. a Gram matrix of unit vectors v_i, then Y = E[s sᵀ] for s_i = sign(v_iᵀz),
  // z ~ N(0, I) (Goemans & Williamson 1995: E[s_i s_j] = (2/π) arcsin(v_iᵀv_j)): Y is in the cut
  // polytope, so ⟨Λ_c, X_c⟩ = μ_c E[sᵀX_c s] ≤ μ_c sens²(X) for every X, and g(Λ) bounds
  // min sens² · tr(HX⁻¹) over every C. θ_c = 1 when it passes, else the largest passing θ_c found
  // by bisection (θ_c = 0, Λ_c = μ_c I, always passes).
  double global_dual_value(const DenseMatrix& g, const DenseMatrix& r) const {
    if (kind_ != MultiEpochConstraints::class_trace) return -std::numeric_limits<double>::infinity();
    const Vector mu = class_means(g.diagonal());
    if (!(mu.array() > 0.0).all()) return -std::numeric_limits<double>::infinity();
    DenseMatrix lambda = DenseMatrix::Zero(g.rows(), g.cols());
    for (std::size_t c = 0; c < p_.classes.size(); ++c) {
      const auto& cls = p_.classes[c];
      const auto m = static_cast<Eigen::Index>(cls.size());
      const double mu_c = mu(static_cast<Eigen::Index>(c));
      DenseMatrix a(m, m);
      for (Eigen::Index i = 0; i < m; ++i) {
        for (Eigen::Index j = 0; j < m; ++j) {
          const auto gi = static_cast<Eigen::Index>(cls[static_cast<std::size_t>(i)]);
          const auto gj = static_cast<Eigen::Index>(cls[static_cast<std::size_t>(j)]);
          a(i, j) = i == j ? 0.0 : g(gi, gj) / mu_c;
        }
      }
      const double theta = largest_cut_scale(a);
      for (Eigen::Index i = 0; i < m; ++i) {
        for (Eigen::Index j = 0; j < m; ++j) {
          const auto gi = static_cast<Eigen::Index>(cls[static_cast<std::size_t>(i)]);
          const auto gj = static_cast<Eigen::Index>(cls[static_cast<std::size_t>(j)]);
          lambda(gi, gj) = mu_c * ((i == j ? 1.0 : 0.0) + theta * a(i, j));
        }
      }
    }
    return bound(lambda, mu.sum(), r);
  }

 private:
  Vector class_means(const Vector& d) const {
    Vector mean = Vector::Zero(static_cast<Eigen::Index>(p_.classes.size()));
    for (std::size_t c = 0; c < p_.classes.size(); ++c) {
      for (const std::size_t i : p_.classes[c])
        mean(static_cast<Eigen::Index>(c)) += d(static_cast<Eigen::Index>(i));
      mean(static_cast<Eigen::Index>(c)) /= static_cast<double>(p_.classes[c].size());
    }
    return mean;
  }

  // Whether I + θA passes the arcsine test of global_dual_value (margin 1e-10 on the eigenvalues).
  static bool in_cut_polytope(const DenseMatrix& a, double theta) {
    if (theta * a.cwiseAbs().maxCoeff() > 1.0) return false;
    const DenseMatrix y =
        (theta * a + DenseMatrix::Identity(a.rows(), a.cols())).array() * (std::acos(-1.0) / 2.0);
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(y.array().sin().matrix(), Eigen::EigenvaluesOnly);
    return eig.eigenvalues().minCoeff() >= 1e-10;
  }

  static double largest_cut_scale(const DenseMatrix& a) {
    if (in_cut_polytope(a, 1.0)) return 1.0;
    double lo = 0.0;
    double hi = 1.0;
    for (int step = 0; step < 30; ++step) {
      const double mid = 0.5 * (lo + hi);
      (in_cut_polytope(a, mid) ? lo : hi) = mid;
    }
    return lo;
  }

  // 2 Σ √eig(Rᵀ Λ R) − cost = 2 tr((Λ^½HΛ^½)^½) − cost, H = R Rᵀ.
  static double bound(const DenseMatrix& lambda, double cost, const DenseMatrix& r) {
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(r.transpose() * lambda * r, Eigen::EigenvaluesOnly);
    const Vector mu = eig.eigenvalues();
    if (mu.minCoeff() < -1e-12 * mu.cwiseAbs().maxCoeff()) return -std::numeric_limits<double>::infinity();
    return 2.0 * mu.cwiseMax(0.0).cwiseSqrt().sum() - cost;
  }

  const Participation& p_;
  MultiEpochConstraints kind_;
  Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic> same_;
};

// (k, b)-cyclic: L-BFGS on the free entries of X, in the tangent subspace of the constraints.
Bounds lbfgs(const DenseMatrix& h, const Participation& p, const OptimizeOptions& options,
             std::size_t& iterations) {
  const Eigen::LLT<DenseMatrix> h_llt(h);
  require(h_llt.info() == Eigen::Success, "the workload Gram H must be positive definite");
  const DenseMatrix r = h_llt.matrixL();
  const Constraints constraints(p, options.constraints);
  const auto inner = [](const DenseMatrix& a, const DenseMatrix& b) { return a.cwiseProduct(b).sum(); };

  // Start from the better of X₀ = I and X₀ = CᵀC for the banded square root with b bands (BSR,
  // Kalinin & Lampert 2024; bandwidth < b, so no within-class entries), made feasible.
  DenseMatrix x = constraints.make_feasible(DenseMatrix::Identity(h.rows(), h.cols()));
  Evaluation e = evaluate(x, r);
  {
    const DenseMatrix band = banded_sqrt_correlation(p.rounds, p.separation);
    DenseMatrix x_band = constraints.make_feasible(band.transpose() * band);
    Evaluation e_band = evaluate(x_band, r);
    if (e_band.ok && e_band.f < e.f) {
      x = std::move(x_band);
      e = std::move(e_band);
    }
  }
  DenseMatrix grad = constraints.project(-e.g);
  Bounds best;
  std::deque<std::pair<DenseMatrix, DenseMatrix>> memory;  // (s, y)
  constexpr std::size_t kMemory = 12;
  constexpr std::size_t kCheckEvery = 25;  // a dual evaluation costs an eigen-decomposition
  const auto check = [&] {
    best.primal = e.f;
    best.x = x;
    best.dual = std::max(best.dual, constraints.dual_value(e.g, r));
  };
  for (iterations = 1; iterations <= options.max_iterations; ++iterations) {
    if (iterations % kCheckEvery == 1 || memory.empty()) {
      check();
      if (best.relative_gap() <= options.tolerance) break;
    }
    // Two-loop recursion: d = −H_k ∇f, with the diagonal preconditioner as initial matrix H_0
    // (scaled by sᵀy / yᵀH_0y, the usual L-BFGS scaling).
    const Vector xd = x.diagonal().cwiseInverse();
    const Vector gd = e.g.diagonal();
    const DenseMatrix weight = (xd * gd.transpose() + gd * xd.transpose()).cwiseInverse();
    DenseMatrix d = -grad;
    std::vector<double> alpha(memory.size());
    for (std::size_t i = memory.size(); i-- > 0;) {
      const auto& [s, y] = memory[i];
      alpha[i] = inner(s, d) / inner(s, y);
      d -= alpha[i] * y;
    }
    d = constraints.precondition(d, weight);
    if (!memory.empty()) {
      const auto& [s, y] = memory.back();
      d *= inner(s, y) / inner(y, constraints.precondition(y, weight));
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
    DenseMatrix new_grad = constraints.project(-next.g);
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
  check();
  best.global_dual = constraints.global_dual_value(e.g, r);
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
    // The bound is on tr(H X⁻¹) over the constraint set, whose sens² is exactly 1 (single
    // participation, class_trace) or the largest class size (unit_diagonal).
    std::size_t largest = 1;
    for (const auto& c : p.classes) largest = std::max(largest, c.size());
    const bool unit = !single && options.constraints == MultiEpochConstraints::unit_diagonal;
    f.certificate_kind = CertificateKind::duality_gap;
    f.lower_bound = (unit ? static_cast<double>(largest) : 1.0) * b.dual;
    f.certificate = std::max(0.0, (f.loss - f.lower_bound) / f.loss);
  } else {
    f.certificate_kind = CertificateKind::none;
    f.certificate = std::numeric_limits<double>::infinity();
  }
  if (single) {
    f.global_lower_bound = f.lower_bound;  // singleton classes: diag(X) ≤ 1 is exactly sens² ≤ 1
  } else if (std::isfinite(b.global_dual)) {
    f.global_lower_bound = std::max(0.0, b.global_dual);  // already a bound on sens² · tr(HX⁻¹)
  }
  f.converged = f.certificate <= options.tolerance;
  return f;
}

std::string to_string(MultiEpochConstraints constraints) {
  return constraints == MultiEpochConstraints::class_trace ? "class_trace" : "unit_diagonal";
}

}  // namespace netdp::mf
