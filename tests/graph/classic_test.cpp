// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Built-in graphs against published facts (published node and edge counts; degrees and
// diameters as computed by NetworkX 3 on its own copies of these data).
#include "netdp/graph/classic.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "graph/dense_reference.hpp"
#include "netdp/graph/metrics.hpp"

namespace netdp::graph {
namespace {

NodeId node_named(const Graph& g, const std::string& name) {
  const auto it = std::find(g.labels().begin(), g.labels().end(), name);
  EXPECT_NE(it, g.labels().end()) << name;
  return static_cast<NodeId>(it - g.labels().begin());
}

void expect_lexicographic_labels(const Graph& g) {
  EXPECT_EQ(g.labels().size(), g.num_nodes());
  EXPECT_TRUE(std::is_sorted(g.labels().begin(), g.labels().end()));
  EXPECT_EQ(std::adjacent_find(g.labels().begin(), g.labels().end()), g.labels().end());
}

TEST(Classic, FlorentineFamilies) {
  const Graph g = florentine_families();
  EXPECT_EQ(g.num_nodes(), 15u);
  EXPECT_EQ(g.num_edges(), 20u);
  EXPECT_TRUE(testing::is_simple_undirected(g));
  expect_lexicographic_labels(g);
  EXPECT_TRUE(is_connected(g));  // Pucci, isolated in Padgett's data, is not included
  EXPECT_EQ(diameter(g), 5u);
  EXPECT_EQ(g.degree(node_named(g, "Medici")), 6u);
  EXPECT_TRUE(g.has_edge(node_named(g, "Medici"), node_named(g, "Albizzi")));
}

TEST(Classic, DavisSouthernWomenIsBipartite) {
  const Graph g = davis_southern_women();
  EXPECT_EQ(g.num_nodes(), 32u);
  EXPECT_EQ(g.num_edges(), 89u);
  EXPECT_EQ(g.label(0), "Evelyn Jefferson");
  EXPECT_EQ(g.label(18), "E1");
  EXPECT_EQ(g.label(31), "E14");
  for (const Edge& e : g.edges()) EXPECT_TRUE(e.u < 18 && e.v >= 18) << e.u << " " << e.v;
  EXPECT_EQ(g.degree(0), 8u);
  EXPECT_EQ(g.degree(node_named(g, "E8")), 14u);
  EXPECT_EQ(diameter(g), 4u);
}

TEST(Classic, ZacharyKarateClub) {
  const Graph g = karate_club();
  EXPECT_EQ(g.num_nodes(), 34u);
  EXPECT_EQ(g.num_edges(), 78u);
  EXPECT_TRUE(g.labels().empty());
  EXPECT_EQ(g.degree(0), 16u);   // the instructor, member 1
  EXPECT_EQ(g.degree(33), 17u);  // the president, member 34
  EXPECT_EQ(diameter(g), 5u);
}

TEST(Classic, LesMiserables) {
  const Graph g = les_miserables();
  EXPECT_EQ(g.num_nodes(), 77u);
  EXPECT_EQ(g.num_edges(), 254u);
  expect_lexicographic_labels(g);
  EXPECT_EQ(g.degree(node_named(g, "Valjean")), 36u);
  EXPECT_EQ(diameter(g), 5u);
}

}  // namespace
}  // namespace netdp::graph
