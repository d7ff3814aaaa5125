// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The pairwise accountants wired into training: each equals the accounting library called directly
// on the same small case, mean <= max <= local, calibration, and the guards' errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "learn/config_test_helpers.hpp"
#include "netdp/accounting/linear_system/linear_system.hpp"
#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/accounting/random_walk/random_walk.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/learn/train.hpp"

namespace netdp::learn {
namespace {

constexpr double kSigma = 2.0;
constexpr double kDelta = 1e-5;
constexpr std::size_t kRounds = 6;
constexpr std::size_t kNodes = 6;

using test::set;

// 240 training examples IID over a ring of 6 (40 each), batches of 5: every node's divisor is 5.
FlatConfig small_config(const std::string& algorithm, const std::string& calibrate_on) {
  return {{"data.examples", "300"},      {"data.features", "3"},
          {"network.graph", "ring:n=6"}, {"algorithm.name", algorithm},
          {"algorithm.rounds", "6"},     {"algorithm.batch_size", "5"},
          {"train.eval_every", "3"},     {"algorithm.sigma", "2"},
          {"privacy.delta", "1e-5"},     {"privacy.calibrate_on", calibrate_on}};
}

gossip::GossipMatrix ring_w() {
  return gossip::make_gossip_matrix(graph::from_spec("ring:n=6"), gossip::Weighting::hamilton);
}

// Reference (ε, δ) of a list of per-pair ε: the mean or the max.
double combine(const std::vector<double>& eps, bool average) {
  if (average) return std::accumulate(eps.begin(), eps.end(), 0.0) / static_cast<double>(eps.size());
  return *std::max_element(eps.begin(), eps.end());
}

std::vector<double> epsilons_of_sens2(const std::vector<double>& sens2, double local_sens2) {
  std::vector<double> eps;
  for (const double s : sens2)
    eps.push_back(dp::gdp_epsilon(std::sqrt(std::min(s, local_sens2)) / kSigma, kDelta));
  return eps;
}

std::vector<double> kk_sens2(accounting::LinearSystemView view, std::size_t rounds,
                             std::size_t release_dimension = accounting::kAnyReleaseDimension,
                             const std::string& graph = "ring:n=6") {
  accounting::LinearSystemOptions options;
  options.view = view;
  options.rounds = rounds;
  accounting::PairwiseOptions pairwise;
  pairwise.sign_search = accounting::SignSearch::none;
  pairwise.release_dimension = release_dimension;
  std::vector<graph::NodeId> nodes(kNodes);
  std::iota(nodes.begin(), nodes.end(), graph::NodeId{0});
  const gossip::GossipMatrix w =
      gossip::make_gossip_matrix(graph::from_spec(graph), gossip::Weighting::hamilton);
  const auto results =
      accounting::account_all_pairs(gossip::fixed_schedule(w, rounds), nodes, nodes, options, pairwise);
  std::vector<double> sens2;
  for (const auto& r : results) sens2.push_back(r.pair.sensitivity_squared_certified);
  return sens2;
}

void expect_close(double actual, double reference) {
  // The account rounds ε up to the next multiple of 1e-9.
  EXPECT_GE(actual, reference * (1.0 - 1e-9));
  EXPECT_LE(actual, reference * (1.0 + 1e-9) + 2e-9);
}

TEST(TrainPrivacyPairwiseTest, DpDSgdEqualsKoskelaKulkarniTheorem10) {
  for (const std::string mode : {"mean", "max"}) {
    const TrainResult result = run_training(small_config("dp-d-sgd", mode));
    EXPECT_EQ(result.accountant, "kk-thm10-" + mode + "-pairwise");
    ASSERT_EQ(result.history.size(), 2u);
    for (const EvalRecord& r : result.history) {
      // Computed once at T; before T each pair is capped by the local sens²(t) = t (an upper bound).
      const auto t = static_cast<double>(r.round);
      const double reference = combine(
          epsilons_of_sens2(kk_sens2(accounting::LinearSystemView::plain, kRounds), t), mode == "mean");
      expect_close(r.epsilon_so_far, reference);
    }
  }
}

TEST(TrainPrivacyPairwiseTest, ReleaseDimensionOneIsTheAccountantsScalarValueAndNoLargerThanTheVector) {
  // A graph whose plain-view K_u has negative entries: Σ|K| exceeds the vector value there, and a
  // scalar release is certified at min(SDP bound, Σ|K|), never above the vector release.
  const std::string graph = "er:n=6,p=0.6,seed=3,connected=1";
  FlatConfig config = small_config("dp-d-sgd", "mean");
  set(config, "network.graph", graph);
  const TrainResult vector = run_training(config);
  set(config, "privacy.release_dimension", "1");
  const TrainResult sum_abs = run_training(config);
  const auto local = static_cast<double>(kRounds);
  const std::vector<double> sens2_vector =
      kk_sens2(accounting::LinearSystemView::plain, kRounds, accounting::kAnyReleaseDimension, graph);
  const std::vector<double> sens2_sum_abs = kk_sens2(accounting::LinearSystemView::plain, kRounds, 1, graph);
  expect_close(vector.epsilon, combine(epsilons_of_sens2(sens2_vector, local), true));
  expect_close(sum_abs.epsilon, combine(epsilons_of_sens2(sens2_sum_abs, local), true));
  EXPECT_LE(sum_abs.epsilon, vector.epsilon);
  const auto mentions_sum_abs = [](const TrainResult& r) {
    return std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string& w) {
      return w.find("privacy.release_dimension = 1") != std::string::npos;
    });
  };
  EXPECT_TRUE(mentions_sum_abs(sum_abs));
  EXPECT_FALSE(mentions_sum_abs(vector));
}

