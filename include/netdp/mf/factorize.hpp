#pragma once
// Matrix-factorization noise correlation (issue 6): the MF problem
// min_C sens_Π(C)² · ‖L C⁺‖²_F, solved as min tr(H X⁻¹) over X = CᵀC ≻ 0.
// (Contract header: the full API is documented in docs/mf.md.)

#include <cstddef>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/types.hpp"

namespace netdp::mf {

/// MAFALDA's local correlation C_local (T × T, lower triangular) for W over T gradient steps,
/// optimized for (k, b)-cyclic participation (k = 1: single participation; b = 0 means T / k).
/// The noise node v adds at step t is (C_local⁻¹ z_v)_t, i.e. the MF encoder C_local ⊗ I_n.
DenseMatrix mafalda_correlation(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t participations = 1,
                                std::size_t separation = 0);

}  // namespace netdp::mf
