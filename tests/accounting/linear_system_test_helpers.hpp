// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Literal dense reference of the Koskela–Kulkarni views, written exactly as the
// paper writes them: dense W, dense matrix products, H_T with block (r, s) =
// S W_{r-1+p} ⋯ W_s, the observers' noise columns deleted (Section 3.5), and the
// Moore–Penrose pseudo-inverse by SVD. Used only by the tests.

#include <Eigen/Dense>
#include <Eigen/SVD>
#include <algorithm>
#include <vector>

#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting::testing {

/// Hamilton weights W_uv = 1/max(d_u, d_v) (the paper's "max degree normalization"), diagonal 1 − row sum.
inline DenseMatrix hamilton_dense(const graph::Graph& g) {
  const auto n = static_cast<Eigen::Index>(g.num_nodes());
  DenseMatrix w = DenseMatrix::Zero(n, n);
  for (const auto& e : g.edges()) {
    const double v = 1.0 / static_cast<double>(std::max(g.degree(e.u), g.degree(e.v)));
    w(e.u, e.v) = v;
    w(e.v, e.u) = v;
  }
  for (Eigen::Index i = 0; i < n; ++i) w(i, i) = 1.0 - w.row(i).sum();
  return w;
}

/// Closed-neighbourhood averaging W = Λ⁻¹(A + I) (row-stochastic, not symmetric).
inline DenseMatrix closed_row_dense(const graph::Graph& g) {
  const auto n = static_cast<Eigen::Index>(g.num_nodes());
  DenseMatrix w = DenseMatrix::Identity(n, n);
  for (const auto& e : g.edges()) {
    w(e.u, e.v) = 1.0;
    w(e.v, e.u) = 1.0;
  }
  for (Eigen::Index i = 0; i < n; ++i) w.row(i) /= w.row(i).sum();
  return w;
}

/// H_T for rows S (nodes), T injections, K gossip steps per injection, first power p and
/// gossip matrices ws (ws.size() == 1: fixed). Row (m, j) = observation of node S_j at
/// step m; column s·n + u. Block (m, s) = e_{S_j}ᵀ W_{m−1+p} ⋯ W_{sK} for sK <= m.
inline DenseMatrix paper_h(const std::vector<DenseMatrix>& ws, const std::vector<graph::NodeId>& rows,
                           std::size_t t, std::size_t k, int p) {
  const auto n = ws.front().rows();
  const std::size_t c = rows.size();
  const auto at = [&](std::size_t q) -> const DenseMatrix& { return ws.size() == 1 ? ws.front() : ws[q]; };
  DenseMatrix h = DenseMatrix::Zero(static_cast<Eigen::Index>(t * k * c), n * static_cast<Eigen::Index>(t));
  for (std::size_t m = 0; m < t * k; ++m) {
    for (std::size_t s = 0; s * k <= m; ++s) {
      DenseMatrix prod = DenseMatrix::Identity(n, n);
      // W_{m-1+p} ⋯ W_{sK}: multiply on the right by older matrices.
      for (long q = static_cast<long>(m) - 1 + p; q >= static_cast<long>(s * k); --q) {
        prod = prod * at(static_cast<std::size_t>(q));
      }
      for (std::size_t j = 0; j < c; ++j) {
        h.block(static_cast<Eigen::Index>(m * c + j), static_cast<Eigen::Index>(s) * n, 1, n) =
            prod.row(rows[j]);
      }
    }
  }
  return h;
}

/// Ĥ: H with the columns (s, x) of the excluded nodes deleted.
inline DenseMatrix delete_noise_columns(const DenseMatrix& h, Eigen::Index n,
                                        const std::vector<graph::NodeId>& excluded) {
  std::vector<Eigen::Index> kept;
  for (Eigen::Index col = 0; col < h.cols(); ++col) {
    const auto node = static_cast<graph::NodeId>(col % n);
    if (std::find(excluded.begin(), excluded.end(), node) == excluded.end()) kept.push_back(col);
  }
  return h(Eigen::all, kept);
}

/// Moore–Penrose pseudo-inverse by SVD (Definition 5), singular values <= tol·σ_max dropped.
inline DenseMatrix pinv(const DenseMatrix& a, double tol = 1e-10) {
  const Eigen::JacobiSVD<DenseMatrix> svd(a, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Vector& sv = svd.singularValues();
  Vector inv = Vector::Zero(sv.size());
  for (Eigen::Index i = 0; i < sv.size(); ++i) {
    if (sv(i) > tol * sv(0)) inv(i) = 1.0 / sv(i);
  }
  return svd.matrixV() * inv.asDiagonal() * svd.matrixU().transpose();
}

/// K_u = (Ĥ⁺ A_u)ᵀ (Ĥ⁺ A_u) with A_u = the columns of node u in H (Lemma 6: the sensitivity
/// of a change c is ‖Ĥ⁺ H (c ⊗ e_u)‖).
inline DenseMatrix paper_gram(const DenseMatrix& h, const DenseMatrix& h_hat, Eigen::Index n, graph::NodeId u,
                              std::size_t t) {
  DenseMatrix a_u(h.rows(), static_cast<Eigen::Index>(t));
  for (std::size_t s = 0; s < t; ++s)
    a_u.col(static_cast<Eigen::Index>(s)) = h.col(static_cast<Eigen::Index>(s) * n + u);
  const DenseMatrix x = pinv(h_hat) * a_u;
  return x.transpose() * x;
}

/// max over sign vectors of cᵀKc by enumeration (small T only).
inline double brute_force_sign_max(const DenseMatrix& k) {
  const auto t = k.rows();
  double best = -1.0;
  for (unsigned long mask = 0; mask < (1UL << t); ++mask) {
    Vector c(t);
    for (Eigen::Index i = 0; i < t; ++i) c(i) = (mask >> i) & 1UL ? 1.0 : -1.0;
    best = std::max(best, c.dot(k * c));
  }
  return best;
}

/// max_ij |a − b| / max_ij |b|.
inline double relative_error(const DenseMatrix& a, const DenseMatrix& b) {
  const double scale = std::max(b.cwiseAbs().maxCoeff(), 1e-300);
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

}  // namespace netdp::accounting::testing
