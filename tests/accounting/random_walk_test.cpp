// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Tests of the random-walk accountant: Lemma 2 composed over N_u contributions,
// the condition of Theorem 3, the local-DP cap, sender-known view (Appendix B.1)
// and collusion (Appendix D), against literal dense formulas written here.

#include "netdp/accounting/random_walk/random_walk.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "netdp/graph/generators.hpp"
#include "random_walk_test_helpers.hpp"

namespace netdp::accounting {
namespace {

using rw_test::literal_series;

RandomWalkOptions options_for(std::size_t steps, double sigma) {
  RandomWalkOptions options;
  options.steps = steps;
  options.sigma = sigma;
  return options;
}

// Lemma 2 (eq. 13) with β(i) = α/(2σ² i), times N_u = T/n, capped at N_u α/(2σ²).
TEST(RandomWalkAccountant, PairMatchesLemma2Literal) {
  const gossip::GossipMatrix w = rw_test::hamilton(graph::grid(3, 4));
  const std::size_t steps = 48;
  const double sigma = 20.0;
  const double alpha = 4.0;
  const RandomWalkLosses losses(w, options_for(steps, sigma));
  const DenseMatrix s = literal_series(DenseMatrix(w.matrix()), steps);
  const double n = 12.0;
  const double contributions = steps / n;
  EXPECT_DOUBLE_EQ(losses.contributions(), contributions);
  const DenseMatrix all = losses.rdp_epsilon(alpha);
  for (graph::NodeId v = 0; v < 12; ++v) {
    EXPECT_EQ(all(v, v), 0.0);
    for (graph::NodeId u = 0; u < 12; ++u) {
      if (u == v) continue;
      const double amplified = 2.0 * alpha / (2.0 * sigma * sigma) * s(u, v);
      const double local = alpha / (2.0 * sigma * sigma);
      const RandomWalkPairLoss loss = losses.pair(v, u, alpha);
      EXPECT_EQ(loss.observer, v);
      EXPECT_EQ(loss.target, u);
      EXPECT_TRUE(loss.condition_ok);
      EXPECT_NEAR(loss.uncapped_rdp_epsilon, contributions * amplified, 1e-9 * contributions * amplified);
      EXPECT_NEAR(loss.rdp_epsilon, contributions * std::min(amplified, local), 1e-9 * loss.rdp_epsilon);
      EXPECT_EQ(loss.capped, amplified > local);
      EXPECT_EQ(all(v, u), loss.rdp_epsilon);
      EXPECT_EQ(losses.rdp_epsilon_at(v, u, alpha), loss.rdp_epsilon);
    }
  }
  const DenseMatrix uncapped = losses.uncapped_rdp_epsilon(alpha);
  EXPECT_EQ(uncapped(3, 7), losses.pair(3, 7, alpha).uncapped_rdp_epsilon);
}

TEST(RandomWalkAccountant, LocalCapOnSparseGraphsAndExplicitContributions) {
  // Ring without self-loops: a neighbour receives the token w.p. 1/2 at step 1, so the amplified
  // value 2 · (α/2σ²) · (1/2 + …) exceeds the local-DP loss of one step.
  const gossip::GossipMatrix w = rw_test::lazy_ring(8, 0.0);
  RandomWalkOptions options = options_for(20, 10.0);
  options.contributions = 3.0;  // cap K of Remark 5
  const RandomWalkLosses losses(w, options);
  const RandomWalkPairLoss near = losses.pair(1, 0, 2.0);
  EXPECT_TRUE(near.capped);
  EXPECT_NEAR(near.rdp_epsilon, 3.0 * 2.0 / 200.0, 1e-15);
  EXPECT_GT(near.uncapped_rdp_epsilon, near.rdp_epsilon);
  EXPECT_DOUBLE_EQ(near.contributions, 3.0);
  const RandomWalkPairLoss far = losses.pair(4, 0, 2.0);
  EXPECT_LT(far.rdp_epsilon, near.rdp_epsilon);
}

// Theorem 3 requires (σ/Δ)² >= 2α(α−1); outside it only the local-DP cap is a valid bound.
TEST(RandomWalkAccountant, ConditionOfTheorem3) {
  EXPECT_TRUE(random_walk_condition_holds(2.0, 2.0));  // 4 >= 4
  EXPECT_FALSE(random_walk_condition_holds(2.0, 1.999));
  EXPECT_TRUE(random_walk_condition_holds(2.0, 4.0, 2.0));
  EXPECT_FALSE(random_walk_condition_holds(2.0, 3.9, 2.0));
  const double a = random_walk_max_alpha(10.0);
  EXPECT_TRUE(random_walk_condition_holds(a, 10.0));
  EXPECT_FALSE(random_walk_condition_holds(a * (1 + 1e-12), 10.0));
  EXPECT_NEAR(2.0 * a * (a - 1.0), 100.0, 1e-9);

  const gossip::GossipMatrix w = rw_test::hamilton(graph::hypercube(3));
  const RandomWalkLosses losses(w, options_for(50, 3.0));
  const RandomWalkPairLoss bad = losses.pair(7, 0, 3.0);  // 2·3·2 = 12 > 9
  EXPECT_FALSE(bad.condition_ok);
  EXPECT_TRUE(bad.capped);
  EXPECT_NEAR(bad.rdp_epsilon, losses.contributions() * 3.0 / 18.0, 1e-15);
  EXPECT_TRUE(losses.pair(7, 0, 2.0).condition_ok);
}

// Lemma 1 with c = α(α−1)Δ²/(2σ²) instead of 1.
TEST(RandomWalkAccountant, TightWeakConvexityAndSensitivity) {
  const gossip::GossipMatrix w = rw_test::hamilton(graph::hypercube(3));
  RandomWalkOptions options = options_for(64, 30.0);
  options.sensitivity = 2.0;
  options.weak_convexity = WeakConvexity::tight;
  const RandomWalkLosses losses(w, options);
  const DenseMatrix s = literal_series(DenseMatrix(w.matrix()), 64);
  const double alpha = 5.0;
  const double local = alpha * 4.0 / (2.0 * 900.0);
  const double c = (alpha - 1.0) * local;
  const double expected = 8.0 * (1.0 + c) * local * s(0, 7);
  const RandomWalkPairLoss loss = losses.pair(7, 0, alpha);
  EXPECT_NEAR(loss.uncapped_rdp_epsilon, expected, 1e-9 * expected);
  EXPECT_NEAR(loss.rdp_epsilon, expected, 1e-9 * expected);
}

// Appendix B.1: ε̃(u→v) = max_{w ∈ N(v)} ε(u→w); when u ∈ N(v) the direct hop costs the local loss.
TEST(RandomWalkAccountant, SenderKnownIsMaxOverNeighbours) {
  const graph::Graph g = graph::grid(3, 3);
  const gossip::GossipMatrix w = rw_test::hamilton(g);
  RandomWalkOptions options = options_for(90, 40.0);
  options.view = RandomWalkView::sender_known;
  const RandomWalkLosses losses(w, options);
  const DenseMatrix s = literal_series(DenseMatrix(w.matrix()), 90);
  const double alpha = 3.0;
  const double local = alpha / (2.0 * 1600.0);
  for (graph::NodeId v = 0; v < 9; ++v) {
    for (graph::NodeId u = 0; u < 9; ++u) {
      if (u == v) continue;
      double worst = 0.0;
      for (const graph::NodeId nb : g.neighbors(v))
        worst = std::max(worst, nb == u ? local : 2.0 * local * s(u, nb));
      const double expected = losses.contributions() * std::min(worst, local);
      EXPECT_NEAR(losses.pair(v, u, alpha).rdp_epsilon, expected, 1e-9 * expected);
    }
  }
  EXPECT_NEAR(losses.pair(1, 0, alpha).rdp_epsilon, losses.contributions() * local, 1e-15);
}

// Appendix D, eq. 17-18: a coalition F sees Σ_{v∈F} (W^i)_{uv}/i.
TEST(RandomWalkAccountant, CollusionSumsOverTheCoalition) {
  const gossip::GossipMatrix w = rw_test::hamilton(graph::hypercube(4));
  const RandomWalkLosses losses(w, options_for(200, 100.0));
  const DenseMatrix s = literal_series(DenseMatrix(w.matrix()), 200);
  const std::vector<graph::NodeId> coalition = {3, 12, 15};
  const double alpha = 2.5;
  const double local = alpha / (2.0 * 10000.0);
  const double expected =
      losses.contributions() * std::min(2.0 * local * (s(0, 3) + s(0, 12) + s(0, 15)), local);
  const RandomWalkPairLoss loss = losses.colluders(coalition, 0, alpha);
  EXPECT_NEAR(loss.rdp_epsilon, expected, 1e-9 * expected);
  EXPECT_GE(loss.rdp_epsilon, losses.pair(3, 0, alpha).rdp_epsilon);
  const std::vector<graph::NodeId> with_target = {0, 3};
  EXPECT_THROW(losses.colluders(with_target, 0, alpha), std::invalid_argument);
  const std::vector<graph::NodeId> repeated = {3, 3};
  EXPECT_THROW(losses.colluders(repeated, 0, alpha), std::invalid_argument);
  EXPECT_THROW(losses.colluders({}, 0, alpha), std::invalid_argument);
}

TEST(RandomWalkAccountant, HypercubeLossDependsOnlyOnDistance) {
  const unsigned d = 5;
  const gossip::GossipMatrix w = rw_test::hamilton(graph::hypercube(d));
  const RandomWalkLosses losses(w, options_for(300, 50.0));
  const DenseMatrix eps = losses.rdp_epsilon(4.0);
  std::vector<double> by_distance(d + 1, -1.0);
  for (Eigen::Index v = 0; v < eps.rows(); ++v) {
    for (Eigen::Index u = 0; u < eps.cols(); ++u) {
      if (u == v) continue;
      double& ref = by_distance[rw_test::hamming(u, v)];
      if (ref < 0) ref = eps(v, u);
      EXPECT_NEAR(eps(v, u), ref, 1e-12 * ref);
    }
  }
  for (unsigned k = 1; k <= d; ++k) EXPECT_GT(by_distance[k], 0.0);
}

TEST(RandomWalkAccountant, RejectsBadInput) {
  const gossip::GossipMatrix w = rw_test::lazy_ring(6, 0.5);
  EXPECT_THROW(RandomWalkLosses(w, options_for(0, 1.0)), std::invalid_argument);
  EXPECT_THROW(RandomWalkLosses(w, options_for(10, 0.0)), std::invalid_argument);
  EXPECT_THROW(RandomWalkLosses(w, options_for(10, -1.0)), std::invalid_argument);
  RandomWalkOptions bad_contributions = options_for(10, 1.0);
  bad_contributions.contributions = -1.0;
  EXPECT_THROW(RandomWalkLosses(w, bad_contributions), std::invalid_argument);
  RandomWalkOptions zero_delta = options_for(10, 1.0);
  zero_delta.sensitivity = 0.0;
  EXPECT_THROW(RandomWalkLosses(w, zero_delta), std::invalid_argument);

  const RandomWalkLosses losses(w, options_for(10, 5.0));
  EXPECT_THROW(losses.pair(0, 1, 1.0), std::invalid_argument);
  EXPECT_THROW(losses.pair(0, 1, 0.5), std::invalid_argument);
  EXPECT_THROW(losses.pair(6, 1, 2.0), std::invalid_argument);
  EXPECT_THROW(losses.pair(0, 6, 2.0), std::invalid_argument);
  EXPECT_THROW(losses.pair(2, 2, 2.0), std::invalid_argument);
  EXPECT_THROW(losses.rdp_epsilon(1.0), std::invalid_argument);

  // The default N_u = T/n assumes a doubly stochastic W.
  const gossip::GossipMatrix closed = rw_test::closed_row(graph::star(5));
  EXPECT_THROW(RandomWalkLosses(closed, options_for(10, 5.0)), std::invalid_argument);
  RandomWalkOptions explicit_count = options_for(10, 5.0);
  explicit_count.contributions = 2.0;
  EXPECT_NO_THROW(RandomWalkLosses(closed, explicit_count));

  RandomWalkSeries wrong = random_walk_series(w, 5);
  EXPECT_THROW(RandomWalkLosses(w, wrong, options_for(10, 5.0)), std::invalid_argument);
  // A shared series is checked the same way, a missing one refused; a valid one is shared, not copied.
  EXPECT_THROW(RandomWalkLosses(w, std::make_shared<const RandomWalkSeries>(wrong), options_for(10, 5.0)),
               std::invalid_argument);
  EXPECT_THROW(RandomWalkLosses(w, std::shared_ptr<const RandomWalkSeries>{}, options_for(10, 5.0)),
               std::invalid_argument);
  const auto shared = std::make_shared<const RandomWalkSeries>(random_walk_series(w, 10));
  EXPECT_EQ(RandomWalkLosses(w, shared, options_for(10, 5.0)).shared_series().get(), shared.get());
}

}  // namespace
}  // namespace netdp::accounting

