// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The whole view of Muffliato-GD / SGD on any schedule: the valid counterpart of the paper's
// Theorems 6 and 11 (docs/reference/accounting-muffliato.md, "Muffliato-GD / SGD").
//
// Gradient step s = 0..T−1 releases x_s + η_s (fresh noise every step), then gossips for K rounds
// r = sK, …, sK + K − 1 with W_r, and the model carries every release into later steps. At round
// r an observer v receives the state of each neighbour w in round r's graph:
//     Σ_{s: sK <= r} (W_{r−1} ⋯ W_{sK})_w (x_s + η_s)      (the product is I at r = sK),
// and it knows its own inputs and noise (MF paper, Lemma 11). Inputs enter with the noise's
// coefficients, so K_u (T × T) is the block of the projector on the row space of these rows at
// target u's columns (row_space.hpp), and sens² = Σ|K_u| bounds the loss of a gradient change of
// any dimension (MF paper, eq. 8), widened by the subspace margin and capped at T (local DP).
// On a fixed W this is the view of Muffliato-SGD(K) that the MF engine's structured path
// computes (mf_accountant.hpp); this path serves time-varying and randomized schedules.

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "netdp/accounting/linear_system/linear_view.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/graph/graph.hpp"

namespace netdp::accounting {

/// The T·K gossip rounds when gradient step s gossips its K rounds with the one matrix
/// per_step.at(s) (a fixed per_step stays fixed).
gossip::Schedule muffliato_gd_rounds(const gossip::Schedule& per_step, std::size_t gradient_steps,
                                     std::size_t gossip_rounds);

/// Multiply-adds of muffliato_gd_view_pairs for every observer (the m² · nT Gram of each view
/// plus its propagation): what a caller compares with its budget before running it.
double muffliato_gd_view_work(const gossip::Schedule& rounds, std::size_t gradient_steps,
                              std::size_t gossip_rounds);

/// One PairSensitivity per (observer, target ≠ observer), observer-major, targets increasing, for
/// `observers` (empty: every node) against every other node. `rounds` holds the T·K gossip
/// matrices (rounds.rounds() == gradient_steps · gossip_rounds, or a fixed schedule).
/// Sensitivities are for Δ = 1 (scale by Δ²): `sensitivity` = sqrt(certified), μ at σ = 1;
/// certified is the vector worst case (vector_max.hpp) for `release_dimension` (default: any),
/// Σ|K_u| for a scalar release (1), both capped at T.
/// Parallel over observers (OpenMP); results do not depend on the thread count. Throws
/// std::invalid_argument on zero steps, a schedule of the wrong length, a non-finite entry or an
/// observer out of range.
std::vector<PairSensitivity> muffliato_gd_view_pairs(
    const gossip::Schedule& rounds, std::size_t gradient_steps, std::size_t gossip_rounds,
    std::span<const graph::NodeId> observers = {},
    const std::function<void(std::size_t done, std::size_t total)>& progress = {},
    std::size_t release_dimension = kAnyReleaseDimension);

}  // namespace netdp::accounting
