// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The whole view of Muffliato-GD / SGD on any schedule (see muffliato_gd_view.hpp): per observer,
// its message rows over the n·T input columns by backward propagation, an orthonormal basis of
// their row space (row_space.hpp), and every target's T × T projector block.

#include "netdp/accounting/muffliato/muffliato_gd_view.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "accounting/account/pairwise_detail.hpp"
#include "accounting/exact/rank_certificate.hpp"
#include "accounting/linear_system/row_space.hpp"
#include "accounting/muffliato/muffliato_propagation.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {
namespace {

using graph::NodeId;
using Index = Eigen::Index;
using Neighbours = std::vector<std::vector<NodeId>>;

/// The communication graph of every gossip round (one entry for a fixed schedule).
std::vector<Neighbours> round_neighbours(const gossip::Schedule& rounds) {
  std::vector<Neighbours> out;
  const std::size_t distinct = rounds.is_fixed() ? 1 : rounds.rounds();
  for (std::size_t r = 0; r < distinct; ++r) out.push_back(detail::step_neighbours(rounds.at(r)));
  return out;
}

const std::vector<NodeId>& senders_at(const std::vector<Neighbours>& graphs, std::size_t r, NodeId v) {
  return graphs[graphs.size() == 1 ? 0 : r][v];
}

/// The messages v hears over `rounds` gossip rounds: the rows of its view.
std::size_t messages_heard(const std::vector<Neighbours>& graphs, std::size_t rounds, NodeId v) {
  std::size_t m = 0;
  for (std::size_t r = 0; r < rounds; ++r) m += senders_at(graphs, r, v).size();
  return m;
}

/// The rows of v's view (one per message (r, w), r increasing): block s holds
/// e_wᵀ W_{r−1} ⋯ W_{sK} for sK <= r, by one backward sweep per message; v's columns are zero.
DenseMatrix view_rows(const gossip::Schedule& rounds, const std::vector<Neighbours>& graphs,
                      std::size_t steps, std::size_t k, NodeId v) {
  const std::size_t n = rounds.num_nodes();
  const auto ni = static_cast<Index>(n);
  const auto m = static_cast<Index>(messages_heard(graphs, steps * k, v));
  DenseMatrix a = DenseMatrix::Zero(m, ni * static_cast<Index>(steps));
  Index row = 0;
  Vector x(ni);
  for (std::size_t r = 0; r < steps * k; ++r) {
    for (const NodeId w : senders_at(graphs, r, v)) {
      x.setZero();
      x(static_cast<Index>(w)) = 1.0;
      for (std::size_t t = r;; --t) {
        if (t % k == 0) a.row(row).segment(static_cast<Index>(t / k) * ni, ni) = x.transpose();
        if (t == 0) break;
        x = rounds.at(t - 1).transpose() * x;  // xᵀ ← xᵀ W_{t−1}
      }
      ++row;
    }
  }
  for (std::size_t s = 0; s < steps; ++s) a.col(static_cast<Index>(s * n + v)).setZero();  // Lemma 11
  return a;
}

/// The pairs of observer v: K_u from the basis of its view's row space.
void observer_pairs(const gossip::Schedule& rounds, const std::vector<Neighbours>& graphs, std::size_t steps,
                    std::size_t k, std::size_t release_dimension, NodeId v,
                    const detail::LazyRankCertifier& certifier, std::vector<PairSensitivity>& out) {
  const std::size_t n = rounds.num_nodes();
  const DenseMatrix a = view_rows(rounds, graphs, steps, k, v);
  detail::RowSpace space =
      detail::row_space(a, std::nullopt, detail::rounding_floor_factor(a.cols(), a.rows(), steps * k),
                        detail::structural_rank(a));
  // A rank cut is checked against the exact rank of the same rows (view_rows' sweep, modulo p).
  std::vector<Diagnostic> rank_warnings;
  double failure_probability = 0.0;
  if (space.rank_decided) {
    std::vector<detail::SweptRow> swept;
    swept.reserve(static_cast<std::size_t>(a.rows()));
    for (std::size_t r = 0; r < steps * k; ++r)
      for (const NodeId w : senders_at(graphs, r, v)) swept.push_back({w, r, r / k});
    const NodeId known[] = {v};
    failure_probability = detail::certify_rank_cut(space, certifier, swept, k, steps, known, rank_warnings);
  }
  const auto t = static_cast<Index>(steps);
  const double cap = static_cast<double>(steps);
  for (NodeId u = 0; u < n; ++u) {
    if (u == v) continue;
    TargetGram gram;
    gram.K = detail::projector_block(space, static_cast<Index>(u), static_cast<Index>(n), t);
    gram.rank = static_cast<std::size_t>(space.rank());
    gram.subspace_margin = space.margin;
    gram.certificate_failure_probability = failure_probability;
    gram.warnings = rank_warnings;
    // Scalar releases: Σ|K_u| (widened by the margin); vectors: the certified SDP value.
    PairSensitivity pair = assess_sensitivity(gram, {SignSearch::none, release_dimension});
    pair.observers = {v};
    pair.target = u;
    if (pair.sensitivity_squared_certified > cap) {  // K_u ⪯ I
      pair.sensitivity_squared_uncapped = pair.sensitivity_squared_certified;
      pair.sensitivity_squared_certified = cap;
    }
    pair.sensitivity = std::sqrt(pair.sensitivity_squared_certified);
    pair.mu = pair.sensitivity;
    out.push_back(std::move(pair));
  }
}

// One observer holds its m x nT message rows and their row-space basis and Gram (m x m), m the
// messages it hears; checked for the observer that hears most, `workers` observers at a time.
void require_view_memory(const std::vector<Neighbours>& graphs, std::size_t n, std::size_t steps,
                         std::size_t k, std::size_t workers) {
  std::size_t most = 0;
  for (NodeId v = 0; v < n; ++v) most = std::max(most, messages_heard(graphs, steps * k, v));
  const auto heard = static_cast<double>(most);
  const double columns = static_cast<double>(n) * static_cast<double>(steps);
  util::require_memory(
      static_cast<double>(workers) * 8.0 * (3.0 * heard * columns + heard * heard),
      "the Muffliato-GD view accountant",
      fmt::format("8 (3 m nT + m²) bytes per observer, {} at a time: m = {} messages heard, n = {}, T = {} "
                  "gradient steps",
                  workers, heard, n, steps),
      "lower the rounds or the threads (`threads`)");
}

void validate(const gossip::Schedule& rounds, std::size_t steps, std::size_t k) {
  require(steps >= 1, "Muffliato-GD needs at least one gradient step, got {}", steps);
  require(k >= 1, "Muffliato-GD needs at least one gossip round per gradient step, got {}", k);
  require(rounds.is_fixed() || rounds.rounds() == steps * k,
          "the schedule has {} gossip matrices; {} gradient steps of {} rounds need {}", rounds.rounds(),
          steps, k, steps * k);
  detail::require_finite_entries(rounds);
}

}  // namespace