TEST(TrainPrivacyPairwiseTest, SecureGossipTakesTheSmallerOfTheorems9And10) {
  const TrainResult result = run_training(small_config("secure-gossip", "mean"));
  EXPECT_EQ(result.accountant, "kk-secure-mean-pairwise");
  std::vector<double> sens2 = kk_sens2(accounting::LinearSystemView::plain, kRounds);
  const std::vector<double> secure = kk_sens2(accounting::LinearSystemView::secure_sum_adaptive, kRounds);
  ASSERT_EQ(sens2.size(), secure.size());
  for (std::size_t i = 0; i < sens2.size(); ++i) sens2[i] = std::min(sens2[i], secure[i]);
  expect_close(result.epsilon, combine(epsilons_of_sens2(sens2, static_cast<double>(kRounds)), true));
}

TEST(TrainPrivacyPairwiseTest, AntiPgdEqualsTheMfAccountantUnderPndp) {
  const TrainResult result = run_training(small_config("antipgd", "max"));
  EXPECT_EQ(result.accountant, "mf-pndp-max-pairwise");
  accounting::MfAlgorithmSpec spec;
  spec.algorithm = accounting::MfAlgorithm::antipgd;
  accounting::MfOptions options;
  options.assess.sign_search = accounting::SignSearch::none;
  const auto direct =
      accounting::account_mf_all_pairs(ring_w(), kRounds, spec, accounting::MfTrust::pndp, options);
  std::vector<double> sens2;
  for (const auto& pair : direct.pairs) sens2.push_back(pair.privacy.sensitivity_squared_certified);
  ASSERT_EQ(sens2.size(), kNodes * (kNodes - 1));
  const double local = kRounds * (kRounds + 1.0) * (2.0 * kRounds + 1.0) / 6.0;  // Σ k², the local cap
  expect_close(result.epsilon, combine(epsilons_of_sens2(sens2, local), false));
}

TEST(TrainPrivacyPairwiseTest, RandomWalkEqualsTheRandomWalkAccountant) {
  FlatConfig config = small_config("random-walk-dp-sgd", "mean");
  set(config, "algorithm.walk_contribution_cap", "2");
  set(config, "algorithm.walk_burn_in", "1");
  const TrainResult result = run_training(config);
  EXPECT_EQ(result.accountant, "random-walk-mean-pairwise");
  accounting::RandomWalkOptions options;
  options.steps = kRounds;
  options.sigma = kSigma;
  options.contributions = 2.0;  // min(cap 2, T − burn-in = 5)
  options.view = accounting::RandomWalkView::sender_known;
  const accounting::RandomWalkLosses losses(ring_w(), options);
  const double local = dp::gdp_epsilon(std::sqrt(2.0) / kSigma, kDelta);
  std::vector<double> eps;
  for (graph::NodeId v = 0; v < kNodes; ++v) {
    for (graph::NodeId u = 0; u < kNodes; ++u) {
      if (u != v) eps.push_back(std::min(losses.to_dp(v, u, kDelta).epsilon, local));
    }
  }
  expect_close(result.epsilon, combine(eps, true));
}

TEST(TrainPrivacyPairwiseTest, RandomizedGossipOneTickLeaksOnlyAcrossItsEdge) {
  // T = 1 step, K = 1 tick on edge {a, b}: a's only message (its noisy state, sensitivity 1 against
  // noise σ) goes to b and b's to a; no other ordered pair sees anything (Muffliato Theorem 1).
  const double local = dp::gdp_epsilon(1.0 / kSigma, kDelta);
  for (const std::string calibrate_on : {"mean", "max"}) {
    SCOPED_TRACE(calibrate_on);
    FlatConfig config = small_config("randomized-gossip", calibrate_on);
    set(config, "algorithm.rounds", "1");
    set(config, "algorithm.gossip_steps", "1");
    const TrainResult result = run_training(config);
    EXPECT_EQ(result.accountant, "randomized-gossip-" + calibrate_on + "-pairwise");
    const double pairs = static_cast<double>(kNodes * (kNodes - 1));
    expect_close(result.epsilon, calibrate_on == "max" ? local : 2.0 * local / pairs);
  }
}

