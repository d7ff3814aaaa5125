// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// run_training: builds data, graph, model, schedule and algorithm from a TrainConfig, calibrates
// σ if asked, runs T rounds on the n × p parameter matrix and evaluates.

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/graph/spec.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "simulator_internal.hpp"
#include "train_privacy.hpp"

namespace netdp::learn {

namespace {

PartitionSpec partition_spec(const DataConfig& data, std::uint64_t seed) {
  PartitionSpec spec;
  spec.kind = data.partition;
  spec.alpha = data.alpha;
  spec.shards_per_node = data.shards;
  spec.seed = seed;
  return spec;
}

AlgorithmParams algorithm_params(const TrainConfig& c) {
  AlgorithmParams p;
  static_cast<AlgorithmConfig&>(p) = c.algorithm;
  static_cast<PrivacyConfig&>(p) = c.privacy;
  p.eval_every = c.train.eval_every;
  p.limits = c.limits;
  return p;
}

// Eigen parallelizes even small GEMMs with OpenMP; the per-node products here are small and the
// spin-waiting costs more than it saves, so a run uses one Eigen thread (restored afterwards) and
// the simulator parallelizes over nodes, gossip column blocks and noise chunks itself.
class SingleEigenThread {
 public:
  SingleEigenThread() : saved_(Eigen::nbThreads()) { Eigen::setNbThreads(1); }
  ~SingleEigenThread() { Eigen::setNbThreads(saved_); }
  SingleEigenThread(const SingleEigenThread&) = delete;
  SingleEigenThread& operator=(const SingleEigenThread&) = delete;

 private:
  int saved_;
};

bool is_classification(Task task) { return task != Task::regression; }

EvalRecord evaluate(std::size_t round, const DenseMatrix& theta, const TrainContext& ctx,
                    const TrainTest& data, std::size_t eval_node) {
  const Model& model = ctx.model();
  EvalRecord record;
  record.round = round;
  const std::size_t n = ctx.num_nodes();
  // The node losses in parallel, summed in node order (the same total for any thread count).
  std::vector<double> node_loss(n);
  ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(n); ++v) {
    errors.run(v, [&] {
      const Dataset& local = ctx.node_data(static_cast<std::size_t>(v));
      node_loss[static_cast<std::size_t>(v)] =
          model.loss(theta.row(v).transpose(), local.features, local.targets);
    });
  }
  errors.rethrow();
  record.train_loss = std::accumulate(node_loss.begin(), node_loss.end(), 0.0) / static_cast<double>(n);
  // The test set at two models (the evaluated node's and the average), one per thread.
  const std::array<Vector, 2> models = {theta.row(static_cast<Eigen::Index>(eval_node)).transpose(),
                                        theta.colwise().mean().transpose()};
  std::array<double, 2> test_loss{};
  std::array<double, 2> test_accuracy{};
  const bool classification = is_classification(data.test.task);
#pragma omp parallel for schedule(static, 1)
  for (std::int64_t k = 0; k < 2; ++k) {
    errors.run(k, [&] {
      const auto i = static_cast<std::size_t>(k);
      test_loss[i] = model.loss(models[i], data.test.features, data.test.targets);
      if (classification) test_accuracy[i] = accuracy(model, models[i], data.test);
    });
  }
  errors.rethrow();
  record.test_loss = test_loss[0];
  record.average_model_test_loss = test_loss[1];
  if (classification) {
    record.test_accuracy = test_accuracy[0];
    record.average_model_accuracy = test_accuracy[1];
  }
  const Vector& average = models[1];
  record.consensus_distance = (theta.rowwise() - average.transpose()).squaredNorm() / static_cast<double>(n);
  require(std::isfinite(record.train_loss) && std::isfinite(record.test_loss) &&
              std::isfinite(record.consensus_distance),
          "training diverged by round {} (non-finite loss): reduce algorithm.step_size (= {})", round,
          ctx.params().step_size);
  return record;
}

}  // namespace

TrainResult run_training(const TrainConfig& c, const std::function<void(const EvalRecord&)>& progress) {
  return run_training(c, TrainProgress{{}, progress});
}

namespace {

// What a run holds besides its privacy accountant (checked by its own estimate): the data, read
// once and copied into the nodes' shards, and six n x P matrices of the nodes' parameters (the
// models, their gradients, the gossip buffer and the algorithms' states).
void require_training_memory(const TrainTest& data, std::size_t n, std::size_t parameters) {
  const double row_bytes = 8.0 * static_cast<double>(data.train.dim() + 1);  // features and label
  const double data_bytes = row_bytes * static_cast<double>(data.train.size() + data.test.size());
  const double shard_bytes = row_bytes * static_cast<double>(data.train.size());
  const double model_bytes = 48.0 * static_cast<double>(n) * static_cast<double>(parameters);
  util::require_memory(data_bytes + shard_bytes + model_bytes, "netdp train",
                       fmt::format("the data ({} examples of {} features) and its shards, and six n x P "
                                   "parameter matrices (n = {} nodes, P = {} parameters)",
                                   data.train.size() + data.test.size(), data.train.dim(), n, parameters),
                       "use fewer examples, nodes or a smaller model");
}

}  // namespace

