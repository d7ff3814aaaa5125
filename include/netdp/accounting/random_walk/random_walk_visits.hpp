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
// See docs/accounting-random-walk.md, "How many contributions".

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/graph/graph.hpp"

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

/// The smallest k with P(N_u > k) <= beta, from a tail of visit_tail (beta in (0, 1); at least 1,
/// since the walk started at u visits it at step 0). Throws when the tail stops above beta.
std::size_t visit_bound(const std::vector<double>& tail, double beta);

/// The largest possible N_u over all walks of `steps` steps: steps when W_uu > 0, else ⌈steps/2⌉.
std::size_t max_visits(const gossip::GossipMatrix& w, graph::NodeId u, std::size_t steps);

}  // namespace netdp::accounting
