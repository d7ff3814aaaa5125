// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The MF objective pieces: participation classes, sens_Π(C)², tr(H X⁻¹), the
// flip-Cholesky factor and the prefix-sum Gram (docs/reference/mf.md, "The problem").
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "netdp/accounting/mf/mf_views.hpp"
#include "netdp/accounting/worst_case/sign_max.hpp"
#include "netdp/mf/factorize.hpp"
#include "netdp/util/check.hpp"

namespace netdp::mf {

Participation make_participation(std::size_t rounds, std::size_t participations, std::size_t separation) {
  Participation p;
  p.rounds = rounds;
  p.participations = participations;
  p.separation = accounting::checked_cyclic_separation(rounds, participations, separation);
  p.classes.resize(p.separation);
  p.class_of.resize(rounds);
  for (std::size_t t = 0; t < rounds; ++t) {
    p.class_of[t] = t % p.separation;
    p.classes[t % p.separation].push_back(t);
  }
  return p;
}

Sensitivity sensitivity_squared(const DenseMatrix& x, const Participation& p) {
  require(x.rows() == x.cols() && static_cast<std::size_t>(x.rows()) == p.rounds,
          "X is {} x {}, expected {} x {} (T x T)", x.rows(), x.cols(), p.rounds, p.rounds);
  Sensitivity out;
  for (const auto& cls : p.classes) {
    const auto m = static_cast<Eigen::Index>(cls.size());
    DenseMatrix xc(m, m);
    for (Eigen::Index i = 0; i < m; ++i) {
      for (Eigen::Index j = 0; j < m; ++j)
        xc(i, j) = x(static_cast<Eigen::Index>(cls[i]), static_cast<Eigen::Index>(cls[j]));
    }
    double value = 0.0;
    if ((xc.array() >= 0.0).all()) {
      value = xc.sum();  // s = 1 is optimal
    } else {
      // Exact when proven (branch and bound), else a certified upper bound (sign_max.hpp).
      const accounting::SignMaxResult r = accounting::maximize_over_signs(xc);
      value = r.certified;
      out.exact = out.exact && r.is_exact;
    }
    out.squared = std::max(out.squared, value);
  }
  return out;
}

double trace_h_xinv(const DenseMatrix& h, const DenseMatrix& x) {
  require(h.rows() == x.rows() && h.cols() == x.cols() && h.rows() == h.cols(),
          "H is {} x {} but X is {} x {}", h.rows(), h.cols(), x.rows(), x.cols());
  const Eigen::LLT<DenseMatrix> llt(x);
  require(llt.info() == Eigen::Success, "X = CᵀC is not positive definite (C is singular)");
  return llt.solve(h).trace();
}

DenseMatrix lower_factor(const DenseMatrix& x) {
  require(x.rows() == x.cols(), "X must be square, got {} x {}", x.rows(), x.cols());
  const DenseMatrix flipped = x.reverse();  // J X J
  const Eigen::LLT<DenseMatrix> llt(flipped);
  require(llt.info() == Eigen::Success, "X is not positive definite: no C with CᵀC = X");
  const DenseMatrix lt = llt.matrixU();  // Lᵀ
  return lt.reverse();                   // J Lᵀ J, lower triangular
}

DenseMatrix prefix_sum_gram(std::size_t rounds) {
  require(rounds >= 1, "rounds T must be >= 1, got {}", rounds);
  const auto t = static_cast<Eigen::Index>(rounds);
  DenseMatrix h(t, t);
  for (Eigen::Index i = 0; i < t; ++i) {
    for (Eigen::Index j = 0; j < t; ++j) h(i, j) = static_cast<double>(t - std::max(i, j));
  }
  return h;
}

std::string to_string(CertificateKind kind) {
  switch (kind) {
    case CertificateKind::duality_gap:
      return "duality_gap";
    case CertificateKind::projected_gradient:
      return "projected_gradient";
    case CertificateKind::none:
      break;
  }
  return "none";
}

Factorization evaluate_factorization(const DenseMatrix& h, DenseMatrix c, const Participation& p) {
  require(c.rows() == c.cols() && static_cast<std::size_t>(c.rows()) == p.rounds,
          "C is {} x {}, expected {} x {}", c.rows(), c.cols(), p.rounds, p.rounds);
  const DenseMatrix x = c.transpose() * c;
  Factorization f;
  const Sensitivity s = sensitivity_squared(x, p);
  f.trace = trace_h_xinv(h, x);
  f.sensitivity = std::sqrt(s.squared);
  f.sensitivity_exact = s.exact;
  f.loss = s.squared * f.trace;
  f.c = std::move(c);
  return f;
}

}  // namespace netdp::mf
