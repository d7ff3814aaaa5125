// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The local-correlation Gram of MAFALDA (MF paper, Lemma 10, eq. 10):
//     H = Σ_i A_iᵀ A_i,   A_i = [(I_T ⊗ W) W_T K^{(T,n)}]_{[:, iT:(i+1)T−1]}   (initial power 1)
// or A = W_T K^{(T,n)} (initial power 0), where W_T is the block lower-triangular
// workload with block (t, s) = W^{t−s} for s ≤ t and K^{(T,n)} the commutation matrix
// (Van Loan 2000) that reorders the columns from time-major (s, i) to node-major (i, s),
// so A_i collects the T columns of node i. Entry (s, s') of the T × T matrix H is
//     H_{s,s'} = Σ_{t ≥ max(s,s')} ⟨W^{t−s+p}, W^{t−s'+p}⟩_F      (p = initial power),
// computed from the Frobenius Gram G(a, b) = ⟨W^a, W^b⟩_F by diagonal cumulative sums,
// never by forming the nT × nT workload. See docs/reference/mf-mafalda.md.

#include <cstddef>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/util/types.hpp"

namespace netdp::mf {

/// How G(a, b) = ⟨W^a, W^b⟩_F is computed.
enum class LocalGramMethod {
  automatic,  ///< spectral for symmetric / reversible W (n ≤ gossip::kDenseEigenLimit), else dense_powers
  spectral,   ///< symmetric: G = Σ_k λ_k^{a+b}; reversible W = Π^{-1/2} S Π^{1/2}: G = Vᵀ M V
  dense_powers,  ///< any W: the T powers W^a as dense n × n matrices, G = XᵀX (8 n² T bytes)
};

/// Largest T accepted (H is a dense T × T matrix: 2 GiB at this size).
inline constexpr std::size_t kLocalGramMaxRounds = 16384;

/// H (T × T, symmetric positive definite) for W over `rounds` steps. initial_power ∈ {0, 1}.
/// Throws std::invalid_argument on rounds = 0, rounds > kLocalGramMaxRounds or another initial power.
DenseMatrix local_gram(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t initial_power = 1);

/// As above with an explicit method. Throws std::invalid_argument when `spectral` is asked for a
/// general (non-reversible) W or n > gossip::kDenseEigenLimit, or when dense_powers would need
/// more than kLocalGramDensePowersLimit doubles.
DenseMatrix local_gram(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t initial_power,
                       LocalGramMethod method);

/// Largest n² T for the dense_powers method (2^27 doubles = 1 GiB).
inline constexpr std::size_t kLocalGramDensePowersLimit = std::size_t{1} << 27;

/// The literal path (benchmark reference): forms the dense nT × nT matrix (I_T ⊗ W)^p W_T,
/// permutes its columns node-major and sums A_iᵀ A_i. 8 (nT)² bytes; throws std::invalid_argument
/// when (nT)² > kLocalGramLiteralLimit.
DenseMatrix local_gram_literal(const gossip::GossipMatrix& w, std::size_t rounds,
                               std::size_t initial_power = 1);

/// Largest (nT)² for local_gram_literal (2^28 doubles = 2 GiB).
inline constexpr std::size_t kLocalGramLiteralLimit = std::size_t{1} << 28;

}  // namespace netdp::mf
