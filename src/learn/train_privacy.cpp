// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Accountants of the training algorithms on top of accounting/pairwise.hpp: local GDP, Muffliato
// (Theorems 6 and 11) and randomized gossip; ε so far through accounting::epsilon_statistic.

#include "train_privacy.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "netdp/accounting/muffliato/muffliato_gd.hpp"
#include "netdp/accounting/muffliato/pairwise_muffliato.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::learn {

std::vector<double> PrivacyAccount::mus(double sigma, std::size_t rounds) const {
  std::vector<double> out;
  if (!at_round) return out;
  for (const accounting::PairRow& row : at_round(rounds)->rows(sigma, 0.5)) {
    if (row.mu) out.push_back(*row.mu);
  }
  return out;
}

double account_epsilon(const PrivacyAccount& account, double sigma, std::size_t rounds, double delta) {
  if (!account.at_round || rounds == 0) return 0.0;
  if (!(sigma > 0.0)) return std::numeric_limits<double>::infinity();
  return accounting::epsilon_statistic(*account.at_round(rounds), account.statistic, sigma, delta);
}

accounting::AssessOptions training_release(const AlgorithmParams& params) {
  return accounting::AssessOptions{accounting::SignSearch::none, params.release_dimension};
}

SquaredSensitivity identity_correlation_sensitivity() {
  return [](std::size_t t) { return static_cast<double>(t); };
}

SquaredSensitivity prefix_sum_correlation_sensitivity() {
  // ‖L g‖² = Σ_t ‖Σ_{s<=t} g_s‖² <= Σ_{k=1}^t k² for ‖g_s‖ <= 1, attained by aligned g.
  return [](std::size_t t) {
    const auto x = static_cast<double>(t);
    return x * (x + 1.0) * (2.0 * x + 1.0) / 6.0;
  };
}

std::shared_ptr<const accounting::PairwiseAccount> single_bound_account(const std::string& method,
                                                                        double unit_mu) {
  accounting::GaussianPairwiseAccount::Info info;
  info.method = method;
  std::vector<accounting::UnitPair> pairs;
  if (unit_mu > 0.0) pairs.push_back({0, 0, unit_mu, unit_mu, {}});
  return std::make_shared<const accounting::GaussianPairwiseAccount>(std::move(pairs), std::move(info));
}

accounting::Statistic calibration_statistic(const AlgorithmParams& params) {
  return params.calibrate_on == CalibrateOn::mean ? accounting::Statistic::mean : accounting::Statistic::max;
}

void require_within_limit(const AlgorithmParams& params, const std::string& what, double amount,
                          std::string_view unit, double limit, std::string_view limit_key) {
  require(
      amount <= limit,
      "privacy.calibrate_on = {}: {} is too expensive: {:.6g} {} > {} = {:.6g}; use privacy.calibrate_on = "
      "local (a valid upper bound) or raise {}",
      to_string(params.calibrate_on), what, amount, unit, limit_key, limit, limit_key);
}

void require_pairwise_nodes(const TrainContext& ctx) {
  require(ctx.num_nodes() >= 2, "privacy.calibrate_on = {}: pairwise privacy needs >= 2 nodes",
          to_string(ctx.params().calibrate_on));
}

PrivacyAccount local_gdp_account(const TrainContext& /*ctx*/, const SquaredSensitivity& sensitivity) {
  PrivacyAccount account;
  account.accountant = "local-gdp";
  account.at_round = [sensitivity](std::size_t rounds) {
    return single_bound_account("local-gdp", std::sqrt(sensitivity(rounds)));
  };
  account.notes.push_back(
      "local-gdp: record-level μ-GDP of everything a node sends (an upper bound on every pairwise view), no "
      "subsampling amplification");
  return account;
}

