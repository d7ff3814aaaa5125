#include "netdp/learn/audit.hpp"

#include <omp.h>

#include <Eigen/QR>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "netdp/learn/algorithm.hpp"
#include "netdp/learn/secure_summation.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::learn {
namespace {

/// Trials per batch: one n × kBatch block of noise, gossiped together.
constexpr std::size_t kBatch = 1024;

/// The neighbours of v under W_t (the nonzero off-diagonal entries of row v), for every round.
std::vector<std::vector<graph::NodeId>> neighbours_per_round(const gossip::Schedule& schedule,
                                                             graph::NodeId v) {
  std::vector<std::vector<graph::NodeId>> out(schedule.rounds());
  for (std::size_t t = 0; t < schedule.rounds(); ++t) {
    if (t > 0 && schedule.is_fixed()) {
      out[t] = out[0];
      continue;
    }
    for (SparseMatrix::InnerIterator it(schedule.at(t), static_cast<Eigen::Index>(v)); it; ++it) {
      if (it.col() != static_cast<Eigen::Index>(v) && it.value() != 0.0)
        out[t].push_back(static_cast<graph::NodeId>(it.col()));
    }
  }
  return out;
}

/// Muffliato's gossip on the columns of `x` (n × B: one protocol run per column) for the
/// schedule's rounds: at round t the observer receives row w of W_{t−1} ⋯ W_0 x from each
/// neighbour w of round t; `receive(k, row)` is called for the k-th message, in order.
template <class Receive>
void run_gossip(const gossip::Schedule& schedule, const std::vector<std::vector<graph::NodeId>>& neighbours,
                DenseMatrix x, Receive receive) {
  DenseMatrix next(x.rows(), x.cols());
  std::size_t k = 0;
  for (std::size_t t = 0; t < schedule.rounds(); ++t) {
    for (const graph::NodeId w : neighbours[t]) receive(k++, x.row(static_cast<Eigen::Index>(w)));
    if (t + 1 < schedule.rounds()) {
      next.noalias() = schedule.at(t) * x;
      x.swap(next);
    }
  }
}

}  // namespace

AuditResult audit_muffliato(const gossip::Schedule& schedule, graph::NodeId observer, graph::NodeId target,
                            double sigma, double sensitivity, const AuditOptions& options) {
  const std::size_t n = schedule.num_nodes();
  require(observer < n && target < n, "audit: the observer {} and the target {} must be nodes 0..{}",
          observer, target, n - 1);
  require(observer != target, "audit: the observer and the target are the same node {}", target);
  require(std::isfinite(sigma) && sigma > 0.0, "audit: sigma must be finite and > 0, got {}", sigma);
  require(std::isfinite(sensitivity) && sensitivity > 0.0,
          "audit: the sensitivity must be finite and > 0, got {}", sensitivity);
  require(options.trials >= 1, "audit: at least one trial per input is needed");
  const auto v = static_cast<Eigen::Index>(observer);
  const auto u = static_cast<Eigen::Index>(target);
  const auto nodes = static_cast<Eigen::Index>(n);

  // The view A (messages × n), identified by running the protocol on the unit inputs.
  const std::vector<std::vector<graph::NodeId>> neighbours = neighbours_per_round(schedule, observer);
  std::size_t messages = 0;
  for (const auto& round : neighbours) messages += round.size();
  DenseMatrix view(static_cast<Eigen::Index>(messages), nodes);
  run_gossip(schedule, neighbours, DenseMatrix::Identity(nodes, nodes),
             [&view](std::size_t k, const auto& row) { view.row(static_cast<Eigen::Index>(k)) = row; });

  // The test: c = (A′ᵀ)⁺ e_u over the columns other than the observer's (which it knows).
  DenseMatrix others(view.rows(), nodes - 1);
  others << view.leftCols(v), view.rightCols(nodes - 1 - v);
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(nodes - 1);
  unit(u < v ? u : u - 1) = 1.0;
  Eigen::VectorXd c = Eigen::VectorXd::Zero(view.rows());
  if (view.rows() > 0)
    c = Eigen::CompleteOrthogonalDecomposition<DenseMatrix>(others.transpose()).solve(unit);
  const Eigen::VectorXd g = others.transpose() * c;  // Π e_u in the row space of A′
  const double known = view.rows() > 0 ? c.dot(view.col(v)) : 0.0;
  const double d = sensitivity;
  const double shift = d * g(u < v ? u : u - 1);

  AuditResult result;
  result.trials = options.trials;
  result.messages = messages;
  result.threshold = shift / 2.0;
  result.attack_mu = d * g.norm() / sigma;

  // Trials: batch b of input i (0: x_u = 0, 1: x_u = d) draws its noise from (seed, i, b).
  const std::size_t batches = (options.trials + kBatch - 1) / kBatch;
  std::vector<std::size_t> errors(2 * batches, 0);
  std::atomic<std::size_t> done{0};
  util::ParallelErrors failures;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t job = 0; job < static_cast<std::int64_t>(2 * batches); ++job) {
    failures.run(job, [&] {
      const auto input = static_cast<std::size_t>(job) / batches;
      const auto batch = static_cast<std::size_t>(job) % batches;
      const std::size_t size = std::min(kBatch, options.trials - batch * kBatch);
      Rng rng(prf_word(prf_word(options.seed, input), batch));
      DenseMatrix y(nodes, static_cast<Eigen::Index>(size));
      fill_standard_normal(y.data(), static_cast<std::size_t>(y.size()), rng);
      y *= sigma;
      if (input == 1) y.row(u).array() += d;
      Eigen::RowVectorXd statistic = -known * y.row(v);
      run_gossip(schedule, neighbours, y, [&](std::size_t k, const auto& row) {
        statistic.noalias() += c(static_cast<Eigen::Index>(k)) * row;
      });
      std::size_t wrong = 0;
      for (Eigen::Index i = 0; i < statistic.size(); ++i) {
        const bool says_changed = statistic(i) > result.threshold;
        wrong += (input == 0 ? says_changed : !says_changed) ? 1 : 0;
      }
      errors[static_cast<std::size_t>(job)] = wrong;
      const std::size_t now = done.fetch_add(size) + size;
      if (options.progress && omp_get_thread_num() == 0) options.progress(now);
    });
  }
  failures.rethrow();
  for (std::size_t b = 0; b < batches; ++b) {
    result.false_positives += errors[b];
    result.false_negatives += errors[batches + b];
  }
  result.bound = dp::privacy_lower_bound(result.false_positives, options.trials, result.false_negatives,
                                         options.trials, options.confidence, options.delta);
  return result;
}

}  // namespace netdp::learn
