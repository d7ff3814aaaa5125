// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The matrix series of the random-walk accountant (Cyffers, Bellet & Upadhyay,
// "Differentially Private Decentralized Learning with Random Walks", ICML 2024):
//
//   S_T(W) = Σ_{i=1}^{T} W^i / i                       (Lemma 2, eq. 13, without constants)
//
// its eigen-form for symmetric (or reversible) W (Appendix B, eq. 14-15),
//
//   S_T(W) = Σ_k s_T(λ_k) φ_k φ_kᵀ,   s_T(λ) = Σ_{i=1}^{T} λ^i / i,
//
// with the λ = 1 mode handled exactly (s_T(1) = H_T, φ_1 φ_1ᵀ = 11ᵀ/n), and the
// T → ∞ closed form of Theorem 3 / eq. 16 for the other modes,
//
//   S_∞'(W) = H_T 11ᵀ/n − log(I − W + 11ᵀ/n).
//
// See docs/reference/accounting-random-walk.md.

#include <cstddef>
#include <memory>

#include "netdp/accounting/random_walk/random_walk_visits.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// How S_T(W) is computed.
enum class RandomWalkSeriesMethod {
  /// spectral_bipartite when it applies, else spectral when W is symmetric or reversible, else propagation.
  automatic,
  /// Dense symmetric eigendecomposition W = U Λ Uᵀ, then U s_T(Λ) Uᵀ (one GEMM).
  /// O(n³) time, 3 n² doubles. Symmetric W (Assumption 2), or reversible W (π_u W_uv = π_v W_vu,
  /// e.g. closed-row) through the similar symmetric matrix Π^{1/2} W Π^{-1/2}.
  spectral,
  /// Symmetric W with zero diagonal on a bipartite graph with equal parts (e.g. Hamilton
  /// weights on a hypercube): W = [[0, B], [Bᵀ, 0]], powers split by parity, one
  /// eigendecomposition of B Bᵀ (size n/2, 8× fewer flops) and three n/2 products.
  spectral_bipartite,
  /// Rows of W^i by sparse products (x ← x W), T steps: O(T · nnz(W)) per target
  /// row, O(T · nnz(W) · n) for all pairs. Any row-stochastic W.
  propagation,
};

/// s_T(λ) = Σ_{i=1}^{T} λ^i / i for λ in [-1, 1], T >= 1, evaluated stably:
/// compensated direct summation stopped once the remaining tail is below
/// 1e-17 of the sum, and for long sums close to ±1 the exact identity
/// s_T(λ) = −log(1−λ) − Σ_{i>T} λ^i/i with the tail by Euler–Maclaurin
/// (λ > 0) or s_T(−r) = s_{⌊T/2⌋}(r²) − s_T(r) (λ < 0). s_T(1) = H_T.
/// Throws std::invalid_argument unless |λ| <= 1 (+1e-12 slack, clamped) and T >= 1.
double partial_log_series(double lambda, std::size_t steps);

/// H_T = Σ_{i=1}^{T} 1/i (exact sum for T <= 1e6, asymptotic expansion beyond; error < 1e-15 relative).
double harmonic_number(std::size_t steps);

/// The series matrix and how it was obtained.
struct RandomWalkSeries {
  /// matrix(u, v) = Σ_{i=1}^{T} (W^i)_{uv} / i: row = the node that contributed
  /// (target u), column = the node that later holds the token (observer v).
  DenseMatrix matrix;
  std::size_t steps = 0;
  RandomWalkSeriesMethod method = RandomWalkSeriesMethod::spectral;  ///< the method actually used
  /// The return spectrum of W from the same eigendecomposition (random_walk_visits.hpp), when it was
  /// asked for and applies: the spectral method on an exactly symmetric W.
  std::shared_ptr<const ReturnSpectrum> returns;
};

/// S_T(W) for all pairs. Throws std::invalid_argument if steps == 0, the support
/// graph of W is disconnected, method == spectral and W is neither symmetric nor reversible, or
/// method == spectral_bipartite and W is not symmetric bipartite with zero diagonal and equal parts.
/// `with_returns`: also keep the return spectrum where it applies (RandomWalkSeries::returns).
RandomWalkSeries random_walk_series(const gossip::GossipMatrix& w, std::size_t steps,
                                    RandomWalkSeriesMethod method = RandomWalkSeriesMethod::automatic,
                                    bool with_returns = false);

/// One row of S_T(W) (target u against every observer) by sparse propagation,
/// O(T · nnz(W)). Same checks as random_walk_series, plus target < n.
Vector random_walk_series_row(const gossip::GossipMatrix& w, graph::NodeId target, std::size_t steps);

/// Theorem 3 / eq. 16 (bracketed part, without α N_u / σ²): H_T 11ᵀ/n − log(I − W + 11ᵀ/n),
/// for symmetric doubly stochastic W (Assumption 2), computed exactly through the
/// eigendecomposition (log(1 − λ_k) for k >= 2, no truncated series).
struct RandomWalkTheorem3 {
  DenseMatrix matrix;
  /// Bound on |S_T(W)_{uv} − matrix(u, v)| for every pair: the dropped tails
  /// Σ_{i>T} λ_k^i / i of the modes k >= 2 are each <= |λ_k|^{T+1} / ((T+1)(1−λ_k)) for
  /// λ_k > 0 and <= |λ_k|^{T+1} / (T+1) for λ_k <= 0 (alternating), and Σ_k |φ_k(u) φ_k(v)| <= 1
  /// (Cauchy–Schwarz), so the largest of these bounds every entry. Finite for λ = −1 (bipartite W).
  double truncation_bound = 0.0;
  /// ρ = max_{k >= 2} |λ_k| (second eigenvalue modulus).
  double second_eigenvalue_modulus = 0.0;
};

/// Throws std::invalid_argument if steps == 0, W is not symmetric, or its support is disconnected.
RandomWalkTheorem3 random_walk_theorem3(const gossip::GossipMatrix& w, std::size_t steps);

}  // namespace netdp::accounting
