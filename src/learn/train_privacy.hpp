// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the learn module: the accountants attached to the training algorithms (docs/reference/learn.md,
// "Privacy"). Each returns a PrivacyAccount whose at_round(t) is an accounting::PairwiseAccount;
// the simulator reports and calibrates through accounting::epsilon_statistic / calibrate_sigma.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/linear_system/linear_view.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/learn/algorithm.hpp"

namespace netdp::learn {

/// sens²(t): the squared record-level sensitivity, in units of C, of a node's first t noisy
/// releases after de-correlating the noise (μ-GDP of the local view = sqrt(sens²(t)) / σ).
using SquaredSensitivity = std::function<double(std::size_t rounds)>;

/// Independent noise each step (C = I), a record in every step: sens²(t) = t.
SquaredSensitivity identity_correlation_sensitivity();
/// Anti-PGD's noise ξ_t − ξ_{t−1}: de-correlated by prefix sums, sens²(t) = Σ_{k=1}^t k².
SquaredSensitivity prefix_sum_correlation_sensitivity();

/// One bound for every observer: a single-row Gaussian account with unit μ (no row when 0).
std::shared_ptr<const accounting::PairwiseAccount> single_bound_account(const std::string& method,
                                                                        double unit_mu);

/// The linear-view accountants' release options of privacy.release_dimension: the vector value
/// (SDP), or for 1 no sign search (Σ|K|), since the scalar sign maximum is not a bound for a gradient
/// vector.
accounting::AssessOptions training_release(const AlgorithmParams& params);

/// The statistic of privacy.calibrate_on: mean → mean, max and local → max.
accounting::Statistic calibration_statistic(const AlgorithmParams& params);

/// The guard of an expensive pairwise accountant (never a silent fallback to another one): throws
/// std::invalid_argument unless amount <= limit, "privacy.calibrate_on = <c>: <what> is too
/// expensive: <amount> <unit> > <limit_key> = <limit>; use privacy.calibrate_on = local (...) or
/// raise <limit_key>".
void require_within_limit(const AlgorithmParams& params, const std::string& what, double amount,
                          std::string_view unit, double limit, std::string_view limit_key);

/// Throws std::invalid_argument unless the graph has >= 2 nodes (pairwise privacy needs pairs).
void require_pairwise_nodes(const TrainContext& ctx);

/// "local-gdp": everything node v ever sends, as seen by anybody (an upper bound on every
/// pairwise view, which is post-processing of it). μ(σ, t) = sqrt(sens²(t)) / σ.
PrivacyAccount local_gdp_account(const TrainContext& ctx, const SquaredSensitivity& sensitivity);

/// Muffliato-GD/SGD pairwise accountant: the whole view of every observer
/// (muffliato_whole_view_account); with
/// privacy.bound = paper, Cyffers et al. Theorem 6 / 11 as printed (labelled not a bound). Mean or
/// max over all ordered pairs per params().calibrate_on ("local" gives local_gdp_account).
PrivacyAccount muffliato_privacy(const TrainContext& ctx);

/// randomized-gossip's pairwise accountant (Muffliato Algorithm 2 inside each gradient step): the
/// edges are drawn before training (`ticks`: K per step, step-major), so each step is one noisy
/// release followed by K pairwise averagings on known edges: the whole view of every observer over
/// those T·K rounds; with privacy.bound = paper, Theorem 1 per step composed as in Theorem 11
/// (labelled not a bound). Mean or max over ordered pairs per params().calibrate_on ("local":
/// local_gdp_account).
PrivacyAccount randomized_gossip_privacy(const TrainContext& ctx, const std::vector<graph::Edge>& ticks);

/// dp-d-sgd: Koskela–Kulkarni Theorem 10 (linear_system.hpp view `plain`, observer noise removed
/// per Section 3.5) for every ordered pair: what any node sees is post-processing of the target's
/// own messages θ_j − η ĝ_j, so the view of e_j over the rounds (powers from 0) bounds every
/// observer. "local" gives local_gdp_account. Throws when the all-pairs cost exceeds the guard.
PrivacyAccount dp_d_sgd_privacy(const TrainContext& ctx);

/// secure-gossip: per pair the smaller of Koskela–Kulkarni Theorem 9 (view `secure-sum-adaptive`,
/// the secure sums of the target's closed neighbourhood, adaptive) and Theorem 10 (as for
/// dp-d-sgd; valid because every secure sum is a function of the plain messages).
PrivacyAccount secure_gossip_privacy(const TrainContext& ctx);

/// antipgd: the matrix-factorization accountant (mf_accountant.hpp) under PNDP with
/// MfAlgorithm::antipgd, every ordered (attacker, target) pair, capped by the local view.
PrivacyAccount antipgd_privacy(const TrainContext& ctx);

/// Muffliato-GD / SGD(K): the whole view of every observer, T gradient steps of K gossip rounds on
/// the run's schedule, built through the registry (make_account, method muffliato with
/// gradient_steps = T) and checkpointed like the other pairwise accounts. Throws when the work
/// exceeds limits.pairwise_work.
PrivacyAccount muffliato_whole_view_account(const TrainContext& ctx);

/// randomized-gossip on the T·K gossip rounds `rounds` of the run (one drawn edge a round): the
/// whole view of every observer (accounting::muffliato_gd_view_pairs_account; the registry's
/// protocols have one matrix per gradient step, not per tick), checkpointed like the other pairwise
/// accounts. Throws when the work exceeds limits.pairwise_work.
PrivacyAccount tick_schedule_view_account(const TrainContext& ctx, const std::string& name,
                                          const gossip::Schedule& rounds);

/// random-walk-dp-sgd: the random-walk paper's pairwise Rényi bound (accounting::random_walk_account,
/// sender-known view, N_u = min(cap, t − burn_in) contributions: a worst case, not the paper's
/// expectation T/n), converted to (ε, δ) per pair and capped by the local-GDP ε of the same
/// contributions.
PrivacyAccount random_walk_privacy(const TrainContext& ctx, std::size_t contribution_cap,
                                   std::size_t burn_in);

/// The rounds at which the pairwise accountants are computed (T only). ε at round t uses the first
/// checkpoint >= t, capped per pair by the local sens²(t) (the view grows with t: an upper bound).
std::vector<std::size_t> checkpoint_rounds(const AlgorithmParams& params);

}  // namespace netdp::learn
