// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// TrainContext's parallel helpers against literal loops: clipped mean gradients over drawn
// minibatches, and gossip W θ; both identical for 1 and 2 threads.

#include <gtest/gtest.h>
#include <omp.h>

#include <numeric>
#include <vector>

#include "netdp/gossip/schedules.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/learn/algorithm.hpp"

namespace netdp::learn {
namespace {

constexpr std::size_t kFeatures = 40;
constexpr std::size_t kClasses = 10;  // p = 41 · 10 = 410 parameters: two gossip column blocks

/// Node v's shard: m random examples with labels cycling over the classes.
std::vector<Dataset> shards(std::size_t nodes, std::size_t m) {
  Rng rng(17);
  std::vector<Dataset> out(nodes);
  for (auto& d : out) {
    d.task = Task::multiclass;
    d.num_classes = kClasses;
    d.features.resize(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(kFeatures));
    d.targets.resize(static_cast<Eigen::Index>(m));
    for (Eigen::Index i = 0; i < d.features.rows(); ++i) {
      for (Eigen::Index j = 0; j < d.features.cols(); ++j) d.features(i, j) = rng.uniform01() - 0.5;
      d.targets(i) = static_cast<double>(static_cast<std::size_t>(i) % kClasses);
    }
  }
  return out;
}

struct Shards {
  std::unique_ptr<Model> model =
      make_model({ModelSpec::Kind::logistic}, kFeatures, Task::multiclass, kClasses);
  gossip::GossipMatrix w = gossip::make_gossip_matrix(graph::ring(6), gossip::Weighting::metropolis);
  std::vector<Dataset> data = shards(6, 30);

  TrainContext context(std::size_t batch) const {
    AlgorithmParams p;
    p.name = "dp-d-sgd";
    p.batch_size = batch;
    p.clip = 0.5;
    return TrainContext(*model, data, w, gossip::fixed_schedule(w, 1), p, 1);
  }
  DenseMatrix theta() const {
    Rng rng(3);
    DenseMatrix t(6, static_cast<Eigen::Index>(model->num_parameters()));
    for (Eigen::Index k = 0; k < t.size(); ++k) t.data()[k] = rng.uniform01() - 0.5;
    return t;
  }
};

/// The literal minibatch: a sequential partial Fisher–Yates per node from one stream, then the
/// clipped sum over the chosen rows, divided by b.
DenseMatrix literal_gradients(const Shards& s, const DenseMatrix& theta, std::size_t b, Rng& rng) {
  DenseMatrix grads(theta.rows(), theta.cols());
  for (std::size_t v = 0; v < s.data.size(); ++v) {
    const Dataset& d = s.data[v];
    std::vector<std::size_t> order(d.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    for (std::size_t i = 0; i < b; ++i) std::swap(order[i], order[i + rng.uniform_below(d.size() - i)]);
    DenseMatrix x(static_cast<Eigen::Index>(b), d.features.cols());
    Vector y(static_cast<Eigen::Index>(b));
    for (std::size_t i = 0; i < b; ++i) {
      x.row(static_cast<Eigen::Index>(i)) = d.features.row(static_cast<Eigen::Index>(order[i]));
      y(static_cast<Eigen::Index>(i)) = d.targets(static_cast<Eigen::Index>(order[i]));
    }
    const Vector row = theta.row(static_cast<Eigen::Index>(v)).transpose();
    grads.row(static_cast<Eigen::Index>(v)) =
        s.model->clipped_gradient_sum(row, x, y, 0.5).transpose() / static_cast<double>(b);
  }
  return grads;
}

void expect_close(const DenseMatrix& a, const DenseMatrix& b) {
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.cols(), b.cols());
  EXPECT_LE((a - b).cwiseAbs().maxCoeff(), 1e-9 * std::max(1.0, b.cwiseAbs().maxCoeff()));
}

TEST(SimulatorContextTest, MinibatchGradientsMatchTheLiteralSequentialLoop) {
  const Shards s;
  const DenseMatrix theta = s.theta();
  const int saved = omp_get_max_threads();
  for (const int threads : {1, 2}) {
    omp_set_num_threads(threads);
    TrainContext ctx = s.context(8);
    Rng rng(9);
    Rng reference(9);
    DenseMatrix grads;
    for (int step = 0; step < 3; ++step) {  // the order carries over between steps
      ctx.clipped_mean_gradients(theta, rng, grads);
      // The literal loop restarts from the identity order; compare only the first step exactly.
      if (step == 0) expect_close(grads, literal_gradients(s, theta, 8, reference));
    }
  }
  omp_set_num_threads(saved);
}

TEST(SimulatorContextTest, FullBatchGradientsUseEveryExample) {
  const Shards s;
  const DenseMatrix theta = s.theta();
  TrainContext ctx = s.context(0);
  Rng rng(9);
  Rng reference(9);
  DenseMatrix grads;
  ctx.clipped_mean_gradients(theta, rng, grads);
  expect_close(grads, literal_gradients(s, theta, 30, reference));
}

TEST(SimulatorContextTest, GradientsAndGossipDoNotDependOnTheThreadCount) {
  const Shards s;
  const int saved = omp_get_max_threads();
  std::vector<DenseMatrix> results;
  for (const int threads : {1, 2}) {
    omp_set_num_threads(threads);
    TrainContext ctx = s.context(5);
    Rng rng(4);
    DenseMatrix theta = s.theta();
    DenseMatrix grads;
    for (int step = 0; step < 4; ++step) {
      ctx.clipped_mean_gradients(theta, rng, grads);
      theta -= 0.5 * grads;
      ctx.gossip(s.w.matrix(), theta);
    }
    results.push_back(theta);
  }
  omp_set_num_threads(saved);
  EXPECT_EQ(results[0], results[1]);
}

TEST(SimulatorContextTest, BadLabelInsideTheParallelLoopThrowsInvalidArgument) {
  Shards s;
  s.data[3].targets(2) = 99.0;  // not a class index
  TrainContext ctx = s.context(0);
  Rng rng(1);
  DenseMatrix grads;
  EXPECT_THROW(ctx.clipped_mean_gradients(s.theta(), rng, grads), std::invalid_argument);
}

TEST(SimulatorContextTest, GossipIsTheProductWithW) {
  const Shards s;
  TrainContext ctx = s.context(0);
  DenseMatrix theta = s.theta();
  const DenseMatrix expected = DenseMatrix(s.w.matrix()) * theta;
  ctx.gossip(s.w.matrix(), theta);
  expect_close(theta, expected);
  // Many nodes and few parameters: row blocks of W (a ring of 2,500 nodes, 3 parameters).
  const gossip::GossipMatrix ring =
      gossip::make_gossip_matrix(graph::ring(2500), gossip::Weighting::hamilton);
  Rng rng(8);
  DenseMatrix tall(2500, 3);
  for (Eigen::Index k = 0; k < tall.size(); ++k) tall.data()[k] = rng.uniform01();
  DenseMatrix literal(2500, 3);
  for (Eigen::Index i = 0; i < 2500; ++i) {
    literal.row(i).setZero();
    for (SparseMatrix::InnerIterator it(ring.matrix(), i); it; ++it)
      literal.row(i) += it.value() * tall.row(it.col());
  }
  std::vector<Dataset> data(2500, s.data[0]);
  AlgorithmParams p;
  p.name = "d-sgd";
  TrainContext big(*s.model, std::move(data), ring, gossip::fixed_schedule(ring, 1), p, 1);
  big.gossip(ring.matrix(), tall);
  expect_close(tall, literal);
}

}  // namespace
}  // namespace netdp::learn
