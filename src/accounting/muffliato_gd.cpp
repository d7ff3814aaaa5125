// Muffliato-GD / SGD accounting, Theorems 6 and 11 (muffliato_gd.hpp).

#include "netdp/accounting/muffliato_gd.hpp"

#include <algorithm>

#include "muffliato_propagation.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {

namespace {

/// Composes per-step sums: uncapped ones add up, capped ones add min(S_t, 1).
struct Composition {
  DenseMatrix uncapped;
  DenseMatrix capped;
  void add(const DenseMatrix& step) {
    if (uncapped.size() == 0) {
      uncapped = DenseMatrix::Zero(step.rows(), step.cols());
      capped = DenseMatrix::Zero(step.rows(), step.cols());
    }
    uncapped += step;
    capped += step.cwiseMin(1.0);
  }
};

std::vector<std::vector<graph::NodeId>> singleton_sets(std::size_t n) {
  std::vector<std::vector<graph::NodeId>> sets(n);
  for (std::size_t v = 0; v < n; ++v) sets[v] = {static_cast<graph::NodeId>(v)};
  return sets;
}

MuffliatoLosses composed(Composition composition, std::size_t steps, std::size_t n,
                         const MuffliatoOptions& options) {
  composition.uncapped.diagonal().setZero();
  composition.capped.diagonal().setZero();
  return MuffliatoLosses(std::move(composition.uncapped), std::move(composition.capped),
                         std::vector<double>(n, static_cast<double>(steps)), singleton_sets(n),
                         singleton_sets(n), options.sensitivity, options.sigma);
}

}  // namespace

MuffliatoLosses muffliato_gd_all_pairs(const SparseMatrix& w, std::size_t gradient_steps,
                                       std::size_t gossip_rounds, const MuffliatoOptions& options) {
  require(gradient_steps >= 1, "the number of gradient steps T must be >= 1, got {}", gradient_steps);
  require(gossip_rounds >= 1, "the number of gossip rounds per step K must be >= 1, got {}", gossip_rounds);
  const MuffliatoLosses step = muffliato_all_pairs(gossip::Schedule::fixed(w, gossip_rounds), options);
  // Theorem 6: the T steps are identical, so S = T · S_step (capped: T · min(S_step, 1)).
  const auto steps = static_cast<double>(gradient_steps);
  DenseMatrix capped = steps * step.sums().cwiseMin(1.0);
  DenseMatrix uncapped = steps * step.sums();
  const std::size_t n = step.num_targets();
  return MuffliatoLosses(std::move(uncapped), std::move(capped), std::vector<double>(n, steps),
                         singleton_sets(n), singleton_sets(n), options.sensitivity, options.sigma);
}

MuffliatoLosses muffliato_gd_all_pairs(const std::vector<SparseMatrix>& per_step, std::size_t gossip_rounds,
                                       const MuffliatoOptions& options) {
  require(!per_step.empty(), "the number of gradient steps T must be >= 1, got 0 gossip matrices");
  require(gossip_rounds >= 1, "the number of gossip rounds per step K must be >= 1, got {}", gossip_rounds);
  if (options.require_connected) {
    // Theorem 11 only needs the union of the step graphs to connect the nodes.
    detail::require_connected_support(gossip::Schedule::sequence(per_step));
  }
  MuffliatoOptions step_options = options;
  step_options.require_connected = false;
  Composition composition;
  for (const SparseMatrix& w : per_step) {
    composition.add(muffliato_all_pairs(gossip::Schedule::fixed(w, gossip_rounds), step_options).sums());
  }
  return composed(std::move(composition), per_step.size(), static_cast<std::size_t>(per_step.front().rows()),
                  options);
}

}  // namespace netdp::accounting
