// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/gossip_matrix.hpp"

#include <cmath>
#include <vector>

#include "netdp/util/check.hpp"
#include "netdp/util/compensated_sum.hpp"

namespace netdp::gossip {

namespace {

void validate(const SparseMatrix& w, const graph::Graph& g) {
  const auto n = static_cast<std::size_t>(g.num_nodes());
  require(n >= 1, "a gossip matrix needs a graph with at least 1 node, got 0");
  require(w.rows() == w.cols(), "a gossip matrix must be square, got {} x {}", w.rows(), w.cols());
  require(static_cast<std::size_t>(w.rows()) == n, "gossip matrix is {} x {} but its graph has {} nodes",
          w.rows(), w.cols(), n);
  for (int u = 0; u < w.outerSize(); ++u) {
    util::CompensatedSum row_sum;
    for (SparseMatrix::InnerIterator it(w, u); it; ++it) {
      const double x = it.value();
      const auto v = it.col();
      require(std::isfinite(x) && x >= 0.0, "gossip matrix entry W[{}][{}] = {} must be finite and >= 0", u,
              v, x);
      require(x == 0.0 || u == v || g.has_edge(static_cast<graph::NodeId>(u), static_cast<graph::NodeId>(v)),
              "gossip matrix entry W[{}][{}] = {} is non-zero but {{{}, {}}} is not an edge of the graph", u,
              v, x, u, v);
      row_sum.add(x);
    }
    const double s = row_sum.value();
    require(std::abs(s - 1.0) <= kRowSumTolerance,
            "gossip matrix row {} sums to {:.17g}, not 1 (tolerance {:g}): W must be row-stochastic", u, s,
            kRowSumTolerance);
  }
}

}  // namespace

GossipMatrix::GossipMatrix(SparseMatrix w, graph::Graph g) : w_(std::move(w)), graph_(std::move(g)) {
  w_.makeCompressed();
  validate(w_, graph_);
  w_.prune(0.0, 0.0);  // drop explicit zeros so that the support is the graph's
  w_.makeCompressed();
}

GossipMatrix GossipMatrix::from_support(SparseMatrix w) {
  require(w.rows() == w.cols(), "a gossip matrix must be square, got {} x {}", w.rows(), w.cols());
  std::vector<graph::Edge> edges;
  for (int u = 0; u < w.outerSize(); ++u) {
    for (SparseMatrix::InnerIterator it(w, u); it; ++it) {
      if (it.col() != u && it.value() != 0.0) {
        edges.push_back({static_cast<graph::NodeId>(u), static_cast<graph::NodeId>(it.col())});
      }
    }
  }
  graph::Graph g = graph::Graph::from_edges(static_cast<std::size_t>(w.rows()), edges);
  return GossipMatrix(std::move(w), std::move(g));
}

bool GossipMatrix::is_symmetric(double tol) const {
  const SparseMatrix transposed = w_.transpose();
  const SparseMatrix difference = w_ - transposed;
  for (int k = 0; k < difference.outerSize(); ++k) {
    for (SparseMatrix::InnerIterator it(difference, k); it; ++it) {
      if (std::abs(it.value()) > tol) return false;
    }
  }
  return true;
}

Vector GossipMatrix::column_sums() const {
  std::vector<util::CompensatedSum> sums(num_nodes());
  for (int u = 0; u < w_.outerSize(); ++u) {
    for (SparseMatrix::InnerIterator it(w_, u); it; ++it)
      sums[static_cast<std::size_t>(it.col())].add(it.value());
  }
  Vector out(static_cast<Eigen::Index>(num_nodes()));
  for (std::size_t v = 0; v < sums.size(); ++v) out[static_cast<Eigen::Index>(v)] = sums[v].value();
  return out;
}

bool GossipMatrix::is_doubly_stochastic(double tol) const {
  return ((column_sums().array() - 1.0).abs() <= tol).all();
}

}  // namespace netdp::gossip
