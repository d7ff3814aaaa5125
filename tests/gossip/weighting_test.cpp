// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/weighting.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "netdp/gossip/schedules.hpp"
#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/metrics.hpp"
#include "reference.hpp"

namespace netdp::gossip {
namespace {

using ::testing::HasSubstr;
using testing::reference_weights;
using testing::relative_error;

/// Graphs with varied degrees: irregular, with leaves, an isolated node, regular, and a classic.
std::vector<graph::Graph> test_graphs() {
  std::vector<graph::Graph> graphs;
  graphs.push_back(graph::Graph::from_edges(6, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {3, 4}}));  // node 5 isolated
  graphs.push_back(graph::ring(7));
  graphs.push_back(graph::hypercube(3));
  graphs.push_back(graph::star(6));
  graphs.push_back(graph::karate_club());
  graphs.push_back(graph::erdos_renyi(40, 0.15, 7));
  return graphs;
}

TEST(Weighting, NamesRoundTripAndUnknownNamesListTheValidOnes) {
  for (const Weighting w : kAllWeightings) EXPECT_EQ(parse_weighting(weighting_name(w)), w);
  EXPECT_EQ(parse_weighting("closed-row"), Weighting::closed_row);
  try {
    parse_weighting("max-degree");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("'max-degree'"));
    EXPECT_THAT(e.what(), HasSubstr("hamilton, metropolis, closed-row, lazy-uniform"));
  }
}

TEST(Weighting, EveryWeightingMatchesItsDenseDefinition) {
  for (const graph::Graph& g : test_graphs()) {
    for (const Weighting weighting : kDegreeWeightings) {
      const std::string name(weighting_name(weighting));
      const GossipMatrix w = make_gossip_matrix(g, weighting);
      const DenseMatrix expected = reference_weights(g, name);
      EXPECT_LE(relative_error(DenseMatrix(w.matrix()), expected), 1e-12) << name << " n=" << g.num_nodes();
      // Row sums 1 (validated), entries >= 0, support in the graph plus diagonal (validated).
      EXPECT_LE((DenseMatrix(w.matrix()).rowwise().sum().array() - 1.0).abs().maxCoeff(), 1e-12);
      EXPECT_GE(DenseMatrix(w.matrix()).minCoeff(), 0.0);
    }
  }
}

TEST(Weighting, HamiltonAndMetropolisAreSymmetricAndDoublyStochastic) {
  for (const graph::Graph& g : test_graphs()) {
    for (const Weighting weighting : {Weighting::hamilton, Weighting::metropolis}) {
      const GossipMatrix w = make_gossip_matrix(g, weighting);
      EXPECT_TRUE(w.is_symmetric(0.0)) << weighting_name(weighting);
      EXPECT_TRUE(w.is_doubly_stochastic()) << weighting_name(weighting);
    }
  }
}

TEST(Weighting, ClosedRowAndLazyUniformAreRowStochasticButNotSymmetricOnIrregularGraphs) {
  const graph::Graph g = graph::karate_club();
  for (const Weighting weighting : {Weighting::closed_row, Weighting::lazy_uniform}) {
    const GossipMatrix w = make_gossip_matrix(g, weighting);
    EXPECT_FALSE(w.is_symmetric()) << weighting_name(weighting);
    EXPECT_FALSE(w.is_doubly_stochastic()) << weighting_name(weighting);
  }
}

TEST(Weighting, ClosedRowIsTheAverageOverTheClosedNeighbourhood) {
  const graph::Graph g = graph::karate_club();
  const GossipMatrix w = make_gossip_matrix(g, Weighting::closed_row);
  for (graph::NodeId u = 0; u < g.num_nodes(); ++u) {
    const double share = 1.0 / static_cast<double>(g.degree(u) + 1);
    EXPECT_EQ(w.matrix().coeff(u, u), share);  // exactly 1/|N̄_u|, including the diagonal
    for (const graph::NodeId v : g.neighbors(u)) EXPECT_EQ(w.matrix().coeff(u, v), share);
    EXPECT_EQ(w.matrix().row(u).nonZeros(), static_cast<Eigen::Index>(g.degree(u) + 1));
  }
}

TEST(Weighting, HamiltonOnARegularGraphHasAZeroDiagonal) {
  // Hypercube Q_4 (4-regular): W = A / 4, W_vv = 0 exactly (the papers' choice; periodic chain).
  const graph::Graph g = graph::hypercube(4);
  const GossipMatrix w = make_gossip_matrix(g, Weighting::hamilton);
  EXPECT_EQ(DenseMatrix(w.matrix()), testing::adjacency(g) / 4.0);
  EXPECT_EQ(w.matrix().nonZeros(), static_cast<Eigen::Index>(2 * g.num_edges()));
  // 5-regular: d · fl(1/5) > 1 in floating point; the diagonal must still come out as exactly 0.
  const GossipMatrix w5 = make_gossip_matrix(graph::hypercube(5), Weighting::hamilton);
  for (int v = 0; v < 32; ++v) EXPECT_EQ(w5.matrix().coeff(v, v), 0.0);
}

