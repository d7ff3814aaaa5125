// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/walk_step.hpp"

namespace netdp::gossip {

std::size_t draw_next_holder(const SparseMatrix& w, std::size_t from, util::Rng& rng) {
  const double r = rng.uniform01();
  double cumulative = 0.0;
  std::size_t last = from;
  for (SparseMatrix::InnerIterator it(w, static_cast<Eigen::Index>(from)); it; ++it) {
    if (it.value() <= 0.0) continue;
    cumulative += it.value();
    last = static_cast<std::size_t>(it.col());
    if (r < cumulative) return last;
  }
  return last;
}

}  // namespace netdp::gossip
