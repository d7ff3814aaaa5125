// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Muffliato closed forms (Corollary 1, Corollary 3, Theorem 4/9, eq. (16), Corollary 5,
// Proposition 1) against literal dense formulas or hand-computed values, and as upper
// bounds on the Theorem-1 / Theorem-12 sums.

#include "netdp/accounting/muffliato/muffliato_bounds.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "accounting/muffliato_test_helpers.hpp"
#include "util/error_of.hpp"

namespace netdp::accounting {
namespace {

using namespace testing;  // NOLINT: the helpers of this test suite
using ::testing::HasSubstr;

std::vector<DenseMatrix> graphs() {
  return {metropolis(9, ring_edges(9)), metropolis(7, star_edges(7)),
          metropolis(12, random_connected_edges(12, 0.25, 7)), metropolis(16, hypercube_edges(4))};
}

/// max over w ∼ v (w != v, W_vw > 0) of W_vw^{-2}, for v in `from`, w outside `from`.
double max_inverse_square(const DenseMatrix& w, const std::vector<graph::NodeId>& from) {
  double worst = 0.0;
  for (graph::NodeId v : from)
    for (int x = 0; x < w.cols(); ++x)
      if (!contains(from, x) && w(v, x) > 0.0) worst = std::max(worst, 1.0 / (w(v, x) * w(v, x)));
  return worst;
}

TEST(MuffliatoCorollary1, MatchesLiteralFormulaAndBoundsTheorem1) {
  const std::size_t rounds = 6;
  for (const DenseMatrix& w : graphs()) {
    const auto n = static_cast<int>(w.rows());
    const DenseMatrix fast = corollary1_sums(to_sparse(w), rounds);
    // Literal: n max_{w∼v} W_vw^{-2} Σ_{t=1}^{T} P(X_t = v | X_0 = u)², P = (W^t)_{u,v}.
    DenseMatrix literal = DenseMatrix::Zero(n, n);
    DenseMatrix power = DenseMatrix::Identity(n, n);
    for (std::size_t t = 1; t <= rounds; ++t) {
      power = power * w;
      for (int v = 0; v < n; ++v)
        for (int u = 0; u < n; ++u) literal(v, u) += power(u, v) * power(u, v);
    }
    for (int v = 0; v < n; ++v) literal.row(v) *= n * max_inverse_square(w, {static_cast<graph::NodeId>(v)});
    literal.diagonal().setZero();
    // Theorem 1 in the corollary's setting (messages t = 0..T-1, observer noise counted).
    MuffliatoOptions options;
    options.bound = MuffliatoBound::paper;  // the paper's formula under test
    options.sigma = 1.0;
    options.observer_noise = ObserverNoise::counted;
    const MuffliatoLosses theorem1 =
        muffliato_all_pairs(gossip::Schedule::fixed(to_sparse(w), rounds), options);
    for (int v = 0; v < n; ++v) {
      for (int u = 0; u < n; ++u) {
        EXPECT_TRUE(close(fast(v, u), literal(v, u)))
            << v << "," << u << ": " << fast(v, u) << " vs " << literal(v, u);
        if (u != v) {
          EXPECT_LE(theorem1.sums()(v, u), fast(v, u) * (1 + 1e-12)) << v << "," << u;
        }
      }
    }
  }
}

TEST(MuffliatoCorollary3, MatchesLiteralFormulaAndBoundsTheorem12) {
  const std::size_t rounds = 5;
  for (const DenseMatrix& w : graphs()) {
    const auto n = static_cast<int>(w.rows());
    const std::vector<graph::NodeId> colluders = {1, 3};
    const Vector fast = corollary3_sums(to_sparse(w), rounds, colluders);
    Vector literal = Vector::Zero(n);
    DenseMatrix power = DenseMatrix::Identity(n, n);
    for (std::size_t t = 1; t <= rounds; ++t) {
      power = power * w;
      for (int u = 0; u < n; ++u) {
        const double p = power(u, 1) + power(u, 3);  // P(X_t ∈ V | X_0 = u)
        literal(u) += p * p;
      }
    }
    literal *= n * max_inverse_square(w, colluders);
    literal(1) = literal(3) = 0.0;
    MuffliatoOptions options;
    options.bound = MuffliatoBound::paper;  // the paper's formula under test
    options.sigma = 1.0;
    options.observer_noise = ObserverNoise::counted;
    const MuffliatoLosses theorem12 =
        muffliato_colluders(gossip::Schedule::fixed(to_sparse(w), rounds), colluders, options);
    for (int u = 0; u < n; ++u) {
      EXPECT_TRUE(close(fast(u), literal(u))) << u;
      EXPECT_LE(theorem12.sums()(0, u), fast(u) * (1 + 1e-12)) << u;
    }
  }
}

TEST(MuffliatoCorollaries, RejectBadInput) {
  DenseMatrix asymmetric = metropolis(5, ring_edges(5));
  asymmetric(0, 1) += 0.1;
  asymmetric(0, 0) -= 0.1;
  EXPECT_THROW((void)corollary1_sums(to_sparse(asymmetric), 3), std::invalid_argument);
  const SparseMatrix w = to_sparse(metropolis(5, ring_edges(5)));
  EXPECT_THROW((void)corollary1_sums(w, 0), std::invalid_argument);
  EXPECT_THROW((void)corollary3_sums(w, 2, {}), std::invalid_argument);
  EXPECT_THROW((void)corollary3_sums(w, 2, {7}), std::invalid_argument);
  EXPECT_THROW((void)corollary3_sums(w, 2, {0, 1, 2, 3, 4}), std::invalid_argument);
}

TEST(MuffliatoTheorem4, ErdosRenyiBoundFormula) {
  // n = 1000, d_v = 14, T = 10, α = 2, Δ = 1, σ = 3, q = 0.0138.
  const RandomGraphBound b = random_graph_bound(1000, 14, 10, 2.0, 1.0, 3.0, 0.0138);
  EXPECT_DOUBLE_EQ(b.neighbour_rdp_epsilon, 2.0 / (2.0 * 9.0));
  EXPECT_DOUBLE_EQ(b.uncapped_non_neighbour_rdp_epsilon, 2.0 * 10.0 * 14.0 / (9.0 * 986.0));
  EXPECT_DOUBLE_EQ(b.non_neighbour_rdp_epsilon, b.uncapped_non_neighbour_rdp_epsilon);
  EXPECT_FALSE(b.capped);
  EXPECT_DOUBLE_EQ(b.neighbour_probability, 0.0138);
  // Many rounds on a small graph: the bound exceeds local DP and is capped.
  const RandomGraphBound capped = random_graph_bound(50, 10, 30, 2.0, 1.0, 3.0, 0.2);
  EXPECT_TRUE(capped.capped);
  EXPECT_DOUBLE_EQ(capped.non_neighbour_rdp_epsilon, capped.neighbour_rdp_epsilon);
  EXPECT_GT(capped.uncapped_non_neighbour_rdp_epsilon, capped.neighbour_rdp_epsilon);
}

TEST(MuffliatoTheorem4, RejectsBadInputNamingTheRule) {
  try {
    (void)random_graph_bound(100, 5, 10, 4.0, 1.0, 2.0, 0.1);  // σ² = 4 < α(α-1)/2 = 6
    ADD_FAILURE() << "expected the weak-convexity condition to be enforced";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("sigma^2 >="));
  }
  EXPECT_THROW((void)random_graph_bound(100, 100, 10, 2.0, 1.0, 3.0, 0.1), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 0, 2.0, 1.0, 3.0, 0.1), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 10, 1.0, 1.0, 3.0, 0.1), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 10, 2.0, 1.0, 0.0, 0.1), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 10, 2.0, 1.0, 3.0, 0.0), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 10, 2.0, 1.0, 3.0, 1.5), std::invalid_argument);
}

