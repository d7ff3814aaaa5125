// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The gossip-family algorithms: d-sgd, dp-d-sgd (Koskela–Kulkarni Algorithm 2), muffliato-gd /
// muffliato-sgd (Cyffers et al. Algorithm 3), randomized-gossip, antipgd (MF paper A.3).
// Every step is "adapt then combine": θ ← W_t^K (θ − η ĝ) (KK Algorithm 2: local noisy step, then
// gossip averaging), with ĝ_v = (1/b)(Σ clip(∇ℓ_i, C) + σ C ξ_v) + λ θ_v.

#include <memory>

#include "netdp/learn/algorithm.hpp"
#include "netdp/util/check.hpp"
#include "train_privacy.hpp"

namespace netdp::learn {

namespace {

// grads(v, :) += scale · ξ_v(t) / b_v, ξ ~ N(0, I): the noise σ C ξ divided by node v's batch size.
void add_scaled_noise(const DenseMatrix& xi, double scale, const TrainContext& ctx, DenseMatrix& grads) {
  Vector factor(grads.rows());
  for (Eigen::Index v = 0; v < grads.rows(); ++v)
    factor(v) = scale / ctx.batch_divisor(static_cast<std::size_t>(v));
  grads.noalias() += factor.asDiagonal() * xi;  // column-major friendly
}

void fill_normal(DenseMatrix& xi, Eigen::Index rows, Eigen::Index cols, Rng& rng) {
  xi.resize(rows, cols);
  fill_standard_normal(xi.data(), static_cast<std::size_t>(xi.size()), rng);
}

/// d-sgd, dp-d-sgd, muffliato-gd, muffliato-sgd: one (noisy) local step, then K gossip steps
/// with W_t (Chebyshev-accelerated if algorithm.chebyshev).
class GossipSgd : public Algorithm {
 public:
  enum class Variant { d_sgd, dp_d_sgd, muffliato_gd, muffliato_sgd };
  explicit GossipSgd(Variant variant) : variant_(variant) {}

  std::string_view name() const override {
    switch (variant_) {
      case Variant::d_sgd:
        return "d-sgd";
      case Variant::dp_d_sgd:
        return "dp-d-sgd";
      case Variant::muffliato_gd:
        return "muffliato-gd";
      case Variant::muffliato_sgd:
        return "muffliato-sgd";
    }
    return "unknown";
  }
  bool is_private() const override { return variant_ != Variant::d_sgd; }

  void prepare(TrainContext& ctx) override {
    const AlgorithmParams& p = ctx.params();
    if (variant_ == Variant::dp_d_sgd) {
      require(
          p.gossip_steps == 1 && !p.chebyshev,
          "algorithm.gossip_steps = {} / chebyshev = {}: dp-d-sgd gossips once per step (Koskela-Kulkarni "
          "Algorithm 2); use muffliato-sgd for K > 1",
          p.gossip_steps, p.chebyshev);
    }
    if (variant_ == Variant::muffliato_gd) {
      require(p.batch_size == 0, "algorithm.batch_size = {}: muffliato-gd uses the full local data set (0)",
              p.batch_size);
    }
    require(
        !p.chebyshev || p.fixed_schedule(),
        "algorithm.chebyshev = true needs algorithm.schedule = fixed (got '{}'): γ comes from the fixed W's "
        "spectral gap",
        gossip::schedule_spec_string(p.schedule));
  }

  void round(std::size_t t, DenseMatrix& theta, TrainContext& ctx, Rng& rng) override {
    const AlgorithmParams& p = ctx.params();
    ctx.clipped_mean_gradients(theta, rng, grads_);
    if (is_private() && p.sigma > 0.0) {
      fill_normal(xi_, theta.rows(), theta.cols(), rng);
      add_scaled_noise(xi_, p.sigma * p.clip, ctx, grads_);
    }
    ctx.add_penalty(theta, grads_);
    theta -= p.step_size * grads_;
    ctx.gossip_k(ctx.schedule().at(t), p.gossip_steps, theta);
  }

  PrivacyAccount privacy(const TrainContext& ctx) const override {
    if (!is_private()) return PrivacyAccount{};
    if (variant_ == Variant::dp_d_sgd) return dp_d_sgd_privacy(ctx);
    return muffliato_privacy(ctx);
  }

