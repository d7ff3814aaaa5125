// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Gossip weightings: how a graph becomes a gossip matrix W (see docs/reference/gossip.md).
//
//   hamilton      W_uv = 1 / max(d_u, d_v) on edges   (symmetric; "max-degree"/"Hamilton"
//                                                      weights of the Muffliato/Koskela papers)
//   metropolis    W_uv = 1 / (1 + max(d_u, d_v))      (symmetric; Metropolis-Hastings)
//   closed-row    W = diag(1/|N̄_u|) (A + I)          (row-stochastic, not symmetric;
//                                                      the matrix-factorization paper's code)
//   lazy-uniform  W = ½ I + ½ D⁻¹ A                   (row-stochastic, lazy simple random walk)
//   from-graph    W_uv = a_uv / max(s_u, s_v)          (symmetric; the graph's edge weights a_uv,
//                 s_u = sum_v a_uv; hamilton when every weight is 1)
//
// In every case the diagonal is W_uu = 1 - sum_{v != u} W_uv, and an isolated
// node (degree 0) gets W_uu = 1: it keeps its value.

#include <array>
#include <string>
#include <string_view>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/graph/graph.hpp"

namespace netdp::gossip {

enum class Weighting { hamilton, metropolis, closed_row, lazy_uniform, from_graph };

/// Every weighting, in the order of the enum.
inline constexpr std::array<Weighting, 5> kAllWeightings = {Weighting::hamilton, Weighting::metropolis,
                                                            Weighting::closed_row, Weighting::lazy_uniform,
                                                            Weighting::from_graph};

/// The weightings every graph has: those of the degrees alone (not from-graph, which needs weights).
inline constexpr std::array<Weighting, 4> kDegreeWeightings = {
    Weighting::hamilton, Weighting::metropolis, Weighting::closed_row, Weighting::lazy_uniform};

/// "hamilton", "metropolis", "closed-row", "lazy-uniform".
std::string_view weighting_name(Weighting weighting);

/// Inverse of weighting_name (exact, lower-case). Throws std::invalid_argument
/// naming the input and listing the valid names.
Weighting parse_weighting(std::string_view name);

/// Every weighting with its formula, one per line (`netdp help specs`).
std::string weighting_help();

/// Comma-separated list of the valid names (for help texts and errors).
std::string weighting_names();

/// The gossip matrix of `g` under `weighting`. from-graph throws, naming the rule, on a graph
/// without edge weights.
GossipMatrix make_gossip_matrix(const graph::Graph& g, Weighting weighting);

/// The sparse matrix alone (no validation; used by schedules that build many).
SparseMatrix weight_matrix(const graph::Graph& g, Weighting weighting);

}  // namespace netdp::gossip