using netdp::testing::error_of;

/// |N_t(V)| literally: the nodes w ∉ V with (W_t)_vw != 0 or (W_t)_wv != 0 for some v ∈ V.
std::vector<std::vector<graph::NodeId>> literal_neighbourhoods(const std::vector<DenseMatrix>& ws,
                                                               const std::vector<graph::NodeId>& colluders) {
  std::vector<std::vector<graph::NodeId>> out;
  for (const DenseMatrix& w : ws) {
    std::vector<graph::NodeId> round;
    for (int x = 0; x < w.rows(); ++x) {
      if (contains(colluders, x)) continue;
      bool edge = false;
      for (graph::NodeId v : colluders) edge = edge || w(v, x) != 0.0 || w(x, v) != 0.0;
      if (edge) round.push_back(static_cast<graph::NodeId>(x));
    }
    out.push_back(round);
  }
  return out;
}

struct ColluderCase {
  std::string name;
  std::vector<DenseMatrix> ws;  ///< W_0..W_{T-1}
  std::vector<graph::NodeId> colluders;
};

std::vector<ColluderCase> colluder_cases() {
  std::vector<ColluderCase> cases;
  cases.push_back({"path", repeat(hamilton(6, path_edges(6)), 4), {2}});
  cases.push_back({"path-end", repeat(metropolis(5, path_edges(5)), 6), {0, 4}});
  cases.push_back({"ring", repeat(metropolis(8, ring_edges(8)), 5), {0, 3}});
  cases.push_back({"random", repeat(metropolis(12, random_connected_edges(12, 0.25, 7)), 6), {1, 4, 9}});
  std::vector<DenseMatrix> varying;
  for (unsigned seed = 1; seed <= 5; ++seed)
    varying.push_back(metropolis(10, random_connected_edges(10, 0.2, seed)));
  cases.push_back({"time-varying", varying, {0, 5}});
  std::vector<DenseMatrix> pairwise;
  for (const auto& [a, b] : Edges{{0, 1}, {1, 2}, {2, 3}, {0, 3}, {3, 4}, {1, 4}, {2, 4}})
    pairwise.push_back(pairwise_step(5, a, b));
  cases.push_back({"pairwise", pairwise, {1, 2}});
  return cases;
}

