// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Undirected simple graph in compressed sparse row (CSR) form, optionally with positive edge weights.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace netdp::graph {

/// Node index 0..n-1. 32 bits: graphs up to ~4e9 nodes, half the memory of size_t.
using NodeId = std::uint32_t;

/// An undirected edge {u, v}.
struct Edge {
  NodeId u = 0;
  NodeId v = 0;
  friend bool operator==(const Edge&, const Edge&) = default;
};

/// Permutations of the nodes that a generator built its graph to be invariant under, given as
/// generators of a group (a hypercube's bit flips, a circulant graph's rotation by one). Hints only:
/// whoever relies on one checks it against its own matrix first (gossip::symmetry_orbits).
struct SymmetryHints {
  std::size_t count = 0;
  /// image(which, v): the image of node v under permutation `which` (0 <= which < count).
  std::function<NodeId(std::size_t which, NodeId v)> image;
};

/// An undirected, simple graph (no self-loops, no multi-edges) stored as CSR:
/// the neighbours of v are adjacency()[offsets()[v] .. offsets()[v+1]), sorted
/// increasingly. Immutable once built; cheap to move.
class Graph {
 public:
  /// The empty graph (0 nodes).
  Graph() : offsets_(1, 0) {}

  /// Builds the graph on `num_nodes` nodes from an edge list. Duplicate edges,
  /// in either direction, are merged. Throws std::invalid_argument on an
  /// endpoint >= num_nodes or on a self-loop (callers that read files drop
  /// self-loops before calling).
  static Graph from_edges(std::size_t num_nodes, const std::vector<Edge>& edges);

  /// The same with a weight per edge (weights[i] is the weight of edges[i]): each must be a positive
  /// finite number, and an edge given twice (in either direction) must have the same weight both times.
  /// Throws std::invalid_argument naming the edge (by index) and the rule otherwise; empty weights
  /// build an unweighted graph.
  static Graph from_edges(std::size_t num_nodes, const std::vector<Edge>& edges,
                          const std::vector<double>& weights);

  std::size_t num_nodes() const { return offsets_.size() - 1; }
  std::size_t num_edges() const { return adjacency_.size() / 2; }
  std::size_t degree(NodeId v) const { return offsets_[v + 1] - offsets_[v]; }

  /// Sorted neighbours of v (v itself excluded).
  std::span<const NodeId> neighbors(NodeId v) const {
    return {adjacency_.data() + offsets_[v], adjacency_.data() + offsets_[v + 1]};
  }

  /// Whether the edges carry weights (a weighted file's), read by the `from-graph` weighting.
  bool weighted() const { return !weights_.empty(); }

  /// Weights of v's edges, parallel to neighbors(v); empty for an unweighted graph.
  std::span<const double> neighbor_weights(NodeId v) const {
    if (weights_.empty()) return {};
    return {weights_.data() + offsets_[v], weights_.data() + offsets_[v + 1]};
  }

  /// Whether {u, v} is an edge (binary search in the smaller row).
  bool has_edge(NodeId u, NodeId v) const;

  /// All edges once each, as (u, v) with u < v, in increasing order of (u, v).
  std::vector<Edge> edges() const;

  const std::vector<std::uint64_t>& offsets() const { return offsets_; }
  const std::vector<NodeId>& adjacency() const { return adjacency_; }

  /// Original identifiers of the nodes (node i was called labels()[i] in the
  /// file it was read from). Empty when the nodes were created as 0..n-1.
  const std::vector<std::string>& labels() const { return labels_; }

  /// Attaches original identifiers; throws unless there is one per node.
  void set_labels(std::vector<std::string> labels);

  /// Name of node v: its label if it has one, else its index.
  std::string label(NodeId v) const;

  /// The node whose label() is `label` (for an unlabelled graph: the index written in decimal),
  /// or none. Linear in the number of nodes.
  std::optional<NodeId> find(std::string_view label) const;

  /// Whether some node's label differs from its index (a file's ids, a component's original
  /// nodes): then outputs name nodes by label and also give the index.
  bool relabelled() const;

  /// What the reader changed in the input, for the user to see (e.g. "F: 1 self-loop dropped, the
  /// first at line 3: '2 2'"). Subgraphs keep them. Front ends print them as warnings.
  const std::vector<std::string>& notes() const { return notes_; }
  void add_note(std::string note) { notes_.push_back(std::move(note)); }

  /// The generator's symmetries (none for graphs read from files or derived from others).
  const SymmetryHints& symmetry_hints() const { return symmetry_hints_; }
  void set_symmetry_hints(SymmetryHints hints) { symmetry_hints_ = std::move(hints); }

 private:
  std::vector<std::uint64_t> offsets_;
  std::vector<NodeId> adjacency_;
  std::vector<double> weights_;  // parallel to adjacency_, or empty
  std::vector<std::string> labels_;
  std::vector<std::string> notes_;
  SymmetryHints symmetry_hints_;
};

}  // namespace netdp::graph
