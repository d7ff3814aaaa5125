// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Metrics against literal dense references (Floyd–Warshall, definitions).
#include "netdp/graph/metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "graph/dense_reference.hpp"
#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::graph {
namespace {

using testing::floyd_warshall;
using testing::kInf;

std::uint64_t as_reference(std::uint32_t d) { return d == kUnreachable ? kInf : d; }

// Small graphs with several components, isolated nodes and varied structure.
std::vector<Graph> sample_graphs() {
  return {erdos_renyi(40, 0.04, 1),
          erdos_renyi(30, 0.15, 2),
          random_geometric(50, 0.2, 3),
          Graph::from_edges(7, {{0, 6}, {2, 3}, {3, 4}}),
          karate_club(),
          path(9),
          star(5)};
}

TEST(Metrics, BfsAndAllPairsMatchFloydWarshall) {
  for (const Graph& g : sample_graphs()) {
    const auto reference = floyd_warshall(g);
    const DistanceMatrix all = all_pairs_distances(g);
    ASSERT_EQ(all.size(), g.num_nodes());
    for (NodeId s = 0; s < g.num_nodes(); ++s) {
      const std::vector<std::uint32_t> dist = bfs_distances(g, s);
      for (NodeId t = 0; t < g.num_nodes(); ++t) {
        EXPECT_EQ(as_reference(dist[t]), reference[s][t]);
        EXPECT_EQ(as_reference(all.at(s, t)), reference[s][t]);
      }
    }
  }
}

TEST(Metrics, DiameterIsTheLargestFloydWarshallDistance) {
  for (const Graph& g : sample_graphs()) {
    const auto reference = floyd_warshall(g);
    std::uint64_t largest = 0;
    for (const auto& row : reference) largest = std::max(largest, *std::max_element(row.begin(), row.end()));
    EXPECT_EQ(as_reference(diameter(g)), largest);  // kInf <=> kUnreachable for disconnected graphs
  }
  EXPECT_EQ(diameter(path(1)), 0u);
  EXPECT_EQ(diameter(path(9)), 8u);
  EXPECT_EQ(diameter(ring(9)), 4u);
  EXPECT_THROW(diameter(Graph()), std::invalid_argument);
}

TEST(Metrics, ComponentsMatchReachability) {
  for (const Graph& g : sample_graphs()) {
    const auto reference = floyd_warshall(g);
    const Components c = connected_components(g);
    std::size_t total = 0;
    for (const std::size_t size : c.sizes) total += size;
    EXPECT_EQ(total, g.num_nodes());
    for (NodeId u = 0; u < g.num_nodes(); ++u) {
      for (NodeId v = 0; v < g.num_nodes(); ++v)
        EXPECT_EQ(c.component[u] == c.component[v], reference[u][v] != kInf);
    }
    // Numbered in order of smallest node: the first node of component k+1 comes after that of k.
    std::vector<NodeId> first(c.count(), static_cast<NodeId>(g.num_nodes()));
    for (NodeId v = g.num_nodes(); v-- > 0;) first[c.component[v]] = v;
    EXPECT_TRUE(std::is_sorted(first.begin(), first.end()));
    EXPECT_EQ(is_connected(g), c.count() == 1);
  }
  EXPECT_FALSE(is_connected(Graph()));
  EXPECT_TRUE(is_connected(path(1)));
}

TEST(Metrics, LargestComponentRelabelsInIncreasingOrderAndKeepsIds) {
  // Components {0,6}, {1}, {2,3,4}, {5}: the largest is {2,3,4}.
  const Graph g = Graph::from_edges(7, {{0, 6}, {2, 3}, {4, 3}});
  const Graph lcc = largest_connected_component(g);
  EXPECT_EQ(lcc.num_nodes(), 3u);
  EXPECT_EQ(lcc.labels(), (std::vector<std::string>{"2", "3", "4"}));
  EXPECT_EQ(lcc.edges(), (std::vector<Edge>{{0, 1}, {1, 2}}));
  // Labels already present are carried; ties go to the component with the smallest node.
  Graph named = Graph::from_edges(4, {{0, 1}, {2, 3}});
  named.set_labels({"a", "b", "c", "d"});
  EXPECT_EQ(largest_connected_component(named).labels(), (std::vector<std::string>{"a", "b"}));
  EXPECT_THROW(largest_connected_component(Graph()), std::invalid_argument);
  EXPECT_THROW(induced_subgraph(g, {1, 1}), std::invalid_argument);
  EXPECT_THROW(induced_subgraph(g, {9}), std::invalid_argument);
}

TEST(Metrics, DegreeStats) {
  const DegreeStats s = degree_stats(star(6));
  EXPECT_EQ(s.min, 1u);
  EXPECT_EQ(s.max, 5u);
  EXPECT_DOUBLE_EQ(s.mean, 10.0 / 6.0);
  EXPECT_THROW(degree_stats(Graph()), std::invalid_argument);
}

TEST(Metrics, LimitsAndBadNodes) {
  EXPECT_THROW(bfs_distances(path(3), 3), std::invalid_argument);
  EXPECT_THROW(all_pairs_distances(path(kAllPairsMaxNodes + 1)), std::invalid_argument);
  util::set_memory_limit(1e6);  // 2 n² = 2 MB for n = 1000
  EXPECT_THROW(all_pairs_distances(path(1000)), std::invalid_argument);
  EXPECT_EQ(all_pairs_distances(path(500)).at(0, 499), 499u);
  util::set_memory_limit(0);
}

}  // namespace
}  // namespace netdp::graph