TrainResult run_training(const TrainConfig& c, const TrainProgress& progress) {
  const auto phase = [&progress](std::string_view name) {
    if (progress.phase) progress.phase(name);
  };
  validate_train_config(c);
  const SingleEigenThread single_thread;
  phase("data and network");
  TrainResult result;
  result.config = to_flat_config(c);
  const std::uint64_t seed = c.train.seed;

  TrainTest data = load_train_test(c.data, seed);
  gossip::NetworkSpec network = c.network;
  network.seed = seed;  // a random graph SPEC without its own seed= is drawn from train.seed
  gossip::GossipMatrix w = gossip::load_network(network);
  const graph::Graph& g = w.graph();
  const std::size_t n = w.num_nodes();
  require(data.train.size() >= n, "config network.graph = '{}': {} nodes but only {} training examples",
          c.network.graph, n, data.train.size());

  const auto model = make_model(c.model, data.train.dim(), data.train.task, data.train.num_classes);
  require_training_memory(data, n, model->num_parameters());

  const auto parts = partition(data.train, n, partition_spec(c.data, sub_seed(seed, 3)), &g);
  std::vector<Dataset> shards;
  shards.reserve(n);
  for (const auto& rows : parts) shards.push_back(data.train.subset(rows));

  AlgorithmParams params = algorithm_params(c);
  gossip::Schedule schedule = gossip::schedule_from_spec(
      params.schedule, w, gossip::schedule_weighting(c.network), params.rounds, sub_seed(seed, 4));
  TrainContext ctx(*model, std::move(shards), std::move(w), std::move(schedule), params, seed);
  auto algorithm = make_algorithm(params.name);
  algorithm->prepare(ctx);

  result.algorithm = params.name;
  result.delta = params.delta;
  PrivacyAccount account;
  phase("privacy accountant");
  if (algorithm->is_private()) account = algorithm->privacy(ctx);
  result.accountant = account.accountant;
  // The account of the whole run: its guarantee says whether ε is an upper bound, and calibration
  // uses it (built once: the checkpointed and random-walk accounts build one per call).
  const std::shared_ptr<const accounting::PairwiseAccount> whole_run =
      account.at_round ? account.at_round(params.rounds) : nullptr;
  result.valid_bound = whole_run == nullptr || whole_run->valid_bound();
  require(params.bound == accounting::MuffliatoBound::exact || params.calibrate_on != CalibrateOn::local,
          "privacy.bound = paper does not combine with privacy.calibrate_on = local (local DP is a bound)");
  require(
      params.bound == accounting::MuffliatoBound::exact || !result.valid_bound || !algorithm->is_private(),
      "privacy.bound = paper: algorithm '{}' has no paper formula that differs from its valid accountant "
      "(only muffliato and randomized-gossip have one)",
      params.name);
  result.warnings = account.notes;
  for (const std::string& note : g.notes()) result.warnings.push_back(note);
  if (c.privacy.target_epsilon) {
    const double target = *c.privacy.target_epsilon;
    require(algorithm->is_private(), "config privacy.target_epsilon = {}: algorithm '{}' is not private",
            target, params.name);
    result.target_epsilon = target;
    require(whole_run != nullptr, "privacy.target_epsilon = {}: the algorithm is not private", target);
    phase("calibration");
    ctx.mutable_params().sigma =
        accounting::calibrate_sigma(*whole_run, account.statistic, target, params.delta).sigma;
    // The recorded configuration is the one that ran: σ as calibrated.
    TrainConfig ran = c;
    ran.algorithm.sigma = ctx.params().sigma;
    result.config = to_flat_config(ran);
  }
  result.sigma = algorithm->is_private() ? ctx.params().sigma : 0.0;
  if (algorithm->is_private() && result.sigma == 0.0) {
    result.warnings.push_back("algorithm.sigma = 0: no noise, the run is not private (ε = inf)");
  }

  Rng pick(sub_seed(seed, 5));
  const std::size_t eval_node = c.train.eval_node ? *c.train.eval_node : pick.uniform_below(n);
  require(eval_node < n, "config train.eval_node = {}: the graph has {} nodes", eval_node, n);

  const Vector init = model->initial_parameters(sub_seed(seed, 6));
  DenseMatrix theta = init.transpose().replicate(static_cast<Eigen::Index>(n), 1);
  Rng rng(sub_seed(seed, 7));
  phase("rounds");
  // The rounds run their own threads over nodes; the models' products run inside them.
  const linalg::SingleThreadedBlas single_threaded_blas;
  for (std::size_t t = 0; t < params.rounds; ++t) {
    algorithm->round(t, theta, ctx, rng);
    const std::size_t done = t + 1;
    if (done == params.rounds || (params.eval_every > 0 && done % params.eval_every == 0)) {
      EvalRecord record = evaluate(done, theta, ctx, data, eval_node);
      // A non-private algorithm has no finite ε (reported as null in JSON, inf in CSV).
      record.epsilon_so_far = algorithm->is_private()
                                  ? account_epsilon(account, result.sigma, done, params.delta)
                                  : std::numeric_limits<double>::infinity();
      result.history.push_back(record);
      if (progress.evaluation) progress.evaluation(result.history.back());
    }
  }
  const EvalRecord& last = result.history.back();
  result.epsilon = last.epsilon_so_far;
  result.final_test_loss = last.test_loss;
  result.final_test_accuracy = last.test_accuracy;
  return result;
}

TrainResult run_training(const FlatConfig& config, const std::function<void(const EvalRecord&)>& progress) {
  return run_training(parse_train_config(config), progress);
}

}  // namespace netdp::learn
