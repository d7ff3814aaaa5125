// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/schedules.hpp"

#include <algorithm>
#include <cmath>

#include "netdp/graph/generators.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::gossip {

namespace {

void require_rounds(std::size_t rounds) { require(rounds >= 1, "a schedule needs at least 1 round, got 0"); }

void require_probability(double p, const char* name) {
  require(std::isfinite(p) && p >= 0.0 && p <= 1.0, "{} must be in [0, 1], got {}", name, p);
}

SparseMatrix identity(std::size_t n) {
  SparseMatrix eye(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  eye.setIdentity();
  return eye;
}

/// I - (e_v - e_w)(e_v - e_w)ᵀ / 2: v and w replace their values by their average.
SparseMatrix pairwise_average(std::size_t n, graph::Edge edge) {
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(n + 2);
  for (std::size_t u = 0; u < n; ++u) {
    if (u != edge.u && u != edge.v) entries.emplace_back(u, u, 1.0);
  }
  for (const graph::NodeId a : {edge.u, edge.v}) {
    for (const graph::NodeId b : {edge.u, edge.v}) entries.emplace_back(a, b, 0.5);
  }
  SparseMatrix w(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  w.setFromTriplets(entries.begin(), entries.end());
  return w;
}

}  // namespace

Schedule fixed_schedule(const GossipMatrix& w, std::size_t rounds) {
  return Schedule::fixed(w.matrix(), rounds);
}

std::vector<EdgeActivation> activation_probabilities(const GossipMatrix& w) {
  const SparseMatrix& m = w.matrix();
  const SparseMatrix transposed = m.transpose();
  const double n = static_cast<double>(w.num_nodes());
  std::vector<EdgeActivation> out;
  for (const graph::Edge& e : w.graph().edges()) {
    const double weight = m.coeff(e.u, e.v) + transposed.coeff(e.u, e.v);  // W_uv + W_vu
    if (weight > 0.0) out.push_back({e, weight / n});
  }
  return out;
}

std::vector<std::optional<graph::Edge>> sample_pairwise_activations(const GossipMatrix& w, std::size_t rounds,
                                                                    std::uint64_t seed,
                                                                    PairwiseOptions options) {
  require_rounds(rounds);
  const std::vector<EdgeActivation> activations = activation_probabilities(w);
  // Cumulative probabilities; a draw beyond the last one is an idle step.
  std::vector<double> cumulative(activations.size());
  double total = 0.0;
  for (std::size_t k = 0; k < activations.size(); ++k) cumulative[k] = total += activations[k].probability;
  require(!options.always_activate || total > 0.0,
          "always_activate needs at least one edge with positive weight, but W has none");
  const double scale = options.always_activate ? total : 1.0;
  util::Rng rng(seed);
  std::vector<std::optional<graph::Edge>> out(rounds);
  for (auto& step : out) {
    const double r = rng.uniform01() * scale;
    const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), r);
    if (it != cumulative.end()) step = activations[static_cast<std::size_t>(it - cumulative.begin())].edge;
  }
  return out;
}

Schedule pairwise_schedule(std::size_t num_nodes,
                           const std::vector<std::optional<graph::Edge>>& activations) {
  require(num_nodes >= 2, "pairwise gossip needs at least 2 nodes, got {}", num_nodes);
  require_rounds(activations.size());
  std::vector<SparseMatrix> matrices;
  matrices.reserve(activations.size());
  for (std::size_t t = 0; t < activations.size(); ++t) {
    const auto& edge = activations[t];
    if (!edge) {
      matrices.push_back(identity(num_nodes));
      continue;
    }
    require(edge->u < num_nodes && edge->v < num_nodes && edge->u != edge->v,
            "activation {} is ({}, {}): endpoints must be distinct nodes below {}", t, edge->u, edge->v,
            num_nodes);
    matrices.push_back(pairwise_average(num_nodes, *edge));
  }
  return Schedule::sequence(std::move(matrices));
}

Schedule randomized_pairwise_schedule(const GossipMatrix& w, std::size_t rounds, std::uint64_t seed,
                                      PairwiseOptions options) {
  return pairwise_schedule(w.num_nodes(), sample_pairwise_activations(w, rounds, seed, options));
}

Schedule erdos_renyi_schedule(std::size_t num_nodes, double edge_probability, Weighting weighting,
                              std::size_t rounds, std::uint64_t seed) {
  require(num_nodes >= 1, "an Erdős–Rényi schedule needs at least 1 node, got 0");
  require_probability(edge_probability, "edge probability p");
  require_rounds(rounds);
  // One master stream; round t draws its graph from the seed given by the t-th master output.
  util::Rng master(seed);
  std::vector<SparseMatrix> matrices;
  matrices.reserve(rounds);
  for (std::size_t t = 0; t < rounds; ++t) {
    const graph::Graph g = graph::erdos_renyi(num_nodes, edge_probability, master.next());
    matrices.push_back(weight_matrix(g, weighting));
  }
  return Schedule::sequence(std::move(matrices));
}

Schedule dropout_schedule(const graph::Graph& g, Weighting weighting, double presence_probability,
                          std::size_t rounds, std::uint64_t seed) {
  require(g.num_nodes() >= 1, "a dropout schedule needs a graph with at least 1 node, got 0");
  require_probability(presence_probability, "presence probability p");
  require_rounds(rounds);
  util::Rng rng(seed);
  std::vector<bool> present(g.num_nodes());
  std::vector<graph::Edge> kept;
  std::vector<double> kept_weights;
  std::vector<SparseMatrix> matrices;
  matrices.reserve(rounds);
  for (std::size_t t = 0; t < rounds; ++t) {
    for (std::size_t v = 0; v < present.size(); ++v) present[v] = rng.bernoulli(presence_probability);
    kept.clear();
    kept_weights.clear();
    for (graph::NodeId u = 0; u < g.num_nodes(); ++u) {
      const auto neighbors = g.neighbors(u);
      for (std::size_t i = 0; i < neighbors.size(); ++i) {
        if (u >= neighbors[i] || !present[u] || !present[neighbors[i]]) continue;
        kept.push_back({u, neighbors[i]});
        if (g.weighted()) kept_weights.push_back(g.neighbor_weights(u)[i]);
      }
    }
    // Absent nodes are isolated in this round's graph, so every weighting gives them the row e_v, and
    // present nodes see their degree (or strength) in the induced subgraph.
    matrices.push_back(weight_matrix(graph::Graph::from_edges(g.num_nodes(), kept, kept_weights), weighting));
  }
  return Schedule::sequence(std::move(matrices));
}

}  // namespace netdp::gossip
