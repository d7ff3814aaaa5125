// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Muffliato-GD's whole view on any schedule against a literal dense oracle: the observer's rows
// written as the formula reads (block s of message (r, w) is e_wᵀ W_{r−1} ⋯ W_{sK}), its own
// columns removed, the projector V Vᵀ from a long-double SVD, K_u its T × T block at u's columns.

#include "netdp/accounting/muffliato/muffliato_gd_view.hpp"

#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <random>

#include "accounting/muffliato_test_helpers.hpp"
#include "accounting/sdp_reference.hpp"
#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::accounting {
namespace {

using namespace testing;  // NOLINT: the helpers of this test suite
using Index = Eigen::Index;
using LongMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;

/// Literal Σ|K_u| and 1ᵀK_u1 for every target u of observer v (0 for u = v).
struct OracleSums {
  Vector sum_abs;
  Vector ones;
  std::vector<DenseMatrix> k;  ///< K_u per target (rounded to double)
};
OracleSums oracle(const std::vector<DenseMatrix>& per_round, int steps, int k, int v) {
  const auto n = static_cast<int>(per_round.front().rows());
  std::vector<Eigen::Matrix<long double, 1, Eigen::Dynamic>> rows;
  for (int r = 0; r < steps * k; ++r) {
    for (int w = 0; w < n; ++w) {
      if (w == v || (per_round[static_cast<std::size_t>(r)](v, w) == 0.0 &&
                     per_round[static_cast<std::size_t>(r)](w, v) == 0.0)) {
        continue;
      }
      Eigen::Matrix<long double, 1, Eigen::Dynamic> row =
          Eigen::Matrix<long double, 1, Eigen::Dynamic>::Zero(n * steps);
      for (int s = 0; s * k <= r; ++s) {
        DenseMatrix product = DenseMatrix::Identity(n, n);  // W_{r−1} ⋯ W_{sK}
        for (int t = s * k; t < r; ++t) product = per_round[static_cast<std::size_t>(t)] * product;
        for (int u = 0; u < n; ++u) row(s * n + u) = u == v ? 0.0L : static_cast<long double>(product(w, u));
      }
      rows.push_back(row);
    }
  }
  OracleSums out{Vector::Zero(n), Vector::Zero(n),
                 std::vector<DenseMatrix>(static_cast<std::size_t>(n), DenseMatrix::Zero(steps, steps))};
  if (rows.empty()) return out;
  LongMatrix a(static_cast<Index>(rows.size()), n * steps);
  for (std::size_t i = 0; i < rows.size(); ++i) a.row(static_cast<Index>(i)) = rows[i];
  const Eigen::JacobiSVD<LongMatrix> svd(a, Eigen::ComputeThinV);
  const auto& sv = svd.singularValues();
  Index rank = 0;
  while (rank < sv.size() && sv(rank) > 1e-12L * sv(0)) ++rank;
  const LongMatrix basis = svd.matrixV().leftCols(rank).transpose();  // rank × nT
  for (int u = 0; u < n; ++u) {
    if (u == v) continue;
    LongMatrix columns(rank, steps);
    for (int s = 0; s < steps; ++s) columns.col(s) = basis.col(s * n + u);
    const LongMatrix k_u = columns.transpose() * columns;
    out.sum_abs(u) = static_cast<double>(k_u.cwiseAbs().sum());
    out.ones(u) = static_cast<double>(k_u.sum());
    out.k[static_cast<std::size_t>(u)] = k_u.cast<double>();
  }
  return out;
}

void expect_matches_oracle(const std::vector<DenseMatrix>& per_round, int steps, int k, const char* what) {
  const auto n = static_cast<int>(per_round.front().rows());
  const std::vector<PairSensitivity> pairs = muffliato_gd_view_pairs(
      schedule_of(per_round), static_cast<std::size_t>(steps), static_cast<std::size_t>(k));
  ASSERT_EQ(pairs.size(), static_cast<std::size_t>(n * (n - 1))) << what;
  std::size_t i = 0;
  for (int v = 0; v < n; ++v) {
    const OracleSums want = oracle(per_round, steps, k, v);
    for (int u = 0; u < n; ++u) {
      if (u == v) continue;
      const PairSensitivity& p = pairs[i++];
      ASSERT_EQ(p.observers.front(), static_cast<graph::NodeId>(v));
      ASSERT_EQ(p.target, static_cast<graph::NodeId>(u));
      const double scale = std::max(1.0, want.sum_abs(u));
      EXPECT_NEAR(p.sensitivity_squared_sum_abs, want.sum_abs(u), 1e-9 * scale)
          << what << " v " << v << " u " << u;
      EXPECT_NEAR(p.sensitivity_squared_ones, want.ones(u), 1e-9 * scale) << what << " v " << v << " u " << u;
      // Valid: never below the worst gradient vector of the oracle's K_u (the SDP value by the
      // barrier reference) or the local cap T; never above Σ|K_u|.
      const double vector = testing::barrier_sdp_value(want.k[static_cast<std::size_t>(u)]);
      EXPECT_GE(p.sensitivity_squared_certified, std::min(vector, static_cast<double>(steps)) * (1 - 1e-7))
          << what;
      EXPECT_LE(p.sensitivity_squared_certified, p.sensitivity_squared_sum_abs * (1 + 1e-12));
      EXPECT_LE(p.sensitivity_squared_certified, static_cast<double>(steps));
    }
  }
}

TEST(MuffliatoGdView, TimeVaryingGraphsMatchTheLiteralOracle) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 6 + trial % 4;
    const int steps = 2 + trial % 3;
    const int k = 1 + trial % 3;
    std::vector<DenseMatrix> per_round;
    for (int s = 0; s < steps; ++s) {
      const DenseMatrix w = hamilton(n, random_connected_edges(n, 0.3, static_cast<unsigned>(rng())));
      for (int j = 0; j < k; ++j) per_round.push_back(w);  // one graph per gradient step
    }
    expect_matches_oracle(per_round, steps, k, "time-varying");
  }
}

