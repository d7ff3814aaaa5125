// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The random walk's pairwise account (pairwise.hpp).
// Each factory validates the query against the protocol (nodes in range, combinations the
// accountant supports) and throws std::invalid_argument naming the value and the rule it broke.
// Fields of the accountant's options that the Protocol owns (σ, Δ, rounds, δ) are set from it: the
// account is built at σ = 1.

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/random_walk/random_walk.hpp"

namespace netdp::accounting {

/// The random walk (Cyffers, Bellet & Upadhyay 2024, Theorem 3; Appendix D for colluders);
/// per pair ε is the best of the Rényi orders (or at query.alpha), capped by the local GDP of
/// the target's N_u contributions. Needs the fixed schedule. `series` (S_T(W) for
/// protocol.rounds steps) is computed when not given; passing one shares it between accounts that
/// differ only in their contributions N_u.
std::unique_ptr<PairwiseAccount> random_walk_account(
    const Protocol& protocol, const PairQuery& query, RandomWalkOptions options,
    std::shared_ptr<const RandomWalkSeries> series = nullptr);

}  // namespace netdp::accounting
