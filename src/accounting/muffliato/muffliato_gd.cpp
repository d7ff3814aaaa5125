// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Muffliato-GD / SGD accounting, Theorems 6 and 11 (muffliato_gd.hpp).

#include "netdp/accounting/muffliato/muffliato_gd.hpp"

#include <algorithm>

#include "accounting/muffliato/muffliato_propagation.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {

namespace {

/// Composes per-step sums: uncapped ones add up, capped ones add min(S_t, 1).
struct Composition {
  DenseMatrix uncapped;
  DenseMatrix capped;
  std::vector<Diagnostic> warnings;
  void add(const MuffliatoLosses& losses) {
    for (const Diagnostic& w : losses.warnings()) {
      const auto same = [&w](const Diagnostic& d) { return d.kind == w.kind && d.text == w.text; };
      if (std::none_of(warnings.begin(), warnings.end(), same)) warnings.push_back(w);
    }
    const DenseMatrix& step = losses.sums();
    if (uncapped.size() == 0) {
      uncapped = DenseMatrix::Zero(step.rows(), step.cols());
      capped = DenseMatrix::Zero(step.rows(), step.cols());
    }
    uncapped += step;
    capped += step.cwiseMin(1.0);
  }
};

MuffliatoLosses composed(const Composition& composition_in, std::size_t steps, std::size_t n,
                         const MuffliatoOptions& options) {
  Composition composition = composition_in;
  composition.uncapped.diagonal().setZero();
  composition.capped.diagonal().setZero();
  MuffliatoLosses losses(std::move(composition.uncapped), std::move(composition.capped),
                         std::vector<double>(n, static_cast<double>(steps)), detail::singleton_sets(n),
                         detail::singleton_sets(n), options.sensitivity, options.sigma);
  losses.set_warnings(std::move(composition.warnings));
  return losses;
}

}  // namespace

MuffliatoLosses muffliato_gd_repeat(const MuffliatoLosses& one_step, std::size_t steps) {
  require(steps >= 1, "the number of gradient steps T must be >= 1, got {}", steps);
  // Theorem 6: the T steps are identical, so S = T · S_step (capped: T · min(S_step, 1)).
  const auto t = static_cast<double>(steps);
  DenseMatrix capped = t * one_step.sums().cwiseMin(1.0);
  DenseMatrix uncapped = t * one_step.sums();
  const std::size_t n = one_step.num_targets();
  std::vector<std::vector<graph::NodeId>> observers;
  for (std::size_t i = 0; i < one_step.num_observers(); ++i) {
    require(one_step.observer_set(i).size() == 1,
            "muffliato_gd_repeat needs single observers, got a set of {} at row {}",
            one_step.observer_set(i).size(), i);
    observers.push_back(one_step.observer_set(i));
  }
  for (std::size_t j = 0; j < n; ++j) {
    require(one_step.target_set(j) == std::vector<graph::NodeId>{static_cast<graph::NodeId>(j)},
            "muffliato_gd_repeat needs every node on its own as a target, column {} is not node {}", j, j);
  }
  MuffliatoLosses losses(std::move(uncapped), std::move(capped), std::vector<double>(n, t),
                         std::move(observers), detail::singleton_sets(n), one_step.sensitivity(),
                         one_step.sigma());
  losses.set_warnings(one_step.warnings());
  return losses;
}

MuffliatoLosses muffliato_gd_all_pairs(const SparseMatrix& w, std::size_t gradient_steps,
                                       std::size_t gossip_rounds, const MuffliatoOptions& options) {
  require(gradient_steps >= 1, "the number of gradient steps T must be >= 1, got {}", gradient_steps);
  require(gossip_rounds >= 1, "the number of gossip rounds per step K must be >= 1, got {}", gossip_rounds);
  MuffliatoOptions theorem1 = options;
  theorem1.bound = MuffliatoBound::paper;  // Theorem 6 is the paper's formula
  return muffliato_gd_repeat(muffliato_all_pairs(gossip::Schedule::fixed(w, gossip_rounds), theorem1),
                             gradient_steps);
}

std::vector<MuffliatoLosses> muffliato_composed_checkpoints(
    std::size_t steps, const std::function<gossip::Schedule(std::size_t step)>& step_schedule,
    const std::vector<std::size_t>& checkpoints, const MuffliatoOptions& options) {
  require(steps >= 1, "the number of gradient steps T must be >= 1, got {}", steps);
  for (std::size_t i = 0; i < checkpoints.size(); ++i) {
    require(checkpoints[i] >= 1 && checkpoints[i] <= steps && (i == 0 || checkpoints[i] > checkpoints[i - 1]),
            "checkpoints must increase strictly within 1..{}, got {} at position {}", steps, checkpoints[i],
            i);
  }
  MuffliatoOptions step_options = options;
  step_options.require_connected = false;
  step_options.bound = MuffliatoBound::paper;  // Theorem 11 is the paper's formula
  Composition composition;
  std::vector<MuffliatoLosses> out;
  std::size_t next = 0;
  for (std::size_t t = 0; t < steps && next < checkpoints.size(); ++t) {
    composition.add(muffliato_all_pairs(step_schedule(t), step_options));
    if (t + 1 == checkpoints[next]) {
      out.push_back(
          composed(composition, t + 1, static_cast<std::size_t>(composition.capped.rows()), options));
      ++next;
    }
  }
  return out;
}

MuffliatoLosses muffliato_gd_all_pairs(const std::vector<SparseMatrix>& per_step, std::size_t gossip_rounds,
                                       const MuffliatoOptions& options) {
  require(!per_step.empty(), "the number of gradient steps T must be >= 1, got 0 gossip matrices");
  require(gossip_rounds >= 1, "the number of gossip rounds per step K must be >= 1, got {}", gossip_rounds);
  if (options.require_connected) {
    // Theorem 11 only needs the union of the step graphs to connect the nodes.
    detail::require_connected_support(gossip::Schedule::sequence(per_step));
  }
  const std::size_t steps = per_step.size();
  return muffliato_composed_checkpoints(
             steps, [&](std::size_t t) { return gossip::Schedule::fixed(per_step[t], gossip_rounds); },
             {steps}, options)
      .front();
}

}  // namespace netdp::accounting
