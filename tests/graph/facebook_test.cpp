// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Real data: SNAP ego-Facebook network 414 (../shared/datasets/graphs/facebook).
// Expected figures from the data set's README (150 nodes, LCC 148) and from
// NetworkX 3 on the same file (1693 edges, LCC 1692 edges, LCC diameter 7).
#include <gtest/gtest.h>

#include <filesystem>

#include "netdp/graph/io.hpp"
#include "netdp/graph/metrics.hpp"

namespace netdp::graph {
namespace {

TEST(FacebookData, Ego414HasLargestComponent148) {
  const std::string path = std::string(NETDP_SHARED_DIR) + "/datasets/graphs/facebook/414.edges";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "data set absent: " << path;
  const Graph g = read_edge_list(path);
  EXPECT_EQ(g.num_nodes(), 150u);
  EXPECT_EQ(g.num_edges(), 1693u);
  EXPECT_EQ(connected_components(g).count(), 2u);
  const Graph lcc = largest_connected_component(g);
  EXPECT_EQ(lcc.num_nodes(), 148u);
  EXPECT_EQ(lcc.num_edges(), 1692u);
  EXPECT_EQ(diameter(lcc), 7u);
  // Labels are the original SNAP ids, still in increasing numeric order.
  for (NodeId v = 1; v < lcc.num_nodes(); ++v)
    EXPECT_LT(std::stoull(lcc.label(v - 1)), std::stoull(lcc.label(v)));
}

TEST(FacebookData, CombinedHas4039Nodes88234Edges) {
  const std::string path = std::string(NETDP_SHARED_DIR) + "/datasets/graphs/facebook/facebook_combined.txt";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "data set absent: " << path;
  const Graph g = read_edge_list(path);
  EXPECT_EQ(g.num_nodes(), 4039u);
  EXPECT_EQ(g.num_edges(), 88234u);
  EXPECT_TRUE(is_connected(g));
}

}  // namespace
}  // namespace netdp::graph
