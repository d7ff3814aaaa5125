// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "algo_test_problem.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/learn/train.hpp"

namespace netdp::learn {
namespace {

using test::linear_problem;
using test::Problem;
using test::run;

// Clipping far above every gradient: the tests compare against unclipped literal updates.
AlgorithmParams unclipped_params(const std::string& name, std::size_t rounds, double sigma) {
  return test::params_for(name, rounds, sigma, 1e6);
}

TEST(AlgoGossipTest, DSgdRoundMatchesLiteralAdaptThenCombine) {
  const Problem problem = linear_problem(6, 120, 3);
  AlgorithmParams p = unclipped_params("d-sgd", 2, 0.0);
  p.clip = std::numeric_limits<double>::infinity();
  const DenseMatrix theta = run(problem, p);
  // Literal: θ ← W (θ − η ∇f_v(θ_v)), twice, with dense W and the model's full gradient.
  const DenseMatrix w = DenseMatrix(problem.w.matrix());
  DenseMatrix expected = DenseMatrix::Zero(6, 4);
  for (int t = 0; t < 2; ++t) {
    DenseMatrix stepped = expected;
    for (Eigen::Index v = 0; v < 6; ++v) {
      const Vector row = expected.row(v).transpose();
      const Dataset& d = problem.shards[static_cast<std::size_t>(v)];
      stepped.row(v) = (row - p.step_size * problem.model->gradient(row, d.features, d.targets)).transpose();
    }
    expected = w * stepped;
  }
  EXPECT_LE((theta - expected).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(AlgoGossipTest, EachPrivateAlgorithmAtSigmaZeroEqualsDSgd) {
  const Problem problem = linear_problem(5, 100, 3);
  const DenseMatrix baseline = run(problem, unclipped_params("d-sgd", 5, 0.0));
  for (const std::string name : {"dp-d-sgd", "muffliato-sgd", "muffliato-gd", "antipgd"}) {
    EXPECT_EQ(run(problem, unclipped_params(name, 5, 0.0)), baseline) << name;
  }
  AlgorithmParams k3 = unclipped_params("d-sgd", 5, 0.0);
  k3.gossip_steps = 3;
  AlgorithmParams muffliato = k3;
  muffliato.name = "muffliato-sgd";
  EXPECT_EQ(run(problem, muffliato), run(problem, k3));
}

TEST(AlgoGossipTest, NoiseChangesTheModelsAndIsSeeded) {
  const Problem problem = linear_problem(5, 100, 3);
  const DenseMatrix clean = run(problem, unclipped_params("dp-d-sgd", 3, 0.0));
  const DenseMatrix noisy = run(problem, unclipped_params("dp-d-sgd", 3, 1.0));
  EXPECT_GT((noisy - clean).norm(), 1e-3);
  EXPECT_EQ(run(problem, unclipped_params("dp-d-sgd", 3, 1.0), 11),
            run(problem, unclipped_params("dp-d-sgd", 3, 1.0), 11));
  EXPECT_NE(run(problem, unclipped_params("dp-d-sgd", 3, 1.0), 11),
            run(problem, unclipped_params("dp-d-sgd", 3, 1.0), 12));
}

TEST(AlgoGossipTest, AntiPgdSubtractsThePreviousDraw) {
  // Step 0 has no previous draw: antipgd and dp-d-sgd agree exactly; from step 1 on they differ.
  const Problem problem = linear_problem(5, 100, 3);
  AlgorithmParams anti = unclipped_params("antipgd", 1, 1.0);
  AlgorithmParams plain = unclipped_params("dp-d-sgd", 1, 1.0);
  EXPECT_EQ(run(problem, anti), run(problem, plain));
  anti.rounds = plain.rounds = 2;
  EXPECT_GT((run(problem, anti) - run(problem, plain)).norm(), 1e-6);
}

TEST(AlgoGossipTest, RandomizedGossipKeepsTheAverageOfItsGossip) {
  // At σ = 0 and η → the first step only, pairwise averaging preserves Σ_v θ_v.
  const Problem problem = linear_problem(6, 120, 3);
  AlgorithmParams p = unclipped_params("randomized-gossip", 1, 0.0);
  p.gossip_steps = 50;
  const DenseMatrix theta = run(problem, p);
  AlgorithmParams no_gossip = unclipped_params("randomized-gossip", 1, 0.0);
  no_gossip.gossip_steps = 0;
  const DenseMatrix local = run(problem, no_gossip);
  EXPECT_LE((theta.colwise().sum() - local.colwise().sum()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((theta.rowwise() - theta.colwise().mean()).norm(),
            (local.rowwise() - local.colwise().mean()).norm());
}

TEST(AlgoGossipTest, ConvergesToThePlantedModel) {
  const Problem problem = linear_problem(8, 400, 3);
  AlgorithmParams p = unclipped_params("d-sgd", 600, 0.0);
  p.step_size = 1.5;
  const DenseMatrix theta = run(problem, p);
  const Vector average = theta.colwise().mean().transpose();
  EXPECT_LE((average.head(3) - problem.planted).norm(), 1e-3 * (1.0 + problem.planted.norm()));
  EXPECT_LE(std::abs(average(3)), 1e-3);
  EXPECT_LE((theta.rowwise() - average.transpose()).norm(), 1e-3);
}

TEST(AlgoGossipTest, DpDSgdRejectsSeveralGossipSteps) {
  const Problem problem = linear_problem(5, 100, 3);
  AlgorithmParams p = unclipped_params("dp-d-sgd", 2, 1.0);
  p.gossip_steps = 2;
  EXPECT_THROW(run(problem, p), std::invalid_argument);
  EXPECT_THROW(make_algorithm("nope"), std::invalid_argument);
}

TEST(AlgoGossipTest, RandomizedGossipRefusesTooManyPreDrawnTicks) {
  const Problem problem = linear_problem(5, 100, 3);
  AlgorithmParams p = unclipped_params("randomized-gossip", 100'000, 0.0);
  p.gossip_steps = 1000;  // 1e8 ticks > the 5e7 kept
  try {
    (void)run(problem, p);
    ADD_FAILURE() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("100000000"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace netdp::learn
