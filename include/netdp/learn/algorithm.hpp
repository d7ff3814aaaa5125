// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The internal interface a decentralized training algorithm implements.
//
// The simulator holds every node's model as one row of θ (n × p) and calls
// Algorithm::round(t, θ, rng) for t = 0..T−1. The shared TrainContext gives the
// per-node data, the model, minibatch sampling, clipped gradient sums, the noise
// scale σ·C, the step size and the gossip schedule. Privacy is attached to the
// algorithm: privacy(ctx) returns the accountant once (expensive work done there),
// and the simulator evaluates it for "ε so far" and calibrates σ with it.
//
// Noise scaling (docs/reference/learn.md): node v's noisy gradient at step t is
//   g_v = (1/b) (Σ_{i ∈ batch} clip(∇ℓ(θ_v; x_i), C) + σ C ξ_v),  ξ_v ~ N(0, I_p),
// plus the L2 penalty λθ_v outside the clip (b = batch size).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/gossip/walk_step.hpp"
#include "netdp/learn/dataset.hpp"
#include "netdp/learn/model.hpp"
#include "netdp/learn/train.hpp"
#include "netdp/util/rng.hpp"
#include "netdp/util/types.hpp"

namespace netdp::learn {

using Rng = util::Rng;

/// A standard normal draw (Marsaglia polar method on Rng::uniform01; platform independent).
inline double standard_normal(Rng& rng) { return rng.standard_normal(); }
using gossip::draw_next_holder;
using util::fill_standard_normal;
using util::kNormalChunk;

/// What an algorithm runs with: the `algorithm.*` keys, the `privacy.*` keys, the evaluation period
/// and the `limits.*` guards of a TrainConfig, each field and its default defined once in
/// train_config.hpp.
struct AlgorithmParams : AlgorithmConfig, PrivacyConfig {
  std::size_t eval_every = RunConfig{}.eval_every;  ///< evaluation period (accountants may checkpoint there)
  ResourceLimits limits;                            ///< guards of the expensive accountants (limits.*)

  /// Whether W_t = W every step (algorithm.schedule = fixed).
  bool fixed_schedule() const { return schedule.kind == gossip::ScheduleSpec::Kind::fixed; }
};

/// Throws std::invalid_argument "algorithm.schedule = '<SPEC>': <why>" unless the schedule is fixed.
void require_fixed_schedule(const AlgorithmParams& params, std::string_view why);

/// Everything an algorithm may use. Built once by the simulator; helpers reuse their buffers.
class TrainContext {
 public:
  TrainContext(const Model& model, std::vector<Dataset> node_data, gossip::GossipMatrix base,
               gossip::Schedule schedule, AlgorithmParams params, std::uint64_t seed);

  const Model& model() const { return *model_; }
  std::size_t num_nodes() const { return node_data_.size(); }
  std::size_t num_parameters() const { return model_->num_parameters(); }
  const Dataset& node_data(std::size_t v) const { return node_data_[v]; }
  /// The base gossip matrix W (the network graph under network.weights).
  const gossip::GossipMatrix& base() const { return base_; }
  /// W_t for gradient step t (fixed, a fresh Erdős–Rényi graph, or node dropout).
  const gossip::Schedule& schedule() const { return schedule_; }
  const AlgorithmParams& params() const { return params_; }
  /// The protocol for the pairwise accountants: the base W, the drawn schedule, T rounds,
  /// Δ = 1 (record level: sensitivity C against noise σC).
  accounting::Protocol protocol() const;
  AlgorithmParams& mutable_params() { return params_; }
  std::uint64_t seed() const { return seed_; }

