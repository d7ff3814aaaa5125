// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "../src/learn/algo_protocol.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "../src/learn/train_privacy.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/learn/algorithm.hpp"

namespace netdp::learn {
namespace {

constexpr int kNodes = 6;
constexpr int kFeatures = 3;

// Ring of 6 nodes, W_vv = W_{v,v±1} = 1/3 (doubly stochastic).
SparseMatrix ring_w() {
  DenseMatrix w = DenseMatrix::Zero(kNodes, kNodes);
  for (int v = 0; v < kNodes; ++v) {
    w(v, v) = 1.0 / 3.0;
    w(v, (v + 1) % kNodes) = 1.0 / 3.0;
    w(v, (v + kNodes - 1) % kNodes) = 1.0 / 3.0;
  }
  return w.sparseView();
}

// Planted noise-free linear regression: y = x · w*, so the optimum of the squared loss is 0.
std::vector<Dataset> planted_shards() {
  const Vector w_star = (Vector(kFeatures) << 1.0, -2.0, 0.5).finished();
  std::vector<Dataset> shards;
  for (int v = 0; v < kNodes; ++v) {
    Dataset d;
    d.features.resize(8, kFeatures);
    for (int i = 0; i < 8; ++i) {
      for (int c = 0; c < kFeatures; ++c) d.features(i, c) = std::sin(3.1 * v + 1.3 * i + 0.7 * c);
    }
    d.targets = d.features * w_star;
    d.task = Task::regression;
    shards.push_back(d);
  }
  return shards;
}

struct Fixture {
  std::unique_ptr<Model> model =
      make_model(ModelSpec{ModelSpec::Kind::linear, 0.0, 0}, kFeatures, Task::regression, 0);
  std::vector<Dataset> shards = planted_shards();

  TrainContext context(double sigma, std::size_t rounds, double clip = 1e6, std::uint64_t seed = 42) const {
    AlgorithmParams p;
    p.rounds = rounds;
    p.step_size = 0.2;
    p.batch_size = 0;
    p.clip = clip;
    p.sigma = sigma;
    return TrainContext(*model, shards, gossip::GossipMatrix::from_support(ring_w()),
                        gossip::Schedule::fixed(ring_w(), rounds), p, seed);
  }

  DenseMatrix run(Algorithm& algorithm, TrainContext& ctx, std::uint64_t rng_seed = 7) const {
    DenseMatrix theta = DenseMatrix::Zero(kNodes, static_cast<Eigen::Index>(model->num_parameters()));
    Rng rng(rng_seed);
    algorithm.prepare(ctx);
    for (std::size_t t = 0; t < ctx.params().rounds; ++t) algorithm.round(t, theta, ctx, rng);
    return theta;
  }

  double mean_loss(const DenseMatrix& theta) const {
    double total = 0.0;
    for (int v = 0; v < kNodes; ++v) {
      total += model->loss(theta.row(v).transpose(), shards[static_cast<std::size_t>(v)].features,
                           shards[static_cast<std::size_t>(v)].targets);
    }
    return total / kNodes;
  }

