// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Koskela–Kulkarni accountants: the structured path against the literal dense
// reference of linear_system_test_helpers.hpp (the paper's H_T and pseudo-inverse).

#include "netdp/accounting/linear_system/linear_system.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

#include "accounting/linear_system_test_helpers.hpp"
#include "accounting/sdp_reference.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/graph/generators.hpp"

namespace netdp::accounting {
namespace {

using testing::brute_force_sign_max;
using testing::closed_row_dense;
using testing::delete_noise_columns;
using testing::hamilton_dense;
using testing::paper_gram;
using testing::paper_h;
using testing::relative_error;

std::vector<graph::NodeId> all_nodes(std::size_t n) {
  std::vector<graph::NodeId> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<graph::NodeId>(i);
  return v;
}

gossip::Schedule fixed_schedule(const DenseMatrix& w, std::size_t steps) {
  return gossip::Schedule::fixed(SparseMatrix(w.sparseView()), steps);
}

graph::Graph connected_er(std::size_t n, double p, std::uint64_t seed) {
  graph::ErdosRenyiOptions options;
  options.connected = true;
  return graph::erdos_renyi(n, p, seed, options);
}

struct Case {
  std::vector<DenseMatrix> ws;
  LinearSystemOptions options;
};

/// Every pair (observer, target) of the structured path vs the paper's literal formula.
void expect_all_pairs_match(const Case& c) {
  const gossip::Schedule schedule =
      c.ws.size() == 1 ? fixed_schedule(c.ws.front(), c.options.rounds * c.options.gossip_steps) : [&] {
        std::vector<SparseMatrix> seq;
        for (const auto& w : c.ws) seq.emplace_back(w.sparseView());
        return gossip::Schedule::sequence(seq);
      }();
  const std::size_t n = schedule.num_nodes();
  const auto nodes = all_nodes(n);
  PairwiseOptions pairwise;
  pairwise.keep_gram = true;
  const auto results = account_all_pairs(schedule, nodes, nodes, c.options, pairwise);
  ASSERT_EQ(results.size(), n * (n - 1));
  const int p = c.options.first_power.value_or(c.options.view == LinearSystemView::plain ? 0 : 1);
  const auto ni = static_cast<Eigen::Index>(n);
  for (const auto& r : results) {
    const graph::NodeId i = r.pair.observers.front();
    const graph::NodeId j = r.pair.target;
    std::vector<graph::NodeId> rows;
    if (c.options.view == LinearSystemView::secure_sum) {
      rows = {i};
    } else if (c.options.view == LinearSystemView::plain) {
      rows = {j};
    } else {
      for (graph::NodeId v = 0; v < n; ++v) {
        bool neighbour = v == j;
        for (const auto& w : c.ws) neighbour = neighbour || w(j, v) != 0.0 || w(v, j) != 0.0;
        if (neighbour) rows.push_back(v);
      }
    }
    const DenseMatrix h = paper_h(c.ws, rows, c.options.rounds, c.options.gossip_steps, p);
    const std::vector<graph::NodeId> excluded =
        c.options.keep_observer_noise ? std::vector<graph::NodeId>{} : std::vector<graph::NodeId>{i};
    const DenseMatrix ref = paper_gram(h, delete_noise_columns(h, ni, excluded), ni, j, c.options.rounds);
    ASSERT_TRUE(r.gram.has_value());
    EXPECT_LT(relative_error(*r.gram, ref), 1e-9) << "observer " << i << " target " << j;
    EXPECT_NEAR(r.pair.sensitivity_squared_ones, ref.sum(), 1e-9 * ref.cwiseAbs().sum());
    EXPECT_NEAR(r.pair.sensitivity_squared_sum_abs, ref.cwiseAbs().sum(), 1e-9 * ref.cwiseAbs().sum());
    // The default release is a vector: certified is the SDP value of the paper's K (literal barrier
    // solver), never above min(Σ|K|, T) (Σ|K| widened entry by entry when a rank was decided).
    const double local = std::min(r.pair.sensitivity_squared_sum_abs, static_cast<double>(c.options.rounds));
    const double vector = std::min(testing::barrier_sdp_value(ref), static_cast<double>(c.options.rounds));
    EXPECT_LE(r.pair.sensitivity_squared_certified, local * (1 + 1e-12));
    EXPECT_GE(r.pair.sensitivity_squared_certified, vector * (1 - 1e-7));
    if (r.pair.exact) {
      EXPECT_NEAR(r.pair.sensitivity_squared_certified, vector, 1e-7 * vector);
    }
    EXPECT_GE(r.pair.sensitivity_squared_certified, testing::brute_force_sign_max(ref) * (1 - 1e-9));
    EXPECT_EQ(r.pair.range_residual, 0.0);
  }
}

TEST(LinearSystem, SecureSumRingMatchesPaperBothNoiseVariantsAndPowers) {
  const DenseMatrix w = hamilton_dense(graph::ring(7));
  for (const bool keep : {false, true}) {
    for (const int p : {0, 1}) {
      Case c{{w}, {}};
      c.options.rounds = 5;
      c.options.keep_observer_noise = keep;
      c.options.first_power = p;
      SCOPED_TRACE(::testing::Message() << "keep=" << keep << " p=" << p);
      expect_all_pairs_match(c);
    }
  }
}

TEST(LinearSystem, SecureSumErdosRenyiMatchesPaper) {
  Case c{{hamilton_dense(connected_er(20, 0.25, 7))}, {}};
  c.options.rounds = 6;
  expect_all_pairs_match(c);
}

TEST(LinearSystem, SecureSumStarAndClosedRowMatchPaper) {
  Case star{{hamilton_dense(graph::star(9))}, {}};
  star.options.rounds = 4;
  expect_all_pairs_match(star);
  Case row{{closed_row_dense(connected_er(12, 0.3, 3))}, {}};
  row.options.rounds = 5;
  expect_all_pairs_match(row);
}

TEST(LinearSystem, SeveralGossipStepsPerInjectionMatchPaper) {
  Case c{{hamilton_dense(connected_er(10, 0.35, 11))}, {}};
  c.options.rounds = 4;
  c.options.gossip_steps = 3;
  expect_all_pairs_match(c);
}

TEST(LinearSystem, TimeVaryingScheduleMatchesAppendixE) {
  // Alternate two different graphs' weights, and one step with a random symmetric W.
  const DenseMatrix a = hamilton_dense(graph::ring(8));
  const DenseMatrix b = hamilton_dense(connected_er(8, 0.4, 5));
  const DenseMatrix c3 = closed_row_dense(connected_er(8, 0.5, 9));
  for (const int p : {0, 1}) {
    Case c{{a, b, c3, a, b, c3}, {}};
    c.options.rounds = 3;
    c.options.gossip_steps = 2;
    c.options.first_power = p;
    expect_all_pairs_match(c);
    Case one{{a, b, c3, b, a}, {}};
    one.options.rounds = 5;
    one.options.first_power = p;
    expect_all_pairs_match(one);
  }
}

TEST(LinearSystem, AdaptiveAndPlainViewsMatchPaper) {
  const DenseMatrix w = hamilton_dense(connected_er(9, 0.35, 21));
  for (const auto view : {LinearSystemView::secure_sum_adaptive, LinearSystemView::plain}) {
    for (const bool keep : {false, true}) {
      Case c{{w}, {}};
      c.options.view = view;
      c.options.rounds = 4;
      c.options.keep_observer_noise = keep;
      expect_all_pairs_match(c);
    }
  }
  Case tv{{w, hamilton_dense(graph::ring(9)), w, w}, {}};
  tv.options.view = LinearSystemView::plain;
  tv.options.rounds = 4;
  expect_all_pairs_match(tv);
}

TEST(LinearSystem, ColludersMatchPaperSelector) {
  const DenseMatrix w = hamilton_dense(connected_er(12, 0.3, 13));
  const std::size_t t = 5;
  const auto schedule = fixed_schedule(w, t);
  const std::vector<graph::NodeId> coalition{2, 7, 9};
  for (const bool keep : {false, true}) {
    LinearSystemOptions options;
    options.rounds = t;
    options.keep_observer_noise = keep;
    PairwiseOptions pairwise;
    pairwise.keep_gram = true;
    const auto results = account_coalition(schedule, coalition, all_nodes(12), options, pairwise);
    ASSERT_EQ(results.size(), 9u);
    const DenseMatrix h = paper_h({w}, coalition, t, 1, 1);
    const auto excluded = keep ? std::vector<graph::NodeId>{} : coalition;
    for (const auto& r : results) {
      EXPECT_EQ(r.pair.observers, coalition);
      const DenseMatrix ref = paper_gram(h, delete_noise_columns(h, 12, excluded), 12, r.pair.target, t);
      EXPECT_LT(relative_error(*r.gram, ref), 1e-9);
    }
  }
}

TEST(LinearSystem, LiteralViewMatchesPaperAndEngine) {
  const DenseMatrix w = hamilton_dense(connected_er(10, 0.3, 17));
  LinearSystemOptions options;
  options.rounds = 4;
  const auto schedule = fixed_schedule(w, 4);
  const graph::NodeId obs[] = {3};
  const LinearView view = linear_system_view_literal(schedule, obs, 6, options);
  const DenseMatrix h = paper_h({w}, {3}, 4, 1, 1);
  EXPECT_LT(relative_error(view.A, h), 1e-12);
  EXPECT_EQ(view.B.cols(), 4 * 9);
  const TargetGram gram = target_gram_literal(view, 6);
  EXPECT_LT(relative_error(gram.K, paper_gram(h, delete_noise_columns(h, 10, {3}), 10, 6, 4)), 1e-9);
  EXPECT_LT(gram.range_residual, 1e-12);
  EXPECT_TRUE(gram.warnings.empty());
}

TEST(LinearSystem, CompleteGraphAveragingGivesCentralSensitivity) {
  // W = J/n: every observation is the running network mean, so K = I/n with the
  // observer's noise counted (central aggregation, T/n) and I/(n−1) without it.
  const std::size_t n = 6;
  const std::size_t t = 5;
  const DenseMatrix w = DenseMatrix::Constant(n, n, 1.0 / static_cast<double>(n));
  const auto schedule = fixed_schedule(w, t);
  for (const bool keep : {true, false}) {
    LinearSystemOptions options;
    options.rounds = t;
    options.keep_observer_noise = keep;
    PairwiseOptions pairwise;
    pairwise.keep_gram = true;
    const graph::NodeId obs[] = {0};
    const graph::NodeId tgt[] = {4};
    const auto r = account_coalition(schedule, obs, tgt, options, pairwise).front();
    const double expected = 1.0 / static_cast<double>(keep ? n : n - 1);
    EXPECT_LT(relative_error(*r.gram, expected * DenseMatrix::Identity(t, t)), 1e-9);
    EXPECT_NEAR(r.pair.sensitivity_squared_ones, expected * static_cast<double>(t), 1e-9);
    EXPECT_NEAR(r.pair.sensitivity_squared_certified, expected * static_cast<double>(t), 1e-9);
  }
}

TEST(LinearSystem, OnesIsNotTheWorstCaseButCertifiedIs) {
  // On a 30-node ER graph with T = 8 some pairs have K_u with negative
  // entries and the worst sign pattern exceeds the papers' c = 1 value.
  const DenseMatrix w = hamilton_dense(connected_er(30, 0.2, 1));
  const std::size_t t = 8;
  LinearSystemOptions options;
  options.rounds = t;
  PairwiseOptions pairwise;
  pairwise.keep_gram = true;
  pairwise.sign_search = SignSearch::automatic;
  pairwise.release_dimension = 1;  // scalar: the sign maximum
  const std::vector<graph::NodeId> observers{0, 1, 2, 3, 4, 5};
  const auto results = account_all_pairs(fixed_schedule(w, t), observers, all_nodes(30), options, pairwise);
  double worst_ratio = 1.0;
  for (const auto& r : results) {
    const double truth = brute_force_sign_max(*r.gram);
    EXPECT_GE(r.pair.sensitivity_squared_certified, truth * (1 - 1e-12));
    EXPECT_GE(truth, r.pair.sensitivity_squared_ones * (1 - 1e-12));
    if (r.pair.exact) {
      ASSERT_TRUE(r.pair.sensitivity_squared_exact.has_value());
      EXPECT_NEAR(*r.pair.sensitivity_squared_exact, truth, 1e-9 * truth);
    }
    worst_ratio = std::max(worst_ratio, truth / r.pair.sensitivity_squared_ones);
  }
  EXPECT_GT(worst_ratio, 1.05);
}

TEST(LinearSystem, PrivacyFieldsFollowSensitivity) {
  const DenseMatrix w = hamilton_dense(graph::ring(6));
  LinearSystemOptions options;
  options.rounds = 3;
  PairwiseOptions pairwise;
  pairwise.noise_std = 2.0;
  pairwise.delta = 1e-6;
  const graph::NodeId obs[] = {0};
  const graph::NodeId tgt[] = {3};
  const auto r = account_coalition(fixed_schedule(w, 3), obs, tgt, options, pairwise).front().pair;
  EXPECT_DOUBLE_EQ(r.sensitivity, std::sqrt(r.sensitivity_squared_certified));
  EXPECT_DOUBLE_EQ(r.mu, r.sensitivity / 2.0);
  EXPECT_GT(r.epsilon, 0.0);
  EXPECT_EQ(r.delta, 1e-6);
}

TEST(LinearSystem, EpsilonTableIsATightUpperBound) {
  const DenseMatrix w = hamilton_dense(connected_er(25, 0.2, 31));
  LinearSystemOptions options;
  options.rounds = 6;
  const auto nodes = all_nodes(25);
  PairwiseOptions exact;
  exact.noise_std = 0.7;
  PairwiseOptions table = exact;
  table.epsilon_mode = EpsilonMode::table;
  const auto a = account_all_pairs(fixed_schedule(w, 6), nodes, nodes, options, exact);
  const auto b = account_all_pairs(fixed_schedule(w, 6), nodes, nodes, options, table);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].pair.mu, b[k].pair.mu);
    // Both are conservative roots of δ(ε, μ) = δ: the table's never below the exact root
    // (δ at its ε is at most δ) and within 1e-10 of the root-finder's.
    if (b[k].pair.epsilon > 0.0) {
      EXPECT_LE(dp::gdp_delta(b[k].pair.mu, b[k].pair.epsilon), exact.delta);
    }
    EXPECT_NEAR(b[k].pair.epsilon, a[k].pair.epsilon, 1e-10 * a[k].pair.epsilon + 1e-12);
  }
}

