#pragma once
// Private to the accounting module: what every pairwise account shares — the query checks, the
// (σ, δ) checks, ε of μ-GDP with μ = 0 allowed, and the hand-off of rows in observer blocks.

#include <span>
#include <string_view>
#include <vector>

#include "netdp/accounting/pairwise.hpp"

namespace netdp::accounting::detail {

/// Throws std::invalid_argument unless the protocol has >= 2 nodes, rounds >= 1, Δ > 0 and the
/// query's nodes are in range, distinct within a set and consistent (observer != target, the
/// target outside the colluders, a group only for `muffliato`).
void validate_query(const Protocol& protocol, const PairQuery& query, std::string_view method);

/// 0..n-1.
std::vector<graph::NodeId> all_nodes(std::size_t n);

/// Throws unless σ is finite and > 0 and δ is in (0, 1).
void require_evaluation(double sigma, double delta);

/// ε(δ) of μ-GDP (dp::gdp_epsilon, rounded up); μ = 0 leaks nothing: 0.
double gdp_epsilon_or_zero(double mu, double delta);

/// Calls sink once per run of rows with the same observer, in order.
void emit_observer_blocks(std::span<const PairRow> rows, const RowSink& sink);

}  // namespace netdp::accounting::detail
