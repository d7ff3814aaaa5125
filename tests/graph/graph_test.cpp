// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/graph/graph.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace netdp::graph {
namespace {

TEST(Graph, FromEdgesMergesDuplicatesInBothDirections) {
  const Graph g = Graph::from_edges(4, {{0, 1}, {1, 0}, {1, 2}, {1, 2}, {3, 2}});
  EXPECT_EQ(g.num_nodes(), 4u);
  EXPECT_EQ(g.num_edges(), 3u);
  EXPECT_EQ(g.degree(1), 2u);
  EXPECT_TRUE(g.has_edge(2, 3));
  EXPECT_FALSE(g.has_edge(0, 3));
  const std::vector<Edge> expected{{0, 1}, {1, 2}, {2, 3}};
  EXPECT_EQ(g.edges(), expected);
}

TEST(Graph, RejectsSelfLoopsAndOutOfRangeEndpoints) {
  EXPECT_THROW(Graph::from_edges(3, {{1, 1}}), std::invalid_argument);
  EXPECT_THROW(Graph::from_edges(3, {{0, 3}}), std::invalid_argument);
}

TEST(Graph, EmptyGraphHasNoNodes) {
  const Graph g;
  EXPECT_EQ(g.num_nodes(), 0u);
  EXPECT_EQ(g.num_edges(), 0u);
}

TEST(Graph, LabelsMustMatchNodeCount) {
  Graph g = Graph::from_edges(2, {{0, 1}});
  EXPECT_THROW(g.set_labels({"a"}), std::invalid_argument);
  g.set_labels({"10", "20"});
  EXPECT_EQ(g.label(1), "20");
}

TEST(Graph, FindsANodeByItsLabel) {
  Graph g = Graph::from_edges(3, {{0, 1}, {1, 2}});
  // Unlabelled: the index in canonical decimal form, nothing else.
  EXPECT_EQ(g.find("2"), NodeId{2});
  EXPECT_FALSE(g.find("3"));
  EXPECT_FALSE(g.find("02"));
  EXPECT_FALSE(g.find("+1"));
  EXPECT_FALSE(g.find("-1"));
  EXPECT_FALSE(g.find(""));
  EXPECT_FALSE(g.relabelled());
  g.set_labels({"0", "1", "2"});
  EXPECT_FALSE(g.relabelled());
  g.set_labels({"10", "Medici", "0"});
  EXPECT_TRUE(g.relabelled());
  EXPECT_EQ(g.find("Medici"), NodeId{1});
  EXPECT_EQ(g.find("0"), NodeId{2});
  EXPECT_FALSE(g.find("1"));
}

}  // namespace
}  // namespace netdp::graph
