// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the graph module: generators check the memory a requested graph takes before they
// build it (util::require_memory, limited by --max-memory), instead of crashing with bad_alloc.

#include <fmt/format.h>

#include "netdp/util/memory.hpp"

namespace netdp::graph::detail {

/// A graph of `nodes` nodes and about `expected_edges` edges holds its edge list while building
/// (8 bytes per edge) and its adjacency (both directions, 8 bytes per edge, and 16 bytes per node).
inline void require_edge_budget(double nodes, double expected_edges, const char* what) {
  util::require_memory(16.0 * expected_edges + 16.0 * nodes, what,
                       fmt::format("{:.3g} nodes and about {:.3g} edges, 16 bytes per edge and per node",
                                   nodes, expected_edges),
                       "ask for a smaller graph");
}

}  // namespace netdp::graph::detail
