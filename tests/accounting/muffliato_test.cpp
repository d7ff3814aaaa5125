// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Muffliato Theorem 1 / 12 / 13 fast path against the literal dense formulas.

#include "netdp/accounting/muffliato/muffliato.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "accounting/muffliato_test_helpers.hpp"
#include "netdp/dp/gdp.hpp"

namespace netdp::accounting {
namespace {

using namespace testing;  // NOLINT: the helpers of this test suite
using ::testing::HasSubstr;

struct Case {
  std::string name;
  std::vector<DenseMatrix> ws;  // W_0..W_{T-1}
};

std::vector<Case> cases() {
  std::vector<Case> out;
  out.push_back({"ring9", repeat(metropolis(9, ring_edges(9)), 6)});
  out.push_back({"star7", repeat(metropolis(7, star_edges(7)), 4)});
  out.push_back({"path6", repeat(metropolis(6, path_edges(6)), 5)});
  out.push_back({"er12", repeat(metropolis(12, random_connected_edges(12, 0.25, 7)), 5)});
  // Time-varying: a different random graph each round, then randomized pairwise steps.
  std::vector<DenseMatrix> varying;
  for (unsigned t = 0; t < 4; ++t)
    varying.push_back(metropolis(10, random_connected_edges(10, 0.2, 100 + t)));
  std::mt19937 rng(5);
  const Edges edges = random_connected_edges(10, 0.3, 11);
  for (int t = 0; t < 12; ++t) {
    const auto& [a, b] = edges[rng() % edges.size()];
    varying.push_back(pairwise_step(10, a, b));
  }
  out.push_back({"time_varying10", varying});
  return out;
}

std::vector<SparseMatrix> sparse_all(const std::vector<DenseMatrix>& ws) {
  std::vector<SparseMatrix> out;
  for (const auto& w : ws) out.push_back(to_sparse(w));
  return out;
}

gossip::Schedule as_schedule(const Case& c, bool fixed) {
  if (fixed) return gossip::Schedule::fixed(to_sparse(c.ws.front()), c.ws.size());
  return gossip::Schedule::sequence(sparse_all(c.ws));
}

void expect_matrix_close(const DenseMatrix& fast, const DenseMatrix& reference, const std::string& what) {
  ASSERT_EQ(fast.rows(), reference.rows()) << what;
  ASSERT_EQ(fast.cols(), reference.cols()) << what;
  for (Eigen::Index i = 0; i < fast.rows(); ++i)
    for (Eigen::Index j = 0; j < fast.cols(); ++j)
      EXPECT_TRUE(close(fast(i, j), reference(i, j)))
          << what << " at (" << i << ", " << j << "): fast " << fast(i, j) << " vs dense " << reference(i, j);
}

TEST(MuffliatoTheorem1, AllPairsFastPathMatchesLiteralDenseFormula) {
  for (const Case& c : cases()) {
    const bool fixed = c.name != "time_varying10";
    const int n = static_cast<int>(c.ws.front().rows());
    for (auto convention : {MessageConvention::paper, MessageConvention::authors_code}) {
      for (auto noise : {ObserverNoise::known, ObserverNoise::counted}) {
        for (std::size_t block : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
          MuffliatoOptions options;
          options.bound = MuffliatoBound::paper;  // the paper's formula under test
          options.sigma = 1.5;
          options.messages = convention;
          options.observer_noise = noise;
          options.block_columns = block;
          const MuffliatoLosses fast = muffliato_all_pairs(as_schedule(c, fixed), options);
          DenseMatrix reference = reference_sums(c.ws, options, all_singletons(n), all_singletons(n));
          reference.diagonal().setZero();
          expect_matrix_close(fast.sums(), reference,
                              c.name + " convention " + std::to_string(static_cast<int>(convention)) +
                                  " noise " + std::to_string(static_cast<int>(noise)) + " block " +
                                  std::to_string(block));
        }
      }
    }
  }
}

TEST(MuffliatoTheorem1, SingleObserverColludersAndGroupsMatchLiteralFormulas) {
  for (const Case& c : cases()) {
    const int n = static_cast<int>(c.ws.front().rows());
    const gossip::Schedule schedule = as_schedule(c, false);
    for (auto noise : {ObserverNoise::known, ObserverNoise::counted}) {
      MuffliatoOptions options;
      options.bound = MuffliatoBound::paper;  // the paper's formula under test
      options.sigma = 0.7;
      options.observer_noise = noise;
      options.block_columns = 2;
      // One observer against all targets.
      const MuffliatoLosses one = muffliato_from_observer(schedule, 3, options);
      DenseMatrix reference = reference_sums(c.ws, options, {{3}}, all_singletons(n));
      reference(0, 3) = 0.0;
      expect_matrix_close(one.sums(), reference, c.name + " observer 3");
      // Colluders {1, 4} (Theorem 12).
      const MuffliatoLosses coalition = muffliato_colluders(schedule, {4, 1}, options);
      reference = reference_sums(c.ws, options, {{1, 4}}, all_singletons(n));
      reference(0, 1) = reference(0, 4) = 0.0;
      expect_matrix_close(coalition.sums(), reference, c.name + " colluders");
      EXPECT_FALSE(coalition.defined(0, 4));
      EXPECT_TRUE(coalition.defined(0, 0));
      // Group {0, 2, 5} against every observer (Theorem 13), both numerators.
      for (auto rule : {GroupSensitivity::sum_of_absolute, GroupSensitivity::paper_sum_of_squares}) {
        options.group_sensitivity = rule;
        const MuffliatoLosses group = muffliato_group(schedule, {5, 0, 2}, options);
        reference = reference_sums(c.ws, options, all_singletons(n), {{0, 2, 5}});
        reference(0, 0) = reference(2, 0) = reference(5, 0) = 0.0;
        expect_matrix_close(group.sums(), reference, c.name + " group");
        EXPECT_DOUBLE_EQ(group.sum_cap(0), 3.0);
      }
    }
  }
}

TEST(MuffliatoTheorem1, HypercubeLossDependsOnlyOnHammingDistance) {
  const int d = 5, n = 1 << d;
  const SparseMatrix w = to_sparse(metropolis(n, hypercube_edges(d)));
  for (auto convention : {MessageConvention::paper, MessageConvention::authors_code}) {
    MuffliatoOptions options;
    options.bound = MuffliatoBound::paper;  // the paper's formula under test
    options.sigma = 2.0;
    options.messages = convention;
    const MuffliatoLosses losses = muffliato_all_pairs(gossip::Schedule::fixed(w, 9), options);
    std::vector<double> by_distance(d + 1, -1.0);
    for (int v = 0; v < n; ++v) {
      for (int u = 0; u < n; ++u) {
        if (u == v) continue;
        const int distance = std::popcount(static_cast<unsigned>(u ^ v));
        const double s = losses.sums()(v, u);
        if (by_distance[distance] < 0) by_distance[distance] = s;
        EXPECT_TRUE(close(s, by_distance[distance], 1e-12))
            << "pair " << v << "," << u << " distance " << distance;
      }
    }
    // ... and it decreases with distance.
    for (int k = 2; k <= d; ++k) EXPECT_LT(by_distance[k], by_distance[k - 1]);
  }
}

TEST(MuffliatoTheorem1, CompleteGraphClosedForm) {
  // Metropolis weights on K_n: W = 11ᵀ/n. t = 0 sends y_w (ratio 1 for w = u);
  // for t >= 1 every row is 1ᵀ/n: ratio 1/n (noise counted) or 1/(n-1) (known), n - 1 senders.
  const int n = 7;
  const std::size_t rounds = 5;
  const SparseMatrix w = to_sparse(metropolis(n, complete_edges(n)));
  const auto schedule = gossip::Schedule::fixed(w, rounds);
  const double later = static_cast<double>(rounds - 1);
  struct Expect {
    MessageConvention messages;
    ObserverNoise noise;
    double sum;
  };
  for (const Expect& e :
       {Expect{MessageConvention::paper, ObserverNoise::counted, 1.0 + later * (n - 1.0) / n},
        Expect{MessageConvention::paper, ObserverNoise::known, 1.0 + later},
        Expect{MessageConvention::authors_code, ObserverNoise::counted, rounds * (n - 1.0) / n},
        Expect{MessageConvention::authors_code, ObserverNoise::known, double(rounds)}}) {
    MuffliatoOptions options;
    options.bound = MuffliatoBound::paper;  // the paper's formula under test
    options.sigma = 1.0;
    options.messages = e.messages;
    options.observer_noise = e.noise;
    const MuffliatoLosses losses = muffliato_all_pairs(schedule, options);
    for (int v = 0; v < n; ++v) {
      for (int u = 0; u < n; ++u) {
        if (u != v) {
          EXPECT_TRUE(close(losses.sums()(v, u), e.sum, 1e-12)) << losses.sums()(v, u) << " vs " << e.sum;
        }
      }
    }
  }
}

TEST(MuffliatoTheorem1, LocalDpCapAndPairFields) {
  const int n = 9;
  const SparseMatrix w = to_sparse(metropolis(n, ring_edges(n)));
  MuffliatoOptions options;
  options.bound = MuffliatoBound::paper;  // the paper's formula under test
  options.sigma = 2.0;
  options.sensitivity = 0.5;
  const MuffliatoLosses losses = muffliato_all_pairs(gossip::Schedule::fixed(w, 8), options);
  const double local_mu = 0.5 / 2.0;
  // Direct neighbours see y_u at t = 0: at least the local-DP loss, so they are capped.
  const PairLoss neighbour = losses.pair(0, 1, 4.0);
  EXPECT_TRUE(neighbour.capped);
  EXPECT_DOUBLE_EQ(neighbour.mu, local_mu);
  EXPECT_GT(neighbour.uncapped_mu, local_mu);
  EXPECT_DOUBLE_EQ(neighbour.rdp_epsilon, 4.0 * local_mu * local_mu / 2.0);
  EXPECT_DOUBLE_EQ(neighbour.uncapped_rdp_epsilon, 4.0 * neighbour.uncapped_mu * neighbour.uncapped_mu / 2.0);
  // The farthest node is not capped and its loss is below the local one.
  const PairLoss far = losses.pair(0, 4, 4.0);
  EXPECT_FALSE(far.capped);
  EXPECT_LT(far.mu, local_mu);
  EXPECT_DOUBLE_EQ(far.mu, far.uncapped_mu);
  EXPECT_DOUBLE_EQ(far.mu, local_mu * std::sqrt(losses.sums()(0, 4)));
  // mu_squared agrees with the pairs.
  const DenseMatrix capped = losses.mu_squared(true);
  const DenseMatrix uncapped = losses.mu_squared(false);
  EXPECT_DOUBLE_EQ(capped(0, 1), local_mu * local_mu);
  EXPECT_DOUBLE_EQ(uncapped(0, 1), neighbour.uncapped_mu * neighbour.uncapped_mu);
  EXPECT_DOUBLE_EQ(capped(0, 0), 0.0);
  EXPECT_FALSE(losses.defined(2, 2));
  EXPECT_THROW((void)losses.pair(2, 2, 2.0), std::invalid_argument);
}

TEST(MuffliatoTheorem1, GdpConversionIsExactAndTighterThanThePapersRdpConversion) {
  const SparseMatrix w = to_sparse(metropolis(12, random_connected_edges(12, 0.2, 9)));
  MuffliatoOptions options;
  options.bound = MuffliatoBound::paper;  // the paper's formula under test
  options.sigma = 3.0;
  const MuffliatoLosses losses = muffliato_all_pairs(gossip::Schedule::fixed(w, 6), options);
  const double delta = 1e-5;
  for (int u = 1; u < 12; ++u) {
    for (double alpha : {1.5, 2.0, 8.0, 32.0}) {
      const PairLoss pair = losses.pair(0, u, alpha);
      const double epsilon = gdp_epsilon(pair, delta);
      ASSERT_GT(epsilon, 0.0);
      // Exact: the μ-GDP trade-off curve meets δ at ε (Dong, Roth & Su 2022, Corollary 2.13).
      EXPECT_NEAR(dp::gdp_delta(pair.mu, epsilon), delta, 1e-9 * delta);
      // Mironov's conversion of the same Rényi value (the paper's) is never smaller.
      EXPECT_LE(epsilon, pair.rdp_epsilon + std::log(1 / delta) / (alpha - 1));
    }
  }
  PairLoss silent;
  EXPECT_DOUBLE_EQ(gdp_epsilon(silent, delta), 0.0);
  EXPECT_THROW((void)gdp_epsilon(silent, 1.0), std::invalid_argument);
}

TEST(MuffliatoTheorem1, MeanLossEquation7) {
  for (const Case& c : cases()) {
    const bool fixed = c.name != "time_varying10";
    const int n = static_cast<int>(c.ws.front().rows());
    const gossip::Schedule schedule = as_schedule(c, fixed);
    const std::vector<std::size_t> counts = communication_counts(schedule);
    // T_v literally: Σ_t |{w != v : W_t(v, w) != 0 or W_t(w, v) != 0}|.
    for (int v = 0; v < n; ++v) {
      std::size_t expected = 0;
      for (const auto& w : c.ws)
        for (int x = 0; x < n; ++x) expected += (x != v && (w(v, x) != 0.0 || w(x, v) != 0.0)) ? 1 : 0;
      EXPECT_EQ(counts[v], expected) << c.name << " node " << v;
    }
    const double alpha = 3.0;
    for (auto noise : {ObserverNoise::known, ObserverNoise::counted}) {
      MuffliatoOptions options;
      options.bound = MuffliatoBound::paper;  // the paper's formula under test
      options.sigma = 1.3;
      options.observer_noise = noise;
      const MuffliatoLosses losses = muffliato_all_pairs(schedule, options);
      for (int v = 0; v < n; ++v) {
        double mean = 0.0;
        for (int u = 0; u < n; ++u)
          if (u != v) mean += losses.pair(v, u, alpha).uncapped_rdp_epsilon / n;
        const double eq7 = mean_privacy_loss(counts[v], n, alpha, 1.0, 1.3);
        if (noise == ObserverNoise::known) {
          EXPECT_TRUE(close(mean, eq7, 1e-12)) << c.name << " v " << v << ": " << mean << " vs " << eq7;
        } else {
          EXPECT_LE(mean, eq7 * (1 + 1e-12)) << c.name << " v " << v;
        }
      }
    }
  }
}

TEST(MuffliatoTheorem1, Theorem1IsNotABoundOnTheJointViewButTheCapIs) {
  // Path u=0 – w=1 – v=2: at t = 0 v receives y_1, at t = 1 it receives
  // W_10 y_0 + W_11 y_1 + W_12 y_2, so it recovers y_0 exactly (full local-DP loss),
  // while Theorem 1 composes the two messages as if independent.
  const std::vector<DenseMatrix> ws = repeat(metropolis(3, path_edges(3)), 2);
  MuffliatoOptions options;
  options.bound = MuffliatoBound::paper;  // the paper's formula under test
  options.sigma = 1.0;
  const MuffliatoLosses losses = muffliato_all_pairs(schedule_of(ws), options);
  const double exact = exact_joint_sum(ws, MessageConvention::paper, {2}, 0);
  EXPECT_NEAR(exact, 1.0, 1e-12);
  EXPECT_LT(losses.sums()(2, 0), exact);
  // The cap (local DP) bounds the exact joint view on every pair of a larger example.
  const Case ring = cases().front();
  for (int v = 0; v < 9; ++v) {
    for (int u = 0; u < 9; ++u) {
      if (u != v) {
        EXPECT_LE(exact_joint_sum(ring.ws, MessageConvention::paper, {static_cast<graph::NodeId>(v)}, u),
                  1 + 1e-9);
      }
    }
  }
}

TEST(MuffliatoTheorem1, ChebyshevMessagesAreAnInvertibleRecodingOfPlainGossip) {
  // Algorithm 1 sends x_t = P_t(W) y with P_0 = 1, P_1 = X, P_{t+1} = γ X P_t + (1-γ) P_{t-1}.
  // Its view is an invertible linear recoding of the plain-gossip view (same senders,
  // same rounds), so the exact joint loss is identical.
  const int n = 8;
  const DenseMatrix w = metropolis(n, random_connected_edges(n, 0.3, 3));
  const double gamma = 1.6;
  const int rounds = 5;
  std::vector<DenseMatrix> p = {DenseMatrix::Identity(n, n), w};
  for (int t = 1; t + 1 < rounds; ++t) p.push_back(gamma * w * p[t] + (1 - gamma) * p[t - 1]);
  for (int v = 0; v < n; ++v) {
    // Rows of the accelerated view of v.
    std::vector<Vector> rows;
    for (int t = 0; t < rounds; ++t)
      for (int x = 0; x < n; ++x)
        if (x != v && w(v, x) != 0.0) rows.push_back(p[t].row(x).transpose());
    DenseMatrix r(static_cast<Eigen::Index>(rows.size()), n);
    for (std::size_t i = 0; i < rows.size(); ++i) r.row(static_cast<Eigen::Index>(i)) = rows[i].transpose();
    for (int u = 0; u < n; ++u) {
      if (u == v) continue;
      const Vector c = r.col(u);
      DenseMatrix known = r;
      known.col(v).setZero();
      const double accelerated =
          c.dot((known * known.transpose()).completeOrthogonalDecomposition().pseudoInverse() * c);
      const double plain =
          exact_joint_sum(repeat(w, rounds), MessageConvention::paper, {static_cast<graph::NodeId>(v)}, u);
      EXPECT_NEAR(accelerated, plain, 1e-8 * std::max(1.0, plain)) << v << "," << u;
    }
  }
}

TEST(MuffliatoTheorem1, RejectsBadInputNamingTheValue) {
  const SparseMatrix w = to_sparse(metropolis(5, ring_edges(5)));
  const auto schedule = gossip::Schedule::fixed(w, 3);
  MuffliatoOptions options;
  options.bound = MuffliatoBound::paper;  // the paper's formula under test
  options.sigma = 1.0;
  auto expect_error = [](auto&& call, const std::string& fragment) {
    try {
      call();
      ADD_FAILURE() << "no exception, expected one mentioning '" << fragment << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(std::string(e.what()), HasSubstr(fragment));
    }
  };
  for (double sigma : {0.0, -1.0, std::nan("")}) {
    MuffliatoOptions bad = options;
    bad.sigma = sigma;
    expect_error([&] { (void)muffliato_all_pairs(schedule, bad); }, "sigma");
  }
  MuffliatoOptions bad_delta = options;
  bad_delta.sensitivity = 0.0;
  expect_error([&] { (void)muffliato_all_pairs(schedule, bad_delta); }, "sensitivity");
  expect_error([&] { (void)gossip::Schedule::fixed(w, 0); }, "0");
  expect_error([&] { (void)muffliato_from_observer(schedule, 5, options); },
               "observer node 5 is out of range");
  expect_error([&] { (void)muffliato_group(schedule, {1, 9}, options); }, "target node 9 is out of range");
  expect_error([&] { (void)muffliato_colluders(schedule, {1, 1}, options); }, "appears twice");
  const MuffliatoLosses losses = muffliato_all_pairs(schedule, options);
  expect_error([&] { (void)losses.pair(0, 1, 1.0); }, "alpha");
  expect_error([&] { (void)losses.pair(0, 7, 2.0); }, "target index 7");
  // Disconnected: two triangles.
  const SparseMatrix two = to_sparse(metropolis(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}}));
  expect_error([&] { (void)muffliato_all_pairs(gossip::Schedule::fixed(two, 2), options); },
               "node 3 cannot be reached");
  DenseMatrix nan_w = metropolis(5, ring_edges(5));
  nan_w(0, 1) = std::nan("");
  expect_error([&] { (void)muffliato_all_pairs(gossip::Schedule::fixed(to_sparse(nan_w), 2), options); },
               "non-finite");
  EXPECT_THROW((void)mean_privacy_loss(3, 5, 1.0, 1.0, 1.0), std::invalid_argument);
}

TEST(MuffliatoTheorem1, ProgressIsReportedUpToTheTotal) {
  const SparseMatrix w = to_sparse(metropolis(20, ring_edges(20)));
  MuffliatoOptions options;
  options.bound = MuffliatoBound::paper;  // the paper's formula under test
  options.sigma = 1.0;
  options.block_columns = 8;
  std::size_t last = 0, total = 0;
  options.progress = [&](std::size_t done, std::size_t all) {
    EXPECT_EQ(done, last + 1);
    last = done;
    total = all;
  };
  (void)muffliato_all_pairs(gossip::Schedule::fixed(w, 4), options);
  EXPECT_EQ(total, 6u);  // 3 blocks per pass, 2 passes
  EXPECT_EQ(last, total);
}

}  // namespace
}  // namespace netdp::accounting
