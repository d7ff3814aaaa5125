// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Pairwise accountants of dp-d-sgd, secure-gossip, antipgd and Muffliato's whole view (docs/reference/learn.md,
// "Privacy"): each algorithm is described as an accounting::AccountRequest on the run's protocol and
// built through the registry (make_account), once before training, at round T and σ = 1; μ scales
// as 1/σ, so every later evaluation (ε so far, calibration) is a rescaling. One adaptor
// (checkpointed_account) turns the account at T into the account at any round t: the batch ratio
// of each target, and the cap by the target's local view at t.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/muffliato/muffliato_gd_view.hpp"
#include "netdp/accounting/muffliato/pairwise_muffliato.hpp"
#include "netdp/util/check.hpp"
#include "train_privacy.hpp"

namespace netdp::learn {

namespace {

// (b_max / b_u)² for the target u of each pair: node w's noise std is σC/b_w and a record of u
// moves its input by C/b_u. The view with every noise std lowered to σC/b_max is at least as
// informative (the real view is it plus independent Gaussian noise the observer could add), so
// sens_u · b_max/b_u / σ is a valid μ; exact when all batch sizes are equal.
std::vector<double> node_ratios_squared(const TrainContext& ctx, bool& unequal) {
  const std::size_t n = ctx.num_nodes();
  double b_max = 0.0;
  double b_min = std::numeric_limits<double>::infinity();
  for (std::size_t v = 0; v < n; ++v) {
    b_max = std::max(b_max, ctx.batch_divisor(v));
    b_min = std::min(b_min, ctx.batch_divisor(v));
  }
  unequal = b_max > b_min;
  std::vector<double> ratios(n);
  for (std::size_t v = 0; v < n; ++v) {
    const double r = b_max / ctx.batch_divisor(v);
    ratios[v] = r * r;
  }
  return ratios;
}

// Throws unless the estimated work fits the guard (never a silent fallback to another accountant).
void require_affordable(const TrainContext& ctx, const std::string& what, double rows_per_round) {
  const AlgorithmParams& p = ctx.params();
  const auto n = static_cast<double>(ctx.num_nodes());
  double work = 0.0;
  for (const std::size_t t : checkpoint_rounds(p)) work += n * (n - 1.0) * std::pow(rows_per_round * t, 3.0);
  require_within_limit(
      p, fmt::format("the {} accountant over {} nodes and T = {} rounds", what, ctx.num_nodes(), p.rounds),
      work, "units of work n(n-1)(rT)^3", p.limits.pairwise_work, "limits.pairwise_work");
}

// The account at round t of pairwise sens² computed at T: each pair's sens² times its target's
// batch ratio, capped by the target's local sens²(t) (everything the target sends: valid for
// every observer, and the view at t <= T is a prefix of the view at T).
PrivacyAccount checkpointed_account(const std::string& name, const AlgorithmParams& p,
                                    std::shared_ptr<const std::vector<accounting::UnitPair>> pairs,
                                    std::shared_ptr<const std::vector<double>> ratios2,
                                    SquaredSensitivity local) {
  PrivacyAccount account;
  account.statistic = calibration_statistic(p);
  account.accountant =
      name + (account.statistic == accounting::Statistic::mean ? "-mean-pairwise" : "-max-pairwise");
  account.at_round = [pairs, ratios2, local, name](std::size_t t) {
    const double cap = local(t);
    std::vector<accounting::UnitPair> at_t = *pairs;
    for (accounting::UnitPair& pair : at_t) {
      const double sens2 = pair.unit_mu * pair.unit_mu * (*ratios2)[pair.target];
      pair.unit_mu = std::sqrt(std::min(sens2, cap));
      pair.uncapped_unit_mu = std::sqrt(sens2);
    }
    accounting::GaussianPairwiseAccount::Info info;
    info.method = name;
    return std::make_shared<const accounting::GaussianPairwiseAccount>(std::move(at_t), std::move(info));
  };
  return account;
}

bool all_exact(const std::vector<accounting::UnitPair>& pairs) {
  for (const accounting::UnitPair& pair : pairs) {
    if (!pair.sensitivity || !pair.sensitivity->exact) return false;
  }
  return true;
}

void add_common_notes(PrivacyAccount& account, bool exact, bool unequal_batches,
                      std::size_t release_dimension) {
  const char* bound =
      release_dimension == 1
          ? "pairwise ε is an upper bound: certified sens² = min(the verified SDP bound, Σ|K_u|) "
            "(privacy.release_dimension = 1), capped by the local view, where K_u has a negative entry"
          : "pairwise ε is an upper bound: certified sens² = the verified SDP bound on the worst gradient "
            "vector, capped by the local view, where it was not shown to be attained";
  account.notes.push_back(
      exact ? "pairwise ε at T is exact for the view: the worst gradient vector of every pair "
              "is attained (K_u >= 0 entrywise, or the SDP's bracket closed to 1e-9)"
            : bound);
  account.notes.push_back("ε before round T uses min(sens²(T), local sens²(t)) per pair: an upper bound");
  if (unequal_batches) {
    account.notes.push_back("nodes have unequal batch sizes: μ scaled by b_max/b_target (an upper bound)");
  }
  account.notes.push_back("record-level, a record in every step (no subsampling amplification)");
}

std::size_t max_closed_degree(const TrainContext& ctx) {
  std::size_t d = 0;
  for (std::size_t v = 0; v < ctx.num_nodes(); ++v)
    d = std::max(d, ctx.base().graph().degree(static_cast<graph::NodeId>(v)) + 1);
  return d;
}

// The account of per-pair unit μ at T, scaled and capped per round (checkpointed_account).
PrivacyAccount pairwise_training_account(const TrainContext& ctx, const std::string& name,
                                         std::vector<accounting::UnitPair> pairs,
                                         const SquaredSensitivity& local, const std::string& note) {
  bool unequal = false;
  auto ratios = std::make_shared<const std::vector<double>>(node_ratios_squared(ctx, unequal));
  const bool exact = all_exact(pairs);
  PrivacyAccount account = checkpointed_account(
      name, ctx.params(), std::make_shared<const std::vector<accounting::UnitPair>>(std::move(pairs)), ratios,
      local);
  account.notes.push_back(note);
  add_common_notes(account, exact, unequal, ctx.params().release_dimension);
  return account;
}

}  // namespace

std::vector<std::size_t> checkpoint_rounds(const AlgorithmParams& params) {
  // One checkpoint at T: the view at t <= T is a prefix of the view at T, so sens²(t) <= sens²(T), and
  // each pair is also capped by the local sens²(t) (checkpointed_account). Checkpoints at every
  // evaluation would be tighter before T but cost Σ t³ ≈ (evaluations / 4) · T³ instead of T³.
  return {params.rounds};
}

namespace {

// The request every training account starts from: the run's release dimension, and no sign search
// (the scalar sign maximum is not a bound for a gradient vector: training_release).
accounting::AccountRequest training_request(const AlgorithmParams& p, accounting::Method method) {
  accounting::AccountRequest request;
  request.method = method;
  request.release_dimension = p.release_dimension;
  if (method != accounting::Method::muffliato) request.sign_search = accounting::SignSearch::none;
  return request;
}

// Every ordered pair's unit μ at T of the account the registry builds for `request`.
std::vector<accounting::UnitPair> registry_pairs(const TrainContext& ctx,
                                                 const accounting::Protocol& protocol,
                                                 const accounting::AccountRequest& request) {
  const std::unique_ptr<accounting::PairwiseAccount> account =
      accounting::make_account(protocol, {}, request);
  const auto* gaussian = dynamic_cast<const accounting::GaussianPairwiseAccount*>(account.get());
  require(gaussian != nullptr, "privacy: the {} account is not a μ-GDP account", account->method());
  require(gaussian->pair_count() == ctx.num_nodes() * (ctx.num_nodes() - 1),
          "privacy: {} {} pairwise results for {} nodes", gaussian->pair_count(), account->method(),
          ctx.num_nodes());
  return gaussian->unit_pairs();
}

// Koskela–Kulkarni all-pairs accounting at T under each of `views` (every one a valid upper bound
// for the simulated algorithm): per pair the smallest certified sens², exact only if the smaller
// view's is. `theorem` names the accountant in the cost guard's error; `rows_factor` is the rows
// per round of the largest view (for that guard).
PrivacyAccount kk_pairwise_account(const TrainContext& ctx, const std::string& name,
                                   const std::string& theorem,
                                   const std::vector<accounting::LinearSystemView>& views, double rows_factor,
                                   const std::string& note) {
  require_pairwise_nodes(ctx);
  require_affordable(ctx, theorem, rows_factor);
  std::vector<accounting::UnitPair> pairs;
  for (const accounting::LinearSystemView view : views) {
    accounting::AccountRequest request = training_request(ctx.params(), accounting::Method::linear_system);
    request.view = view;
    const std::vector<accounting::UnitPair> view_pairs = registry_pairs(ctx, ctx.protocol(), request);
    if (pairs.empty()) {
      pairs = view_pairs;
      continue;
    }
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (view_pairs[i].unit_mu < pairs[i].unit_mu) pairs[i] = view_pairs[i];
    }
  }
  return pairwise_training_account(ctx, name, std::move(pairs), identity_correlation_sensitivity(), note);
}

}  // namespace

