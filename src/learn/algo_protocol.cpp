// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Protocol algorithms and baselines (docs/reference/learn-protocols.md):
//  * secure-gossip: DP-D-SGD (Koskela–Kulkarni Algorithm 2) whose gossip step runs the pairwise-masking
//    secure-summation protocol (netdp/learn/secure_summation.hpp) — node v learns only Σ_u W_vu x_u.
//  * dp-fedavg: a trusted server averages the nodes' clipped minibatch gradients and adds central
//    Gaussian noise (central DP; one local step per round, i.e. FedSGD).
//  * local-dp-sgd: every node trains alone on its own data with DP-SGD (local DP).

#include "algo_protocol.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "netdp/learn/secure_summation.hpp"
#include "netdp/util/check.hpp"
#include "train_privacy.hpp"

namespace netdp::learn {
namespace {

// grads(v, :) += σ C ξ_v / b_v with ξ_v ~ N(0, I), drawn node by node (the order dp-d-sgd uses, so
// the same seed gives the same noise).
void add_local_noise(const TrainContext& ctx, Rng& rng, DenseMatrix& grads) {
  const AlgorithmParams& p = ctx.params();
  if (!(p.sigma > 0.0)) return;
  for (Eigen::Index v = 0; v < grads.rows(); ++v) {
    const double scale = p.sigma * p.clip / ctx.batch_divisor(static_cast<std::size_t>(v));
    for (Eigen::Index j = 0; j < grads.cols(); ++j) grads(v, j) += scale * standard_normal(rng);
  }
}

/// secure-gossip: θ ← SecSum_W(θ − η ĝ), with ĝ as in dp-d-sgd. The aggregation goes through the
/// masked fixed-point protocol; the result equals dp-d-sgd's W(θ − η ĝ) up to the encoding's
/// rounding (≤ deg(v) · 2^−(f+1) per coordinate and round, f = 32).
class SecureGossip : public Algorithm {
 public:
  std::string_view name() const override { return "secure-gossip"; }
  void prepare(TrainContext& ctx) override {
    const AlgorithmParams& p = ctx.params();
    require_fixed_schedule(p, "secure-gossip runs the protocol on the fixed W");
    require(p.gossip_steps == 1 && !p.chebyshev,
            "algorithm.gossip_steps = {}: secure-gossip gossips once per step (Koskela-Kulkarni Algorithm 2)",
            p.gossip_steps);
    // Mask keys from the run's seed (a simulated key agreement; see secure_summation.hpp).
    protocol_.emplace(ctx.schedule().at(0), ctx.seed() ^ 0x5ec5e5ec5e5ec5eULL);
  }
  void round(std::size_t t, DenseMatrix& theta, TrainContext& ctx, Rng& rng) override {
    const AlgorithmParams& p = ctx.params();
    ctx.clipped_mean_gradients(theta, rng, grads_);
    add_local_noise(ctx, rng, grads_);
    ctx.add_penalty(theta, grads_);
    theta -= p.step_size * grads_;
    theta = protocol_->run_round(theta, t);
  }
  PrivacyAccount privacy(const TrainContext& ctx) const override { return secure_gossip_privacy(ctx); }

 private:
  std::optional<SecureSummation> protocol_;
  DenseMatrix grads_;
};

/// dp-fedavg: θ̄ ← θ̄ − η [(1/n) Σ_v ḡ_v + (σ C / (n b_min)) ξ + λ θ̄], ḡ_v node v's clipped mean
/// gradient at θ̄; every node holds θ̄. One record changes (1/n) Σ_v ḡ_v by at most C / (n b_v)
/// ≤ C / (n b_min): μ = 1/σ per round, √T/σ after T rounds (central GDP, Dong–Roth–Su Corollary 3.3).
class DpFedAvg : public Algorithm {
 public:
  std::string_view name() const override { return "dp-fedavg"; }
  void round(std::size_t /*t*/, DenseMatrix& theta, TrainContext& ctx, Rng& rng) override {
    const AlgorithmParams& p = ctx.params();
    const Eigen::RowVectorXd server = theta.colwise().mean();
    theta.rowwise() = server;  // the server broadcasts θ̄
    ctx.clipped_mean_gradients(theta, rng, grads_);
    Eigen::RowVectorXd update = grads_.colwise().mean();
    if (p.sigma > 0.0) {
      double min_batch = ctx.batch_divisor(0);
      for (std::size_t v = 1; v < ctx.num_nodes(); ++v) min_batch = std::min(min_batch, ctx.batch_divisor(v));
      const double scale = p.sigma * p.clip / (static_cast<double>(ctx.num_nodes()) * min_batch);
      for (Eigen::Index j = 0; j < update.size(); ++j) update[j] += scale * standard_normal(rng);
    }
    penalty_.setZero(1, theta.cols());
    ctx.add_penalty(DenseMatrix(server), penalty_);
    theta.rowwise() = server - p.step_size * (update + penalty_.row(0));
  }
  PrivacyAccount privacy(const TrainContext& /*ctx*/) const override {
    PrivacyAccount account;
    account.accountant = "central-gdp";
    account.at_round = [](std::size_t rounds) {
      return single_bound_account("central-gdp", std::sqrt(static_cast<double>(rounds)));
    };
    account.notes.push_back(
        "central-gdp: the trusted server's output, μ = √T/σ (no subsampling amplification: an upper bound)");
    return account;
  }

 private:
  DenseMatrix grads_;
  DenseMatrix penalty_;
};

/// local-dp-sgd: θ_v ← θ_v − η ĝ_v, no communication; privacy = local GDP, √T/σ.
class LocalDpSgd : public Algorithm {
 public:
  std::string_view name() const override { return "local-dp-sgd"; }
  void round(std::size_t /*t*/, DenseMatrix& theta, TrainContext& ctx, Rng& rng) override {
    ctx.clipped_mean_gradients(theta, rng, grads_);
    add_local_noise(ctx, rng, grads_);
    ctx.add_penalty(theta, grads_);
    theta -= ctx.params().step_size * grads_;
  }
  PrivacyAccount privacy(const TrainContext& ctx) const override {
    return local_gdp_account(ctx, identity_correlation_sensitivity());
  }

 private:
  DenseMatrix grads_;
};

}  // namespace

std::unique_ptr<Algorithm> make_secure_gossip() { return std::make_unique<SecureGossip>(); }
std::unique_ptr<Algorithm> make_dp_fedavg() { return std::make_unique<DpFedAvg>(); }
std::unique_ptr<Algorithm> make_local_dp_sgd() { return std::make_unique<LocalDpSgd>(); }

}  // namespace netdp::learn
