// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Node positions for drawing a graph, and an order of the nodes in which neighbours are near.

#include <vector>

#include "netdp/graph/graph.hpp"

namespace netdp::graph {

struct Layout {
  std::vector<double> x;  ///< in [0, 1]
  std::vector<double> y;  ///< in [0, 1]
};

/// A force-directed layout (Fruchterman and Reingold, 1991: springs on the edges, repulsion between
/// every two nodes, a temperature that cools linearly) started from the nodes on a circle in
/// bandwidth order, so the result depends on the graph alone. O(n² · iterations): meant for
/// drawings of up to a few thousand nodes. Components are laid out together.
Layout force_layout(const Graph& g, int iterations = 200);

/// The reverse Cuthill–McKee order: a breadth-first search from a node of largest eccentricity
/// estimate in each component, neighbours taken by increasing degree, reversed. Adjacent nodes end
/// up close in the order, so a matrix indexed by it shows the graph's distances as bands.
std::vector<NodeId> bandwidth_order(const Graph& g);

}  // namespace netdp::graph