TEST(MuffliatoGdView, RandomizedGossipMatchesTheLiteralOracle) {
  // Algorithm 2 inside each gradient step: one random edge per gossip round.
  std::mt19937 rng(11);
  const int n = 7;
  const int steps = 3;
  const int k = 4;
  const Edges edges = random_connected_edges(n, 0.4, 5);
  std::vector<DenseMatrix> per_round;
  for (int r = 0; r < steps * k; ++r) {
    const auto& e = edges[rng() % edges.size()];
    per_round.push_back(pairwise_step(n, e.first, e.second));
  }
  expect_matches_oracle(per_round, steps, k, "randomized gossip");
}

/// Every pair of Muffliato-SGD(K) under PNDP from the MF engine (Σ|K_u| for a scalar release):
/// on a fixed W the same view as Muffliato-GD's, computed by another route.
std::vector<PairSensitivity> mf_engine_pairs(const gossip::GossipMatrix& w, std::size_t steps,
                                             std::size_t k) {
  MfAlgorithmSpec spec;
  spec.algorithm = MfAlgorithm::muffliato_sgd;
  spec.gossip_steps = k;
  MfOptions options;
  options.assess.sign_search = SignSearch::none;
  std::vector<PairSensitivity> out;
  for (const MfPairResult& p : account_mf_all_pairs(w, steps, spec, MfTrust::pndp, options).pairs)
    out.push_back(p.privacy);
  return out;
}

TEST(MuffliatoGdView, FixedMatrixAgreesWithTheMfEnginesStructuredPath) {
  // On a fixed W the view is Muffliato-SGD(K)'s, which the MF engine computes by another route.
  const graph::Graph g = graph::Graph::from_edges(
      8, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 0}, {0, 4}, {2, 6}});
  const auto w = gossip::make_gossip_matrix(g, gossip::Weighting::hamilton);
  for (const std::size_t k : {1u, 2u, 3u}) {
    const std::size_t steps = 3;
    const std::vector<PairSensitivity> pairs =
        muffliato_gd_view_pairs(gossip::Schedule::fixed(w.matrix(), steps * k), steps, k);
    const std::vector<PairSensitivity> mf = mf_engine_pairs(w, steps, k);
    ASSERT_EQ(mf.size(), pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      ASSERT_EQ(mf[i].target, pairs[i].target);
      const double want = mf[i].sensitivity_squared_sum_abs;
      EXPECT_NEAR(pairs[i].sensitivity_squared_sum_abs, want, 1e-9 * std::max(1.0, want)) << "K = " << k;
    }
  }
}

