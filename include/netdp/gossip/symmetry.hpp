// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The symmetries of a gossip matrix W that its graph's generator proposed (graph::SymmetryHints),
// checked against W itself: a permutation π is kept when W_{π(x)π(y)} = W_xy for every stored entry,
// compared exactly. Nodes that kept permutations map onto each other (an orbit) are alike for every
// quantity that depends on W alone, e.g. a random walk's return times to them.

#include <cstddef>
#include <vector>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::gossip {

struct SymmetryOrbits {
  /// The smallest node of each node's orbit under the group the kept permutations generate.
  std::vector<graph::NodeId> representative;
  /// A spanning tree of each orbit from its representative: v = image(via[v], parent[v]) for a kept
  /// hint via[v], so the composition of the hints on the path from the representative to v is a
  /// symmetry of W that maps the representative to v. A representative is its own parent.
  std::vector<graph::NodeId> parent;
  std::vector<std::size_t> via;
  /// Every node, each after its parent (breadth first from each representative).
  std::vector<graph::NodeId> order;
  std::size_t kept = 0;      ///< hints that are automorphisms of W
  std::size_t rejected = 0;  ///< hints that are not permutations of the nodes, or not automorphisms of W
};

/// The orbits of W's nodes under the hints that are automorphisms of W (every node alone when none
/// is). Cost O(nnz(W) · log(max row length)) a hint.
SymmetryOrbits symmetry_orbits(const SparseMatrix& w, const graph::SymmetryHints& hints);

/// symmetry_orbits(w.matrix(), w.graph().symmetry_hints()).
SymmetryOrbits symmetry_orbits(const GossipMatrix& w);

}  // namespace netdp::gossip