TEST(LinearSystem, CertifiedNeverExceedsLocalBound) {
  // K_u ⪯ I (the target's own noise alone gives sens² <= T): a scalar release without the sign
  // search is certified at min(SDP bound, Σ|K|, T), never below the sign maximum.
  const DenseMatrix w = hamilton_dense(graph::star(12));
  const std::size_t t = 12;
  LinearSystemOptions options;
  options.rounds = t;
  PairwiseOptions pairwise;
  pairwise.keep_gram = true;
  pairwise.release_dimension = 1;
  const auto nodes = all_nodes(12);
  for (const auto& r : account_all_pairs(fixed_schedule(w, t), nodes, nodes, options, pairwise)) {
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(*r.gram);
    EXPECT_LE(eig.eigenvalues().maxCoeff(), 1.0 + 1e-9);
    EXPECT_LE(r.pair.sensitivity_squared_certified, static_cast<double>(t));
    EXPECT_LE(r.pair.sensitivity_squared_certified,
              std::min(r.pair.sensitivity_squared_sum_abs, static_cast<double>(t)));
    EXPECT_GE(r.pair.sensitivity_squared_certified, brute_force_sign_max(*r.gram) * (1 - 1e-9));
  }
}

/// The scalar release without K_u kept: targets whose F A_u has no negative entry are summed from
/// it (Σ|K_u| = 1ᵀ K_u 1), the others are packed into chunks of their own for K_u. Every pair equals
/// the paper's literal K_u, and an observer with more than one chunk of the second kind exercises a
/// full and a partial chunk.
void expect_scalar_sums_match(const Case& c) {
  std::vector<SparseMatrix> seq;
  for (const auto& w : c.ws) seq.emplace_back(w.sparseView());
  const gossip::Schedule schedule =
      c.ws.size() == 1 ? fixed_schedule(c.ws.front(), c.options.rounds) : gossip::Schedule::sequence(seq);
  const std::size_t n = schedule.num_nodes();
  const auto ni = static_cast<Eigen::Index>(n);
  const auto nodes = all_nodes(n);
  PairwiseOptions pairwise;
  pairwise.release_dimension = 1;
  const auto results = account_all_pairs(schedule, nodes, nodes, c.options, pairwise);
  ASSERT_EQ(results.size(), n * (n - 1));
  std::vector<std::size_t> negative(n, 0);
  std::size_t nonnegative = 0;
  DenseMatrix h;
  DenseMatrix h_hat;
  graph::NodeId built = static_cast<graph::NodeId>(n);
  for (const auto& r : results) {
    const graph::NodeId i = r.pair.observers.front();
    const graph::NodeId j = r.pair.target;
    if (built != i) {
      h = paper_h(c.ws, {i}, c.options.rounds, 1, 1);
      h_hat = delete_noise_columns(h, ni, {i});
      built = i;
    }
    const DenseMatrix ref = paper_gram(h, h_hat, ni, j, c.options.rounds);
    const double scale = ref.cwiseAbs().sum();
    EXPECT_NEAR(r.pair.sensitivity_squared_ones, ref.sum(), 1e-9 * scale) << i << " -> " << j;
    EXPECT_NEAR(r.pair.sensitivity_squared_sum_abs, scale, 1e-9 * scale) << i << " -> " << j;
    EXPECT_FALSE(r.gram.has_value());
    // Between the sign maximum and Σ|K_u|; exact when K_u >= 0 entrywise (c = 1 attains Σ|K_u|) or
    // when the SDP optimum has rank one (a sign vector attains it).
    const double sign_max = brute_force_sign_max(ref);
    EXPECT_GE(r.pair.sensitivity_squared_certified, sign_max * (1 - 1e-9)) << i << " -> " << j;
    EXPECT_LE(r.pair.sensitivity_squared_certified, scale * (1 + 1e-9)) << i << " -> " << j;
    if (r.pair.exact) {
      EXPECT_NEAR(r.pair.sensitivity_squared_certified, sign_max, 1e-8 * scale) << i << " -> " << j;
    }
    if (ref.minCoeff() >= -1e-12 * scale) {
      EXPECT_TRUE(r.pair.exact) << i << " -> " << j;
      ++nonnegative;
    } else {
      ++negative[i];
    }
  }
  EXPECT_GT(nonnegative, 0U);
  EXPECT_GT(*std::max_element(negative.begin(), negative.end()), 16U) << "no observer fills a chunk";
}