namespace {

accounting::MuffliatoOptions unit_muffliato_options() {
  accounting::MuffliatoOptions options;
  options.sigma = 1.0;
  options.sensitivity = 1.0;  // record-level: sensitivity C/b against noise σC/b, i.e. μ = sqrt(S)/σ
  options.require_connected = false;  // one step's graph may be disconnected; isolated targets leak nothing
  return options;
}

PrivacyAccount muffliato_base_account(const AlgorithmParams& p, const std::string& prefix) {
  PrivacyAccount account;
  account.statistic = calibration_statistic(p);
  account.accountant =
      prefix + "-paper" +
      (account.statistic == accounting::Statistic::mean ? "-mean-pairwise" : "-max-pairwise");
  account.notes.push_back(
      "privacy.bound = paper: the Muffliato paper's message-by-message sums (Theorem 6 / 11), each step "
      "capped at the local value; NOT an upper bound on what a node sees (docs/reference/accounting-muffliato.md)");
  return account;
}

std::shared_ptr<const accounting::PairwiseAccount> muffliato_pairs(accounting::MuffliatoLosses losses,
                                                                   const std::string& method) {
  accounting::GaussianPairwiseAccount::Info info;
  info.method = method;
  info.guarantee = accounting::Guarantee::paper_formula;  // privacy.bound = paper
  info.certificate = accounting::Certificate::paper_formula;
  return accounting::muffliato_losses_account(std::move(losses), {}, std::move(info));
}

// Theorem 11 over the run's T steps with step_schedule(t), kept at the evaluation rounds and at T;
// ε at round t uses the next checkpoint >= t (an upper bound: the view only grows).
void compose_steps(PrivacyAccount& account, const AlgorithmParams& p, std::size_t num_nodes,
                   const std::function<gossip::Schedule(std::size_t)>& step_schedule) {
  std::vector<std::size_t> rounds;
  for (std::size_t done = 1; done <= p.rounds; ++done) {
    if (done == p.rounds || (p.eval_every > 0 && done % p.eval_every == 0)) rounds.push_back(done);
  }
  // Each checkpoint holds n × n sums and capped sums (8 bytes each), moved into its account.
  const auto n = static_cast<double>(num_nodes);
  util::require_memory(
      16.0 * n * n * static_cast<double>(rounds.size() + 1),
      "privacy.bound = paper: the Muffliato all-pairs accountant",
      fmt::format("16 n² bytes for each of {} checkpoints, n = {}", rounds.size(), num_nodes),
      "evaluate less often (train.eval_every) or use privacy.calibrate_on = local");
  std::vector<accounting::MuffliatoLosses> losses =
      accounting::muffliato_composed_checkpoints(p.rounds, step_schedule, rounds, unit_muffliato_options());
  auto checkpoints =
      std::make_shared<std::map<std::size_t, std::shared_ptr<const accounting::PairwiseAccount>>>();
  for (std::size_t i = 0; i < rounds.size(); ++i)
    (*checkpoints)[rounds[i]] = muffliato_pairs(std::move(losses[i]), account.accountant);
  account.at_round = [checkpoints](std::size_t t) {
    auto it = checkpoints->lower_bound(t);
    if (it == checkpoints->end()) it = std::prev(checkpoints->end());
    return it->second;
  };
  account.notes.push_back(
      "time-varying schedule: ε between checkpoints is the next checkpoint's (upper bound)");
}

}  // namespace

PrivacyAccount muffliato_privacy(const TrainContext& ctx) {
  const AlgorithmParams& p = ctx.params();
  if (p.calibrate_on == CalibrateOn::local) return local_gdp_account(ctx, identity_correlation_sensitivity());
  if (p.bound == accounting::MuffliatoBound::paper) {
    PrivacyAccount account = muffliato_base_account(p, "muffliato");
    // Theorem 6 / 11: one matrix per step, K rounds each.
    compose_steps(account, p, ctx.num_nodes(), [&](std::size_t t) {
      return gossip::Schedule::fixed(ctx.schedule().at(t), p.gossip_steps);
    });
    return account;
  }
  // The whole view of Muffliato-GD / SGD(K), through the registry.
  return muffliato_whole_view_account(ctx);
}

PrivacyAccount randomized_gossip_privacy(const TrainContext& ctx, const std::vector<graph::Edge>& ticks) {
  const AlgorithmParams& p = ctx.params();
  if (p.calibrate_on == CalibrateOn::local) return local_gdp_account(ctx, identity_correlation_sensitivity());
  const std::size_t n = ctx.num_nodes();
  const std::size_t k = p.gossip_steps;
  require(k >= 1 && ticks.size() == p.rounds * k, "randomized_gossip_privacy: {} ticks for T = {}, K = {}",
          ticks.size(), p.rounds, k);
  // Muffliato Algorithm 2's tick on edge {a, b}: W = I − (e_a − e_b)(e_a − e_b)ᵀ / 2.
  const auto ticks_of = [&](std::size_t first, std::size_t count) {
    std::vector<std::optional<graph::Edge>> activations(
        ticks.begin() + static_cast<std::ptrdiff_t>(first),
        ticks.begin() + static_cast<std::ptrdiff_t>(first + count));
    return gossip::pairwise_schedule(n, activations);
  };
  PrivacyAccount account;
  if (p.bound == accounting::MuffliatoBound::paper) {
    account = muffliato_base_account(p, "randomized-gossip");
    compose_steps(account, p, n, [&](std::size_t t) { return ticks_of(t * k, k); });
  } else {
    account = tick_schedule_view_account(ctx, "randomized-gossip", ticks_of(0, p.rounds * k));
  }
  account.notes.push_back(
      "randomized-gossip: the edges are drawn from the run's seed before training (public to the accountant "
      "and to every observer, as in Muffliato Theorem 1 with a known schedule)");
  return account;
}

}  // namespace netdp::learn