TEST(Weighting, DiagonalsFollowTheirFormulas) {
  // Star with centre 0 and 5 leaves: d_0 = 5, d_leaf = 1.
  const graph::Graph g = graph::star(6);
  ASSERT_EQ(g.degree(0), 5u);
  const auto diagonal = [&](Weighting weighting, int v) {
    return make_gossip_matrix(g, weighting).matrix().coeff(v, v);
  };
  EXPECT_DOUBLE_EQ(diagonal(Weighting::hamilton, 0), 0.0);            // 1 - 5 · 1/5
  EXPECT_DOUBLE_EQ(diagonal(Weighting::hamilton, 1), 1.0 - 1.0 / 5);  // 1 - 1/max(1, 5)
  EXPECT_DOUBLE_EQ(diagonal(Weighting::metropolis, 0), 1.0 / 6);      // 1 - 5 · 1/6
  EXPECT_DOUBLE_EQ(diagonal(Weighting::metropolis, 1), 5.0 / 6);
  EXPECT_DOUBLE_EQ(diagonal(Weighting::closed_row, 0), 1.0 / 6);
  EXPECT_DOUBLE_EQ(diagonal(Weighting::closed_row, 1), 0.5);
  EXPECT_DOUBLE_EQ(diagonal(Weighting::lazy_uniform, 0), 0.5);
  EXPECT_DOUBLE_EQ(diagonal(Weighting::lazy_uniform, 1), 0.5);
}

TEST(Weighting, IsolatedNodesKeepTheirValue) {
  const graph::Graph g = graph::Graph::from_edges(3, {{0, 1}});
  for (const Weighting weighting : kDegreeWeightings) {
    const GossipMatrix w = make_gossip_matrix(g, weighting);
    EXPECT_EQ(w.matrix().coeff(2, 2), 1.0) << weighting_name(weighting);
    EXPECT_EQ(w.matrix().row(2).nonZeros(), 1);
  }
  // A single node: W = [1].
  EXPECT_EQ(make_gossip_matrix(graph::Graph::from_edges(1, {}), Weighting::hamilton).matrix().coeff(0, 0),
            1.0);
}

TEST(Weighting, LargeDegreeRowsStillSumToOne) {
  // Star with 20000 leaves: the centre's row sums 20000 · 1/20000 (hamilton) or 1/20001 terms.
  const graph::Graph g = graph::star(20001);
  for (const Weighting weighting : kDegreeWeightings) EXPECT_NO_THROW(make_gossip_matrix(g, weighting));
}

// The graph `g` with every edge of weight `weight(u, v)`.
template <typename Weight>
graph::Graph with_weights(const graph::Graph& g, Weight weight) {
  std::vector<double> weights;
  const std::vector<graph::Edge> edges = g.edges();
  for (const graph::Edge& e : edges) weights.push_back(weight(e.u, e.v));
  return graph::Graph::from_edges(g.num_nodes(), edges, weights);
}

TEST(Weighting, FromGraphWithUnitWeightsIsHamiltonBitForBit) {
  for (const graph::Graph& g : test_graphs()) {
    const graph::Graph unit = with_weights(g, [](graph::NodeId, graph::NodeId) { return 1.0; });
    EXPECT_TRUE(make_gossip_matrix(unit, Weighting::from_graph)
                    .matrix()
                    .isApprox(make_gossip_matrix(g, Weighting::hamilton).matrix(), 0.0));
  }
}

// W_uv = a_uv / max(s_u, s_v): symmetric, doubly stochastic, a non-negative diagonal.
TEST(Weighting, FromGraphIsTheStrengthNormalisedWeights) {
  for (const graph::Graph& g : test_graphs()) {
    const graph::Graph weighted =
        with_weights(g, [](graph::NodeId u, graph::NodeId v) { return 0.5 + (u * 7 + v) % 5; });
    const GossipMatrix w = make_gossip_matrix(weighted, Weighting::from_graph);
    EXPECT_TRUE(w.is_symmetric(0.0));
    EXPECT_TRUE(w.is_doubly_stochastic(1e-12));
    std::vector<double> strength(g.num_nodes(), 0.0);
    for (const graph::Edge& e : g.edges()) {
      strength[e.u] += 0.5 + (e.u * 7 + e.v) % 5;
      strength[e.v] += 0.5 + (e.u * 7 + e.v) % 5;
    }
    for (const graph::Edge& e : g.edges()) {
      const double expected = (0.5 + (e.u * 7 + e.v) % 5) / std::max(strength[e.u], strength[e.v]);
      EXPECT_NEAR(w.matrix().coeff(e.u, e.v), expected, 1e-15 * expected);
    }
  }
}

TEST(Weighting, FromGraphNeedsWeightsAndTheyLastThroughSubgraphsAndDropout) {
  EXPECT_THAT(
      [] {
        try {
          (void)make_gossip_matrix(graph::ring(5), Weighting::from_graph);
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
        return std::string("no error");
      }(),
      HasSubstr("--weights from-graph needs edge weights and the graph has none"));
  // Two components; the largest keeps its weights.
  const graph::Graph g = graph::Graph::from_edges(5, {{0, 1}, {1, 2}, {3, 4}}, {2.0, 3.0, 9.0});
  const graph::Graph lcc = graph::largest_connected_component(g);
  ASSERT_TRUE(lcc.weighted());
  EXPECT_EQ(lcc.neighbor_weights(1)[0], 2.0);
  EXPECT_EQ(lcc.neighbor_weights(1)[1], 3.0);
  // Every node present: each round is W itself.
  const GossipMatrix w = make_gossip_matrix(g, Weighting::from_graph);
  const Schedule all = dropout_schedule(g, Weighting::from_graph, 1.0, 2, 1);
  EXPECT_TRUE(all.at(1).isApprox(w.matrix(), 0.0));
}

}  // namespace
}  // namespace netdp::gossip
