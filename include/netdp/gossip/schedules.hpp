// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Time-varying gossip schedules W_0, ..., W_{T-1} (see schedule.hpp). All random
// schedules are seeded and reproducible across platforms: std::mt19937_64 with
// netdp's own uniform sampling (53-bit doubles), never std::uniform_*_distribution.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/graph.hpp"

namespace netdp::gossip {

/// W_t = W for t < rounds.
Schedule fixed_schedule(const GossipMatrix& w, std::size_t rounds);

/// Edge activation probabilities of randomized gossip derived from W (Muffliato
/// Section 3.3, after Boyd et al. 2006): p_{u,v} = (W_uv + W_vu) / n for each edge
/// u < v with positive weight (= 2 W_uv / n for symmetric W). They sum to
/// (n - tr W) / n; the remaining probability tr(W) / n is an idle step (W_t = I).
struct EdgeActivation {
  graph::Edge edge;  ///< u < v
  double probability = 0.0;
};
std::vector<EdgeActivation> activation_probabilities(const GossipMatrix& w);

struct PairwiseOptions {
  /// false (default): idle steps happen with probability tr(W)/n, as in Boyd et al.;
  /// true: probabilities are renormalised to sum to 1 (an edge is activated every step).
  bool always_activate = false;
};

/// The activated edge of each step (nullopt = idle step), sampled i.i.d.
std::vector<std::optional<graph::Edge>> sample_pairwise_activations(const GossipMatrix& w, std::size_t rounds,
                                                                    std::uint64_t seed,
                                                                    PairwiseOptions options = {});

/// W_t = I - (e_v - e_w)(e_v - e_w)ᵀ/2 for the activated edge {v, w} (I if idle).
Schedule pairwise_schedule(std::size_t num_nodes, const std::vector<std::optional<graph::Edge>>& activations);

/// Randomized pairwise gossip (Muffliato Algorithm 2): sample_pairwise_activations + pairwise_schedule.
Schedule randomized_pairwise_schedule(const GossipMatrix& w, std::size_t rounds, std::uint64_t seed,
                                      PairwiseOptions options = {});

/// A fresh Erdős–Rényi G(n, p) graph each round (every pair independently with
/// probability p), weighted by `weighting`; isolated nodes keep their value.
Schedule erdos_renyi_schedule(std::size_t num_nodes, double edge_probability, Weighting weighting,
                              std::size_t rounds, std::uint64_t seed);

/// Node dropout on `g`: each round every node is present independently with
/// probability `presence_probability`; the present nodes gossip with `weighting`
/// on the subgraph they induce (degrees counted in that subgraph); an absent
/// node keeps its value (row e_v) and nobody uses it.
Schedule dropout_schedule(const graph::Graph& g, Weighting weighting, double presence_probability,
                          std::size_t rounds, std::uint64_t seed);

}  // namespace netdp::gossip
