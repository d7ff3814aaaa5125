// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exact privacy loss of an observer's whole view of Muffliato gossip (the default Muffliato
// accountant; Theorem 1 stays available as the paper's formula). See
// docs/reference/accounting-muffliato.md, "The exact joint view".
//
// Every node u releases y_u = x_u + η_u, η_u ~ N(0, σ² I), once; the observer set C receives the
// messages (W_{0:t} y)_w of every neighbour w ∉ C of a member of C at the rounds t where they
// share an edge of W_t (one row (W_{0:t})_w of the view matrix A per distinct (t, w)). C knows
// y_c for c ∈ C, so its view is equivalent to A′ y_{−C}, A′ = A without the columns C. A change
// of x_u by d (|d| <= Δ) shifts the mean of that Gaussian view by A′ e_u d, and its covariance is
// σ² A′A′ᵀ, so the view is μ-GDP with exactly
//
//   μ²(u → C) = (Δ/σ)² · ℓ_u,   ℓ_u = e_uᵀ A′ᵀ (A′A′ᵀ)⁺ A′ e_u = ‖Π_row(A′) e_u‖²,
//
// the leverage of u in the row space of C's messages (<= 1: the local-DP cap is built in). For a
// group U of targets each moving by at most Δ, μ² = (Δ/σ)² max_{d ∈ [−1,1]^U} dᵀ P_UU d with
// P = Π_row(A′) (a sign maximum, certified by accounting/sign_max.hpp).
//
// Computation, per observer set: the rows of W_{0:t} at its senders by sparse propagation (of
// e_w by W_tᵀ), the Gram G = A′A′ᵀ (m × m, m the number of messages), G = U Λ Uᵀ, and every
// target's leverage at once from Λ_r^{-1/2} U_rᵀ A′. Eigenvalues at or below the floating-point
// floor E = ε_mach (n + m + 2T + 2) tr(G) are taken as 0 (a rank decision, reported), and every
// leverage gets the margin of the kept subspace's perturbation, s = E / (λ_r − E):
// ℓ_reported = min(1, (sqrt(ℓ) + s)²). When no gap separates the kept eigenvalues from the
// floor, s >= 1 and the pair falls back to the local-DP cap.
//
// Under a fixed symmetric W, a view whose power basis leaves s > 1e-6 is redone in a Chebyshev
// basis of the same Krylov space (T_t(αW + βI) e_w, the spectrum of W certified inside an interval
// mapped onto [−1, 1]): the same rows span, far better conditioned. The recurrence's certified
// forward error E_C is added to the floor E, which bounds how far the computed rows are from exact
// ones (E = ε_mach (n + m + 2) ‖Ĉ‖_F + E_C there). The basis with the smaller s is kept.
//
// Certificates (docs/explanation/certificates.md): every view is also reduced modulo a random prime, which
// gives its exact rank and the targets its row space holds (ℓ = 1). The floating-point leverages
// stand only where their rank is the exact rank; the others are rebuilt fractions or certified Arb
// balls, or the cap as a counted give-up. MuffliatoLosses::certificates() says which, pair by pair.

#include <cstddef>
#include <string>
#include <vector>

#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/gossip/schedule.hpp"

namespace netdp::accounting {

/// What the joint-view accountant decided numerically, for display and for tests.
struct JointViewReport {
  std::size_t observer_sets = 0;
  /// Largest number of distinct messages m received by one observer set.
  std::size_t max_messages = 0;
  /// Observer sets whose message Gram had eigenvalues at or below the floor (taken as 0).
  std::size_t rank_decisions = 0;
  /// Observer sets whose kept subspace is not separated from the floor (their pairs are capped).
  std::size_t no_gap = 0;
  /// Largest perturbation margin s over the observer sets.
  double max_margin = 0.0;
  /// Observer sets whose leverages come from the Chebyshev basis.
  std::size_t chebyshev = 0;
  /// Observer sets with more messages than nodes whose view is too large to keep: every node they
  /// reach is reported at the local-DP cap.
  std::size_t capped_views = 0;
  /// Observer sets given up on a spectrum still dense below the Gram's resolution (an effort limit,
  /// row_space.hpp): counted in no_gap too, their pairs are at the local-DP cap.
  std::size_t dense_spectrum = 0;
  /// Whether views of 256 messages or more try the power basis first. Under a fixed symmetric W it is
  /// false when the power basis failed on the two smallest such views (probes): they then start in
  /// the Chebyshev basis, which spans the same space.
  bool powers_on_large_views = true;
  /// Observer sets whose floating-point rank was below the exact rank (docs/explanation/certificates.md).
  std::size_t float_rank_short = 0;
  /// Observer sets too large for the exact certificate (their reached targets: cap-undetermined).
  std::size_t over_effort = 0;
  /// Pairs whose exact rational value was reconstructed and confirmed by a second prime.
  std::size_t reconstructed = 0;
  /// The chance that a statement made by exact arithmetic modulo the random primes is wrong.
  double failure_probability = 0.0;
};

/// One observer set's exact view: every node's computed leverage ℓ_u (0 for members of the
/// set) and the margin s of its numerical rank decision. Exposed for tests and diagnostics.
struct ObserverLeverage {
  std::size_t messages = 0;     ///< m, distinct (round, sender) messages
  std::size_t rank = 0;         ///< numerical rank r of A′
  bool rank_decided = false;    ///< some eigenvalues of the Gram were taken as 0
  double margin = 0.0;          ///< s = E / (λ_r − E), capped at 1
  bool chebyshev = false;       ///< the rows are the Chebyshev basis of the messages, not their powers
  bool capped = false;          ///< too large to resolve: ℓ_u = 1 for every node the view reaches
  bool dense_spectrum = false;  ///< given up on a dense spectrum (margin 1, the cap), an effort limit
  Vector leverage;              ///< ℓ_u for every node u (before the margin)
};

/// The computed leverages of observer set `observers` (sorted, distinct) under `schedule`.
ObserverLeverage observer_leverage(const gossip::Schedule& schedule,
                                   const std::vector<graph::NodeId>& observers,
                                   MessageConvention messages = MessageConvention::paper);

/// The exact joint-view sums S = ℓ (or the group maximum) with the margin applied, for every
/// (observer set, target set) of `query`, as MuffliatoLosses (μ² = (Δ/σ)² S; the cap is 1 per
/// target, |U| per group). options.observer_noise must be `known` (the observer holds its own
/// release) and options.group_sensitivity `sum_of_absolute` (each member moves by Δ); the other
/// settings belong to Theorem 1. Throws std::invalid_argument as muffliato_losses does.
MuffliatoLosses muffliato_joint_view_losses(const gossip::Schedule& schedule, const MuffliatoQuery& query,
                                            const MuffliatoOptions& options,
                                            JointViewReport* report = nullptr);

/// Warnings for display: the rank decisions and uncapped fallbacks of a report (empty when none).
std::vector<Diagnostic> joint_view_warnings(const JointViewReport& report);

}  // namespace netdp::accounting
