// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Clipped per-example gradient sums at the training simulator's target shape: 10,000 MNIST-sized
// examples (784 features, 10 classes) split over 100 nodes, 100 examples per node per round.
// Synthetic data (no file dependency). See docs/reference/performance.md, "Training models".

#include <benchmark/benchmark.h>

#include <vector>

#include "digit_shards.hpp"
#include "netdp/learn/model.hpp"
#include "netdp/util/rng.hpp"

namespace {

using netdp::DenseMatrix;
using netdp::Vector;
using namespace netdp::learn;

constexpr Eigen::Index kFeatures = netdp::bench::kDigitFeatures;
constexpr std::size_t kClasses = netdp::bench::kDigitClasses;

std::vector<Dataset> make_nodes(std::size_t nodes, Eigen::Index batch) {
  return netdp::bench::random_digit_shards(nodes, batch, 1.0);
}

/// One round: every node's clipped gradient sum of its 100 examples at its own θ.
void BM_MultinomialClippedSumRound(benchmark::State& state) {
  const auto nodes = make_nodes(static_cast<std::size_t>(state.range(0)), 100);
  const auto model = make_model({ModelSpec::Kind::logistic}, kFeatures, Task::multiclass, kClasses);
  std::vector<Vector> thetas(nodes.size(),
                             Vector::Constant(static_cast<Eigen::Index>(model->num_parameters()), 1e-3));
  for (auto _ : state) {
    for (std::size_t v = 0; v < nodes.size(); ++v) {
      benchmark::DoNotOptimize(
          model->clipped_gradient_sum(thetas[v], nodes[v].features, nodes[v].targets, 1.0));
    }
  }
  state.SetItemsProcessed(state.iterations() * state.range(0) * 100);
}
BENCHMARK(BM_MultinomialClippedSumRound)->Arg(100)->Unit(benchmark::kMillisecond);

/// The same 10,000 examples as one batch at one θ (one GEMM pair).
void BM_MultinomialClippedSumFullBatch(benchmark::State& state) {
  const auto nodes = make_nodes(1, 10000);
  const auto model = make_model({ModelSpec::Kind::logistic}, kFeatures, Task::multiclass, kClasses);
  const Vector theta = Vector::Constant(static_cast<Eigen::Index>(model->num_parameters()), 1e-3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(model->clipped_gradient_sum(theta, nodes[0].features, nodes[0].targets, 1.0));
  }
  state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(BM_MultinomialClippedSumFullBatch)->Unit(benchmark::kMillisecond);

/// The literal path (per-example matrix, then clip-and-sum) on one node's 100 examples, for scale.
void BM_MultinomialPerExampleMatrixNode(benchmark::State& state) {
  const auto nodes = make_nodes(1, 100);
  const auto model = make_model({ModelSpec::Kind::logistic}, kFeatures, Task::multiclass, kClasses);
  const Vector theta = Vector::Constant(static_cast<Eigen::Index>(model->num_parameters()), 1e-3);
  DenseMatrix grads;
  for (auto _ : state) {
    model->per_example_gradients(theta, nodes[0].features, nodes[0].targets, grads);
    benchmark::DoNotOptimize(grads.data());
  }
  state.SetItemsProcessed(state.iterations() * 100);
}
BENCHMARK(BM_MultinomialPerExampleMatrixNode)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
