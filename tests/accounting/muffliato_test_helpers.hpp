// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helpers for the Muffliato accountant: small graphs and gossip matrices
// built by hand, and LITERAL dense implementations of the paper's formulas
// (dense products W_{0:t} = W_{t-1}⋯W_0, sums exactly as printed).

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting::testing {

using Edges = std::vector<std::pair<int, int>>;
using Sets = std::vector<std::vector<graph::NodeId>>;

inline SparseMatrix to_sparse(const DenseMatrix& dense) {
  SparseMatrix s = dense.sparseView();
  s.makeCompressed();
  return s;
}

inline std::vector<int> degrees(int n, const Edges& edges) {
  std::vector<int> degree(static_cast<std::size_t>(n), 0);
  for (const auto& [a, b] : edges) {
    ++degree[static_cast<std::size_t>(a)];
    ++degree[static_cast<std::size_t>(b)];
  }
  return degree;
}

/// W_uv = weight(d_u, d_v) on the edges, W_uu = 1 - Σ_v W_uv (symmetric, doubly stochastic).
template <typename Weight>
DenseMatrix symmetric_weights(int n, const Edges& edges, Weight weight) {
  const std::vector<int> degree = degrees(n, edges);
  DenseMatrix w = DenseMatrix::Zero(n, n);
  for (const auto& [a, b] : edges) {
    w(a, b) = w(b, a) = weight(degree[static_cast<std::size_t>(a)], degree[static_cast<std::size_t>(b)]);
  }
  for (int i = 0; i < n; ++i) w(i, i) = 1.0 - (w.row(i).sum() - w(i, i));
  return w;
}

/// Metropolis weights W_uv = 1 / (1 + max(d_u, d_v)).
inline DenseMatrix metropolis(int n, const Edges& edges) {
  return symmetric_weights(n, edges, [](int du, int dv) { return 1.0 / (1.0 + std::max(du, dv)); });
}

/// Hamilton weights W_uv = 1 / max(d_u, d_v).
inline DenseMatrix hamilton(int n, const Edges& edges) {
  return symmetric_weights(n, edges, [](int du, int dv) { return 1.0 / std::max(du, dv); });
}

/// The same W for `rounds` rounds.
inline std::vector<DenseMatrix> repeat(const DenseMatrix& w, int rounds) {
  return std::vector<DenseMatrix>(rounds, w);
}

inline Edges ring_edges(int n) {
  Edges e;
  for (int i = 0; i < n; ++i) e.emplace_back(i, (i + 1) % n);
  return e;
}
inline Edges path_edges(int n) {
  Edges e;
  for (int i = 0; i + 1 < n; ++i) e.emplace_back(i, i + 1);
  return e;
}
inline Edges star_edges(int n) {
  Edges e;
  for (int i = 1; i < n; ++i) e.emplace_back(0, i);
  return e;
}
inline Edges complete_edges(int n) {
  Edges e;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) e.emplace_back(i, j);
  return e;
}
inline Edges hypercube_edges(int dimension) {
  Edges e;
  const int n = 1 << dimension;
  for (int i = 0; i < n; ++i)
    for (int b = 0; b < dimension; ++b)
      if (i < (i ^ (1 << b))) e.emplace_back(i, i ^ (1 << b));
  return e;
}
/// G(n, p) plus a random spanning path (so it is connected).
inline Edges random_connected_edges(int n, double p, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::set<std::pair<int, int>> set;
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (int i = 0; i + 1 < n; ++i) {
    const int a = order[static_cast<std::size_t>(i)], b = order[static_cast<std::size_t>(i) + 1];
    set.emplace(std::min(a, b), std::max(a, b));
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (uniform(rng) < p) set.emplace(i, j);
  return Edges(set.begin(), set.end());
}
/// Randomized gossip step (Algorithm 2): I - (e_a - e_b)(e_a - e_b)ᵀ / 2.
inline DenseMatrix pairwise_step(int n, int a, int b) {
  DenseMatrix w = DenseMatrix::Identity(n, n);
  w(a, a) = w(b, b) = 0.5;
  w(a, b) = w(b, a) = 0.5;
  return w;
}

inline gossip::Schedule schedule_of(const std::vector<DenseMatrix>& ws) {
  std::vector<SparseMatrix> sparse;
  for (const auto& w : ws) sparse.push_back(to_sparse(w));
  return gossip::Schedule::sequence(std::move(sparse));
}

inline bool contains(const std::vector<graph::NodeId>& set, int v) {
  return std::find(set.begin(), set.end(), static_cast<graph::NodeId>(v)) != set.end();
}

/// W_{0:s} = W_{s-1} ⋯ W_0 (dense), W_{0:0} = I.
inline DenseMatrix product_up_to(const std::vector<DenseMatrix>& ws, std::size_t s) {
  const auto n = ws.front().rows();
  DenseMatrix m = DenseMatrix::Identity(n, n);
  for (std::size_t k = 0; k < s; ++k) m = ws[k] * m;
  return m;
}

/// The messages the observer set g receives (rows of W_{0:t}), literally: round
/// t = 0..T-1, senders w ∉ g with {v, w} an edge of W_t for some v ∈ g.
inline std::vector<Vector> observed_rows(const std::vector<DenseMatrix>& ws, MessageConvention convention,
                                         const std::vector<graph::NodeId>& g) {
  std::vector<Vector> rows;
  const auto n = static_cast<int>(ws.front().rows());
  for (std::size_t t = 0; t < ws.size(); ++t) {
    const DenseMatrix m = product_up_to(ws, convention == MessageConvention::paper ? t : t + 1);
    for (int w = 0; w < n; ++w) {
      if (contains(g, w)) continue;
      bool edge = false;
      for (graph::NodeId v : g) edge = edge || ws[t](v, w) != 0.0 || ws[t](w, v) != 0.0;
      if (edge) rows.push_back(m.row(w).transpose());
    }
  }
  return rows;
}

/// Theorem 1 (eq. 6), Theorem 12 (eq. 15) and Theorem 13 (eq. 18), literally.
inline DenseMatrix reference_sums(const std::vector<DenseMatrix>& ws, const MuffliatoOptions& options,
                                  const Sets& observers, const Sets& targets) {
  DenseMatrix s = DenseMatrix::Zero(static_cast<Eigen::Index>(observers.size()),
                                    static_cast<Eigen::Index>(targets.size()));
  const auto n = static_cast<int>(ws.front().rows());
  for (std::size_t g = 0; g < observers.size(); ++g) {
    for (const Vector& row : observed_rows(ws, options.messages, observers[g])) {
      double norm = 0.0;
      for (int j = 0; j < n; ++j) {
        if (options.observer_noise == ObserverNoise::known && contains(observers[g], j)) continue;
        norm += row(j) * row(j);
      }
      if (norm <= 0.0) continue;
      for (std::size_t k = 0; k < targets.size(); ++k) {
        bool overlap = false;
        double sum_abs = 0.0, sum_sq = 0.0;
        for (graph::NodeId u : targets[k]) {
          overlap = overlap || contains(observers[g], static_cast<int>(u));
          sum_abs += std::abs(row(u));
          sum_sq += row(u) * row(u);
        }
        if (overlap) continue;
        const double numerator =
            options.group_sensitivity == GroupSensitivity::sum_of_absolute ? sum_abs * sum_abs : sum_sq;
        s(static_cast<Eigen::Index>(g), static_cast<Eigen::Index>(k)) += numerator / norm;
      }
    }
  }
  return s;
}

inline Sets all_singletons(int n) {
  Sets sets;
  for (int v = 0; v < n; ++v) sets.push_back({static_cast<graph::NodeId>(v)});
  return sets;
}

/// EXACT (μσ/Δ)² of the joint view of observer set g on target u: the messages
/// R (x + η) with the observers' own columns known, μ² ∝ cᵀ (R_o R_oᵀ)⁺ c, c = R e_u.
inline double exact_joint_sum(const std::vector<DenseMatrix>& ws, MessageConvention convention,
                              const std::vector<graph::NodeId>& g, int u) {
  const auto rows = observed_rows(ws, convention, g);
  const auto n = ws.front().rows();
  DenseMatrix r(static_cast<Eigen::Index>(rows.size()), n);
  for (std::size_t i = 0; i < rows.size(); ++i) r.row(static_cast<Eigen::Index>(i)) = rows[i].transpose();
  const Vector c = r.col(u);
  for (graph::NodeId v : g) r.col(v).setZero();
  const DenseMatrix cov = r * r.transpose();
  const DenseMatrix pinv = cov.completeOrthogonalDecomposition().pseudoInverse();
  return c.dot(pinv * c);
}

/// |a - b| <= tol |b| (a relative check; tiny floor for exact zeros).
inline bool close(double a, double b, double tol = 1e-9) {
  return std::abs(a - b) <= tol * std::abs(b) + 1e-300;
}

}  // namespace netdp::accounting::testing
