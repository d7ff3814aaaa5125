#include "netdp/gossip/weighting.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
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
    for (const Weighting weighting : kAllWeightings) {
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
  for (const Weighting weighting : kAllWeightings) {
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
  for (const Weighting weighting : kAllWeightings) EXPECT_NO_THROW(make_gossip_matrix(g, weighting));
}

}  // namespace
}  // namespace netdp::gossip
