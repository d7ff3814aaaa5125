// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// random-walk-dp-sgd (Cyffers, Bellet & Upadhyay, random-walk DP-SGD; docs/reference/learn-protocols.md):
// one token model walks over the graph; at step t its holder v (if past the burn-in and under its
// contribution cap) takes a noisy clipped minibatch step
//   θ ← θ − η [(1/b)(Σ_{i∈batch} clip(∇ℓ(θ; x_i), C) + σ C ξ) + λ θ],   ξ ~ N(0, I),
// with a constant step size η, then passes the token to u drawn with probability W_vu. One
// simulator round = one token step. Every node's row of θ is the token model (the paper's metric).

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "algo_protocol.hpp"
#include "netdp/util/check.hpp"
#include "train_privacy.hpp"

namespace netdp::learn {

namespace {

class RandomWalkDpSgd : public Algorithm {
 public:
  /// from_config: prepare() reads the cap and burn-in from algorithm.walk_contribution_cap / walk_burn_in.
  explicit RandomWalkDpSgd(const RandomWalkSgdOptions& options, bool from_config = false)
      : options_(options), from_config_(from_config) {
    require(options.contribution_cap >= 1, "random-walk-dp-sgd: contribution cap must be >= 1, got {}",
            options.contribution_cap);
  }
  std::string_view name() const override { return "random-walk-dp-sgd"; }

  void prepare(TrainContext& ctx) override {
    const AlgorithmParams& p = ctx.params();
    require_fixed_schedule(p, "random-walk-dp-sgd walks on the fixed W");
    if (from_config_) {
      options_.contribution_cap =
          p.walk_contribution_cap == 0 ? RandomWalkSgdOptions{}.contribution_cap : p.walk_contribution_cap;
      options_.burn_in = p.walk_burn_in;
      require(options_.burn_in < p.rounds,
              "algorithm.walk_burn_in = {} must be < algorithm.rounds = {} (else nobody contributes)",
              options_.burn_in, p.rounds);
    }
    contributions_.assign(ctx.num_nodes(), 0);
    started_ = false;
  }

  void round(std::size_t t, DenseMatrix& theta, TrainContext& ctx, Rng& rng) override {
    if (!started_) {  // seeded start node; the token starts from node 0's initial model
      holder_ = static_cast<std::size_t>(rng.uniform_below(ctx.num_nodes()));
      token_ = theta.row(0).transpose();
      started_ = true;
    }
    if (t >= options_.burn_in && contributions_[holder_] < options_.contribution_cap) {
      step(ctx, rng);
      ++contributions_[holder_];
    }
    holder_ = draw_next_holder(ctx.schedule().at(0), holder_, rng);
    theta.rowwise() = token_.transpose();
  }

  PrivacyAccount privacy(const TrainContext& ctx) const override {
    // A node contributes at most N(t) = min(K, t − burn-in) noisy steps (train_privacy_walk.cpp).
    const bool capped = options_.contribution_cap != RandomWalkSgdOptions{}.contribution_cap;
    return random_walk_privacy(ctx, capped ? options_.contribution_cap : 0, options_.burn_in);
  }

 private:
  void step(TrainContext& ctx, Rng& rng) {
    const AlgorithmParams& p = ctx.params();
    const Dataset& data = ctx.node_data(holder_);
    require(data.size() > 0, "random-walk-dp-sgd: node {} has no training data", holder_);
    const std::size_t b = p.batch_size == 0 ? data.size() : std::min(p.batch_size, data.size());
    // b indices uniformly without replacement (partial Fisher–Yates).
    order_.resize(data.size());
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    for (std::size_t i = 0; i < b; ++i) std::swap(order_[i], order_[i + rng.uniform_below(data.size() - i)]);
    batch_x_.resize(static_cast<Eigen::Index>(b), data.features.cols());
    batch_y_.resize(static_cast<Eigen::Index>(b));
    for (std::size_t i = 0; i < b; ++i) {
      batch_x_.row(static_cast<Eigen::Index>(i)) = data.features.row(static_cast<Eigen::Index>(order_[i]));
      batch_y_[static_cast<Eigen::Index>(i)] = data.targets[static_cast<Eigen::Index>(order_[i])];
    }
    Vector g = ctx.model().clipped_gradient_sum(token_, batch_x_, batch_y_, p.clip);
    if (p.sigma > 0.0) {
      for (Eigen::Index j = 0; j < g.size(); ++j) g[j] += p.sigma * p.clip * standard_normal(rng);
    }
    g /= static_cast<double>(b);
    DenseMatrix one_row = token_.transpose();
    DenseMatrix penalty = DenseMatrix::Zero(1, g.size());
    ctx.add_penalty(one_row, penalty);
    token_ -= p.step_size * (g + penalty.row(0).transpose());
  }

  // u with probability W_vu (row v of a row-stochastic W).
  RandomWalkSgdOptions options_;
  bool from_config_ = false;
  std::vector<std::size_t> contributions_;
  std::vector<std::size_t> order_;
  std::size_t holder_ = 0;
  bool started_ = false;
  Vector token_;
  DenseMatrix batch_x_;
  Vector batch_y_;
};

}  // namespace

std::unique_ptr<Algorithm> make_random_walk_dp_sgd(const RandomWalkSgdOptions& options) {
  return std::make_unique<RandomWalkDpSgd>(options);
}
std::unique_ptr<Algorithm> make_random_walk_dp_sgd() {
  return std::make_unique<RandomWalkDpSgd>(RandomWalkSgdOptions{}, true);
}

}  // namespace netdp::learn