PrivacyAccount dp_d_sgd_privacy(const TrainContext& ctx) {
  if (ctx.params().calibrate_on == CalibrateOn::local)
    return local_gdp_account(ctx, identity_correlation_sensitivity());
  return kk_pairwise_account(ctx, "kk-thm10", "Koskela-Kulkarni Theorem 10",
                             {accounting::LinearSystemView::plain}, 1.0,
                             "Koskela-Kulkarni Theorem 10: no secure summation, adaptive, observer's own "
                             "noise removed (Section 3.5): a "
                             "bound for every observer, not only neighbours");
}

PrivacyAccount secure_gossip_privacy(const TrainContext& ctx) {
  if (ctx.params().calibrate_on == CalibrateOn::local)
    return local_gdp_account(ctx, identity_correlation_sensitivity());
  // Both views are valid upper bounds for secure gossip: per pair the smaller is reported.
  return kk_pairwise_account(
      ctx, "kk-secure", "Koskela-Kulkarni Theorem 9 + Theorem 10",
      {accounting::LinearSystemView::plain, accounting::LinearSystemView::secure_sum_adaptive},
      static_cast<double>(max_closed_degree(ctx)),
      "Koskela-Kulkarni Theorem 9 + Theorem 10: per pair min(secure-sum adaptive view, plain view), "
      "observer's "
      "own noise removed (Section 3.5)");
}