TEST(LinearSystem, ScalarSumsWithoutTheGramMatchPaper) {
  // Dense enough that some observer has more than 16 targets with negative entries; an even and an
  // odd T (the projection pairs injections).
  const graph::Graph g = connected_er(40, 0.3, 31);
  for (const std::size_t t : {6, 7}) {
    SCOPED_TRACE(::testing::Message() << "T = " << t);
    for (const DenseMatrix& w : {hamilton_dense(g), closed_row_dense(g)}) {
      Case c{{w}, {}};
      c.options.rounds = t;
      expect_scalar_sums_match(c);
    }
  }
  const DenseMatrix a = hamilton_dense(connected_er(36, 0.12, 5));
  const DenseMatrix b = hamilton_dense(graph::ring(36));
  Case varying{{a, b, a, b, b}, {}};
  varying.options.rounds = 5;
  expect_scalar_sums_match(varying);
}

TEST(LinearSystem, ResultsDoNotDependOnThreadCount) {
  const DenseMatrix w = hamilton_dense(connected_er(40, 0.15, 23));
  const std::size_t t = 6;
  LinearSystemOptions options;
  options.rounds = t;
  const auto schedule = fixed_schedule(w, t);
  const auto nodes = all_nodes(40);
  PairwiseOptions one;
  one.threads = 1;
  one.keep_gram = true;
  PairwiseOptions two = one;
  two.threads = 2;
  const auto a = account_all_pairs(schedule, nodes, nodes, options, one);
  const auto b = account_all_pairs(schedule, nodes, nodes, options, two);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].pair.observers, b[k].pair.observers);
    EXPECT_EQ(a[k].pair.target, b[k].pair.target);
    EXPECT_EQ(a[k].pair.sensitivity_squared_certified, b[k].pair.sensitivity_squared_certified);
    EXPECT_EQ(a[k].pair.sensitivity_squared_ones, b[k].pair.sensitivity_squared_ones);
    EXPECT_TRUE(*a[k].gram == *b[k].gram);
  }
}

