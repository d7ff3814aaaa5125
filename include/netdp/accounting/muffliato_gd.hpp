#pragma once
// Muffliato-GD / Muffliato-SGD (Cyffers et al., NeurIPS 2022, Algorithm 3):
// T gradient steps, each followed by K rounds of Muffliato gossip on the
// gradient-updated parameters with noise ν²σ² on a step of sensitivity νΔ_φ.
// Theorem 6 (fixed W) and Theorem 11 (W_t per step):
//
//   S(v, u) = Σ_{t<T} Σ_{k<K} Σ_{w : {v,w} ∈ E_t} (W_t^k)²_{w,u} / N(w, v),
//
// i.e. the sum of T Theorem-1 sums, one per gradient step (each of K rounds on
// the fixed matrix W_t); μ² = (Δ_φ/σ)² S. Each step is post-processing of that
// step's noisy release, so each step's sum is capped at 1 before composing
// (the reported value); the uncapped sum is kept.
//
// Chebyshev acceleration (Algorithm 1 inside Algorithm 3) is accounted as plain
// gossip: its messages P_k(W) y are invertible linear combinations of the plain
// messages W^j y, j <= k, of the same sender (docs/accounting-muffliato.md).

#include <cstddef>
#include <vector>

#include "netdp/accounting/muffliato.hpp"
#include "netdp/gossip/types.hpp"

namespace netdp::accounting {

/// Theorem 6: the same W at every gradient step. options.sensitivity is Δ_φ and
/// options.sigma is σ (the multiplier of ν in Algorithm 3's noise ν²σ²).
/// Throws unless gradient_steps >= 1 and gossip_rounds >= 1.
MuffliatoLosses muffliato_gd_all_pairs(const SparseMatrix& w, std::size_t gradient_steps,
                                       std::size_t gossip_rounds, const MuffliatoOptions& options);

/// Theorem 11: W_t at gradient step t (one matrix per step, K rounds each).
MuffliatoLosses muffliato_gd_all_pairs(const std::vector<SparseMatrix>& per_step, std::size_t gossip_rounds,
                                       const MuffliatoOptions& options);

}  // namespace netdp::accounting
