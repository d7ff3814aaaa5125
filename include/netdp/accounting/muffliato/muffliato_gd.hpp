// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
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
// These are the paper's formulas (options.bound is not read): NOT upper bounds on the joint view.
// Each step's gossip also carries the earlier steps' noisy values forward (the parameters mix
// them), which the per-step sums ignore; with K = 1 non-neighbours get 0. The valid account of
// Muffliato-GD is the linear view of Muffliato-SGD(K) (MF paper, A.4), which
// accounting::muffliato_account uses by default.
//
// Chebyshev acceleration (Algorithm 1 inside Algorithm 3) is accounted as plain
// gossip: its messages P_k(W) y are invertible linear combinations of the plain
// messages W^j y, j <= k, of the same sender (docs/reference/accounting-muffliato.md).

#include <cstddef>
#include <functional>
#include <vector>

#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// Theorem 6: the same W at every gradient step. options.sensitivity is Δ_φ and
/// options.sigma is σ (the multiplier of ν in Algorithm 3's noise ν²σ²).
/// Throws unless gradient_steps >= 1 and gossip_rounds >= 1.
MuffliatoLosses muffliato_gd_all_pairs(const SparseMatrix& w, std::size_t gradient_steps,
                                       std::size_t gossip_rounds, const MuffliatoOptions& options);

/// Theorem 11: W_t at gradient step t (one matrix per step, K rounds each).
MuffliatoLosses muffliato_gd_all_pairs(const std::vector<SparseMatrix>& per_step, std::size_t gossip_rounds,
                                       const MuffliatoOptions& options);

/// Theorem 6 from one step's losses: `steps` identical steps, S = steps · S_step and capped
/// steps · min(S_step, 1). `one_step` must hold single observers (every node, or a share of them)
/// against every node as a target, as muffliato_all_pairs or muffliato_losses for a share.
MuffliatoLosses muffliato_gd_repeat(const MuffliatoLosses& one_step, std::size_t steps);

/// Theorem 11 composition, the one implementation: gradient step t gossips along
/// step_schedule(t) (Theorem 1 on that schedule; each step capped at the local value 1 of its
/// release), and the per-step sums add up. Returns the cumulative all-pairs losses after each
/// step count in `checkpoints` (strictly increasing, each in 1..steps). options.require_connected
/// is not applied per step (a step's graph may be disconnected).
std::vector<MuffliatoLosses> muffliato_composed_checkpoints(
    std::size_t steps, const std::function<gossip::Schedule(std::size_t step)>& step_schedule,
    const std::vector<std::size_t>& checkpoints, const MuffliatoOptions& options);

}  // namespace netdp::accounting
