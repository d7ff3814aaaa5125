// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The pieces of one DP-D-SGD round at the MNIST target shape (Koskela–Kulkarni Fig. 3: 8,000
// training digits, 784 features, 10 classes, 100 nodes of Erdős–Rényi(100, 0.2), closed-row W,
// full local batches of 80): clipped mean gradients, Gaussian noise, gossip, a whole round, and
// one evaluation-sized model loss. Synthetic data of that shape (no file needed); the parallel
// pieces use OMP_NUM_THREADS threads, so read the real (wall) time. See docs/reference/performance.md,
// "Training".

#include <benchmark/benchmark.h>

#include <vector>

#include "digit_shards.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/learn/algorithm.hpp"

namespace {

using netdp::DenseMatrix;
using netdp::Vector;
using namespace netdp::learn;

constexpr std::size_t kNodes = 100;
constexpr Eigen::Index kPerNode = 80;
constexpr Eigen::Index kFeatures = netdp::bench::kDigitFeatures;
constexpr std::size_t kClasses = netdp::bench::kDigitClasses;

struct MnistShape {
  std::unique_ptr<Model> model =
      make_model({ModelSpec::Kind::logistic}, kFeatures, Task::multiclass, kClasses);
  netdp::gossip::GossipMatrix w = netdp::gossip::make_gossip_matrix(netdp::graph::erdos_renyi(kNodes, 0.2, 1),
                                                                    netdp::gossip::Weighting::closed_row);
  std::vector<Dataset> shards;

  MnistShape() : shards(netdp::bench::random_digit_shards(kNodes, kPerNode, 1.0 / 28.0)) {}
  TrainContext context(std::size_t rounds) const {
    AlgorithmParams p;
    p.name = "dp-d-sgd";
    p.rounds = rounds;
    p.step_size = 0.316;
    p.sigma = 1.0;
    return TrainContext(*model, shards, w, netdp::gossip::fixed_schedule(w, rounds), p, 1);
  }
  DenseMatrix theta() const {
    return DenseMatrix::Constant(kNodes, static_cast<Eigen::Index>(model->num_parameters()), 1e-3);
  }
};

const MnistShape& shape() {
  static const MnistShape s;
  return s;
}

void BM_ClippedMeanGradients(benchmark::State& state) {
  TrainContext ctx = shape().context(1);
  const DenseMatrix theta = shape().theta();
  DenseMatrix grads;
  Rng rng(2);
  for (auto _ : state) {
    ctx.clipped_mean_gradients(theta, rng, grads);
    benchmark::DoNotOptimize(grads.data());
  }
}
BENCHMARK(BM_ClippedMeanGradients)->Unit(benchmark::kMillisecond)->UseRealTime();

/// n × p = 785,000 standard normals: the ziggurat fill (chunked, parallel).
void BM_FillStandardNormal(benchmark::State& state) {
  DenseMatrix xi = shape().theta();
  Rng rng(3);
  for (auto _ : state) {
    fill_standard_normal(xi.data(), static_cast<std::size_t>(xi.size()), rng);
    benchmark::DoNotOptimize(xi.data());
  }
  state.SetItemsProcessed(state.iterations() * xi.size());
}
BENCHMARK(BM_FillStandardNormal)->Unit(benchmark::kMillisecond)->UseRealTime();

/// The same count drawn one at a time with the polar method (standard_normal), for comparison.
void BM_PolarStandardNormal(benchmark::State& state) {
  DenseMatrix xi = shape().theta();
  Rng rng(3);
  for (auto _ : state) {
    for (Eigen::Index k = 0; k < xi.size(); ++k) xi.data()[k] = standard_normal(rng);
    benchmark::DoNotOptimize(xi.data());
  }
  state.SetItemsProcessed(state.iterations() * xi.size());
}
BENCHMARK(BM_PolarStandardNormal)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Gossip(benchmark::State& state) {
  TrainContext ctx = shape().context(1);
  DenseMatrix theta = shape().theta();
  for (auto _ : state) {
    ctx.gossip(shape().w.matrix(), theta);
    benchmark::DoNotOptimize(theta.data());
  }
}
BENCHMARK(BM_Gossip)->Unit(benchmark::kMillisecond)->UseRealTime();

/// One whole dp-d-sgd round (gradients, noise, step, gossip), as the simulator runs it.
void BM_DpDSgdRound(benchmark::State& state) {
  TrainContext ctx = shape().context(1);
  auto algorithm = make_algorithm("dp-d-sgd");
  algorithm->prepare(ctx);
  DenseMatrix theta = shape().theta();
  Rng rng(4);
  for (auto _ : state) {
    algorithm->round(0, theta, ctx, rng);
    benchmark::DoNotOptimize(theta.data());
  }
}
BENCHMARK(BM_DpDSgdRound)->Unit(benchmark::kMillisecond)->UseRealTime();

/// One model's loss on 2,000 test digits (an evaluation computes it for the evaluated node and the
/// average model, plus every node's loss on its own 80 examples).
void BM_TestLoss2000(benchmark::State& state) {
  Dataset test;
  Rng rng(5);
  test.features.resize(2000, kFeatures);
  test.targets.resize(2000);
  for (Eigen::Index i = 0; i < 2000; ++i) {
    for (Eigen::Index j = 0; j < kFeatures; ++j) test.features(i, j) = rng.uniform01() / 28.0;
    test.targets(i) = static_cast<double>(rng.uniform_below(kClasses));
  }
  const Vector theta = shape().theta().row(0).transpose();
  for (auto _ : state) benchmark::DoNotOptimize(shape().model->loss(theta, test.features, test.targets));
}
BENCHMARK(BM_TestLoss2000)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  Eigen::setNbThreads(1);  // as run_training does: the simulator parallelizes over nodes itself
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
