// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The matrix-factorization pairwise accounts (pairwise.hpp).
// Each factory validates the query against the protocol (nodes in range, combinations the
// accountant supports) and throws std::invalid_argument naming the value and the rule it broke.
// Fields of the accountant's options that the Protocol owns (σ, Δ, rounds, δ) are set from it: the
// account is built at σ = 1.

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/mf/mf_accountant.hpp"

namespace netdp::accounting {

/// Matrix-factorization accounting (MF paper, Theorem 7) of `spec` under `trust`.
std::unique_ptr<GaussianPairwiseAccount> mf_account(const Protocol& protocol, const PairQuery& query,
                                                    const MfAlgorithmSpec& spec, MfTrust trust,
                                                    MfOptions options);

}  // namespace netdp::accounting
