// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A validated gossip matrix W together with the graph it lives on.
//
// W is row-stochastic (W1 = 1), non-negative, and W_uv > 0 only if {u, v} is an
// edge of the graph or u = v (Muffliato, Definition 1, without its symmetry
// requirement: the closed-row weighting of the matrix-factorization paper is
// row-stochastic but not symmetric).

#include <cstddef>

#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::gossip {

/// Tolerance of the row-sum check |sum_v W_uv - 1| <= kRowSumTolerance.
inline constexpr double kRowSumTolerance = 1e-12;

class GossipMatrix {
 public:
  /// Validates and takes ownership. Throws std::invalid_argument unless: w is
  /// n x n with n = g.num_nodes() >= 1; every stored entry is finite and >= 0;
  /// every row sums to 1 within kRowSumTolerance (the error names the row and
  /// its sum); every non-zero off-diagonal entry (u, v) is an edge of g (the
  /// error names the entry). Explicitly stored zeros are pruned.
  GossipMatrix(SparseMatrix w, graph::Graph g);

  /// W with the graph of its support: {u, v} is an edge iff W_uv > 0 or
  /// W_vu > 0 (u != v). Same validation as the constructor.
  static GossipMatrix from_support(SparseMatrix w);

  const SparseMatrix& matrix() const { return w_; }
  const graph::Graph& graph() const { return graph_; }
  std::size_t num_nodes() const { return graph_.num_nodes(); }

  /// max_{u,v} |W_uv - W_vu| <= tol.
  bool is_symmetric(double tol = 1e-12) const;
  /// Every column also sums to 1 within tol (rows do by construction).
  bool is_doubly_stochastic(double tol = 1e-12) const;
  /// Column sums 1ᵀW (Neumaier-compensated).
  Vector column_sums() const;

 private:
  SparseMatrix w_;
  graph::Graph graph_;
};

}  // namespace netdp::gossip