gossip::Schedule schedule_for(const ColluderCase& c) {
  // A fixed W is passed as a fixed schedule (the fast path of a repeated matrix).
  const bool fixed =
      std::all_of(c.ws.begin(), c.ws.end(), [&](const DenseMatrix& w) { return w == c.ws[0]; });
  return fixed ? gossip::Schedule::fixed(to_sparse(c.ws[0]), c.ws.size()) : schedule_of(c.ws);
}

TEST(MuffliatoEq16, CountsColluderNeighboursLiterally) {
  for (const ColluderCase& c : colluder_cases()) {
    SCOPED_TRACE(c.name);
    const gossip::Schedule schedule = schedule_for(c);
    const auto literal = literal_neighbourhoods(c.ws, c.colluders);
    EXPECT_EQ(colluder_neighbourhoods(schedule, c.colluders), literal);
    std::size_t total = 0;
    for (const auto& round : literal) total += round.size();
    EXPECT_EQ(colluder_communications(schedule, c.colluders), total);
    const auto n = static_cast<double>(schedule.num_nodes());
    // α Δ² / (2 n σ²) Σ_t |N_t(V)| with α = 3, Δ = 2, σ = 1.5.
    EXPECT_DOUBLE_EQ(colluder_mean_privacy_loss(schedule, c.colluders, 3.0, 2.0, 1.5),
                     3.0 * 4.0 / (2.0 * n * 2.25) * static_cast<double>(total));
  }
  // Hand counts: on the path 0-1-2-3-4-5, V = {2} has N_t = {1, 3} (4 rounds: 8 messages);
  // on the ring of 8, V = {0, 3} has N_t = {1, 2, 4, 7} (5 rounds: 20 messages).
  EXPECT_EQ(colluder_communications(gossip::Schedule::fixed(to_sparse(hamilton(6, path_edges(6))), 4), {2}),
            8u);
  EXPECT_EQ(
      colluder_communications(gossip::Schedule::fixed(to_sparse(metropolis(8, ring_edges(8))), 5), {3, 0}),
      20u);
}