TEST(LinearSystem, SinkGetsObserversInOrderWithProgress) {
  const DenseMatrix w = hamilton_dense(connected_er(35, 0.2, 2));
  LinearSystemOptions options;
  options.rounds = 3;
  const auto nodes = all_nodes(35);
  std::vector<graph::NodeId> seen;
  std::size_t last_done = 0;
  account_pairs(
      fixed_schedule(w, 3), nodes, nodes, options, PairwiseOptions{},
      [&](std::span<const PairResult> rows) {
        ASSERT_EQ(rows.size(), 34u);
        seen.push_back(rows.front().pair.observers.front());
      },
      [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(done, last_done + 1);
        EXPECT_EQ(total, 35u);
        last_done = done;
      });
  EXPECT_EQ(seen, nodes);
}

/// Theorem 13 on a doubly stochastic W (limit 1/n) and a non-doubly stochastic one.
void expect_theorem13(const DenseMatrix& w, graph::NodeId observer, graph::NodeId target, bool doubly) {
  const std::vector<std::size_t> grid{50, 100, 400};
  for (const bool keep : {true, false}) {
    LinearSystemOptions options;
    options.keep_observer_noise = keep;
    const auto rate = asymptotic_rate(fixed_schedule(w, 1), observer, target, grid, options);
    const double n = static_cast<double>(w.rows());
    if (doubly) {
      EXPECT_NEAR(rate.limit_theorem13, 1.0 / n, 1e-12);
    }
    EXPECT_EQ(rate.limit, keep ? rate.limit_theorem13 : rate.limit_observer_noise_removed);
    double previous = INFINITY;
    for (const auto& p : rate.points) {
      // c = 1 <= worst scalar release <= worst vector release (the default, certified).
      EXPECT_GE(p.sensitivity_squared_sign_max, p.sensitivity_squared_ones * (1 - 1e-12));
      if (p.sign_max_exact) {
        EXPECT_GE(p.sensitivity_squared_vector, p.sensitivity_squared_sign_max * (1 - 1e-9));
      }
      EXPECT_EQ(p.sensitivity_squared_certified, p.sensitivity_squared_vector);
      const double error = std::abs(p.per_round_ones - rate.limit);
      EXPECT_LT(error, previous) << "T = " << p.rounds;
      previous = error;
    }
    EXPECT_LT(previous, 0.02 * rate.limit) << "keep = " << keep;
  }
}

