// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "support.hpp"

#include <utility>

namespace netdp::gossip::detail {

namespace {

constexpr std::size_t kUnset = static_cast<std::size_t>(-1);

/// Nodes in increasing DFS finishing time (iterative DFS over the positive entries of `m`).
std::vector<std::size_t> finishing_order(const SparseMatrix& m) {
  const auto n = static_cast<std::size_t>(m.rows());
  std::vector<std::size_t> order;
  order.reserve(n);
  std::vector<bool> seen(n, false);
  std::vector<std::pair<std::size_t, SparseMatrix::InnerIterator>> stack;
  for (std::size_t root = 0; root < n; ++root) {
    if (seen[root]) continue;
    seen[root] = true;
    stack.emplace_back(root, SparseMatrix::InnerIterator(m, static_cast<Eigen::Index>(root)));
    while (!stack.empty()) {
      auto& [u, it] = stack.back();
      bool descended = false;
      for (; it; ++it) {
        const auto v = static_cast<std::size_t>(it.col());
        if (it.value() > 0.0 && !seen[v]) {
          seen[v] = true;
          ++it;
          stack.emplace_back(v, SparseMatrix::InnerIterator(m, static_cast<Eigen::Index>(v)));
          descended = true;
          break;
        }
      }
      if (!descended) {
        order.push_back(stack.back().first);
        stack.pop_back();
      }
    }
  }
  return order;
}

}  // namespace

StronglyConnectedComponents strongly_connected_components(const SparseMatrix& w) {
  const auto n = static_cast<std::size_t>(w.rows());
  const std::vector<std::size_t> order = finishing_order(w);
  const SparseMatrix transposed = w.transpose();
  StronglyConnectedComponents scc;
  scc.component.assign(n, kUnset);
  std::vector<std::size_t> stack;
  // Second pass on Wᵀ in decreasing finishing time: each tree is one component.
  for (auto r = order.rbegin(); r != order.rend(); ++r) {
    if (scc.component[*r] != kUnset) continue;
    scc.component[*r] = scc.count;
    stack.push_back(*r);
    while (!stack.empty()) {
      const std::size_t u = stack.back();
      stack.pop_back();
      for (SparseMatrix::InnerIterator it(transposed, static_cast<Eigen::Index>(u)); it; ++it) {
        const auto v = static_cast<std::size_t>(it.col());
        if (it.value() > 0.0 && scc.component[v] == kUnset) {
          scc.component[v] = scc.count;
          stack.push_back(v);
        }
      }
    }
    ++scc.count;
  }
  std::vector<bool> has_exit(scc.count, false);
  for (Eigen::Index u = 0; u < w.outerSize(); ++u) {
    for (SparseMatrix::InnerIterator it(w, u); it; ++it) {
      const std::size_t cu = scc.component[static_cast<std::size_t>(u)];
      if (it.value() > 0.0 && scc.component[static_cast<std::size_t>(it.col())] != cu) has_exit[cu] = true;
    }
  }
  for (const bool exits : has_exit) scc.closed_count += exits ? 0 : 1;
  return scc;
}

}  // namespace netdp::gossip::detail