TEST(MuffliatoEq16, BoundsTheMeanOfTheorem12AndOfTheExactJointView) {
  const double alpha = 2.0, sigma = 1.3;
  for (const ColluderCase& c : colluder_cases()) {
    SCOPED_TRACE(c.name);
    const gossip::Schedule schedule = schedule_for(c);
    const std::size_t n = schedule.num_nodes();
    const double rhs = colluder_mean_privacy_loss(schedule, c.colluders, alpha, 1.0, sigma);
    const auto messages = static_cast<double>(colluder_communications(schedule, c.colluders));
    for (MessageConvention convention : {MessageConvention::paper, MessageConvention::authors_code}) {
      MuffliatoOptions options;
      options.bound = MuffliatoBound::paper;  // the paper's formula under test
      options.sigma = sigma;
      options.messages = convention;
      options.require_connected = false;  // the pairwise steps do not connect every node
      for (ObserverNoise noise : {ObserverNoise::counted, ObserverNoise::known}) {
        options.observer_noise = noise;
        const MuffliatoLosses theorem12 = muffliato_theorem1_losses(schedule, {{c.colluders}, {}}, options);
        // ε_V = (1/n) Σ_{u∉V} α Δ²/(2σ²) S(V, u), uncapped.
        double sum = 0.0;
        for (std::size_t u = 0; u < n; ++u) {
          if (!contains(c.colluders, static_cast<int>(u)))
            sum += theorem12.sums()(0, static_cast<Eigen::Index>(u));
        }
        const double mean = alpha / (2.0 * sigma * sigma) * sum / static_cast<double>(n);
        EXPECT_LE(mean, rhs * (1 + 1e-12));
        // Known noise: the ratios of one message sum to 1 over u ∉ V, so eq. (16) holds with equality
        // (every row of W_{0:t} here has a non-zero entry outside V).
        if (noise == ObserverNoise::known) {
          EXPECT_TRUE(close(sum, messages, 1e-10)) << sum << " vs " << messages;
        }
      }
      // The exact joint view: Σ_{u∉V} ℓ_u = rank(A′) <= number of messages (literal oracle).
      double exact = 0.0;
      for (std::size_t u = 0; u < n; ++u) {
        if (!contains(c.colluders, static_cast<int>(u)))
          exact += exact_joint_sum(c.ws, convention, c.colluders, static_cast<int>(u));
      }
      EXPECT_LE(exact, messages * (1 + 1e-9));
      EXPECT_NEAR(exact, std::round(exact), 1e-6);  // a rank
    }
  }
}

TEST(MuffliatoEq16, RejectsBadColluderSets) {
  const gossip::Schedule schedule = gossip::Schedule::fixed(to_sparse(metropolis(5, ring_edges(5))), 3);
  EXPECT_THAT(error_of([&] { (void)colluder_communications(schedule, {}); }), HasSubstr("must not be empty"));
  EXPECT_THAT(error_of([&] { (void)colluder_communications(schedule, {7}); }),
              HasSubstr("colluder node 7 is out of range"));
  EXPECT_THAT(error_of([&] {
                (void)colluder_communications(schedule, {1, 1});
              }),
              HasSubstr("colluder node 1 appears twice"));
  EXPECT_THAT(error_of([&] {
                (void)colluder_communications(schedule, {0, 1, 2, 3, 4});
              }),
              HasSubstr("no target left"));
  EXPECT_THAT(error_of([&] { (void)colluder_mean_privacy_loss(schedule, {0}, 1.0, 1.0, 1.0); }),
              HasSubstr("alpha must be a finite number > 1, got 1"));
  EXPECT_THAT(error_of([&] { (void)colluder_mean_privacy_loss(schedule, {0}, 2.0, 1.0, 0.0); }),
              HasSubstr("sigma must be a finite number > 0, got 0"));
  EXPECT_THAT(error_of([&] { (void)colluder_mean_privacy_loss(schedule, {0}, 2.0, -1.0, 1.0); }),
              HasSubstr("sensitivity must be a finite number > 0, got -1"));
}