TEST(LinearSystem, Theorem13LimitDoublyStochastic) {
  const auto g = connected_er(12, 0.4, 3);
  expect_theorem13(hamilton_dense(g), 1, 5, true);
}

TEST(LinearSystem, Theorem13LimitHoldsForOnesButNotForTheWorstCase) {
  // ER(30), neighbours 0 and 1: 1ᵀK1/T tends to 1/30, but the worst release per round levels off far
  // above it (docs/reference/accounting-linear-system.md): the theorem's limit is not the privacy loss.
  const DenseMatrix w = hamilton_dense(connected_er(30, 0.2, 1));
  ASSERT_GT(w(0, 1), 0.0);
  LinearSystemOptions options;
  options.keep_observer_noise = true;
  const std::vector<std::size_t> grid{20, 80};
  const auto rate = asymptotic_rate(fixed_schedule(w, 1), 0, 1, grid, options);
  EXPECT_NEAR(rate.limit, 1.0 / 30.0, 1e-12);
  EXPECT_LT(rate.points.back().per_round_ones, 1.2 * rate.limit);
  EXPECT_GT(rate.points.back().per_round_vector, 3.0 * rate.limit);
  EXPECT_GT(rate.points.back().per_round_vector, rate.points.front().per_round_vector * (1 - 1e-3));
}

