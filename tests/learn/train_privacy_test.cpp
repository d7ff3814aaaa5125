// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>

#include "learn/config_test_helpers.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/learn/train.hpp"

namespace netdp::learn {
namespace {

using test::set;

FlatConfig run_config(const std::string& algorithm) {
  return {{"data.examples", "300"},      {"data.features", "4"},     {"network.graph", "ring:n=6"},
          {"algorithm.name", algorithm}, {"algorithm.rounds", "20"}, {"algorithm.batch_size", "5"},
          {"train.eval_every", "5"},     {"algorithm.sigma", "2"},   {"privacy.delta", "1e-5"}};
}

TEST(TrainPrivacyTest, DpDSgdLocalGdpIsComposedGaussian) {
  FlatConfig config = run_config("dp-d-sgd");
  set(config, "privacy.calibrate_on", "local");
  const TrainResult result = run_training(config);
  EXPECT_EQ(result.accountant, "local-gdp");
  for (const EvalRecord& r : result.history) {
    // Each step: sensitivity C/b against noise σC/b, i.e. μ = 1/σ; composed: √t/σ (Dong et al.
    // Corollary 3.3).
    const double exact = dp::gdp_epsilon(std::sqrt(static_cast<double>(r.round)) / 2.0, 1e-5);
    // Rounded up: the account converts μ rounded up to 40 bits, and gdp_epsilon returns the upper end
    // of a bracket of relative width 1e-13 around the root, so the root at μ is >= exact · (1 − 1e-13).
    EXPECT_GE(r.epsilon_so_far, exact * (1.0 - 1e-13));
    EXPECT_LE(r.epsilon_so_far, exact + 2e-9);
  }
}

TEST(TrainPrivacyTest, AntiPgdLocalViewPaysTheCumulativeSum) {
  // De-correlated by prefix sums L: sens² = ‖L 1‖² = Σ_{k<=T} k², checked against the literal matrix.
  FlatConfig config = run_config("antipgd");
  set(config, "privacy.calibrate_on", "local");
  const TrainResult result = run_training(config);
  const DenseMatrix lower = DenseMatrix::Ones(20, 20).triangularView<Eigen::Lower>();
  const double sens2 = (lower * Vector::Ones(20)).squaredNorm();
  const double exact = dp::gdp_epsilon(std::sqrt(sens2) / 2.0, 1e-5);
  EXPECT_GE(result.epsilon, exact);
  EXPECT_LE(result.epsilon, exact + 2e-9);
}

TEST(TrainPrivacyTest, MuffliatoMeanIsAtMostMaxAtMostLocal) {
  FlatConfig config = run_config("muffliato-sgd");
  set(config, "algorithm.gossip_steps", "3");
  set(config, "privacy.calibrate_on", "mean");
  const TrainResult mean = run_training(config);
  set(config, "privacy.calibrate_on", "max");
  const TrainResult max = run_training(config);
  set(config, "privacy.calibrate_on", "local");
  const TrainResult local = run_training(config);
  EXPECT_EQ(mean.accountant, "muffliato-mean-pairwise");
  EXPECT_EQ(max.accountant, "muffliato-max-pairwise");
  EXPECT_EQ(local.accountant, "local-gdp");
  EXPECT_GT(mean.epsilon, 0.0);
  EXPECT_LE(mean.epsilon, max.epsilon);
  EXPECT_LE(max.epsilon, local.epsilon);
  for (std::size_t i = 1; i < mean.history.size(); ++i) {
    EXPECT_LE(mean.history[i - 1].epsilon_so_far, mean.history[i].epsilon_so_far);
  }
}

TEST(TrainPrivacyTest, TimeVaryingAndRandomizedGossipAreTheWholeViewByDefault) {
  for (const std::string algorithm : {"muffliato-sgd", "randomized-gossip"}) {
    FlatConfig config = run_config(algorithm);
    set(config, "algorithm.gossip_steps", "2");
    if (algorithm == "muffliato-sgd") set(config, "algorithm.schedule", "er-per-round:p=0.5");
    set(config, "privacy.calibrate_on", "max");
    const TrainResult exact = run_training(config);
    EXPECT_EQ(exact.accountant,
              algorithm == "muffliato-sgd" ? "muffliato-max-pairwise" : "randomized-gossip-max-pairwise");
    EXPECT_TRUE(exact.valid_bound);
    EXPECT_GT(exact.epsilon, 0.0);
    EXPECT_LE(exact.epsilon, dp::gdp_epsilon(std::sqrt(20.0) / 2.0, 1e-5) + 2e-9);  // the local cap
    // The paper's Theorem 11 only by name, labelled as not a bound.
    set(config, "privacy.bound", "paper");
    const TrainResult paper = run_training(config);
    EXPECT_FALSE(paper.valid_bound);
    EXPECT_NE(paper.accountant.find("-paper-max-pairwise"), std::string::npos) << paper.accountant;
    bool labelled = false;
    for (const std::string& w : paper.warnings)
      labelled = labelled || w.find("NOT an upper bound") != std::string::npos;
    EXPECT_TRUE(labelled);
  }
}

TEST(TrainPrivacyTest, PaperBoundIsRefusedWhereThereIsNoPaperFormula) {
  FlatConfig config = run_config("dp-d-sgd");
  set(config, "privacy.bound", "paper");
  EXPECT_THROW(run_training(config), std::invalid_argument);
  config = run_config("muffliato-sgd");
  set(config, "privacy.bound", "paper");
  set(config, "privacy.calibrate_on", "local");
  EXPECT_THROW(run_training(config), std::invalid_argument);
}

TEST(TrainPrivacyTest, CalibrationMeetsTheTargetFromBelow) {
  for (const std::string calibrate_on : {"local", "mean", "max"}) {
    for (const std::string algorithm : {"dp-d-sgd", "muffliato-gd"}) {
      FlatConfig config = run_config(algorithm);
      if (algorithm == "muffliato-gd") set(config, "algorithm.batch_size", "0");
      set(config, "privacy.calibrate_on", calibrate_on);
      set(config, "privacy.target_epsilon", "3");
      const TrainResult result = run_training(config);
      ASSERT_TRUE(result.target_epsilon.has_value());
      EXPECT_EQ(*result.target_epsilon, 3.0);
      EXPECT_LE(result.epsilon, 3.0) << algorithm << " " << calibrate_on;
      EXPECT_GE(result.epsilon, 3.0 - 1e-6) << algorithm << " " << calibrate_on;
    }
  }
}

TEST(TrainPrivacyTest, SigmaZeroIsReportedAsNoPrivacy) {
  FlatConfig config = run_config("dp-d-sgd");
  set(config, "algorithm.sigma", "0");
  const TrainResult result = run_training(config);
  EXPECT_TRUE(std::isinf(result.epsilon));
  EXPECT_FALSE(result.warnings.empty());
}

TEST(TrainPrivacyTest, TargetForNonPrivateAlgorithmIsRejected) {
  FlatConfig config = run_config("d-sgd");
  set(config, "privacy.target_epsilon", "1");
  EXPECT_THROW(run_training(config), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::learn
