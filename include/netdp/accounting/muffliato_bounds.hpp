#pragma once
// Closed-form Muffliato bounds (Cyffers et al., NeurIPS 2022): Corollary 1
// (random-walk form for a fixed symmetric W), Corollary 3 (colluders),
// Theorem 4/9 (private Erdős–Rényi graph). They are upper bounds on the
// Theorem-1 sums computed by muffliato.hpp (with MessageConvention::paper and
// ObserverNoise::counted, the setting of their proofs). See docs/accounting-muffliato.md.

#include <cstddef>
#include <vector>

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

}  // namespace netdp::accounting
