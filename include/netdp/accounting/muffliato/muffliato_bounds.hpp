// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Closed-form Muffliato bounds (Cyffers et al., NeurIPS 2022): Corollary 1
// (random-walk form for a fixed symmetric W), Corollary 3 (colluders),
// Theorem 4/9 (private Erdős–Rényi graph), and for colluders eq. (16) (mean over
// targets), Corollary 5 (Erdős–Rényi graph) and Proposition 1 (Erdős–Rényi graph
// resampled at every gradient step of Algorithm 3). They are paper formulas derived
// from Theorem 1: they bound the Theorem-1 sums computed by muffliato.hpp (with
// MessageConvention::paper and ObserverNoise::counted, the setting of their proofs),
// not the exact joint view. See docs/reference/accounting-muffliato.md.

#include <cstddef>
#include <vector>

#include "netdp/gossip/schedule.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// Corollary 1, as a dimensionless sum: ε_{u→v}(α) <= α Δ²/(2σ²) · C(v, u) with
///   C(v, u) = n · max_{w ∼ v} W_{v,w}^{-2} · Σ_{t=1}^{T} (W^t)²_{v,u},
/// for all pairs (row = observer v, column = target u; diagonal 0). W must be
/// symmetric and stochastic with non-negative entries (Definition 1); rounds >= 1.
/// Computed by sparse propagation (O(T · nnz(W) · n)).
DenseMatrix corollary1_sums(const SparseMatrix& w, std::size_t rounds);

/// Corollary 3 (colluders V, u ∉ V), as a dimensionless sum per target u:
///   C(V, u) = n · max_{v ∈ V, w ∉ V, w ∼ v} W_{v,w}^{-2} · Σ_{t=1}^{T} P(X_t ∈ V | X_0 = u)²,
/// entries for u ∈ V are 0. (The printed corollary omits Δ²; multiply by α Δ²/(2σ²).)
Vector corollary3_sums(const SparseMatrix& w, std::size_t rounds,
                       const std::vector<graph::NodeId>& colluders);

/// Theorem 4 (Erdős–Rényi G(n, q)) / Theorem 9 (any random graph whose law is
/// invariant under permutations outside v's closed neighbourhood): the Rényi
/// bound on ε_{u→v}(α) after T rounds of Algorithm 1.
struct RandomGraphBound {
  double neighbour_rdp_epsilon = 0.0;  ///< α Δ² / (2σ²), with probability q ({u,v} is an edge)
  double non_neighbour_rdp_epsilon = 0.0;  ///< min(α Δ² T d_v / (σ² (n − d_v)), α Δ²/(2σ²)), with prob. 1 − q
  double uncapped_non_neighbour_rdp_epsilon = 0.0;  ///< α Δ² T d_v / (σ² (n − d_v))
  double neighbour_probability = 0.0;               ///< q
  bool capped = false;                              ///< the non-neighbour value hit the local-DP value
};

/// Requires n >= 2, 0 <= d_v < n, T >= 1, α > 1, σ, Δ > 0, q in (0, 1] and the
/// theorem's condition σ² >= Δ² α (α − 1) / 2 (weak convexity, Lemma 2); throws
/// std::invalid_argument naming the value otherwise. This is a Rényi bound
/// (no μ-GDP form). Theorem 4 also assumes q = c ln(n)/n with c > 1 (not checked:
/// Theorem 9 does not need it).
RandomGraphBound random_graph_bound(std::size_t num_nodes, std::size_t observer_degree, std::size_t rounds,
                                    double alpha, double sensitivity, double sigma,
                                    double neighbour_probability);

/// N_t(V), the neighbours of the colluders V outside V in the graph E_t of round t (the off-diagonal
/// support of W_t): one sorted list per round t < T. Requires a non-empty V of distinct nodes < n with
/// |V| < n; throws std::invalid_argument naming the node otherwise.
std::vector<std::vector<graph::NodeId>> colluder_neighbourhoods(const gossip::Schedule& schedule,
                                                                const std::vector<graph::NodeId>& colluders);

/// Σ_{t<T} |N_t(V)|: the number of messages the colluders V receive from outside V (a sender heard by
/// several colluders in one round counts once, as in Theorem 12), d_V T for a fixed W.
std::size_t colluder_communications(const gossip::Schedule& schedule,
                                    const std::vector<graph::NodeId>& colluders);

/// eq. (16), the right-hand side: the mean over targets of the colluders' loss,
///   ε_V = (1/n) Σ_{u∉V} ε_{u→V}(α) <= α Δ² / (2 n σ²) · Σ_{t<T} |N_t(V)|,
/// for any schedule (fixed or time-varying). Paper formula; bounds the Theorem-1 sum, not the exact
/// joint view, target by target: it bounds a mean only, never a single target's loss. As a mean it
/// holds for both: the mean of the Theorem-12 sums (muffliato_theorem1_losses, either
/// MessageConvention) is at most this value with ObserverNoise::counted and equal to it with
/// ObserverNoise::known; the mean of the exact joint-view losses (muffliato_joint_view.hpp) is
/// α Δ² rank(A′) / (2 n σ²) <= this value, as the targets' leverages sum to the rank of the
/// colluders' messages A′, at most their number. Requires α > 1, Δ, σ > 0 and a valid colluder set
/// (colluder_neighbourhoods).
double colluder_mean_privacy_loss(const gossip::Schedule& schedule,
                                  const std::vector<graph::NodeId>& colluders, double alpha,
                                  double sensitivity, double sigma);

