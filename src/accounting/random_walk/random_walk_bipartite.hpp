// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Bipartite fast path of the random-walk series (internal; see random_walk_bipartite.cpp).

#include <cstddef>
#include <optional>
#include <vector>

#include "netdp/accounting/random_walk/random_walk_series.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting::detail {

/// The two colour classes of a bipartite support (equal sizes, as a doubly stochastic W forces).
struct BipartiteSplit {
  std::vector<graph::NodeId> first;
  std::vector<graph::NodeId> second;
};

/// The split when W has a zero diagonal, a bipartite graph and two parts of equal size; else nullopt.
std::optional<BipartiteSplit> bipartite_split(const gossip::GossipMatrix& w);

/// S_T(W) = Σ_{i=1}^{T} W^i / i for symmetric, connected W with the given split.
DenseMatrix bipartite_series(const gossip::GossipMatrix& w, const BipartiteSplit& split, std::size_t steps);

}  // namespace netdp::accounting::detail
