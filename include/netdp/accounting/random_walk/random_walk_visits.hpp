// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// How many times a random walk visits a node: the number N_u of contributions of target u to the
// random-walk protocol (Cyffers, Bellet & Upadhyay 2024: the token holder at each of the T steps
// X_0..X_{T-1} takes one gradient step). The paper composes over N_u = T/n, the expectation under
// the uniform stationary law (eq. 16): not a bound. This unit gives valid counts:
//
//   the tail   P(N_u >= k) for a walk started at u, by dynamic programming over (node, visits so far).
//              Starting at u is the worst start: from any x the walk first reaches u at some time
//              τ >= 0 and then makes at most the visits of a walk of T − τ <= T steps from u.
//              So k_u(β) = min{k : P(N_u > k) <= β} bounds N_u for every start except with
//              probability β, which the accountant adds to δ;
//   the worst  case: T visits when W_uu > 0, else ⌈T/2⌉ (the walk must leave u and come back).
// See docs/reference/accounting-random-walk.md, "How many contributions".

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// The default floor of the visit-count tails: probabilities below it are not tracked.
inline constexpr double kVisitTailFloor = 1e-30;

/// tail[k] = P(N_u >= k) for a walk of `steps` steps on W (validated row-stochastic) started at u, for
/// k = 0..K where K is the first count with P(N_u >= K) <= floor (or K = steps + 1, where it is 0).
/// tail[0] = tail[1] = 1. Cost O(steps · nnz(W) · K). Throws unless u < n and steps >= 1.
std::vector<double> visit_tail(const gossip::GossipMatrix& w, graph::NodeId u, std::size_t steps,
                               double floor = kVisitTailFloor);

/// Upper bounds on the same tail from the return times, cheap enough for every target of a large
/// graph: N_u >= k + 1 iff the first k return times R_1..R_k (i.i.d., from u) sum to at most T − 1,
/// so by Chernoff, for every θ >= 0, P(N_u >= k + 1) <= e^{θ(T−1)} E[e^{−θ R}]^k; the return-time
/// law (capped at T) comes from one taboo propagation, O(T · nnz(W)), and the bound is minimised
/// over a grid of θ. bound[k] >= visit_tail(...)[k] for every k (tested), same layout and floor.
std::vector<double> visit_tail_bound(const gossip::GossipMatrix& w, graph::NodeId u, std::size_t steps,
                                     double floor = kVisitTailFloor);

/// visit_tail_bound for several targets at once: the return-time propagations of 32 targets share
/// each pass over W (one lane per target), batches run in parallel (OpenMP). Targets in one orbit of
/// W's checked symmetries (gossip::symmetry_orbits) share the law of the orbit's smallest node,
/// computed once: on a hypercube, ring or torus from the built-in generators, one law serves every
/// target. result[i] equals visit_tail_bound(w, targets[i], steps, floor) for any thread count.
/// `progress(done, total)` is called after each batch of targets, from one thread at a time.
std::vector<std::vector<double>> visit_tail_bounds(
    const gossip::GossipMatrix& w, std::span<const graph::NodeId> targets, std::size_t steps,
    double floor = kVisitTailFloor,
    const std::function<void(std::size_t done, std::size_t total)>& progress = {});

/// What the Chernoff bound of visit_tail_bound needs of every node's return time R, from the
/// eigendecomposition of an exactly symmetric W = Φ Λ Φᵀ. The renewal identity gives the generating
/// function of R from the diagonal of the resolvent:
///   E[z^R] = 1 − 1/G_uu(z),   G_uu(z) = Σ_{t>=0} z^t (W^t)_uu = Σ_k φ_k(u)² / (1 − z λ_k),   0 < z < 1,
/// the law of R uncapped (so no looser than the law capped at T). The computed Φ̃, Λ̃ are not exact:
/// `residual` and `orthogonality` bound how far they are, and spectral_visit_tail_bounds widens
/// G_uu by them (G_uu = e_uᵀ(I − zW)⁻¹e_u, and ‖(I − zW)⁻¹‖₂ <= 1/(1 − z‖W‖₂)).
struct ReturnSpectrum {
  Vector values;        ///< λ̂_k: the computed eigenvalues clamped to [−1, 1]
  DenseMatrix weights;  ///< weights(k, u) = φ̃_k(u)²: column u holds node u's
  double norm = 1.0;    ///< >= ‖W‖₂: the largest row sum of |W|, rounded up
  /// >= ‖W Φ̃ − Φ̃ Λ̂‖₂, the rounding of its computation included.
  double residual = 0.0;
  /// >= ‖I − Φ̃ Φ̃ᵀ‖₂, the rounding of its computation included.
  double orthogonality = 0.0;
};

/// Whether the spectral route applies: W equals its transpose exactly.
bool has_return_spectrum(const gossip::GossipMatrix& w);

/// The return spectrum of W (has_return_spectrum) from its eigendecomposition `eigen` (values and
/// vectors, as linalg::symmetric_eigen returns them): two passes over Φ̃, one sparse product W Φ̃
/// and one symmetric rank-n update Φ̃ Φ̃ᵀ (n³/3 multiply-adds).
ReturnSpectrum return_spectrum(const gossip::GossipMatrix& w, const linalg::SymmetricEigen& eigen);

/// visit_tail_bounds from the return spectrum: the same Chernoff bound, P(N_u >= k + 1) <=
/// e^{θ(T−1)} E[e^{−θR}]^k on the same grid of θ, with E[e^{−θR}] <= 1 − 1/Ḡ_uu(e^{−θ}) where Ḡ_uu is
/// the spectral sum plus the error bounds of `spectrum` and its own rounding. O(n) per target and θ
/// instead of a taboo propagation of O(T · nnz(W)). result[i] >= visit_tail(w, targets[i], steps)
/// entry by entry (tested), same layout and floor; independent of the thread count.
std::vector<std::vector<double>> spectral_visit_tail_bounds(
    const gossip::GossipMatrix& w, const ReturnSpectrum& spectrum, std::span<const graph::NodeId> targets,
    std::size_t steps, double floor = kVisitTailFloor,
    const std::function<void(std::size_t done, std::size_t total)>& progress = {});

/// The smallest k with P(N_u > k) <= beta, from a tail of visit_tail (beta in (0, 1); at least 1,
/// since the walk started at u visits it at step 0). Throws when the tail stops above beta.
std::size_t visit_bound(const std::vector<double>& tail, double beta);

/// The largest possible N_u over all walks of `steps` steps: steps when W_uu > 0, else ⌈steps/2⌉.
std::size_t max_visits(const gossip::GossipMatrix& w, graph::NodeId u, std::size_t steps);

}  // namespace netdp::accounting