/// Corollary 5 (Algorithm 1 on an Erdős–Rényi graph G(n, q) with colluders V, u ∉ V): the Rényi
/// bound on ε_{u→V}(α) in its two cases. Paper formula; bounds the Theorem-1 sum, not the exact joint
/// view. The printed corollary omits Δ² in both values (it prints α/(2σ²) and α T d_V / (σ²(n − d_V)),
/// while its condition σ² >= Δ² α (α − 1)/2 and Theorem 4, which it extends, keep Δ²); Δ² is
/// restored here.
struct ColluderRandomGraphBound {
  double adjacent_rdp_epsilon = 0.0;  ///< α Δ²/(2σ²): u is a neighbour of some colluder
  /// min(α Δ² T d_V / (σ² (n − d_V)), α Δ²/(2σ²)): u is a neighbour of no colluder
  double non_adjacent_rdp_epsilon = 0.0;
  double uncapped_non_adjacent_rdp_epsilon = 0.0;  ///< α Δ² T d_V / (σ² (n − d_V)), as printed
  double adjacent_probability = 0.0;               ///< 1 − (1 − q)^{|V|}
  double non_adjacent_probability = 0.0;           ///< (1 − q)^{|V|}
  bool capped = false;  ///< the non-adjacent value hit the local-DP value α Δ²/(2σ²)
};

/// Requires n >= 2, 1 <= |V| < n, d_V < n and d_V <= n − |V| (d_V counts the nodes outside V that
/// are adjacent to V), T >= 1, α > 1, σ, Δ > 0, q in (0, 1] and σ² >= Δ² α (α − 1) / 2 (weak
/// convexity, Lemma 2); throws std::invalid_argument naming the value and the rule otherwise. The
/// corollary also assumes q = c ln(n)/n with c > 1 (not checked).
ColluderRandomGraphBound colluder_random_graph_bound(std::size_t num_nodes, std::size_t num_colluders,
                                                     std::size_t colluder_degree, std::size_t rounds,
                                                     double alpha, double sensitivity, double sigma,
                                                     double edge_probability);

/// One gradient step t of Algorithm 3 as Proposition 1 sees it.
struct Proposition1Step {
  bool adjacent = false;                ///< β_t: u is a neighbour of some colluder in the graph of step t
  std::size_t colluder_neighbours = 0;  ///< |N_t(V)|
};

/// β_t and |N_t(V)| for target u at each gradient step t = 0..T−1 of `steps` (one gossip matrix per
/// gradient step, used for its K communication rounds, as in Theorem 11). Requires a valid colluder
/// set (colluder_neighbourhoods) and u < n, u ∉ V.
std::vector<Proposition1Step> proposition1_steps(const gossip::Schedule& steps,
                                                 const std::vector<graph::NodeId>& colluders,
                                                 graph::NodeId target);

/// Proposition 1 (Algorithm 3, Muffliato-GD/SGD, with an Erdős–Rényi graph drawn afresh at each
/// gradient step), evaluated at the realised β_t and |N_t(V)|:
///   ε_{u→V}(α) <= Δ_φ² α / σ² · Σ_{t=0}^{T_stop} [β_t + (1 − β_t) K |N_t(V)| / (n − |N_t(V)|)],
/// one entry of `steps` per term (T_stop + 1 of them). Δ_φ (`sensitivity`) is the gradient
/// sensitivity of Assumption 2 (φ is the objective, not a separate constant); K the number of
/// communication rounds per gradient step. Paper formula; bounds the Theorem-1 sum, not the exact
/// joint view; the printed adjacent term Δ_φ² α / σ² is twice the local-DP value of one step.
/// Requires n >= 2, K >= 1, at least one step, |N_t(V)| < n, α > 1, Δ_φ, σ > 0 and
/// σ² >= Δ_φ² α (α − 1) / 2; throws std::invalid_argument naming the value otherwise.
double proposition1_bound(const std::vector<Proposition1Step>& steps, std::size_t num_nodes,
                          std::size_t communication_rounds, double alpha, double sensitivity, double sigma);

/// The expectation of the Proposition-1 right-hand side over i.i.d. G(n, q) graphs at each of
/// `num_steps` = T_stop + 1 gradient steps, for |V| colluders and a target u ∉ V:
///   Δ_φ² α / σ² · (T_stop + 1) · [p + K Σ_{k=0}^{n−|V|−1} P(β = 0, |N(V)| = k) k / (n − k)],
/// p = E[β_t] = 1 − (1 − q)^{|V|}, and given β_t = 0 each of the other n − |V| − 1 nodes is adjacent
/// to V independently with probability p, so P(β = 0, |N(V)| = k) = (1 − p) Binomial(k; n − |V| − 1, p).
/// An expectation of a paper formula: not a bound for any realised sequence of graphs. Same
/// requirements as proposition1_bound, plus 1 <= |V| < n and q in (0, 1].
double proposition1_expected_bound(std::size_t num_nodes, std::size_t num_colluders, std::size_t num_steps,
                                   std::size_t communication_rounds, double alpha, double sensitivity,
                                   double sigma, double edge_probability);

}  // namespace netdp::accounting
