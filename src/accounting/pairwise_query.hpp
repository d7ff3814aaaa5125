#pragma once
// Private to the accounting module: the checks every pairwise factory runs on its query.

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

}  // namespace netdp::accounting::detail
