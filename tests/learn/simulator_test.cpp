// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>

#include "learn/config_test_helpers.hpp"
#include "netdp/learn/train.hpp"

namespace netdp::learn {
namespace {

using test::set;

FlatConfig small_run() {
  return {{"data.examples", "400"},   {"data.features", "5"},         {"network.graph", "ring:n=8"},
          {"algorithm.rounds", "25"}, {"algorithm.batch_size", "8"},  {"train.eval_every", "10"},
          {"algorithm.sigma", "1"},   {"privacy.calibrate_on", "max"}};
}

TEST(SimulatorTest, EvaluatesEveryPeriodAndAfterTheLastRound) {
  const TrainResult result = run_training(small_run());
  ASSERT_EQ(result.history.size(), 3u);
  EXPECT_EQ(result.history[0].round, 10u);
  EXPECT_EQ(result.history[1].round, 20u);
  EXPECT_EQ(result.history[2].round, 25u);
  EXPECT_EQ(result.algorithm, "dp-d-sgd");
  EXPECT_EQ(result.accountant, "kk-thm10-max-pairwise");
  EXPECT_EQ(result.final_test_loss, result.history.back().test_loss);
  EXPECT_EQ(result.epsilon, result.history.back().epsilon_so_far);
  for (const EvalRecord& r : result.history) {
    EXPECT_TRUE(std::isfinite(r.train_loss));
    ASSERT_TRUE(r.test_accuracy.has_value());
    EXPECT_GE(*r.test_accuracy, 0.0);
    EXPECT_LE(*r.test_accuracy, 1.0);
    EXPECT_GE(r.consensus_distance, 0.0);
  }
  EXPECT_LT(result.history[0].epsilon_so_far, result.history[2].epsilon_so_far);
  int calls = 0;
  run_training(small_run(), [&](const EvalRecord&) { ++calls; });
  EXPECT_EQ(calls, 3);
}

TEST(SimulatorTest, SameSeedSameMetricsOtherSeedOtherMetrics) {
  const TrainResult a = run_training(small_run());
  const TrainResult b = run_training(small_run());
  ASSERT_EQ(a.history.size(), b.history.size());
  for (std::size_t i = 0; i < a.history.size(); ++i) {
    EXPECT_EQ(a.history[i].train_loss, b.history[i].train_loss);
    EXPECT_EQ(a.history[i].test_loss, b.history[i].test_loss);
    EXPECT_EQ(a.history[i].consensus_distance, b.history[i].consensus_distance);
    EXPECT_EQ(a.history[i].average_model_test_loss, b.history[i].average_model_test_loss);
  }
  FlatConfig other = small_run();
  set(other, "train.seed", "2");
  EXPECT_NE(run_training(other).history.back().train_loss, a.history.back().train_loss);
}

TEST(SimulatorTest, SameMetricsForOneAndTwoThreads) {
  FlatConfig full_batch = small_run();
  set(full_batch, "algorithm.batch_size", "0");
  for (const FlatConfig& config : {small_run(), full_batch}) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
    const TrainResult a = run_training(config);
    omp_set_num_threads(2);
    const TrainResult b = run_training(config);
    omp_set_num_threads(saved);
    ASSERT_EQ(a.history.size(), b.history.size());
    for (std::size_t i = 0; i < a.history.size(); ++i) {
      EXPECT_EQ(a.history[i].train_loss, b.history[i].train_loss);
      EXPECT_EQ(a.history[i].test_loss, b.history[i].test_loss);
      EXPECT_EQ(a.history[i].test_accuracy, b.history[i].test_accuracy);
      EXPECT_EQ(a.history[i].average_model_test_loss, b.history[i].average_model_test_loss);
      EXPECT_EQ(a.history[i].consensus_distance, b.history[i].consensus_distance);
    }
  }
}

TEST(SimulatorTest, NonPrivateTrainingLearnsTheSyntheticTask) {
  FlatConfig config = small_run();
  set(config, "algorithm.name", "d-sgd");
  set(config, "algorithm.rounds", "200");
  set(config, "algorithm.step_size", "1");
  // The planted task's signal depends on the seed's draws (|θ*| / √d sets the Bayes accuracy): with
  // train.seed = 1 the planted θ* gives a Bayes accuracy near 0.6, too close to the bound below.
  set(config, "train.seed", "5");
  const TrainResult result = run_training(config);
  EXPECT_TRUE(std::isinf(result.epsilon) && result.epsilon > 0.0) << result.epsilon;  // no DP guarantee
  EXPECT_EQ(result.accountant, "none");
  EXPECT_LT(result.history.back().train_loss, std::log(2.0));  // the loss of θ = 0
  EXPECT_GT(*result.history.back().average_model_accuracy, 0.6);
}

TEST(SimulatorTest, LinearRegressionReportsNoAccuracy) {
  FlatConfig config = small_run();
  set(config, "data.source", "synthetic-linear");
  set(config, "model.kind", "linear");
  const TrainResult result = run_training(config);
  EXPECT_FALSE(result.final_test_accuracy.has_value());
  EXPECT_FALSE(result.history.back().average_model_accuracy.has_value());
}

TEST(SimulatorTest, BadConfigurationsThrowClearly) {
  FlatConfig config = small_run();
  set(config, "network.graph", "ring:n=1000");
  EXPECT_THROW(run_training(config), std::invalid_argument);  // more nodes than examples
  config = small_run();
  set(config, "train.eval_node", "99");
  EXPECT_THROW(run_training(config), std::invalid_argument);
  config = small_run();
  set(config, "algorithm.step_size", "1e6");
  set(config, "data.source", "synthetic-linear");
  set(config, "model.kind", "linear");
  set(config, "algorithm.name", "d-sgd");
  set(config, "algorithm.clip", "inf");
  set(config, "algorithm.rounds", "300");
  EXPECT_THROW(run_training(config), std::invalid_argument);  // diverges: non-finite loss
  config = small_run();
  set(config, "data.source", "mnist");
  EXPECT_THROW(run_training(config), std::invalid_argument);  // no data.path
}

}  // namespace
}  // namespace netdp::learn