TEST(MuffliatoGdView, ARankCutIsCheckedByTheExactRankAndAViewGivenUpIsACountedCap) {
  // Karate, K = 20 rounds per step: some observers' views fall below the rounding floor; their pairs
  // are the cap T, labelled a give-up. K = 3: the rank cuts are certified, every pair an upper bound.
  const auto w = gossip::make_gossip_matrix(graph::from_spec("karate"), gossip::Weighting::hamilton);
  const std::size_t steps = 2;
  for (const std::size_t k : {20u, 3u}) {
    const std::vector<PairSensitivity> view =
        muffliato_gd_view_pairs(gossip::Schedule::fixed(w.matrix(), steps * k), steps, k);
    for (const std::vector<PairSensitivity>& pairs : {view, mf_engine_pairs(w, steps, k)}) {
      std::size_t given_up = 0;
      double failure = 0.0;
      for (const PairSensitivity& p : pairs) {
        failure += p.certificate_failure_probability;
        if (p.certificate == Certificate::cap_undetermined) {
          ++given_up;
          EXPECT_DOUBLE_EQ(p.sensitivity_squared_certified, static_cast<double>(steps));
        } else {
          EXPECT_EQ(p.certificate, Certificate::upper_bound);
          EXPECT_LE(p.sensitivity_squared_certified, static_cast<double>(steps));
        }
      }
      if (k == 20) {
        EXPECT_GT(given_up, 0u);
      } else {
        EXPECT_EQ(given_up, 0u);
        EXPECT_GT(failure, 0.0);  // rank cuts were made and checked
      }
      EXPECT_LT(failure, 1e-6);
    }
  }
}

TEST(MuffliatoGdView, OneStepOfOneRoundIsTheNeighboursRelease) {
  // T = K = 1: the observer reads each neighbour's release once: Σ|K_u| = 1 for neighbours, else 0.
  const DenseMatrix w = hamilton(5, path_edges(5));
  const auto pairs = muffliato_gd_view_pairs(schedule_of({w}), 1, 1);
  for (const PairSensitivity& p : pairs) {
    const bool neighbour = w(p.observers.front(), p.target) != 0.0;
    EXPECT_NEAR(p.sensitivity_squared_certified, neighbour ? 1.0 : 0.0, 1e-12);
  }
}

TEST(MuffliatoGdView, EachGradientStepGossipsItsKRoundsWithItsMatrix) {
  const DenseMatrix a = hamilton(4, ring_edges(4));
  const DenseMatrix b = hamilton(4, path_edges(4));
  const gossip::Schedule rounds = muffliato_gd_rounds(schedule_of({a, b}), 2, 3);
  ASSERT_EQ(rounds.rounds(), 6u);
  for (std::size_t r = 0; r < 6; ++r)
    EXPECT_EQ((DenseMatrix(rounds.at(r)) - (r < 3 ? a : b)).cwiseAbs().maxCoeff(), 0.0) << r;
  EXPECT_THROW(muffliato_gd_rounds(schedule_of({a, b}), 3, 2), std::invalid_argument);
}

TEST(MuffliatoGdView, RejectsBadInputNamingTheValue) {
  const DenseMatrix w = hamilton(4, ring_edges(4));
  const auto error_of = [](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of([&] {
              muffliato_gd_view_pairs(schedule_of({w, w, w}), 2, 2);
            }).find("3 gossip matrices"),
            std::string::npos);
  EXPECT_NE(error_of([&] { muffliato_gd_view_pairs(schedule_of({w}), 0, 1); }).find("got 0"),
            std::string::npos);
  const std::vector<graph::NodeId> outside{9};
  EXPECT_NE(error_of([&] { muffliato_gd_view_pairs(schedule_of({w}), 1, 1, outside); }).find("observer 9"),
            std::string::npos);
}

}  // namespace
}  // namespace netdp::accounting
