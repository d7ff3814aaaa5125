#pragma once
// Private to the graph module: generators refuse requests whose (expected)
// edge count would exhaust memory instead of crashing with bad_alloc.

#include "netdp/util/check.hpp"

namespace netdp::graph::detail {

/// Largest (expected) number of edges a generator accepts: 2e8 edges take about
/// 1.6 GB as an edge list plus 1.6 GB as CSR.
inline constexpr double kMaxGeneratedEdges = 2e8;

inline void require_edge_budget(double expected_edges, const char* what) {
  require(expected_edges <= kMaxGeneratedEdges,
          "{}: about {:.3g} edges requested; generators are limited to {:.0e} edges", what, expected_edges,
          kMaxGeneratedEdges);
}

}  // namespace netdp::graph::detail