TEST(MuffliatoCorollary5, TwoCasesOnHandComputedInputs) {
  // n = 1000, |V| = 3, d_V = 40, T = 10, α = 2, Δ = 1, σ = 3, q = 0.0138.
  const ColluderRandomGraphBound b = colluder_random_graph_bound(1000, 3, 40, 10, 2.0, 1.0, 3.0, 0.0138);
  EXPECT_DOUBLE_EQ(b.adjacent_rdp_epsilon, 2.0 / 18.0);
  EXPECT_DOUBLE_EQ(b.uncapped_non_adjacent_rdp_epsilon, 2.0 * 10.0 * 40.0 / (9.0 * 960.0));  // 0.0925926
  EXPECT_DOUBLE_EQ(b.non_adjacent_rdp_epsilon, b.uncapped_non_adjacent_rdp_epsilon);
  EXPECT_FALSE(b.capped);
  // (1 − 0.0138)³ = 0.9862³ = 0.959168...
  EXPECT_NEAR(b.non_adjacent_probability, 0.9862 * 0.9862 * 0.9862, 1e-15);
  EXPECT_NEAR(b.adjacent_probability, 1.0 - 0.9862 * 0.9862 * 0.9862, 1e-15);
  EXPECT_NEAR(b.non_adjacent_probability, 0.959168691928, 1e-12);
  // Δ² scales both values (the printed corollary omits it): Δ = 2, σ = 3 (σ² = 9 >= Δ² α(α−1)/2 = 4).
  const ColluderRandomGraphBound d = colluder_random_graph_bound(1000, 3, 40, 10, 2.0, 2.0, 3.0, 0.0138);
  EXPECT_DOUBLE_EQ(d.adjacent_rdp_epsilon, 4.0 * b.adjacent_rdp_epsilon);
  EXPECT_DOUBLE_EQ(d.uncapped_non_adjacent_rdp_epsilon, 4.0 * b.uncapped_non_adjacent_rdp_epsilon);
  // One colluder: Corollary 5 is Theorem 4 (probability of adjacency q).
  const ColluderRandomGraphBound one = colluder_random_graph_bound(1000, 1, 14, 10, 2.0, 1.0, 3.0, 0.0138);
  const RandomGraphBound theorem4 = random_graph_bound(1000, 14, 10, 2.0, 1.0, 3.0, 0.0138);
  EXPECT_DOUBLE_EQ(one.adjacent_probability, theorem4.neighbour_probability);
  EXPECT_DOUBLE_EQ(one.uncapped_non_adjacent_rdp_epsilon, theorem4.uncapped_non_neighbour_rdp_epsilon);
  EXPECT_DOUBLE_EQ(one.adjacent_rdp_epsilon, theorem4.neighbour_rdp_epsilon);
  // Many rounds on a small graph: capped at the local-DP value; q = 1: always adjacent.
  const ColluderRandomGraphBound capped = colluder_random_graph_bound(50, 5, 30, 30, 2.0, 1.0, 3.0, 1.0);
  EXPECT_TRUE(capped.capped);
  EXPECT_DOUBLE_EQ(capped.non_adjacent_rdp_epsilon, capped.adjacent_rdp_epsilon);
  EXPECT_DOUBLE_EQ(capped.uncapped_non_adjacent_rdp_epsilon, 2.0 * 30.0 * 30.0 / (9.0 * 20.0));
  EXPECT_DOUBLE_EQ(capped.adjacent_probability, 1.0);
  EXPECT_DOUBLE_EQ(capped.non_adjacent_probability, 0.0);
}

TEST(MuffliatoCorollary5, RejectsBadInputNamingTheValueAndRule) {
  const auto bound = [](std::size_t n, std::size_t v, std::size_t d, std::size_t t, double alpha,
                        double delta, double sigma, double q) {
    return error_of([&] { (void)colluder_random_graph_bound(n, v, d, t, alpha, delta, sigma, q); });
  };
  EXPECT_EQ(bound(100, 3, 10, 5, 2.0, 1.0, 3.0, 0.1), "");
  EXPECT_THAT(bound(100, 3, 10, 5, 1.0, 1.0, 3.0, 0.1),
              HasSubstr("alpha must be a finite number > 1, got 1"));
  EXPECT_THAT(bound(100, 3, 10, 5, 4.0, 1.0, 2.0, 0.1),  // σ² = 4 < Δ² α(α−1)/2 = 6
              HasSubstr("Corollary 5 needs sigma^2 >= Delta^2 alpha (alpha - 1) / 2 = 6"));
  EXPECT_THAT(bound(100, 3, 10, 5, 2.0, 1.0, 3.0, 0.0),
              HasSubstr("edge probability q must be in (0, 1], got 0"));
  EXPECT_THAT(bound(100, 3, 10, 5, 2.0, 1.0, 3.0, 1.5),
              HasSubstr("edge probability q must be in (0, 1], got 1.5"));
  EXPECT_THAT(bound(100, 3, 100, 5, 2.0, 1.0, 3.0, 0.1), HasSubstr("d_V must be < n = 100, got 100"));
  EXPECT_THAT(bound(100, 3, 98, 5, 2.0, 1.0, 3.0, 0.1), HasSubstr("must be <= n - |V| = 97, got 98"));
  EXPECT_THAT(bound(100, 0, 10, 5, 2.0, 1.0, 3.0, 0.1), HasSubstr("colluders |V| must be in [1, n)"));
  EXPECT_THAT(bound(100, 100, 0, 5, 2.0, 1.0, 3.0, 0.1), HasSubstr("got 100"));
  EXPECT_THAT(bound(100, 3, 10, 0, 2.0, 1.0, 3.0, 0.1), HasSubstr("rounds T must be >= 1, got 0"));
  EXPECT_THAT(bound(100, 3, 10, 5, 2.0, 0.0, 3.0, 0.1), HasSubstr("sensitivity must be a finite number > 0"));
  EXPECT_THAT(bound(100, 3, 10, 5, 2.0, 1.0, 0.0, 0.1), HasSubstr("sigma must be a finite number > 0"));
  EXPECT_THAT(bound(1, 1, 0, 5, 2.0, 1.0, 3.0, 0.1), HasSubstr("n must be >= 2, got 1"));
}

