// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the algorithm tests: a noiseless planted linear regression on a ring, and the
// algorithm parameters the tests start from.

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "netdp/gossip/schedules.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/learn/dataset.hpp"
#include "netdp/learn/model.hpp"

namespace netdp::learn::test {

struct Problem {
  std::unique_ptr<Model> model;
  std::vector<Dataset> shards;
  gossip::GossipMatrix w;
  Vector planted;
};

/// A noiseless planted linear regression on a ring of n nodes, iid shards.
inline Problem linear_problem(std::size_t n, std::size_t examples, std::size_t features) {
  SyntheticOptions options;
  options.kind = SyntheticOptions::Kind::linear;
  options.examples = examples;
  options.features = features;
  options.noise = 0.0;
  options.seed = 7;
  Vector planted;
  const Dataset data = make_synthetic(options, &planted);
  const auto parts = partition(data, n, PartitionSpec{});
  std::vector<Dataset> shards;
  for (const auto& rows : parts) shards.push_back(data.subset(rows));
  ModelSpec spec;
  spec.kind = ModelSpec::Kind::linear;
  return {make_model(spec, features, Task::regression, 0), std::move(shards),
          gossip::make_gossip_matrix(graph::ring(n), gossip::Weighting::hamilton), planted};
}

/// Full local batches, η = 0.5, clipping bound `clip`.
inline AlgorithmParams params_for(const std::string& name, std::size_t rounds, double sigma, double clip) {
  AlgorithmParams p;
  p.name = name;
  p.rounds = rounds;
  p.step_size = 0.5;
  p.batch_size = 0;
  p.clip = clip;
  p.sigma = sigma;
  return p;
}

/// θ (nodes × parameters) after params.rounds rounds of params.name from θ = 0 on the problem's
/// fixed W, the noise drawn from `seed`.
inline DenseMatrix run(const Problem& problem, const AlgorithmParams& params, std::uint64_t seed = 3) {
  TrainContext ctx(*problem.model, problem.shards, problem.w,
                   gossip::fixed_schedule(problem.w, params.rounds), params, seed);
  auto algorithm = make_algorithm(params.name);
  algorithm->prepare(ctx);
  DenseMatrix theta = DenseMatrix::Zero(static_cast<Eigen::Index>(ctx.num_nodes()),
                                        static_cast<Eigen::Index>(ctx.num_parameters()));
  Rng rng(seed);
  for (std::size_t t = 0; t < params.rounds; ++t) algorithm->round(t, theta, ctx, rng);
  return theta;
}

}  // namespace netdp::learn::test
