// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Deterministic generators: complete, path, ring, star, grid, torus, hypercube,
// exponential graph.
#include "netdp/graph/generators.hpp"

#include <cmath>
#include <limits>

#include "edge_budget.hpp"
#include "netdp/util/check.hpp"

namespace netdp::graph {
namespace {

NodeId id(std::size_t i) { return static_cast<NodeId>(i); }

// Refuses sizes a NodeId cannot hold, and graphs of n nodes and up to n edges (path, ring, star)
// that would not fit in memory.
void require_node_count(std::size_t n, const char* what) {
  require(n <= std::numeric_limits<NodeId>::max(), "{}: {} nodes exceed the limit of {}", what, n,
          std::numeric_limits<NodeId>::max());
  detail::require_edge_budget(static_cast<double>(n), static_cast<double>(n), what);
}

/// `g` with the hint that the rotation v -> v + 1 (mod n) maps it onto itself (a circulant graph).
Graph with_rotation(Graph g) {
  const auto n = static_cast<NodeId>(g.num_nodes());
  g.set_symmetry_hints({1, [n](std::size_t, NodeId v) { return v + 1 == n ? NodeId{0} : v + 1; }});
  return g;
}

}  // namespace

Graph ring(std::size_t n) {
  require(n >= 3, "a ring needs n >= 3 nodes, got n = {}", n);
  require_node_count(n, "ring");
  std::vector<Edge> edges;
  edges.reserve(n);
  for (std::size_t i = 0; i < n; ++i) edges.push_back({id(i), id((i + 1) % n)});
  return with_rotation(Graph::from_edges(n, edges));
}

Graph complete(std::size_t n) {
  require(n >= 1, "a complete graph needs n >= 1 nodes, got n = {}", n);
  detail::require_edge_budget(static_cast<double>(n),
                              static_cast<double>(n) * (static_cast<double>(n) - 1) / 2, "complete graph");
  std::vector<Edge> edges;
  edges.reserve(n * (n - 1) / 2);
  for (std::size_t u = 0; u < n; ++u) {
    for (std::size_t v = u + 1; v < n; ++v) edges.push_back({id(u), id(v)});
  }
  return with_rotation(Graph::from_edges(n, edges));
}

Graph path(std::size_t n) {
  require(n >= 1, "a path needs n >= 1 nodes, got n = {}", n);
  require_node_count(n, "path");
  std::vector<Edge> edges;
  edges.reserve(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i) edges.push_back({id(i), id(i + 1)});
  return Graph::from_edges(n, edges);
}

Graph star(std::size_t n) {
  require(n >= 2, "a star needs n >= 2 nodes, got n = {}", n);
  require_node_count(n, "star");
  std::vector<Edge> edges;
  edges.reserve(n - 1);
  for (std::size_t i = 1; i < n; ++i) edges.push_back({0, id(i)});
  return Graph::from_edges(n, edges);
}

Graph grid(std::size_t rows, std::size_t cols) {
  require(rows >= 1 && cols >= 1, "a grid needs rows >= 1 and cols >= 1, got rows = {}, cols = {}", rows,
          cols);
  require(rows <= std::numeric_limits<NodeId>::max() / cols, "grid: {} x {} nodes exceed the limit of {}",
          rows, cols, std::numeric_limits<NodeId>::max());
  detail::require_edge_budget(static_cast<double>(rows * cols), 2.0 * static_cast<double>(rows * cols),
                              "grid");
  std::vector<Edge> edges;
  edges.reserve(2 * rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      const std::size_t v = r * cols + c;
      if (c + 1 < cols) edges.push_back({id(v), id(v + 1)});
      if (r + 1 < rows) edges.push_back({id(v), id(v + cols)});
    }
  }
  return Graph::from_edges(rows * cols, edges);
}

Graph torus(std::size_t rows, std::size_t cols) {
  require(rows >= 3 && cols >= 3, "a torus needs rows >= 3 and cols >= 3, got rows = {}, cols = {}", rows,
          cols);
  require(rows <= std::numeric_limits<NodeId>::max() / cols, "torus: {} x {} nodes exceed the limit of {}",
          rows, cols, std::numeric_limits<NodeId>::max());
  detail::require_edge_budget(static_cast<double>(rows * cols), 2.0 * static_cast<double>(rows * cols),
                              "torus");
  std::vector<Edge> edges;
  edges.reserve(2 * rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      const std::size_t v = r * cols + c;
      edges.push_back({id(v), id(r * cols + (c + 1) % cols)});
      edges.push_back({id(v), id(((r + 1) % rows) * cols + c)});
    }
  }
  Graph g = Graph::from_edges(rows * cols, edges);
  // The shifts by one column and by one row.
  g.set_symmetry_hints({2, [rows, cols](std::size_t which, NodeId v) {
                          const std::size_t r = v / cols;
                          const std::size_t c = v % cols;
                          return which == 0 ? id(r * cols + (c + 1) % cols) : id(((r + 1) % rows) * cols + c);
                        }});
  return g;
}

Graph hypercube(unsigned d) {
  require(d >= 1 && d <= 24, "a hypercube needs 1 <= d <= 24, got d = {}", d);
  const std::size_t n = std::size_t{1} << d;
  detail::require_edge_budget(static_cast<double>(n), static_cast<double>(n) * d / 2, "hypercube");
  std::vector<Edge> edges;
  edges.reserve(n * d / 2);
  for (std::size_t u = 0; u < n; ++u) {
    for (unsigned k = 0; k < d; ++k) {
      const std::size_t v = u ^ (std::size_t{1} << k);
      if (u < v) edges.push_back({id(u), id(v)});
    }
  }
  Graph g = Graph::from_edges(n, edges);
  // The d bit flips v -> v xor 2^k.
  g.set_symmetry_hints({d, [](std::size_t k, NodeId v) { return v ^ (NodeId{1} << k); }});
  return g;
}

Graph exponential(std::size_t n) {
  require(n >= 2, "an exponential graph needs n >= 2 nodes, got n = {}", n);
  require_node_count(n, "exponential");
  detail::require_edge_budget(static_cast<double>(n),
                              static_cast<double>(n) * std::log2(static_cast<double>(n)),
                              "exponential graph");
  std::vector<Edge> edges;
  for (std::size_t i = 0; i < n; ++i) {
    // i ~ i + 2^k (mod n) covers i ~ i - 2^k from the other endpoint.
    for (std::size_t step = 1; step < n; step <<= 1) edges.push_back({id(i), id((i + step) % n)});
  }
  return with_rotation(Graph::from_edges(n, edges));
}

}  // namespace netdp::graph
