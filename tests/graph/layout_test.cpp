// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Drawing positions and the bandwidth order of the report's heatmap.
#include "netdp/graph/layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::graph {
namespace {

TEST(BandwidthOrder, IsAPermutationThatKeepsAPathInOrder) {
  const Graph g = from_spec("path:n=9");
  const std::vector<NodeId> order = bandwidth_order(g);
  std::vector<NodeId> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (NodeId v = 0; v < 9; ++v) EXPECT_EQ(sorted[v], v);
  for (std::size_t i = 1; i < order.size(); ++i)  // neighbours stay neighbours: bandwidth 1
    EXPECT_EQ(std::abs(static_cast<int>(order[i]) - static_cast<int>(order[i - 1])), 1);
}

TEST(BandwidthOrder, LowersTheBandwidthOfAShuffledGrid) {
  const Graph g = from_spec("grid:rows=6,cols=6");
  const std::vector<NodeId> order = bandwidth_order(g);
  std::vector<std::size_t> position(g.num_nodes());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  std::size_t bandwidth = 0;
  for (NodeId u = 0; u < g.num_nodes(); ++u)
    for (const NodeId v : g.neighbors(u))
      bandwidth = std::max(bandwidth,
                           position[u] > position[v] ? position[u] - position[v] : position[v] - position[u]);
  EXPECT_LE(bandwidth, 7u);  // a 6 x 6 grid has bandwidth 6; Cuthill-McKee from a corner gets close
}

TEST(ForceLayout, IsDeterministicInTheUnitSquareAndPullsNeighboursTogether) {
  const Graph g = from_spec("karate");
  const Layout a = force_layout(g), b = force_layout(g);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.y, b.y);
  double edge_sum = 0, all_sum = 0;
  std::size_t all = 0;
  for (NodeId u = 0; u < g.num_nodes(); ++u) {
    ASSERT_TRUE(a.x[u] >= 0 && a.x[u] <= 1 && a.y[u] >= 0 && a.y[u] <= 1);
    for (NodeId v = u + 1; v < g.num_nodes(); ++v) {
      all_sum += std::hypot(a.x[u] - a.x[v], a.y[u] - a.y[v]);
      ++all;
    }
    for (const NodeId v : g.neighbors(u)) edge_sum += std::hypot(a.x[u] - a.x[v], a.y[u] - a.y[v]);
  }
  const double edge_mean = edge_sum / (2.0 * static_cast<double>(g.num_edges()));
  EXPECT_LT(edge_mean, 0.6 * all_sum / static_cast<double>(all));
}

}  // namespace
}  // namespace netdp::graph