 private:
  Variant variant_;
  DenseMatrix grads_;
  DenseMatrix xi_;
};

/// randomized-gossip: a noisy local step, then K ticks of pairwise averaging, each on one edge of the
/// base graph drawn uniformly (Muffliato Algorithm 2's W = I − (e_v − e_w)(e_v − e_w)ᵀ/2). The T·K
/// edges are drawn in prepare() from their own stream of the run's seed, so the accountant sees the
/// schedule the run uses.
class RandomizedGossip : public Algorithm {
 public:
  std::string_view name() const override { return "randomized-gossip"; }
  void prepare(TrainContext& ctx) override {
    edges_ = ctx.base().graph().edges();
    require(!edges_.empty(), "randomized-gossip needs a graph with at least one edge");
    const AlgorithmParams& p = ctx.params();
    require_fixed_schedule(p, "randomized-gossip draws its own edges (use fixed)");
    const std::size_t ticks = p.rounds * p.gossip_steps;
    require(ticks <= p.limits.gossip_ticks,
            "algorithm.rounds × algorithm.gossip_steps = {}: randomized-gossip pre-draws its edges and "
            "keeps at most limits.gossip_ticks = {} of them (memory); lower one of the two or raise "
            "limits.gossip_ticks",
            ticks, p.limits.gossip_ticks);
    Rng tick_rng(ctx.seed() ^ 0x5449434B53ULL);  // "TICKS": a stream apart from the training draws
    ticks_.resize(ticks);
    for (graph::Edge& tick : ticks_) tick = edges_[tick_rng.uniform_below(edges_.size())];
  }
  void round(std::size_t t, DenseMatrix& theta, TrainContext& ctx, Rng& rng) override {
    const AlgorithmParams& p = ctx.params();
    ctx.clipped_mean_gradients(theta, rng, grads_);
    if (p.sigma > 0.0) {
      fill_normal(xi_, theta.rows(), theta.cols(), rng);
      add_scaled_noise(xi_, p.sigma * p.clip, ctx, grads_);
    }
    ctx.add_penalty(theta, grads_);
    theta -= p.step_size * grads_;
    for (std::size_t k = 0; k < p.gossip_steps; ++k) {
      const graph::Edge& e = ticks_[t * p.gossip_steps + k];
      const auto a = static_cast<Eigen::Index>(e.u);
      const auto b = static_cast<Eigen::Index>(e.v);
      row_ = 0.5 * (theta.row(a) + theta.row(b));
      theta.row(a) = row_;
      theta.row(b) = row_;
    }
  }
  PrivacyAccount privacy(const TrainContext& ctx) const override {
    return randomized_gossip_privacy(ctx, ticks_);
  }

 private:
  std::vector<graph::Edge> edges_;
  std::vector<graph::Edge> ticks_;  ///< K edges per gradient step, step-major
  DenseMatrix grads_;
  DenseMatrix xi_;
  Eigen::RowVectorXd row_;
};

/// antipgd (MF paper A.3): node v's noise at step t is σ C (ξ_v(t) − ξ_v(t−1)), ξ_v(−1) = 0, i.e.
/// MF-D-SGD with C⁻¹ the first-difference matrix; then one gossip step.
class AntiPgd : public Algorithm {
 public:
  std::string_view name() const override { return "antipgd"; }
  void prepare(TrainContext& ctx) override {
    const AlgorithmParams& p = ctx.params();
    require(p.gossip_steps == 1 && !p.chebyshev, "algorithm.gossip_steps = {}: antipgd gossips once per step",
            p.gossip_steps);
    previous_.resize(0, 0);
  }
  void round(std::size_t t, DenseMatrix& theta, TrainContext& ctx, Rng& rng) override {
    const AlgorithmParams& p = ctx.params();
    ctx.clipped_mean_gradients(theta, rng, grads_);
    if (p.sigma > 0.0) {
      fill_normal(xi_, theta.rows(), theta.cols(), rng);
      add_scaled_noise(xi_, p.sigma * p.clip, ctx, grads_);
      if (previous_.size() != 0) add_scaled_noise(previous_, -p.sigma * p.clip, ctx, grads_);
      previous_.swap(xi_);
    }
    ctx.add_penalty(theta, grads_);
    theta -= p.step_size * grads_;
    ctx.gossip(ctx.schedule().at(t), theta);
  }
  PrivacyAccount privacy(const TrainContext& ctx) const override { return antipgd_privacy(ctx); }

 private:
  DenseMatrix grads_;
  DenseMatrix xi_;
  DenseMatrix previous_;
};

}  // namespace

std::unique_ptr<Algorithm> make_d_sgd() { return std::make_unique<GossipSgd>(GossipSgd::Variant::d_sgd); }
std::unique_ptr<Algorithm> make_dp_d_sgd() {
  return std::make_unique<GossipSgd>(GossipSgd::Variant::dp_d_sgd);
}
std::unique_ptr<Algorithm> make_muffliato_gd() {
  return std::make_unique<GossipSgd>(GossipSgd::Variant::muffliato_gd);
}
std::unique_ptr<Algorithm> make_muffliato_sgd() {
  return std::make_unique<GossipSgd>(GossipSgd::Variant::muffliato_sgd);
}
std::unique_ptr<Algorithm> make_randomized_gossip() { return std::make_unique<RandomizedGossip>(); }
std::unique_ptr<Algorithm> make_antipgd() { return std::make_unique<AntiPgd>(); }

}  // namespace netdp::learn