namespace netdp::accounting {
namespace {

// (ε, δ) through the dp module: the curve is the reported ε(α) (cap-only beyond the condition),
// and the conversion is Canonne–Kamath–Steinke's: ε(α) + log((α−1)/α) − (log δ + log α)/(α−1).
TEST(RandomWalkAccountant, ConversionToEpsilonDelta) {
  const gossip::GossipMatrix w = rw_test::hamilton(graph::hypercube(4));
  const RandomWalkLosses losses(w, options_for(160, 8.0));
  const double delta = 1e-6;
  const dp::RdpConversion dp = losses.to_dp(5, 0, delta);
  auto convert = [&](double alpha) {
    return losses.rdp_epsilon_at(5, 0, alpha) + std::log((alpha - 1.0) / alpha) -
           (std::log(delta) + std::log(alpha)) / (alpha - 1.0);
  };
  EXPECT_GT(dp.alpha, 1.0);
  EXPECT_NEAR(dp.epsilon, convert(dp.alpha), 1e-9 * dp.epsilon);
  for (const double alpha : {1.5, 2.0, 4.0, 8.0, 16.0, 64.0})
    EXPECT_LE(dp.epsilon, convert(alpha) * (1 + 1e-12));
  const dp::RdpCurve curve = losses.rdp_curve(5, 0, {2.0, 3.0, 100.0});
  EXPECT_EQ(curve.epsilons()[0], losses.pair(5, 0, 2.0).rdp_epsilon);
  EXPECT_EQ(curve.epsilons()[2], losses.pair(5, 0, 100.0).rdp_epsilon);  // cap only: 2·100·99 > 64
  EXPECT_FALSE(losses.pair(5, 0, 100.0).condition_ok);
  EXPECT_THROW(losses.to_dp(5, 5, delta), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
