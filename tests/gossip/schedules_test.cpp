// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/schedules.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
#include "reference.hpp"

namespace netdp::gossip {
namespace {

bool same_schedule(const Schedule& a, const Schedule& b) {
  if (a.rounds() != b.rounds()) return false;
  for (std::size_t t = 0; t < a.rounds(); ++t) {
    if (!DenseMatrix(a.at(t)).isApprox(DenseMatrix(b.at(t)), 0.0)) return false;
  }
  return true;
}

/// Every W_t is a valid (row-stochastic, non-negative) gossip matrix on the graph of its support.
void expect_stochastic(const Schedule& s) {
  for (std::size_t t = 0; t < s.rounds(); ++t)
    EXPECT_NO_THROW(GossipMatrix::from_support(s.at(t))) << "t = " << t;
}

TEST(Schedules, FixedRepeatsTheMatrix) {
  const GossipMatrix w = make_gossip_matrix(graph::ring(5), Weighting::metropolis);
  const Schedule s = fixed_schedule(w, 7);
  EXPECT_EQ(s.rounds(), 7u);
  EXPECT_TRUE(s.is_fixed());
  EXPECT_TRUE(DenseMatrix(s.at(6)).isApprox(DenseMatrix(w.matrix()), 0.0));
}

TEST(Schedules, ActivationProbabilitiesAreTwoWOverN) {
  const graph::Graph g = graph::karate_club();
  const GossipMatrix w = make_gossip_matrix(g, Weighting::metropolis);
  const auto activations = activation_probabilities(w);
  EXPECT_EQ(activations.size(), g.num_edges());
  double total = 0;
  for (const auto& a : activations) {
    EXPECT_LT(a.edge.u, a.edge.v);
    EXPECT_DOUBLE_EQ(a.probability, 2.0 * w.matrix().coeff(a.edge.u, a.edge.v) / 34.0);
    total += a.probability;
  }
  EXPECT_NEAR(total, (34.0 - DenseMatrix(w.matrix()).trace()) / 34.0, 1e-12);
  // Non-symmetric W: (W_uv + W_vu) / n.
  const GossipMatrix closed = make_gossip_matrix(g, Weighting::closed_row);
  for (const auto& a : activation_probabilities(closed)) {
    const double expected =
        (closed.matrix().coeff(a.edge.u, a.edge.v) + closed.matrix().coeff(a.edge.v, a.edge.u)) / 34.0;
    EXPECT_DOUBLE_EQ(a.probability, expected);
  }
}

TEST(Schedules, PairwiseStepsAverageOnePair) {
  const GossipMatrix w = make_gossip_matrix(graph::ring(6), Weighting::hamilton);  // tr W = 0: never idle
  const auto activations = sample_pairwise_activations(w, 50, 11);
  const Schedule s = pairwise_schedule(6, activations);
  ASSERT_EQ(s.rounds(), 50u);
  for (std::size_t t = 0; t < 50; ++t) {
    ASSERT_TRUE(activations[t].has_value());
    const graph::Edge e = *activations[t];
    EXPECT_TRUE(w.graph().has_edge(e.u, e.v));
    // Literal: I - (e_v - e_w)(e_v - e_w)ᵀ / 2.
    Vector diff = Vector::Zero(6);
    diff[e.u] = 1.0;
    diff[e.v] = -1.0;
    const DenseMatrix expected = DenseMatrix::Identity(6, 6) - diff * diff.transpose() / 2.0;
    EXPECT_TRUE(DenseMatrix(s.at(t)).isApprox(expected, 0.0)) << "t = " << t;
  }
}

TEST(Schedules, PairwiseFrequenciesFollowTheActivationProbabilities) {
  const GossipMatrix w = make_gossip_matrix(graph::star(4), Weighting::metropolis);  // centre 0, d_0 = 3
  const std::size_t rounds = 200000;
  const auto activations = sample_pairwise_activations(w, rounds, 5);
  std::map<std::pair<graph::NodeId, graph::NodeId>, double> count;
  double idle = 0;
  for (const auto& a : activations) {
    if (a)
      count[{a->u, a->v}] += 1;
    else
      idle += 1;
  }
  // p_{0,leaf} = 2 · (1/4) / 4 = 1/8 each; idle = tr(W)/n = (1/4 + 3 · 3/4)/4 = 5/8.
  for (const graph::NodeId leaf : {1u, 2u, 3u}) {
    const double frequency = count[std::make_pair(graph::NodeId{0}, leaf)] / rounds;
    EXPECT_NEAR(frequency, 0.125, 5 * std::sqrt(0.125 * 0.875 / rounds));
  }
  EXPECT_NEAR(idle / rounds, 0.625, 5 * std::sqrt(0.625 * 0.375 / rounds));
  // always_activate: renormalised, never idle, each edge 1/3.
  PairwiseOptions always;
  always.always_activate = true;
  std::size_t to_leaf_1 = 0;
  for (const auto& a : sample_pairwise_activations(w, rounds, 5, always)) {
    ASSERT_TRUE(a.has_value());
    to_leaf_1 += a->v == 1 ? 1 : 0;
  }
  EXPECT_NEAR(static_cast<double>(to_leaf_1) / rounds, 1.0 / 3, 5 * std::sqrt(2.0 / 9 / rounds));
}

TEST(Schedules, RandomSchedulesAreReproducibleBySeed) {
  const graph::Graph g = graph::karate_club();
  const GossipMatrix w = make_gossip_matrix(g, Weighting::metropolis);
  EXPECT_TRUE(same_schedule(randomized_pairwise_schedule(w, 40, 1), randomized_pairwise_schedule(w, 40, 1)));
  EXPECT_FALSE(same_schedule(randomized_pairwise_schedule(w, 40, 1), randomized_pairwise_schedule(w, 40, 2)));
  EXPECT_TRUE(same_schedule(erdos_renyi_schedule(30, 0.2, Weighting::hamilton, 5, 9),
                            erdos_renyi_schedule(30, 0.2, Weighting::hamilton, 5, 9)));
  EXPECT_FALSE(same_schedule(erdos_renyi_schedule(30, 0.2, Weighting::hamilton, 5, 9),
                             erdos_renyi_schedule(30, 0.2, Weighting::hamilton, 5, 10)));
  EXPECT_TRUE(same_schedule(dropout_schedule(g, Weighting::closed_row, 0.7, 5, 4),
                            dropout_schedule(g, Weighting::closed_row, 0.7, 5, 4)));
  EXPECT_FALSE(same_schedule(dropout_schedule(g, Weighting::closed_row, 0.7, 5, 4),
                             dropout_schedule(g, Weighting::closed_row, 0.7, 5, 5)));
  expect_stochastic(randomized_pairwise_schedule(w, 40, 1));
  expect_stochastic(erdos_renyi_schedule(30, 0.2, Weighting::closed_row, 5, 9));
  expect_stochastic(dropout_schedule(g, Weighting::lazy_uniform, 0.5, 5, 4));
}

TEST(Schedules, ErdosRenyiRoundsAreFreshGraphsWithTheChosenWeighting) {
  const std::size_t n = 60;
  const double p = 0.1;
  const Schedule s = erdos_renyi_schedule(n, p, Weighting::metropolis, 20, 3);
  double edges = 0;
  for (std::size_t t = 0; t < s.rounds(); ++t) {
    const GossipMatrix round = GossipMatrix::from_support(s.at(t));
    EXPECT_LE(testing::relative_error(DenseMatrix(s.at(t)),
                                      testing::reference_weights(round.graph(), "metropolis")),
              1e-15);
    edges += static_cast<double>(round.graph().num_edges());
  }
  EXPECT_FALSE(DenseMatrix(s.at(0)).isApprox(DenseMatrix(s.at(1)), 0.0));
  const double pairs = 20.0 * n * (n - 1) / 2;
  EXPECT_NEAR(edges / pairs, p, 5 * std::sqrt(p * (1 - p) / pairs));
  // p = 0: nobody talks; p = 1: the complete graph every round.
  EXPECT_TRUE(DenseMatrix(erdos_renyi_schedule(5, 0.0, Weighting::hamilton, 2, 1).at(1))
                  .isApprox(DenseMatrix::Identity(5, 5), 0.0));
  EXPECT_LE(
      testing::relative_error(DenseMatrix(erdos_renyi_schedule(5, 1.0, Weighting::hamilton, 2, 1).at(1)),
                              testing::reference_weights(graph::complete(5), "hamilton")),
      1e-15);
  EXPECT_THROW(erdos_renyi_schedule(5, 1.5, Weighting::hamilton, 2, 1), std::invalid_argument);
}

TEST(Schedules, DropoutGossipsAmongThePresentOnly) {
  const graph::Graph g = graph::karate_club();
  const Schedule s = dropout_schedule(g, Weighting::hamilton, 0.6, 10, 8);
  for (std::size_t t = 0; t < s.rounds(); ++t) {
    const DenseMatrix w(s.at(t));
    // A node is absent iff its row is e_v and nobody sends to it; rebuild the induced graph literally.
    std::vector<bool> present(34);
    std::vector<graph::Edge> induced;
    for (int v = 0; v < 34; ++v) present[v] = !(w(v, v) == 1.0);
    for (const graph::Edge& e : g.edges()) {
      if (present[e.u] && present[e.v]) induced.push_back(e);
    }
    // Present nodes whose neighbours are all absent also have row e_v: treat them as isolated, same row.
    const DenseMatrix expected =
        testing::reference_weights(graph::Graph::from_edges(34, induced), "hamilton");
    EXPECT_LE(testing::relative_error(w, expected), 1e-15) << "t = " << t;
  }
  // p = 1: always the full weighting; p = 0: always the identity.
  const DenseMatrix full = testing::reference_weights(g, "hamilton");
  EXPECT_LE(
      testing::relative_error(DenseMatrix(dropout_schedule(g, Weighting::hamilton, 1.0, 3, 1).at(2)), full),
      1e-15);
  EXPECT_TRUE(DenseMatrix(dropout_schedule(g, Weighting::hamilton, 0.0, 3, 1).at(2))
                  .isApprox(DenseMatrix::Identity(34, 34), 0.0));
  EXPECT_THROW(dropout_schedule(g, Weighting::hamilton, -0.1, 3, 1), std::invalid_argument);
  EXPECT_THROW(dropout_schedule(g, Weighting::hamilton, 0.5, 0, 1), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::gossip
