#pragma once
// Private to the accounting module: what every pairwise account shares — the query checks, the
// (σ, δ) checks, ε of μ-GDP with μ = 0 allowed, and the hand-off of rows in observer blocks.

#include <cstddef>
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

/// Rows are computed in parallel in chunks of whole observer blocks of about this many pairs, so
/// an account streams in memory independent of its number of pairs.
inline constexpr std::size_t kRowChunk = std::size_t{1} << 15;

/// The max, or the (rounded-up) mean, of the ε in `epsilon`; `pair` needs exactly one value.
double statistic_value(const RangeAccumulator& epsilon, Statistic statistic);

/// Throws unless σ is finite and > 0 and δ is in (0, 1).
void require_evaluation(double sigma, double delta);

/// ε(δ) of μ-GDP (dp::gdp_epsilon, rounded up); μ = 0 leaks nothing: 0.
double gdp_epsilon_or_zero(double mu, double delta);

/// out[i] >= gdp_epsilon_or_zero(mus[i], delta) for every i: each finite μ > 0 is rounded up to
/// 40 significant bits (relative 2⁻⁴⁰ ≈ 9.1e-13; ε increases with μ, so ε at the rounded value is
/// an upper bound, above the exact root by ε'(μ)·μ·2⁻⁴⁰ at most) and the root is solved once per
/// distinct rounded value, in parallel. Symmetric graphs (a hypercube has d + 1 distances) then
/// convert a handful of values instead of every pair. The distinct values are solved in increasing
/// order, each root starting from its neighbours' (dp::gdp_epsilon with a guess), in fixed runs:
/// the result does not depend on the thread count. Non-finite μ are converted directly.
void gdp_epsilons_rounded_up(std::span<const double> mus, double delta, std::span<double> out);

}  // namespace netdp::accounting::detail
