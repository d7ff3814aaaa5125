// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Literal dense references for the graph tests: adjacency matrices and
// Floyd–Warshall distances, written as plainly as possible.

#include <cstdint>
#include <limits>
#include <vector>

#include "netdp/graph/graph.hpp"

namespace netdp::graph::testing {

using DenseAdjacency = std::vector<std::vector<int>>;

inline DenseAdjacency dense_adjacency(const Graph& g) {
  DenseAdjacency a(g.num_nodes(), std::vector<int>(g.num_nodes(), 0));
  for (const Edge& e : g.edges()) a[e.u][e.v] = a[e.v][e.u] = 1;
  return a;
}

/// Floyd–Warshall hop distances; `kInf` where unreachable.
inline constexpr std::uint64_t kInf = std::numeric_limits<std::uint64_t>::max() / 4;
inline std::vector<std::vector<std::uint64_t>> floyd_warshall(const Graph& g) {
  const std::size_t n = g.num_nodes();
  const DenseAdjacency a = dense_adjacency(g);
  std::vector<std::vector<std::uint64_t>> d(n, std::vector<std::uint64_t>(n, kInf));
  for (std::size_t i = 0; i < n; ++i) {
    d[i][i] = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (a[i][j] != 0) d[i][j] = 1;
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
      }
    }
  }
  return d;
}

/// Checks the graph invariants: sorted rows, no self-loops, symmetric adjacency.
inline bool is_simple_undirected(const Graph& g) {
  for (NodeId u = 0; u < g.num_nodes(); ++u) {
    const auto row = g.neighbors(u);
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (row[i] == u || (i > 0 && row[i - 1] >= row[i]) || !g.has_edge(row[i], u)) return false;
    }
  }
  return true;
}

}  // namespace netdp::graph::testing
