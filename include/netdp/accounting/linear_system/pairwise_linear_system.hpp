// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Koskela–Kulkarni linear-system pairwise accounts (pairwise.hpp).
// Each factory validates the query against the protocol (nodes in range, combinations the
// accountant supports) and throws std::invalid_argument naming the value and the rule it broke.
// Fields of the accountant's options that the Protocol owns (σ, Δ, rounds, δ) are set from it: the
// account is built at σ = 1.

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/linear_system/linear_system.hpp"
#include "netdp/accounting/linear_system/linear_view.hpp"

namespace netdp::accounting {

/// Koskela–Kulkarni linear-system views (Theorems 8, 9, 10) through the linear-view engine.
/// `release`: the release dimension (default: a vector, the SDP value per pair) and, for scalar
/// releases, the sign search (default none: Σ|K|). `pair_fields`: keep each pair's sensitivity
/// fields for its row (AccountRequest::pair_fields).
std::unique_ptr<GaussianPairwiseAccount> linear_system_account(
    const Protocol& protocol, const PairQuery& query, LinearSystemOptions options,
    AssessOptions release = {SignSearch::none, kAnyReleaseDimension}, const ProgressCallback& progress = {},
    bool pair_fields = true);

}  // namespace netdp::accounting