TEST(MuffliatoProposition1, HandComputedSum) {
  // n = 10, K = 3, α = 2, Δ_φ = 1, σ = 2: Δ² α / σ² = 1/2 and the terms are
  // β_0 = 1: 1;  β_1 = 0, |N_1| = 2: 3·2/8 = 0.75;  β_2 = 0, |N_2| = 5: 3·5/5 = 3;  β_3 = 0, |N_3| = 0: 0.
  const std::vector<Proposition1Step> steps = {{true, 4}, {false, 2}, {false, 5}, {false, 0}};
  EXPECT_DOUBLE_EQ(proposition1_bound(steps, 10, 3, 2.0, 1.0, 2.0), 0.5 * (1.0 + 0.75 + 3.0));
  // Δ_φ = 1.5: times 2.25 (σ² = 4 >= Δ² α(α−1)/2 = 2.25).
  EXPECT_DOUBLE_EQ(proposition1_bound(steps, 10, 3, 2.0, 1.5, 2.0), 2.25 * 0.5 * 4.75);
}

TEST(MuffliatoProposition1, StepsFromATimeVaryingSchedule) {
  const int n = 14;
  std::vector<DenseMatrix> ws;
  for (unsigned seed = 11; seed < 17; ++seed)
    ws.push_back(metropolis(n, random_connected_edges(n, 0.15, seed)));
  const gossip::Schedule steps = schedule_of(ws);
  const std::vector<graph::NodeId> colluders = {2, 7, 8};
  const auto literal = literal_neighbourhoods(ws, colluders);
  const std::size_t k = 4;
  const double alpha = 2.0, delta = 1.0, sigma = 1.5;
  for (int u = 0; u < n; ++u) {
    if (contains(colluders, u)) continue;
    const std::vector<Proposition1Step> got =
        proposition1_steps(steps, colluders, static_cast<graph::NodeId>(u));
    ASSERT_EQ(got.size(), ws.size());
    double sum = 0.0;
    for (std::size_t t = 0; t < ws.size(); ++t) {
      const bool beta = contains(literal[t], u);
      const auto d = static_cast<double>(literal[t].size());
      EXPECT_EQ(got[t].adjacent, beta) << u << " at " << t;
      EXPECT_EQ(got[t].colluder_neighbours, literal[t].size()) << u << " at " << t;
      sum += beta ? 1.0 : static_cast<double>(k) * d / (n - d);
    }
    EXPECT_TRUE(close(proposition1_bound(got, n, k, alpha, delta, sigma),
                      delta * delta * alpha / (sigma * sigma) * sum));
  }
  EXPECT_THAT(error_of([&] { (void)proposition1_steps(steps, colluders, 7); }),
              HasSubstr("target 7 is one of the colluders"));
  EXPECT_THAT(error_of([&] { (void)proposition1_steps(steps, colluders, 14); }),
              HasSubstr("target 14 is out of range"));
}

