// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/graph/graph.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "netdp/util/check.hpp"

namespace netdp::graph {

Graph Graph::from_edges(std::size_t num_nodes, const std::vector<Edge>& edges) {
  require(num_nodes <= std::numeric_limits<NodeId>::max(), "a graph has at most {} nodes, got {}",
          std::numeric_limits<NodeId>::max(), num_nodes);
  Graph g;
  g.offsets_.assign(num_nodes + 1, 0);
  // Counting sort by source: both directions of every edge.
  for (const Edge& e : edges) {
    require(e.u < num_nodes && e.v < num_nodes, "edge ({}, {}) has an endpoint outside 0..{}", e.u, e.v,
            num_nodes == 0 ? 0 : num_nodes - 1);
    require(e.u != e.v, "self-loop ({}, {}) is not allowed in a simple graph", e.u, e.v);
    ++g.offsets_[e.u + 1];
    ++g.offsets_[e.v + 1];
  }
  for (std::size_t v = 0; v < num_nodes; ++v) g.offsets_[v + 1] += g.offsets_[v];
  std::vector<NodeId> adjacency(g.offsets_.back());
  std::vector<std::uint64_t> cursor(g.offsets_.begin(), g.offsets_.end() - 1);
  for (const Edge& e : edges) {
    adjacency[cursor[e.u]++] = e.v;
    adjacency[cursor[e.v]++] = e.u;
  }
  // Sort each row and drop repeats, compacting in place.
  std::uint64_t write = 0;
  std::uint64_t row_begin = 0;
  for (std::size_t v = 0; v < num_nodes; ++v) {
    const std::uint64_t row_end = g.offsets_[v + 1];
    auto first = adjacency.begin() + static_cast<std::ptrdiff_t>(row_begin);
    auto last = adjacency.begin() + static_cast<std::ptrdiff_t>(row_end);
    std::sort(first, last);
    last = std::unique(first, last);
    const std::uint64_t kept = static_cast<std::uint64_t>(last - first);
    std::copy(first, last, adjacency.begin() + static_cast<std::ptrdiff_t>(write));
    row_begin = row_end;
    g.offsets_[v] = write;
    write += kept;
  }
  g.offsets_[num_nodes] = write;
  adjacency.resize(write);
  adjacency.shrink_to_fit();
  g.adjacency_ = std::move(adjacency);
  return g;
}

Graph Graph::from_edges(std::size_t num_nodes, const std::vector<Edge>& edges,
                        const std::vector<double>& weights) {
  Graph g = from_edges(num_nodes, edges);
  if (weights.empty()) return g;
  require(weights.size() == edges.size(), "{} edges need {} weights, got {}", edges.size(), edges.size(),
          weights.size());
  constexpr double kUnset = -1.0;
  g.weights_.assign(g.adjacency_.size(), kUnset);
  // The slot of v in u's sorted row.
  const auto slot = [&g](NodeId u, NodeId v) {
    const auto row = g.neighbors(u);
    return g.offsets_[u] +
           static_cast<std::uint64_t>(std::lower_bound(row.begin(), row.end(), v) - row.begin());
  };
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const Edge& e = edges[i];
    const double w = weights[i];
    require(std::isfinite(w) && w > 0.0,
            "edge {} ({}, {}) has weight {}: edge weights must be positive finite numbers", i, e.u, e.v, w);
    const std::uint64_t uv = slot(e.u, e.v);
    const std::uint64_t vu = slot(e.v, e.u);
    require(g.weights_[uv] == kUnset || g.weights_[uv] == w,
            "edge {} ({}, {}) repeats an edge with another weight ({} and {}): give each edge one weight", i,
            e.u, e.v, g.weights_[uv], w);
    g.weights_[uv] = w;
    g.weights_[vu] = w;
  }
  return g;
}

bool Graph::has_edge(NodeId u, NodeId v) const {
  if (u >= num_nodes() || v >= num_nodes()) return false;
  if (degree(u) > degree(v)) std::swap(u, v);
  const auto row = neighbors(u);
  return std::binary_search(row.begin(), row.end(), v);
}

std::vector<Edge> Graph::edges() const {
  std::vector<Edge> out;
  out.reserve(num_edges());
  for (NodeId u = 0; u < num_nodes(); ++u) {
    for (NodeId v : neighbors(u)) {
      if (u < v) out.push_back({u, v});
    }
  }
  return out;
}

void Graph::set_labels(std::vector<std::string> labels) {
  require(labels.empty() || labels.size() == num_nodes(), "a graph of {} nodes needs {} labels, got {}",
          num_nodes(), num_nodes(), labels.size());
  labels_ = std::move(labels);
}

std::string Graph::label(NodeId v) const { return labels_.empty() ? std::to_string(v) : labels_[v]; }

std::optional<NodeId> Graph::find(std::string_view label) const {
  if (labels_.empty()) {
    // The canonical decimal form only: "007" or "+7" names no node, as no label reads so.
    NodeId v = 0;
    const auto [end, error] = std::from_chars(label.data(), label.data() + label.size(), v);
    const bool canonical = !label.empty() && (label.size() == 1 || label[0] != '0');
    if (error != std::errc{} || end != label.data() + label.size() || !canonical || v >= num_nodes()) {
      return std::nullopt;
    }
    return v;
  }
  const auto it = std::find(labels_.begin(), labels_.end(), label);
  if (it == labels_.end()) return std::nullopt;
  return static_cast<NodeId>(it - labels_.begin());
}

bool Graph::relabelled() const {
  for (std::size_t v = 0; v < labels_.size(); ++v) {
    if (labels_[v] != std::to_string(v)) return true;
  }
  return false;
}

}  // namespace netdp::graph
