// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/graph/metrics.hpp"

#include <algorithm>
#include <string>

#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::graph {
namespace {

// BFS from `source` writing hop distances into `dist` (pre-filled with kUnreachable);
// `queue` is scratch of size n. Returns the largest distance reached.
std::uint32_t bfs_into(const Graph& g, NodeId source, std::vector<std::uint32_t>& dist,
                       std::vector<NodeId>& queue) {
  std::size_t head = 0;
  std::size_t tail = 0;
  dist[source] = 0;
  queue[tail++] = source;
  std::uint32_t farthest = 0;
  while (head < tail) {
    const NodeId u = queue[head++];
    const std::uint32_t next = dist[u] + 1;
    for (const NodeId v : g.neighbors(u)) {
      if (dist[v] == kUnreachable) {
        dist[v] = next;
        farthest = next;
        queue[tail++] = v;
      }
    }
  }
  return farthest;
}

void require_node(const Graph& g, NodeId v) {
  require(v < g.num_nodes(), "node {} is outside 0..{}", v, g.num_nodes() == 0 ? 0 : g.num_nodes() - 1);
}

}  // namespace

Components connected_components(const Graph& g) {
  const std::size_t n = g.num_nodes();
  Components result;
  result.component.assign(n, kUnreachable);
  std::vector<NodeId> stack;
  for (std::size_t start = 0; start < n; ++start) {
    if (result.component[start] != kUnreachable) continue;
    const auto label = static_cast<std::uint32_t>(result.sizes.size());
    std::size_t size = 0;
    result.component[start] = label;
    stack.push_back(static_cast<NodeId>(start));
    while (!stack.empty()) {
      const NodeId u = stack.back();
      stack.pop_back();
      ++size;
      for (const NodeId v : g.neighbors(u)) {
        if (result.component[v] == kUnreachable) {
          result.component[v] = label;
          stack.push_back(v);
        }
      }
    }
    result.sizes.push_back(size);
  }
  return result;
}

bool is_connected(const Graph& g) {
  if (g.num_nodes() == 0) return false;
  std::vector<std::uint32_t> dist(g.num_nodes(), kUnreachable);
  std::vector<NodeId> queue(g.num_nodes());
  bfs_into(g, 0, dist, queue);
  return std::find(dist.begin(), dist.end(), kUnreachable) == dist.end();
}

Graph induced_subgraph(const Graph& g, std::vector<NodeId> nodes) {
  std::sort(nodes.begin(), nodes.end());
  require(std::adjacent_find(nodes.begin(), nodes.end()) == nodes.end(),
          "induced_subgraph: the node list repeats a node");
  std::vector<NodeId> new_index(g.num_nodes(), static_cast<NodeId>(kUnreachable));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    require_node(g, nodes[i]);
    new_index[nodes[i]] = static_cast<NodeId>(i);
  }
  std::vector<Edge> edges;
  std::vector<double> weights;
  std::vector<std::string> labels;
  labels.reserve(nodes.size());
  for (const NodeId u : nodes) {
    labels.push_back(g.label(u));
    const auto neighbors = g.neighbors(u);
    for (std::size_t i = 0; i < neighbors.size(); ++i) {
      const NodeId v = neighbors[i];
      if (u < v && new_index[v] != static_cast<NodeId>(kUnreachable)) {
        edges.push_back({new_index[u], new_index[v]});
        if (g.weighted()) weights.push_back(g.neighbor_weights(u)[i]);
      }
    }
  }
  Graph sub = Graph::from_edges(nodes.size(), edges, weights);
  sub.set_labels(std::move(labels));
  for (const std::string& note : g.notes()) sub.add_note(note);
  return sub;
}

Graph largest_connected_component(const Graph& g) {
  require(g.num_nodes() >= 1, "largest_connected_component: the graph has no nodes");
  const Components components = connected_components(g);
  // max_element returns the first maximum: the component with the smallest node.
  const auto largest = static_cast<std::uint32_t>(
      std::max_element(components.sizes.begin(), components.sizes.end()) - components.sizes.begin());
  std::vector<NodeId> nodes;
  nodes.reserve(components.sizes[largest]);
  for (std::size_t v = 0; v < g.num_nodes(); ++v) {
    if (components.component[v] == largest) nodes.push_back(static_cast<NodeId>(v));
  }
  return induced_subgraph(g, std::move(nodes));
}

DegreeStats degree_stats(const Graph& g) {
  require(g.num_nodes() >= 1, "degree_stats: the graph has no nodes");
  DegreeStats stats{g.degree(0), g.degree(0), 0.0};
  for (NodeId v = 0; v < g.num_nodes(); ++v) {
    stats.min = std::min(stats.min, g.degree(v));
    stats.max = std::max(stats.max, g.degree(v));
  }
  stats.mean = 2.0 * static_cast<double>(g.num_edges()) / static_cast<double>(g.num_nodes());
  return stats;
}

std::vector<std::uint32_t> bfs_distances(const Graph& g, NodeId source) {
  require_node(g, source);
  std::vector<std::uint32_t> dist(g.num_nodes(), kUnreachable);
  std::vector<NodeId> queue(g.num_nodes());
  bfs_into(g, source, dist, queue);
  return dist;
}

DistanceMatrix::DistanceMatrix(const Graph& g) : n_(g.num_nodes()) {
  require(n_ <= kAllPairsMaxNodes,
          "all-pairs distances: n = {} exceeds the limit of {} nodes (distances are stored in 16 bits)", n_,
          kAllPairsMaxNodes);
  const auto nodes = static_cast<double>(n_);
  util::require_memory(2.0 * nodes * nodes, "all-pairs hop distances", fmt::format("2 n² bytes, n = {}", n_),
                       "account fewer pairs (`observer`, `target`)");
  dist_.resize(n_ * n_);
  std::vector<std::uint32_t> dist(n_);
  std::vector<NodeId> queue(n_);
  for (std::size_t s = 0; s < n_; ++s) {
    std::fill(dist.begin(), dist.end(), kUnreachable);
    bfs_into(g, static_cast<NodeId>(s), dist, queue);
    // Distances are < n <= 65535, so they fit in 16 bits below the unreachable mark 65535.
    std::transform(
        dist.begin(), dist.end(), dist_.begin() + static_cast<std::ptrdiff_t>(s * n_),
        [](std::uint32_t d) { return d == kUnreachable ? kUnreachable16 : static_cast<std::uint16_t>(d); });
  }
}

DistanceMatrix all_pairs_distances(const Graph& g) { return DistanceMatrix(g); }

std::uint32_t diameter(const Graph& g) {
  require(g.num_nodes() >= 1, "diameter: the graph has no nodes");
  if (!is_connected(g)) return kUnreachable;
  const std::size_t n = g.num_nodes();
  std::vector<std::uint32_t> dist(n);
  std::vector<NodeId> queue(n);
  std::uint32_t best = 0;
  for (std::size_t s = 0; s < n; ++s) {
    std::fill(dist.begin(), dist.end(), kUnreachable);
    best = std::max(best, bfs_into(g, static_cast<NodeId>(s), dist, queue));
  }
  return best;
}

}  // namespace netdp::graph