TEST(TrainPrivacyPairwiseTest, MeanIsAtMostMaxAtMostLocalForEveryAlgorithm) {
  for (const std::string algorithm :
       {"dp-d-sgd", "secure-gossip", "antipgd", "random-walk-dp-sgd", "muffliato-sgd", "randomized-gossip"}) {
    SCOPED_TRACE(algorithm);
    const TrainResult mean = run_training(small_config(algorithm, "mean"));
    const TrainResult max = run_training(small_config(algorithm, "max"));
    const TrainResult local = run_training(small_config(algorithm, "local"));
    EXPECT_EQ(local.accountant, "local-gdp");
    EXPECT_GT(mean.epsilon, 0.0);
    EXPECT_LE(mean.epsilon, max.epsilon);
    EXPECT_LE(max.epsilon, local.epsilon);
    EXPECT_FALSE(mean.warnings.empty());  // every account says whether ε is exact or a bound
  }
}

TEST(TrainPrivacyPairwiseTest, CalibrationReachesTheTargetFromBelow) {
  for (const std::string algorithm : {"dp-d-sgd", "random-walk-dp-sgd"}) {
    SCOPED_TRACE(algorithm);
    FlatConfig config = small_config(algorithm, "mean");
    set(config, "privacy.target_epsilon", "1.5");
    const TrainResult result = run_training(config);
    EXPECT_LE(result.epsilon, 1.5);
    EXPECT_GE(result.epsilon, 1.5 - 1e-6);
  }
}

TEST(TrainPrivacyPairwiseTest, BadCombinationsGiveClearErrors) {
  const auto message_of = [](const FlatConfig& config) {
    try {
      (void)run_training(config);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  FlatConfig big = small_config("dp-d-sgd", "mean");
  set(big, "network.graph", "ring:n=200");
  set(big, "data.examples", "500");
  set(big, "algorithm.rounds", "1000");
  set(big, "train.eval_every", "0");
  EXPECT_NE(message_of(big).find("privacy.calibrate_on = local"), std::string::npos) << message_of(big);

  FlatConfig varying = small_config("antipgd", "mean");
  set(varying, "algorithm.schedule", "er-per-round:p=0.5");
  EXPECT_NE(message_of(varying).find("algorithm.schedule = fixed"), std::string::npos);

  FlatConfig burn = small_config("random-walk-dp-sgd", "mean");
  set(burn, "algorithm.walk_burn_in", "6");
  EXPECT_NE(message_of(burn).find("algorithm.walk_burn_in = 6 must be <"), std::string::npos);

  FlatConfig cap = small_config("random-walk-dp-sgd", "mean");
  set(cap, "algorithm.walk_contribution_cap", "-1");
  EXPECT_NE(message_of(cap).find("algorithm.walk_contribution_cap"), std::string::npos);

  FlatConfig dimension = small_config("dp-d-sgd", "mean");
  set(dimension, "privacy.release_dimension", "2");
  EXPECT_NE(message_of(dimension).find("privacy.release_dimension"), std::string::npos)
      << message_of(dimension);
  EXPECT_NE(message_of(dimension).find("expected vector or 1"), std::string::npos) << message_of(dimension);

  // No node limit on the random walk's pairwise accountant (its memory is n(n−1) pairs).
  FlatConfig walk_big = small_config("random-walk-dp-sgd", "max");
  set(walk_big, "network.graph", "ring:n=150");
  set(walk_big, "data.examples", "400");
  EXPECT_EQ(message_of(walk_big), "no error");
}

}  // namespace
}  // namespace netdp::learn

namespace netdp::learn {
namespace {

TEST(TrainPrivacyPairwiseTest, PairwiseScheduleRunsInTrainingWithItsAccountant) {
  // The schedule grammar is the command line's (gossip::parse_schedule_spec): `pairwise` gossips on
  // one random edge per step, and the pairwise accountants see that drawn schedule.
  for (const std::string algorithm : {"dp-d-sgd", "muffliato-gd"}) {
    SCOPED_TRACE(algorithm);
    FlatConfig config = small_config(algorithm, "max");
    set(config, "algorithm.schedule", "pairwise");
    if (algorithm == std::string("muffliato-gd")) set(config, "algorithm.batch_size", "0");
    const TrainResult pairwise = run_training(config);
    set(config, "privacy.calibrate_on", "local");
    const TrainResult local = run_training(config);
    EXPECT_EQ(pairwise.config.at("algorithm.schedule"), "pairwise");
    EXPECT_NE(pairwise.accountant.find("max-pairwise"), std::string::npos) << pairwise.accountant;
    EXPECT_GT(pairwise.epsilon, 0.0);
    EXPECT_LE(pairwise.epsilon, local.epsilon);
  }
}

}  // namespace
}  // namespace netdp::learn
