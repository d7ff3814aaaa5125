// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the gossip module: the directed support of W (arc u -> v when
// W_uv > 0, self-loops included) and its strongly connected components.

#include <cstddef>
#include <optional>
#include <vector>

#include "netdp/util/types.hpp"

namespace netdp::gossip::detail {

struct StronglyConnectedComponents {
  std::vector<std::size_t> component;  ///< component id of each node
  std::size_t count = 0;
  std::size_t closed_count = 0;  ///< components with no arc leaving them (closed classes of the chain)
};

/// Kosaraju's algorithm (iterative) on the support of w.
StronglyConnectedComponents strongly_connected_components(const SparseMatrix& w);

/// Relative tolerance of the detailed-balance check: π is propagated along BFS
/// trees, so rounding grows with the tree depth (~depth · 1e-16).
inline constexpr double kDetailedBalanceTolerance = 1e-10;

/// Positive weights π (sum 1) with π_u W_uv = π_v W_vu for all u, v (within
/// kDetailedBalanceTolerance, relative), if W is reversible; nullopt otherwise.
/// π is built along a BFS tree of each connected component of the support
/// (root weight 1, then π_v = π_u W_uv / W_vu) and every entry is checked
/// (Kolmogorov's criterion). `components` receives the number of components.
std::optional<Vector> detailed_balance_weights(const SparseMatrix& w, std::size_t* components = nullptr);

}  // namespace netdp::gossip::detail
