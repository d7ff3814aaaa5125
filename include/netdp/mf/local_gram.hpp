#pragma once
// The local-correlation Gram of MAFALDA (MF paper, Lemma 10):
//     H = Σ_i A_iᵀ A_i,   A = (I_T ⊗ W) W_T K^{(T,n)}   (initial power 1)
// or A = W_T K^{(T,n)} (initial power 0), where W_T is the block lower-triangular
// matrix with block (t, s) = W^{t−s} for s ≤ t. Entry (s, s') of the T × T matrix H
// is Σ_{t ≥ max(s,s')} ⟨W^{t−s+p}, W^{t−s'+p}⟩_F (p = initial power), computed from
// the structure, never by forming the nT × nT workload.

#include <cstddef>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/types.hpp"

namespace netdp::mf {

/// H (T × T, symmetric positive definite) for W over `rounds` steps. initial_power ∈ {0, 1}.
/// Throws std::invalid_argument on rounds = 0 or another initial power.
DenseMatrix local_gram(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t initial_power = 1);

}  // namespace netdp::mf
