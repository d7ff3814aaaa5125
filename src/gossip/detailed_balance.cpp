// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <vector>

#include "support.hpp"

namespace netdp::gossip::detail {

std::optional<Vector> detailed_balance_weights(const SparseMatrix& w, std::size_t* components) {
  const auto n = static_cast<std::size_t>(w.rows());
  const SparseMatrix transposed = w.transpose();  // row u of Wᵀ holds W_vu
  Vector pi = Vector::Zero(static_cast<Eigen::Index>(n));
  std::vector<std::size_t> queue;
  queue.reserve(n);
  std::size_t count = 0;
  for (std::size_t root = 0; root < n; ++root) {
    if (pi[static_cast<Eigen::Index>(root)] > 0.0) continue;
    ++count;
    pi[static_cast<Eigen::Index>(root)] = 1.0;
    queue.assign(1, root);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const auto u = static_cast<Eigen::Index>(queue[head]);
      for (SparseMatrix::InnerIterator it(w, u); it; ++it) {
        const Eigen::Index v = it.col();
        if (v == u || it.value() <= 0.0 || pi[v] > 0.0) continue;
        const double back = transposed.coeff(u, v);  // W_vu
        if (back <= 0.0) return std::nullopt;        // an arc without its reverse: not reversible
        pi[v] = pi[u] * it.value() / back;
        if (!std::isfinite(pi[v]) || pi[v] <= 0.0) return std::nullopt;
        queue.push_back(static_cast<std::size_t>(v));
      }
    }
  }
  pi /= pi.sum();
  // Kolmogorov: π_u W_uv = π_v W_vu on every entry, not just on the tree.
  for (Eigen::Index u = 0; u < w.outerSize(); ++u) {
    for (SparseMatrix::InnerIterator it(w, u); it; ++it) {
      const Eigen::Index v = it.col();
      const double forward = pi[u] * it.value();
      const double backward = pi[v] * transposed.coeff(u, v);
      if (std::abs(forward - backward) > kDetailedBalanceTolerance * std::max(forward, backward)) {
        return std::nullopt;
      }
    }
  }
  if (components != nullptr) *components = count;
  return pi;
}

}  // namespace netdp::gossip::detail