TEST(LinearSystem, Theorem13LimitRowStochastic) {
  const auto g = connected_er(12, 0.4, 3);
  expect_theorem13(closed_row_dense(g), 1, 5, false);
}

TEST(LinearSystem, BadInputsThrowClearErrors) {
  const DenseMatrix w = hamilton_dense(graph::ring(5));
  const auto schedule = fixed_schedule(w, 4);
  const graph::NodeId obs[] = {0};
  const graph::NodeId bad[] = {9};
  const graph::NodeId dup[] = {1, 1};
  const auto nodes = all_nodes(5);
  LinearSystemOptions options;
  options.rounds = 4;
  EXPECT_NO_THROW(account_all_pairs(schedule, obs, nodes, options, {}));
  auto with = [&](auto edit) {
    LinearSystemOptions o = options;
    edit(o);
    return o;
  };
  EXPECT_THROW(account_all_pairs(schedule, obs, nodes, with([](auto& o) { o.rounds = 0; }), {}),
               std::invalid_argument);
  EXPECT_THROW(account_all_pairs(schedule, obs, nodes, with([](auto& o) { o.first_power = 2; }), {}),
               std::invalid_argument);
  EXPECT_THROW(account_all_pairs(schedule, obs, nodes, with([](auto& o) {
                                   o.view = LinearSystemView::plain;
                                   o.gossip_steps = 2;
                                 }),
                                 {}),
               std::invalid_argument);
  EXPECT_THROW(
      account_all_pairs(schedule, obs, nodes, with([](auto& o) { o.rank.rank_tolerance = 0.0; }), {}),
      std::invalid_argument);
  EXPECT_THROW(account_all_pairs(schedule, bad, nodes, options, {}), std::invalid_argument);
  EXPECT_THROW(account_all_pairs(schedule, obs, bad, options, {}), std::invalid_argument);
  EXPECT_THROW(account_coalition(schedule, dup, nodes, options, {}), std::invalid_argument);
  PairwiseOptions noise;
  noise.noise_std = 0.0;
  EXPECT_THROW(account_all_pairs(schedule, obs, nodes, options, noise), std::invalid_argument);
  PairwiseOptions delta;
  delta.delta = 1.0;
  EXPECT_THROW(account_all_pairs(schedule, obs, nodes, options, delta), std::invalid_argument);
  std::vector<SparseMatrix> two{SparseMatrix(w.sparseView()), SparseMatrix(w.sparseView())};
  EXPECT_THROW(account_all_pairs(gossip::Schedule::sequence(two), obs, nodes, options, {}),
               std::invalid_argument);
  EXPECT_THROW(linear_system_view_literal(schedule, obs, 0, options), std::invalid_argument);
  EXPECT_THROW(parse_linear_system_view("secure"), std::invalid_argument);
  EXPECT_EQ(parse_linear_system_view("secure-sum-adaptive"), LinearSystemView::secure_sum_adaptive);
  const std::size_t grid[] = {5};
  EXPECT_THROW(asymptotic_rate(schedule, 0, 0, grid, options), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