  // ∇ of node v's mean loss at θ (no clipping: C = +∞).
  Vector full_gradient(const Vector& theta, int v) const {
    const Dataset& d = shards[static_cast<std::size_t>(v)];
    return model->clipped_gradient_sum(theta, d.features, d.targets,
                                       std::numeric_limits<double>::infinity()) /
           static_cast<double>(d.size());
  }
};

TEST(AlgoProtocol, SecureGossipEqualsDpDsgdUpToTheFixedPointEncoding) {
  const Fixture f;
  // σ = 0: the comparison does not depend on the order in which the two draw their noise.
  TrainContext a = f.context(0.0, 25);
  TrainContext b = f.context(0.0, 25);
  auto secure = make_secure_gossip();
  auto plain = make_algorithm("dp-d-sgd");
  const DenseMatrix secure_theta = f.run(*secure, a);
  const DenseMatrix plain_theta = f.run(*plain, b);
  // The protocol differs from plain gossip only by rounding each term to 2^-33.
  EXPECT_LT((secure_theta - plain_theta).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_GT(secure_theta.cwiseAbs().maxCoeff(), 0.1);  // it moved
}

TEST(AlgoProtocol, LocalDpSgdAtSigmaZeroIsPlainLocalGradientDescent) {
  const Fixture f;
  TrainContext ctx = f.context(0.0, 10);
  auto algorithm = make_local_dp_sgd();
  const DenseMatrix got = f.run(*algorithm, ctx);
  for (int v = 0; v < kNodes; ++v) {
    Vector theta = Vector::Zero(static_cast<Eigen::Index>(f.model->num_parameters()));
    for (int t = 0; t < 10; ++t) theta -= 0.2 * f.full_gradient(theta, v);
    EXPECT_LT((got.row(v).transpose() - theta).norm(), 1e-9 * (1.0 + theta.norm())) << "node " << v;
  }
}

TEST(AlgoProtocol, DpFedAvgAtSigmaZeroIsCentralGradientDescent) {
  const Fixture f;
  TrainContext ctx = f.context(0.0, 10);
  auto algorithm = make_dp_fedavg();
  const DenseMatrix got = f.run(*algorithm, ctx);
  Vector theta = Vector::Zero(static_cast<Eigen::Index>(f.model->num_parameters()));
  for (int t = 0; t < 10; ++t) {
    Vector g = Vector::Zero(theta.size());
    for (int v = 0; v < kNodes; ++v) g += f.full_gradient(theta, v) / kNodes;
    theta -= 0.2 * g;
  }
  for (int v = 0; v < kNodes; ++v)
    EXPECT_LT((got.row(v).transpose() - theta).norm(), 1e-9 * (1.0 + theta.norm()));
}

TEST(AlgoProtocol, RandomWalkAtSigmaZeroFollowsALiteralWalk) {
  const Fixture f;
  TrainContext ctx = f.context(0.0, 30);
  auto algorithm = make_random_walk_dp_sgd();
  const DenseMatrix got = f.run(*algorithm, ctx, 11);
  // Literal: same Rng draws (start node, full-batch Fisher–Yates shuffle, next node by W's row).
  Rng rng(11);
  std::size_t v = rng.uniform_below(kNodes);
  Vector theta = Vector::Zero(static_cast<Eigen::Index>(f.model->num_parameters()));
  const SparseMatrix w = ring_w();
  for (int t = 0; t < 30; ++t) {
    for (std::size_t i = 0; i < 8; ++i) rng.uniform_below(8 - i);  // batch = all 8 examples
    theta -= 0.2 * f.full_gradient(theta, static_cast<int>(v));
    const double r = rng.uniform01();
    const std::size_t left = (v + kNodes - 1) % kNodes;
    const std::size_t right = (v + 1) % kNodes;
    std::vector<std::size_t> row = {v, left, right};
    std::sort(row.begin(), row.end());
    v = row[r < 1.0 / 3.0 ? 0 : (r < 2.0 / 3.0 ? 1 : 2)];
  }
  for (int u = 0; u < kNodes; ++u)
    EXPECT_LT((got.row(u).transpose() - theta).norm(), 1e-9 * (1.0 + theta.norm()));
}

TEST(AlgoProtocol, EveryProtocolConvergesOnAPlantedProblem) {
  const Fixture f;
  const double initial =
      f.mean_loss(DenseMatrix::Zero(kNodes, static_cast<Eigen::Index>(f.model->num_parameters())));
  for (const std::string name : {"secure-gossip", "random-walk-dp-sgd", "dp-fedavg", "local-dp-sgd"}) {
    TrainContext ctx = f.context(0.0, 300);
    auto algorithm = make_algorithm(name);
    const double final_loss = f.mean_loss(f.run(*algorithm, ctx));
    EXPECT_LT(final_loss, 1e-4 * initial) << name << ": " << final_loss << " from " << initial;
  }
}

TEST(AlgoProtocol, SameSeedSameTrajectory) {
  const Fixture f;
  for (const std::string name : {"secure-gossip", "random-walk-dp-sgd", "dp-fedavg", "local-dp-sgd"}) {
    TrainContext a = f.context(1.5, 12, 1.0);
    TrainContext b = f.context(1.5, 12, 1.0);
    auto first = make_algorithm(name);
    auto second = make_algorithm(name);
    const DenseMatrix x = f.run(*first, a, 3);
    const DenseMatrix y = f.run(*second, b, 3);
    EXPECT_EQ(x, y) << name;
    TrainContext c = f.context(1.5, 12, 1.0);
    auto third = make_algorithm(name);
    EXPECT_NE(x, f.run(*third, c, 4)) << name << ": another seed, other noise";
  }
}

TEST(AlgoProtocol, RandomWalkCapAndBurnIn) {
  const Fixture f;
  // Burn-in covering the whole run: nobody contributes, the token model stays at its start.
  TrainContext ctx = f.context(0.0, 20);
  auto idle = make_random_walk_dp_sgd(RandomWalkSgdOptions{std::numeric_limits<std::size_t>::max(), 20});
  EXPECT_EQ(f.run(*idle, ctx),
            DenseMatrix::Zero(kNodes, static_cast<Eigen::Index>(f.model->num_parameters())));
  // Privacy: N = min(K, T − burn-in) contributions at most, μ = √N / σ (the local view).
  ctx.mutable_params().calibrate_on = CalibrateOn::local;
  auto capped = make_random_walk_dp_sgd(RandomWalkSgdOptions{3, 5});
  const PrivacyAccount account = capped->privacy(ctx);
  EXPECT_EQ(account.mus(2.0, 100), std::vector<double>{std::sqrt(3.0) / 2.0});
  EXPECT_EQ(account.mus(2.0, 7), std::vector<double>{std::sqrt(2.0) / 2.0});
  EXPECT_TRUE(account.mus(2.0, 5).empty());
  EXPECT_THROW(make_random_walk_dp_sgd(RandomWalkSgdOptions{0, 0}), std::invalid_argument);
}

TEST(AlgoProtocol, CentralAndLocalAccountsComposeOverRounds) {
  const Fixture f;
  const TrainContext ctx = f.context(1.0, 10);
  const PrivacyAccount central = make_dp_fedavg()->privacy(ctx);
  EXPECT_EQ(central.accountant, "central-gdp");
  const double eps = account_epsilon(central, 4.0, 16, 1e-5);
  EXPECT_GE(eps, dp::gdp_epsilon(1.0, 1e-5));  // μ = √16 / 4 = 1, rounded up
  EXPECT_LE(eps, dp::gdp_epsilon(1.0, 1e-5) + 2e-9);
  const PrivacyAccount local = make_local_dp_sgd()->privacy(ctx);
  EXPECT_EQ(local.accountant, "local-gdp");
  EXPECT_EQ(local.mus(4.0, 16), std::vector<double>{1.0});
}

TEST(AlgoProtocol, SecureGossipRejectsTimeVaryingSchedules) {
  const Fixture f;
  TrainContext ctx = f.context(1.0, 3);
  ctx.mutable_params().schedule = gossip::parse_schedule_spec("er-per-round:p=0.5");
  auto algorithm = make_secure_gossip();
  EXPECT_THROW(algorithm->prepare(ctx), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::learn