PrivacyAccount antipgd_privacy(const TrainContext& ctx) {
  const AlgorithmParams& p = ctx.params();
  if (p.calibrate_on == CalibrateOn::local)
    return local_gdp_account(ctx, prefix_sum_correlation_sensitivity());
  require_pairwise_nodes(ctx);
  require(ctx.schedule().is_fixed(),
          "privacy.calibrate_on = {}: the antipgd pairwise accountant (MF paper, PNDP) needs "
          "algorithm.schedule = fixed (got '{}'); use privacy.calibrate_on = local",
          to_string(p.calibrate_on), gossip::schedule_spec_string(p.schedule));
  // The MF literal path builds a dense (d·T) × (n·T) view per attacker: work ~ n · (n·T)² · d·T.
  const auto n = static_cast<double>(ctx.num_nodes());
  const auto d = static_cast<double>(max_closed_degree(ctx));
  double work = 0.0;
  for (const std::size_t t : checkpoint_rounds(p)) work += n * (n * t) * (n * t) * (d * t);
  require_within_limit(p,
                       fmt::format("the antipgd MF accountant (dense, PNDP) over {} nodes and T = {} rounds",
                                   ctx.num_nodes(), p.rounds),
                       work, "units of work n(nT)^2 dT", p.limits.mf_literal_work, "limits.mf_literal_work");
  accounting::AccountRequest request = training_request(p, accounting::Method::mf);
  request.algorithm = accounting::MfAlgorithm::antipgd;
  request.trust = accounting::MfTrust::pndp;
  return pairwise_training_account(ctx, "mf-pndp", registry_pairs(ctx, ctx.protocol(), request),
                                   prefix_sum_correlation_sensitivity(),
                                   "mf-pndp: MF paper Theorem 7 under PNDP (messages an attacker receives, "
                                   "its own inputs and noise known), "
                                   "AntiPGD view (A.3), capped by the local view");
}

