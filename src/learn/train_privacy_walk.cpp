// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The accountant of random-walk-dp-sgd (docs/reference/learn-protocols.md): local GDP of a node's
// contributions, or the random-walk paper's pairwise Rényi bound (Cyffers, Bellet & Upadhyay,
// Theorem 3 through accounting::RandomWalkLosses) converted per pair and capped by local GDP.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/random_walk/pairwise_random_walk.hpp"
#include "netdp/accounting/random_walk/random_walk.hpp"
#include "netdp/util/check.hpp"
#include "train_privacy.hpp"

namespace netdp::learn {

namespace {

// N(t) = min(K, t − burn-in): the most gradient steps one node can have taken by round t.
double contributions(std::size_t cap, std::size_t burn_in, std::size_t rounds) {
  const std::size_t active = rounds > burn_in ? rounds - burn_in : 0;
  return static_cast<double>(cap == 0 ? active : std::min(cap, active));
}

}  // namespace

PrivacyAccount random_walk_privacy(const TrainContext& ctx, std::size_t contribution_cap,
                                   std::size_t burn_in) {
  const AlgorithmParams& p = ctx.params();
  PrivacyAccount account;
  if (p.calibrate_on == CalibrateOn::local) {
    // Each contribution is 1/σ-GDP in the clipped sum; N of them compose to √N/σ, whoever observes.
    account.accountant = "local-gdp";
    account.at_round = [contribution_cap, burn_in](std::size_t rounds) {
      return single_bound_account("local-gdp", std::sqrt(contributions(contribution_cap, burn_in, rounds)));
    };
    account.notes.push_back(
        "random-walk-dp-sgd: local-GDP upper bound over min(cap, T - burn_in) contributions (no "
        "amplification by the walk)");
    return account;
  }
  require_pairwise_nodes(ctx);
  // The series over all T steps bounds every shorter remainder of the walk; it is computed once
  // and shared by the accounts of every round count (they differ in N_u only).
  accounting::Protocol protocol = ctx.protocol();
  protocol.schedule = gossip::ScheduleSpec{};  // the token walks on the base W
  protocol.drawn.reset();
  accounting::RandomWalkOptions options;
  options.view = accounting::RandomWalkView::sender_known;
  options.contributions = 1.0;
  options.steps = p.rounds;
  options.sigma = 1.0;
  auto series = accounting::RandomWalkLosses(protocol.network, options).shared_series();
  account.statistic = calibration_statistic(p);
  account.accountant = account.statistic == accounting::Statistic::mean ? "random-walk-mean-pairwise"
                                                                        : "random-walk-max-pairwise";
  account.at_round = [protocol, options, series, contribution_cap,
                      burn_in](std::size_t rounds) -> std::shared_ptr<const accounting::PairwiseAccount> {
    const double count = contributions(contribution_cap, burn_in, rounds);
    if (count == 0.0) return single_bound_account("random-walk", 0.0);
    accounting::RandomWalkOptions at = options;
    at.contributions = count;
    return accounting::random_walk_account(protocol, {}, at, series);
  };
  account.notes.push_back(
      "random-walk: Cyffers-Bellet-Upadhyay Theorem 3 (Rényi, weak convexity factor 2, sender-known view, "
      "Appendix B.1) with N = min(cap, t - burn_in) contributions per node (a worst case, not the paper's "
      "expectation T/n), converted to (ε, δ) over a grid of orders, capped by local GDP: an upper bound");
  account.notes.push_back("random-walk: the series runs over all T steps at every round t: an upper bound");
  return account;
}

}  // namespace netdp::learn
