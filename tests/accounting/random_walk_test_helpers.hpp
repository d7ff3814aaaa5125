// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Literal dense references and small gossip matrices for the random-walk accountant tests.

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting::rw_test {

/// Literal Lemma 2 series, exactly as the paper writes it: Σ_{i=1}^{T} W^i / i with explicit dense powers.
inline DenseMatrix literal_series(const DenseMatrix& w, std::size_t steps) {
  DenseMatrix power = DenseMatrix::Identity(w.rows(), w.cols());
  DenseMatrix sum = DenseMatrix::Zero(w.rows(), w.cols());
  for (std::size_t i = 1; i <= steps; ++i) {
    power = power * w;
    sum += power / static_cast<double>(i);
  }
  return sum;
}

/// W from a dense matrix whose support defines the graph.
inline gossip::GossipMatrix from_dense(const DenseMatrix& w) {
  return gossip::GossipMatrix::from_support(w.sparseView());
}

/// Ring with the paper's Appendix E weights: stay / left / right with probability `stay`, (1 − stay)/2 each.
inline gossip::GossipMatrix lazy_ring(std::size_t n, double stay) {
  DenseMatrix w = DenseMatrix::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (std::size_t u = 0; u < n; ++u) {
    w(u, u) = stay;
    w(u, (u + 1) % n) += (1.0 - stay) / 2.0;
    w(u, (u + n - 1) % n) += (1.0 - stay) / 2.0;
  }
  return from_dense(w);
}

/// Hamilton weighting W_uv = 1/max(d_u, d_v), W_uu = 1 − row sum (symmetric, doubly stochastic).
inline gossip::GossipMatrix hamilton(const graph::Graph& g) {
  const auto n = static_cast<Eigen::Index>(g.num_nodes());
  DenseMatrix w = DenseMatrix::Zero(n, n);
  for (graph::NodeId u = 0; u < g.num_nodes(); ++u) {
    for (const graph::NodeId v : g.neighbors(u)) {
      w(u, v) = 1.0 / static_cast<double>(std::max(g.degree(u), g.degree(v)));
    }
  }
  for (Eigen::Index u = 0; u < n; ++u) w(u, u) = 1.0 - (w.row(u).sum() - w(u, u));
  return gossip::GossipMatrix(w.sparseView(), g);
}

/// Closed-row weighting diag(1/|N̄_u|)(A + I): row-stochastic, not symmetric.
inline gossip::GossipMatrix closed_row(const graph::Graph& g) {
  const auto n = static_cast<Eigen::Index>(g.num_nodes());
  DenseMatrix w = DenseMatrix::Zero(n, n);
  for (graph::NodeId u = 0; u < g.num_nodes(); ++u) {
    const double share = 1.0 / static_cast<double>(g.degree(u) + 1);
    w(u, u) = share;
    for (const graph::NodeId v : g.neighbors(u)) w(u, v) = share;
  }
  return gossip::GossipMatrix(w.sparseView(), g);
}

/// Hamming distance (hypercube graph distance).
inline int hamming(std::size_t a, std::size_t b) { return __builtin_popcountll(a ^ b); }

/// Expects |actual − expected| <= tol · max(|expected|, floor) entrywise. Entries that are exactly 0
/// in the reference (no walk of that length) can only be matched absolutely: the default floor is
/// 1e-5 of the largest reference entry, i.e. an absolute 1e-14 · max for tol = 1e-9.
inline void expect_matrix_near(const DenseMatrix& actual, const DenseMatrix& expected, double tol,
                               double floor = -1.0) {
  ASSERT_EQ(actual.rows(), expected.rows());
  ASSERT_EQ(actual.cols(), expected.cols());
  if (floor < 0.0) floor = 1e-5 * expected.cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < actual.rows(); ++i) {
    for (Eigen::Index j = 0; j < actual.cols(); ++j) {
      const double scale = std::max(std::abs(expected(i, j)), floor);
      EXPECT_LE(std::abs(actual(i, j) - expected(i, j)), tol * scale)
          << "entry (" << i << ", " << j << "): " << actual(i, j) << " vs " << expected(i, j);
    }
  }
}

}  // namespace netdp::accounting::rw_test