  /// Row v of `grads` (resized to n × p) = node v's clipped gradient sum over its minibatch at
  /// step t, divided by the batch size (no noise, no penalty). Batches: b examples drawn
  /// uniformly without replacement per node per step (b = 0: all local data); with
  /// `cyclic` the node's data is cut once into ⌈m/b⌉ batches used in turn (for participation
  /// schemes).
  void clipped_mean_gradients(const DenseMatrix& theta, Rng& rng, DenseMatrix& grads, bool cyclic = false,
                              std::size_t t = 0);
  /// The divisor of node v's gradient (its batch size).
  double batch_divisor(std::size_t v) const;
  /// grads(v, :) += λ θ(v, :) (the model's data-independent penalty gradient).
  void add_penalty(const DenseMatrix& theta, DenseMatrix& grads) const;
  /// theta ← W theta (one gossip step with a sparse W), using an internal buffer.
  void gossip(const SparseMatrix& w, DenseMatrix& theta);
  /// K plain or Chebyshev-accelerated gossip steps with W (Muffliato Algorithm 1; γ from the
  /// base W's spectral gap, so Chebyshev requires the fixed schedule).
  void gossip_k(const SparseMatrix& w, std::size_t k, DenseMatrix& theta);

 private:
  /// Draws node v's minibatch for step t from rng into batch_range_[v] (and cyclic_order_[v]).
  void draw_batch(std::size_t v, Rng& rng, bool cyclic, std::size_t t);
  const Model* model_;
  std::vector<Dataset> node_data_;
  gossip::GossipMatrix base_;
  gossip::Schedule schedule_;
  AlgorithmParams params_;
  std::uint64_t seed_;
  std::vector<std::vector<std::size_t>> cyclic_order_;
  /// Node v's minibatch at the current step: positions [first, last) of cyclic_order_[v].
  std::vector<std::pair<std::size_t, std::size_t>> batch_range_;
  DenseMatrix buffer_;
  double chebyshev_gamma_ = 0.0;  ///< γ of the base W, computed on first use
};

/// The privacy of a run, computed once by Algorithm::privacy: for every round count t, the
/// pairwise account of the first t steps (accounting/pairwise.hpp; σ-free, rows at any σ and δ),
/// and the statistic of its ε that the run reports and calibrates on. A single-row account is a
/// bound for every observer (local, central or LDP).
struct PrivacyAccount {
  std::string accountant = "none";  ///< e.g. "muffliato-mean-pairwise", "local-gdp", "none"
  /// The account after `rounds` steps; empty when non-private.
  std::function<std::shared_ptr<const accounting::PairwiseAccount>(std::size_t rounds)> at_round;
  accounting::Statistic statistic = accounting::Statistic::max;
  std::vector<std::string> notes;

  /// μ-GDP of each pair after `rounds` steps at noise multiplier σ (the Gaussian rows; empty when
  /// non-private or when no pair has leaked yet).
  std::vector<double> mus(double sigma, std::size_t rounds) const;
};
/// ε at δ of an account after `rounds` steps at σ (0 when non-private or rounds = 0, +inf at
/// σ = 0): accounting::epsilon_statistic of the account's rows (rounded up).
double account_epsilon(const PrivacyAccount& account, double sigma, std::size_t rounds, double delta);

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual std::string_view name() const = 0;
  /// Called once before round 0 (allocations, correlation matrices, ...).
  virtual void prepare(TrainContext& /*ctx*/) {}
  /// One gradient step t on every node: theta is n × p, row v = node v's model.
  virtual void round(std::size_t t, DenseMatrix& theta, TrainContext& ctx, Rng& rng) = 0;
  /// The privacy accountant of this algorithm under ctx (called once, before training).
  virtual PrivacyAccount privacy(const TrainContext& ctx) const = 0;
  /// Whether σ must be > 0 (private algorithms) — d-sgd is the only non-private one.
  virtual bool is_private() const { return true; }
};

using AlgorithmFactory = std::unique_ptr<Algorithm> (*)();

struct AlgorithmEntry {
  std::string_view name;
  std::string_view description;
  AlgorithmFactory make;
};
/// Every registered algorithm (src/learn/algo_registry.cpp), in documentation order.
const std::vector<AlgorithmEntry>& algorithm_registry();
/// The algorithm called `name`; throws std::invalid_argument listing the registered names.
std::unique_ptr<Algorithm> make_algorithm(std::string_view name);

}  // namespace netdp::learn
