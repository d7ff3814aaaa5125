// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// MAFALDA with one local correlation C_v per node (MF paper, Section 5 and Lemma 10,
// generalized from C = C_local ⊗ I_n to a block-diagonal C with one block per node).
//
// Node v adds the noise C_v⁻¹ z_v over the T steps. With A the (I_T ⊗ W)^p 𝐖_T workload,
// A_v its T columns of node v and H_v = A_vᵀ A_v (so Σ_v H_v = the H of Lemma 10):
//     ‖A C⁻¹‖²_F = Σ_v tr(H_v X_v⁻¹),   X_v = C_vᵀ C_v,
// and under LDP node u's K_u is X_u, so the MF objective is max_v sens_Π(C_v)² · Σ_v tr(H_v X_v⁻¹).
// It separates: each C_v is optimized on H_v alone with unit sensitivity, and the loss is
// Σ_v sens_Π(C_v)² tr(H_v X_v⁻¹). See docs/reference/mf-mafalda.md, "One C per node".

#include <cstddef>
#include <vector>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/mf/factorize.hpp"
#include "netdp/mf/local_gram.hpp"
#include "netdp/mf/mafalda_privacy.hpp"
#include "netdp/util/types.hpp"

namespace netdp::mf {

/// H_v = A_vᵀ A_v (T × T) for every node v (index v), with
///     (H_v)_{s,s'} = Σ_{t ≥ max(s,s')} ⟨W^{t−s+p} e_v, W^{t−s'+p} e_v⟩      (p = initial power),
/// from the structure, never the nT × nT workload. `spectral` (symmetric W = QΛQᵀ: the Hankel
/// sequence Σ_k q_vk² λ_k^m; reversible W: the columns W^a e_v from one eigen-decomposition),
/// `dense_powers` (any W: the columns W^a e_v by sparse products, one node at a time; what
/// `automatic` takes for reversible and general W). OpenMP over nodes; results do not depend on
/// the thread count. Throws std::invalid_argument as local_gram does, and when n T² doubles
/// exceed kLocalGramPerNodeLimit.
std::vector<DenseMatrix> local_gram_per_node(const gossip::GossipMatrix& w, std::size_t rounds,
                                             std::size_t initial_power = 1,
                                             LocalGramMethod method = LocalGramMethod::automatic);

/// Largest n T² (total doubles of the returned matrices) for local_gram_per_node (2^28 = 2 GiB).
inline constexpr std::size_t kLocalGramPerNodeLimit = std::size_t{1} << 28;

/// One C_v per node, evaluated.
struct PerNodeFactorization {
  /// nodes[v]: node v's T × T lower-triangular C_v scaled to sens_Π(C_v) = 1, with its own
  /// loss sens_Π(C_v)² tr(H_v X_v⁻¹), certificate, lower bound and convergence flag.
  std::vector<Factorization> nodes;
  /// The MF objective: max_v sens_Π(C_v)² · Σ_v tr(H_v X_v⁻¹) (= Σ_v nodes[v].loss when every
  /// sensitivity is 1).
  double loss = 0.0;
  double sensitivity = 0.0;       ///< max_v sens_Π(C_v) (an upper bound when !sensitivity_exact)
  bool sensitivity_exact = true;  ///< every node's sensitivity is exact
  double lower_bound = 0.0;       ///< Σ_v nodes[v].lower_bound (0 unless every node has a dual bound)
  /// Σ_v nodes[v].global_lower_bound: a lower bound on the loss of EVERY family (C_1, …, C_n) (0 unless
  /// every node has one: single participation, class_trace).
  double global_lower_bound = 0.0;
  bool converged = true;  ///< every node's optimizer converged
};

/// Evaluates given per-node encoders (cs[v]: T × T lower triangular) on the per-node Grams.
/// Throws std::invalid_argument when the counts or sizes disagree or an X_v is singular.
PerNodeFactorization evaluate_per_node(const std::vector<DenseMatrix>& h_per_node,
                                       const std::vector<DenseMatrix>& cs, const Participation& p);

/// The separated optimum: optimal_factorization on each H_v (OpenMP over nodes), each C_v
/// rescaled to unit sensitivity. Throws std::invalid_argument on an empty list or a wrong size.
PerNodeFactorization per_node_factorization(const std::vector<DenseMatrix>& h_per_node,
                                            const Participation& p, const OptimizeOptions& options = {});

/// MAFALDA with one C per node for W over T gradient steps and (k, b)-cyclic participation
/// (k = 1: single participation; b = 0 means ⌈T / k⌉): per_node_factorization on
/// local_gram_per_node(w, rounds, 1). The noise node v adds at step t is (C_v⁻¹ z_v)_t.
PerNodeFactorization mafalda_per_node_correlation(const gossip::GossipMatrix& w, std::size_t rounds,
                                                  std::size_t participations = 1, std::size_t separation = 0,
                                                  const OptimizeOptions& options = {});

/// Privacy of MF-D-SGD with one encoder per node (c_per_node[v]: m × T, m ≥ T) through the MF
/// accountant (global encoder C with C[s·n + v, t·n + v] = C_v[s, t]). LDP closed form: node u's
/// K_u = C_uᵀ C_u, so the LDP guarantee is the worst node's sens_Π(C_u). Same options, paths and
/// errors as mafalda_privacy with one C_local; also throws when the count is not n.
MafaldaPrivacy mafalda_privacy(const gossip::GossipMatrix& w, std::size_t rounds,
                               const std::vector<DenseMatrix>& c_per_node,
                               const MafaldaPrivacyOptions& options = {});

}  // namespace netdp::mf
