// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Dense reference implementations for the gossip tests, written literally as the
// papers state them (dense matrices, no sparsity, no shortcuts).

#include <algorithm>
#include <string>

#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::gossip::testing {

inline DenseMatrix adjacency(const graph::Graph& g) {
  const auto n = static_cast<Eigen::Index>(g.num_nodes());
  DenseMatrix a = DenseMatrix::Zero(n, n);
  for (const graph::Edge& e : g.edges()) a(e.u, e.v) = a(e.v, e.u) = 1.0;
  return a;
}

/// The weightings of DESIGN.md exactly as written: off-diagonal formula, diagonal = 1 - row sum;
/// closed-row as diag(1/|N̄_i|)(A + I); lazy-uniform as ½I + ½D⁻¹A (isolated nodes: row e_v).
inline DenseMatrix reference_weights(const graph::Graph& g, const std::string& name) {
  const DenseMatrix a = adjacency(g);
  const auto n = a.rows();
  const Eigen::VectorXd d = a.rowwise().sum();
  const DenseMatrix eye = DenseMatrix::Identity(n, n);
  if (name == "closed-row") {
    return (d.array() + 1.0).inverse().matrix().asDiagonal() * (a + eye);
  }
  if (name == "lazy-uniform") {
    Eigen::VectorXd inverse_degree = d;
    for (Eigen::Index v = 0; v < n; ++v) inverse_degree[v] = d[v] > 0 ? 1.0 / d[v] : 0.0;
    DenseMatrix w = 0.5 * eye + 0.5 * inverse_degree.asDiagonal() * a;
    for (Eigen::Index v = 0; v < n; ++v) {
      if (d[v] == 0) w(v, v) = 1.0;
    }
    return w;
  }
  DenseMatrix w = DenseMatrix::Zero(n, n);
  for (Eigen::Index u = 0; u < n; ++u) {
    for (Eigen::Index v = 0; v < n; ++v) {
      if (a(u, v) == 0) continue;
      w(u, v) = name == "hamilton" ? 1.0 / std::max(d[u], d[v]) : 1.0 / (1.0 + std::max(d[u], d[v]));
    }
    w(u, u) = 1.0 - w.row(u).sum();
  }
  return w;
}

/// max |a - b| relative to max(1, max |b|).
inline double relative_error(const DenseMatrix& a, const DenseMatrix& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

}  // namespace netdp::gossip::testing