gossip::Schedule muffliato_gd_rounds(const gossip::Schedule& per_step, std::size_t gradient_steps,
                                     std::size_t gossip_rounds) {
  validate(per_step, gradient_steps, 1);
  if (per_step.is_fixed()) return gossip::Schedule::fixed(per_step.at(0), gradient_steps * gossip_rounds);
  std::vector<SparseMatrix> per_round;
  per_round.reserve(gradient_steps * gossip_rounds);
  for (std::size_t s = 0; s < gradient_steps; ++s)
    for (std::size_t k = 0; k < gossip_rounds; ++k) per_round.push_back(per_step.at(s));
  return gossip::Schedule::sequence(std::move(per_round));
}

double muffliato_gd_view_work(const gossip::Schedule& rounds, std::size_t gradient_steps,
                              std::size_t gossip_rounds) {
  validate(rounds, gradient_steps, gossip_rounds);
  const std::vector<Neighbours> graphs = round_neighbours(rounds);
  const std::size_t n = rounds.num_nodes();
  const double columns = static_cast<double>(n * gradient_steps);
  double work = 0.0;
  for (NodeId v = 0; v < n; ++v) {
    const auto m = static_cast<double>(messages_heard(graphs, gradient_steps * gossip_rounds, v));
    work += m * m * columns + m * static_cast<double>(gradient_steps * gossip_rounds) * columns;
  }
  return work;
}

std::vector<PairSensitivity> muffliato_gd_view_pairs(
    const gossip::Schedule& rounds, std::size_t gradient_steps, std::size_t gossip_rounds,
    std::span<const NodeId> observers_in, const std::function<void(std::size_t, std::size_t)>& progress,
    std::size_t release_dimension) {
  validate(rounds, gradient_steps, gossip_rounds);
  const std::size_t n = rounds.num_nodes();
  std::vector<NodeId> observers(observers_in.begin(), observers_in.end());
  if (observers.empty()) observers = detail::all_nodes(n);
  for (const NodeId v : observers) require(v < n, "observer {} is not a node (num_nodes = {})", v, n);
  const std::vector<Neighbours> graphs = round_neighbours(rounds);

  require_view_memory(
      graphs, n, gradient_steps, gossip_rounds,
      std::min<std::size_t>(observers.size(), static_cast<std::size_t>(omp_get_max_threads())));

  std::vector<std::vector<PairSensitivity>> per_observer(observers.size());
  util::ParallelErrors errors;
  std::size_t done = 0;
  const linalg::SingleThreadedBlas single_threaded_blas;
  const detail::LazyRankCertifier certifier(rounds);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t i = 0; i < observers.size(); ++i) {
    errors.run(static_cast<std::int64_t>(i), [&] {
      observer_pairs(rounds, graphs, gradient_steps, gossip_rounds, release_dimension, observers[i],
                     certifier, per_observer[i]);
    });
    if (progress) {
#pragma omp critical(netdp_gd_view_progress)
      progress(++done, observers.size());
    }
  }
  errors.rethrow();
  std::vector<PairSensitivity> out;
  out.reserve(observers.size() * (n - 1));
  for (auto& pairs : per_observer)
    for (auto& pair : pairs) out.push_back(std::move(pair));
  return out;
}

}  // namespace netdp::accounting