PrivacyAccount muffliato_whole_view_account(const TrainContext& ctx) {
  const AlgorithmParams& p = ctx.params();
  require_pairwise_nodes(ctx);
  if (p.fixed_schedule()) {
    require_affordable(ctx, "Muffliato-SGD(K) view",
                       static_cast<double>(p.gossip_steps) * static_cast<double>(max_closed_degree(ctx)));
  } else {
    require_within_limit(
        p,
        fmt::format("the Muffliato-GD whole-view accountant over {} nodes and T = {} steps of K = {} rounds",
                    ctx.num_nodes(), p.rounds, p.gossip_steps),
        accounting::muffliato_gd_view_work(
            accounting::muffliato_gd_rounds(ctx.schedule(), p.rounds, p.gossip_steps), p.rounds,
            p.gossip_steps),
        "multiply-adds", p.limits.pairwise_work, "limits.pairwise_work");
  }
  // Muffliato-GD: T = p.rounds gradient steps of K gossip rounds each, on the run's drawn schedule.
  accounting::Protocol gossip_rounds = ctx.protocol();
  gossip_rounds.rounds = p.gossip_steps;
  accounting::AccountRequest request = training_request(p, accounting::Method::muffliato);
  request.gradient_steps = p.rounds;
  return pairwise_training_account(
      ctx, "muffliato", registry_pairs(ctx, gossip_rounds, request), identity_correlation_sensitivity(),
      p.fixed_schedule()
          ? "muffliato: the whole view of Muffliato-SGD(K) (MF paper A.4: every message an observer receives "
            "over all gradient steps, its own inputs and noise known), the worst gradient vector certified "
            "per "
            "pair (verified SDP bound): a valid upper bound"
          : "muffliato: the whole view of Muffliato-GD on the run's schedule (every message an observer "
            "receives over all gradient steps, its own inputs and noise known), the worst gradient vector "
            "certified per pair (verified SDP bound): a valid upper bound");
}

PrivacyAccount tick_schedule_view_account(const TrainContext& ctx, const std::string& name,
                                          const gossip::Schedule& rounds) {
  const AlgorithmParams& p = ctx.params();
  require_pairwise_nodes(ctx);
  require_within_limit(
      p,
      fmt::format("the Muffliato-GD whole-view accountant over {} nodes and T = {} steps of K = {} rounds",
                  ctx.num_nodes(), p.rounds, p.gossip_steps),
      accounting::muffliato_gd_view_work(rounds, p.rounds, p.gossip_steps), "multiply-adds",
      p.limits.pairwise_work, "limits.pairwise_work");
  const auto account = accounting::muffliato_gd_view_pairs_account(rounds, p.rounds, p.gossip_steps, {},
                                                                   std::nullopt, {}, p.release_dimension);
  require(account->pair_count() == ctx.num_nodes() * (ctx.num_nodes() - 1),
          "privacy: {} Muffliato-GD pairwise results for {} nodes", account->pair_count(), ctx.num_nodes());
  return pairwise_training_account(
      ctx, name, account->unit_pairs(), identity_correlation_sensitivity(),
      name +
          ": the whole view of Muffliato-GD on the run's schedule (every message an observer receives over "
          "all gradient steps, its own inputs and noise known), the worst gradient vector certified per pair "
          "(verified SDP bound): a valid upper bound");
}

}  // namespace netdp::learn
