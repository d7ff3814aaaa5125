// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Graph metrics: connected components, degrees, BFS distances, diameter.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "netdp/graph/graph.hpp"

namespace netdp::graph {

/// Distance value meaning "not reachable" (infinite distance).
inline constexpr std::uint32_t kUnreachable = std::numeric_limits<std::uint32_t>::max();

/// Connected components: component[v] in 0..count-1, numbered in order of their
/// smallest node; sizes[c] = number of nodes of component c.
struct Components {
  std::vector<std::uint32_t> component;
  std::vector<std::size_t> sizes;
  std::size_t count() const { return sizes.size(); }
};

Components connected_components(const Graph& g);

/// True iff the graph has exactly one component (the empty graph is not connected).
bool is_connected(const Graph& g);

/// The subgraph induced by `nodes` (any order, no repeats), relabelled 0..k-1 in
/// increasing order of old index. Labels are carried over; a graph without
/// labels gets the old indices as labels, so the mapping is never lost.
Graph induced_subgraph(const Graph& g, std::vector<NodeId> nodes);

/// The largest connected component as an induced subgraph (ties: the component
/// containing the smallest node). Requires at least one node.
Graph largest_connected_component(const Graph& g);

struct DegreeStats {
  std::size_t min = 0;
  std::size_t max = 0;
  double mean = 0.0;
};

/// Minimum, mean (2m/n) and maximum degree. Requires at least one node.
DegreeStats degree_stats(const Graph& g);

/// Hop distances from `source` (kUnreachable where not reachable).
std::vector<std::uint32_t> bfs_distances(const Graph& g, NodeId source);

/// Largest n accepted by all_pairs_distances: its distances (< n) are stored in 16 bits, 65535
/// meaning unreachable. Below it, memory (2 n² bytes) is checked against util::memory_limit().
inline constexpr std::size_t kAllPairsMaxNodes = 65535;

/// All-pairs hop distances (one BFS per source), stored as 16-bit values.
class DistanceMatrix {
 public:
  explicit DistanceMatrix(const Graph& g);
  std::size_t size() const { return n_; }
  /// Distance from u to v, kUnreachable if none.
  std::uint32_t at(NodeId u, NodeId v) const {
    const std::uint16_t d = dist_[static_cast<std::size_t>(u) * n_ + v];
    return d == kUnreachable16 ? kUnreachable : d;
  }

 private:
  static constexpr std::uint16_t kUnreachable16 = std::numeric_limits<std::uint16_t>::max();
  std::size_t n_ = 0;
  std::vector<std::uint16_t> dist_;
};

/// All-pairs distances; throws if n > kAllPairsMaxNodes or 2 n² bytes exceed the memory limit.
DistanceMatrix all_pairs_distances(const Graph& g);

/// The largest graph whose diameter the summaries (`netdp graph`, the report) compute: one BFS per
/// node, O(n m), is seconds at this size on a sparse graph.
inline constexpr std::size_t kDiameterMaxNodes = 20000;

/// Exact diameter (largest hop distance) by BFS from every node, O(n m). Returns kUnreachable (infinite) for
/// a disconnected graph and throws for the empty graph.
std::uint32_t diameter(const Graph& g);

}  // namespace netdp::graph