TEST(MuffliatoProposition1, ExpectationMatchesEnumerationOfAllGraphs) {
  // Every graph on n = 6 nodes (15 possible edges, 2^15 graphs) with its G(n, q) probability;
  // colluders V = {0, 1}, target u = 2.
  const int n = 6;
  const std::vector<graph::NodeId> colluders = {0, 1};
  const int u = 2;
  const std::size_t k = 3, num_steps = 4;
  const double alpha = 2.0, delta = 1.0, sigma = 2.0;
  Edges all;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) all.emplace_back(a, b);
  for (double q : {0.1, 0.35, 0.8}) {
    double expected_term = 0.0, total_probability = 0.0;
    for (unsigned mask = 0; mask < (1u << all.size()); ++mask) {
      double probability = 1.0;
      std::vector<char> neighbour(n, 0);
      for (std::size_t e = 0; e < all.size(); ++e) {
        const bool present = (mask >> e) & 1u;
        probability *= present ? q : 1.0 - q;
        if (!present) continue;
        const auto [a, b] = all[e];
        if (contains(colluders, a) && !contains(colluders, b)) neighbour[b] = 1;
        if (contains(colluders, b) && !contains(colluders, a)) neighbour[a] = 1;
      }
      const double d = std::count(neighbour.begin(), neighbour.end(), 1);
      expected_term += probability * (neighbour[u] ? 1.0 : static_cast<double>(k) * d / (n - d));
      total_probability += probability;
    }
    ASSERT_NEAR(total_probability, 1.0, 1e-12);
    const double literal =
        delta * delta * alpha / (sigma * sigma) * static_cast<double>(num_steps) * expected_term;
    EXPECT_TRUE(close(proposition1_expected_bound(n, colluders.size(), num_steps, k, alpha, delta, sigma, q),
                      literal, 1e-12))
        << q;
  }
  // q = 1: u is always adjacent to V, every term is 1.
  EXPECT_DOUBLE_EQ(proposition1_expected_bound(50, 2, 7, 3, 2.0, 1.0, 2.0, 1.0), 0.5 * 7.0);
}

TEST(MuffliatoProposition1, RejectsBadInputNamingTheValue) {
  const std::vector<Proposition1Step> steps = {{false, 2}};
  EXPECT_EQ(error_of([&] { (void)proposition1_bound(steps, 10, 3, 2.0, 1.0, 2.0); }), "");
  EXPECT_THAT(error_of([&] { (void)proposition1_bound({}, 10, 3, 2.0, 1.0, 2.0); }),
              HasSubstr("at least one gradient step"));
  EXPECT_THAT(error_of([&] { (void)proposition1_bound(steps, 10, 0, 2.0, 1.0, 2.0); }),
              HasSubstr("communication rounds K must be >= 1, got 0"));
  EXPECT_THAT(error_of([&] {
                (void)proposition1_bound({{false, 10}}, 10, 3, 2.0, 1.0, 2.0);
              }),
              HasSubstr("|N_t(V)| at step t = 0 must be < n = 10, got 10"));
  EXPECT_THAT(error_of([&] {
                (void)proposition1_bound({{false, 1}, {true, 0}}, 10, 3, 2.0, 1.0, 2.0);
              }),
              HasSubstr("step t = 1 has beta_t = 1"));
  EXPECT_THAT(error_of([&] { (void)proposition1_bound(steps, 10, 3, 4.0, 1.0, 2.0); }),
              HasSubstr("Proposition 1 needs sigma^2 >= Delta^2 alpha (alpha - 1) / 2 = 6"));
  EXPECT_THAT(error_of([&] { (void)proposition1_bound(steps, 10, 3, 0.5, 1.0, 2.0); }),
              HasSubstr("alpha must be a finite number > 1, got 0.5"));
  EXPECT_THAT(error_of([&] { (void)proposition1_bound(steps, 1, 3, 2.0, 1.0, 2.0); }),
              HasSubstr("n must be >= 2"));
  EXPECT_THAT(error_of([&] { (void)proposition1_expected_bound(10, 0, 3, 3, 2.0, 1.0, 2.0, 0.2); }),
              HasSubstr("colluders |V| must be in [1, n)"));
  EXPECT_THAT(error_of([&] { (void)proposition1_expected_bound(10, 2, 0, 3, 2.0, 1.0, 2.0, 0.2); }),
              HasSubstr("at least one gradient step (T_stop + 1 >= 1), got 0"));
  EXPECT_THAT(error_of([&] { (void)proposition1_expected_bound(10, 2, 3, 3, 2.0, 1.0, 2.0, 0.0); }),
              HasSubstr("edge probability q must be in (0, 1], got 0"));
  EXPECT_THAT(error_of([&] { (void)proposition1_expected_bound(10, 2, 3, 0, 2.0, 1.0, 2.0, 0.2); }),
              HasSubstr("K must be >= 1, got 0"));
}

}  // namespace
}  // namespace netdp::accounting
