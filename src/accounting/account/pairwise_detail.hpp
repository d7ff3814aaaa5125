// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the accounting module: what every pairwise account shares — the query checks, the
// (σ, δ) checks, ε of μ-GDP with μ = 0 allowed, and the hand-off of rows in observer blocks.

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/dp/gdp_table.hpp"

namespace netdp::accounting::detail {

/// Throws std::invalid_argument unless the protocol has >= 2 nodes, rounds >= 1, Δ > 0 and the
/// query's nodes are in range, distinct within a set and consistent (observer != target, the
/// target outside the colluders, a group only for `muffliato`).
void validate_query(const Protocol& protocol, const PairQuery& query, Method method);

/// Why `method`, which accounts a fixed W only, does not account this protocol, or nullopt.
std::optional<std::string> fixed_schedule_refusal(const Protocol& protocol, Method method);

/// 0..n-1.
std::vector<graph::NodeId> all_nodes(std::size_t n);

/// Whether the query asks for observer `v`: its `observer`, a member of its share `observers`, or
/// any node when it names neither (a coalition is keyed by its first member elsewhere).
bool asks_observer(const PairQuery& query, graph::NodeId v);
/// The observers the query asks for one at a time, increasing: `observer`, the share, or 0..n-1.
std::vector<graph::NodeId> asked_observers(const PairQuery& query, std::size_t n);

/// Rows are computed in parallel in chunks of whole observer blocks of about this many pairs, so
/// an account streams in memory independent of its number of pairs.
inline constexpr std::size_t kRowChunk = std::size_t{1} << 15;

/// The max, or the (rounded-up) mean, of the ε in `epsilon`; `pair` needs exactly one value.
double statistic_value(const RangeAccumulator& epsilon, Statistic statistic);

/// Throws unless σ is finite and > 0 and δ is in (0, 1).
void require_evaluation(double sigma, double delta);

/// The roots ε(μ_d, δ) of distinct values μ_d given in increasing order (calibration and the
/// conversions of many pairs).
std::vector<double> increasing_roots(std::span<const double> distinct_mus, double delta);

/// ε(δ) of μ-GDP (dp::gdp_epsilon, rounded up); μ = 0 leaks nothing: 0.
double gdp_epsilon_or_zero(double mu, double delta);

/// Whether an account's conversions go through dp::GdpEpsilonTable: a page of the table costs about
/// a thousand roots, a conversion without it about one root a value, so the table pays when the
/// values outnumber the roots of the pages they touch (counted on the unit μ, every page as full).
class TablePages {
 public:
  void add(double unit_mu);
  bool pays(std::size_t values) const;

 private:
  std::vector<std::uint64_t> bits_ = std::vector<std::uint64_t>((dp::GdpEpsilonTable::kPageCount + 63) / 64);
};

/// The process's shared table for δ when `pays`, none otherwise.
std::shared_ptr<const dp::GdpEpsilonTable> conversion_table(bool pays, double delta);

/// out[i] >= gdp_epsilon_or_zero(mus[i], delta) for every i, never below the exact root: each
/// finite μ > 0 is rounded up to 40 significant bits (ε increases with μ, so ε there is an upper
/// bound) and converted by `table` (within its 1e-10 of the root) or, without one, by the
/// root-finder (within ~1e-12). Equal μ give equal ε, whichever chunk of an account they fall in,
/// as long as the account passes the same table (conversion_table) or none to every chunk. When at most
/// 1,024 distinct rounded values occur (a symmetric graph: a hypercube has d + 1 distances) they are
/// found by hashing and converted once each, without the table in increasing order from their
/// neighbours' roots in fixed runs. The result does not depend on the thread count. Non-finite μ
/// are converted directly (an error).
void gdp_epsilons_rounded_up(std::span<const double> mus, double delta, std::span<double> out,
                             const dp::GdpEpsilonTable* table);

}  // namespace netdp::accounting::detail
