// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Muffliato's pairwise accounts (pairwise.hpp): the exact joint view of gossip averaging, the
// paper's Theorems 1, 6, 11, 12 and 13 by name, and Muffliato-GD's whole view.
// Each factory validates the query against the protocol (nodes in range, combinations the
// accountant supports) and throws std::invalid_argument naming the value and the rule it broke.
// Fields of the accountant's options that the Protocol owns (σ, Δ, rounds, δ) are set from it: the
// account is built at σ = 1.

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/account/progress.hpp"
#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/accounting/worst_case/vector_max.hpp"

namespace netdp::accounting {

/// The μ-GDP account of Muffliato sums already computed (every defined pair selected by the
/// query, observer-major): unit μ = sqrt(capped sum), uncapped sqrt(sum).
std::unique_ptr<GaussianPairwiseAccount> muffliato_losses_account(MuffliatoLosses losses,
                                                                  const PairQuery& query,
                                                                  GaussianPairwiseAccount::Info info);

/// Muffliato (Cyffers et al. 2022). options.bound = exact (default): the exact loss of each
/// observer's (or coalition's) whole view, for single targets and groups; with gradient_steps > 0,
/// the whole view of Muffliato-SGD(K) (muffliato_gd_view_account). options.bound = paper: Theorem 1 for every
/// pair, Theorem 12 for `colluders`, Theorem 13 for `group`, Theorems 6 / 11 with gradient steps, labelled as
/// not a valid bound. With gradient_steps > 0, each step runs protocol.rounds gossip rounds (the fixed W, or
/// one matrix of the schedule per gradient step).
std::unique_ptr<GaussianPairwiseAccount> muffliato_account(const Protocol& protocol, const PairQuery& query,
                                                           MuffliatoOptions options,
                                                           std::size_t gradient_steps = 0);

/// Muffliato-GD's whole view (gradient_steps steps of protocol.rounds gossip rounds each), Σ|K_u|
/// certified: on the fixed W the linear view of Muffliato-SGD(K) through the MF engine; on a
/// time-varying schedule (one matrix per gradient step) muffliato_gd_view_pairs_account.
/// muffliato_account calls it for options.bound = exact with gradient steps.
std::unique_ptr<GaussianPairwiseAccount> muffliato_gd_view_account(const Protocol& protocol,
                                                                   const PairQuery& query,
                                                                   const MuffliatoOptions& options,
                                                                   std::size_t gradient_steps);

/// Muffliato-GD's whole view on any T·K gossip rounds (muffliato_gd_view.hpp): `observers` (empty:
/// all) against every other node, or only `target` when given. Warnings name pairs by the labels
/// of `names` when given, else by index.
std::unique_ptr<GaussianPairwiseAccount> muffliato_gd_view_pairs_account(
    const gossip::Schedule& rounds, std::size_t gradient_steps, std::size_t gossip_rounds,
    std::span<const graph::NodeId> observers = {}, std::optional<graph::NodeId> target = std::nullopt,
    const ProgressCallback& progress = {}, std::size_t release_dimension = kAnyReleaseDimension,
    const graph::Graph* names = nullptr);

}  // namespace netdp::accounting
