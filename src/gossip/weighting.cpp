// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/weighting.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "netdp/util/check.hpp"
#include "netdp/util/compensated_sum.hpp"
#include "netdp/util/enum_names.hpp"

namespace netdp::gossip {

namespace {

constexpr auto kWeightingNames = std::to_array<util::EnumName<Weighting>>({
    {Weighting::hamilton, "hamilton"},
    {Weighting::metropolis, "metropolis"},
    {Weighting::closed_row, "closed-row"},
    {Weighting::lazy_uniform, "lazy-uniform"},
    {Weighting::from_graph, "from-graph"},
});
static_assert(util::is_valid_enum_table(kWeightingNames));

/// kAllWeightings lists the table's values in the same order.
constexpr bool table_matches_all_weightings() {
  if (kWeightingNames.size() != kAllWeightings.size()) return false;
  for (std::size_t i = 0; i < kAllWeightings.size(); ++i) {
    if (kWeightingNames[i].value != kAllWeightings[i]) return false;
  }
  return true;
}
static_assert(table_matches_all_weightings());

}  // namespace

std::string_view weighting_name(Weighting weighting) { return util::name_of(kWeightingNames, weighting); }

std::string weighting_names() { return util::names_of(kWeightingNames); }

std::string weighting_help() {
  std::string out = "Gossip weightings (--weights NAME), on a graph with degrees d_u:\n";
  for (const Weighting weighting : kAllWeightings) {
    const char* formula = "";
    switch (weighting) {
      case Weighting::hamilton:
        formula = "W_uv = 1 / max(d_u, d_v), symmetric";
        break;
      case Weighting::metropolis:
        formula = "W_uv = 1 / (1 + max(d_u, d_v)), symmetric, positive diagonal";
        break;
      case Weighting::closed_row:
        formula = "W_uv = 1 / (1 + d_u), row-stochastic, not symmetric on irregular graphs";
        break;
      case Weighting::lazy_uniform:
        formula = "W_uv = 1 / (2 d_u), W_uu = 1/2: aperiodic on bipartite graphs";
        break;
      case Weighting::from_graph:
        formula =
            "W_uv = a_uv / max(s_u, s_v) for edge weights a_uv and strengths s_u = sum_v a_uv, symmetric";
        break;
    }
    out += fmt::format("  {:<14}{}\n", weighting_name(weighting), formula);
  }
  return out + "  The diagonal is 1 minus the row's off-diagonal sum.\n";
}

Weighting parse_weighting(std::string_view name) {
  return util::parse_enum(kWeightingNames, name, "gossip weighting");
}

namespace {

/// Off-diagonal weight W_uv (u != v, {u, v} an edge) of each weighting; the diagonal is 1 - row sum.
/// `degree_*` are the strengths s_u = sum_v a_uv and `a` the edge's weight a_uv for from-graph (with
/// unit weights: the degrees and 1, so from-graph is hamilton bit for bit).
double edge_weight(Weighting weighting, double degree_u, double degree_v, double a = 1.0) {
  switch (weighting) {
    case Weighting::hamilton:
      return 1.0 / std::max(degree_u, degree_v);
    case Weighting::from_graph:
      return a / std::max(degree_u, degree_v);
    case Weighting::metropolis:
      return 1.0 / (1.0 + std::max(degree_u, degree_v));
    case Weighting::closed_row:
      return 1.0 / (1.0 + degree_u);
    case Weighting::lazy_uniform:
      return 0.5 / degree_u;
  }
  return 0.0;
}

/// A diagonal 1 - sum that is zero in exact arithmetic (hamilton on a regular graph: d · fl(1/d)) comes
/// out as ±1e-16; the summed weights are each rounded once and summed with compensation, so the error is
/// a few ulps. Snap it to 0 (a negative or tiny positive diagonal would break validation / aperiodicity).
double snap_rounding(double diagonal) {
  constexpr double kRoundingSlack = 16.0 * std::numeric_limits<double>::epsilon();
  return std::abs(diagonal) <= kRoundingSlack ? 0.0 : diagonal;
}

/// What edge_weight reads as the degree of each node: the strengths s_u for from-graph (compensated
/// sums: exact for integer weights), else the degrees.
std::vector<double> degrees_of(const graph::Graph& g, Weighting weighting) {
  std::vector<double> degrees(g.num_nodes());
  for (graph::NodeId u = 0; u < g.num_nodes(); ++u) {
    if (weighting != Weighting::from_graph) {
      degrees[u] = static_cast<double>(g.degree(u));
      continue;
    }
    util::CompensatedSum strength;
    for (const double a : g.neighbor_weights(u)) strength.add(a);
    degrees[u] = strength.value();
  }
  return degrees;
}

}  // namespace

SparseMatrix weight_matrix(const graph::Graph& g, Weighting weighting) {
  require(weighting != Weighting::from_graph || g.weighted() || g.num_edges() == 0,
          "--weights from-graph needs edge weights and the graph has none: give a weighted file (an edge "
          "list's third column, a CSV/TSV weight column, GraphML's weight, a real Matrix Market) or another "
          "--weights ({})",
          weighting_names());
  const std::vector<double> degrees = degrees_of(g, weighting);
  const std::size_t n = g.num_nodes();
  SparseMatrix w(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  std::vector<int> row_sizes(n);
  for (std::size_t u = 0; u < n; ++u)
    row_sizes[u] = static_cast<int>(g.degree(static_cast<graph::NodeId>(u)) + 1);
  w.reserve(row_sizes);
  for (std::size_t u = 0; u < n; ++u) {
    const auto uid = static_cast<graph::NodeId>(u);
    const double degree_u = degrees[u];
    const auto weights = g.neighbor_weights(uid);
    const auto weight_of = [&](std::size_t i, graph::NodeId v) {
      return edge_weight(weighting, degree_u, degrees[v], weights.empty() ? 1.0 : weights[i]);
    };
    util::CompensatedSum off_diagonal;
    // Neighbours are sorted, so inserting the diagonal at its place keeps each row sorted.
    bool diagonal_done = false;
    const auto insert_diagonal = [&] {
      // Closed-row: 1/|N̄_u| exactly (not 1 - d_u/(d_u+1), which may differ by an ulp).
      const double diagonal = weighting == Weighting::closed_row ? 1.0 / (1.0 + degree_u)
                                                                 : snap_rounding(1.0 - off_diagonal.value());
      if (diagonal != 0.0) w.insert(static_cast<Eigen::Index>(u), static_cast<Eigen::Index>(u)) = diagonal;
      diagonal_done = true;
    };
    // The diagonal depends on the whole row: compute the off-diagonal sum first.
    const auto neighbors = g.neighbors(uid);
    for (std::size_t i = 0; i < neighbors.size(); ++i) off_diagonal.add(weight_of(i, neighbors[i]));
    for (std::size_t i = 0; i < neighbors.size(); ++i) {
      if (!diagonal_done && neighbors[i] > uid) insert_diagonal();
      w.insert(static_cast<Eigen::Index>(u), static_cast<Eigen::Index>(neighbors[i])) =
          weight_of(i, neighbors[i]);
    }
    if (!diagonal_done) insert_diagonal();
  }
  w.makeCompressed();
  return w;
}

GossipMatrix make_gossip_matrix(const graph::Graph& g, Weighting weighting) {
  return GossipMatrix(weight_matrix(g, weighting), g);
}

}  // namespace netdp::gossip
