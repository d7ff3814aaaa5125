// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/schedule.hpp"

#include "netdp/util/check.hpp"

namespace netdp::gossip {

Schedule Schedule::fixed(SparseMatrix w, std::size_t rounds) {
  require(w.rows() == w.cols() && w.rows() > 0, "a gossip matrix must be square and non-empty, got {} x {}",
          w.rows(), w.cols());
  require(rounds >= 1, "a schedule needs at least 1 round, got {}", rounds);
  std::vector<SparseMatrix> one;
  one.push_back(std::move(w));
  return Schedule(std::move(one), rounds);
}

Schedule Schedule::sequence(std::vector<SparseMatrix> matrices) {
  require(!matrices.empty(), "a schedule needs at least 1 matrix, got 0");
  const auto n = matrices.front().rows();
  for (std::size_t t = 0; t < matrices.size(); ++t) {
    require(matrices[t].rows() == n && matrices[t].cols() == n,
            "schedule matrix W_{} is {} x {}, expected {} x {} like W_0", t, matrices[t].rows(),
            matrices[t].cols(), n, n);
  }
  require(n > 0, "a gossip matrix must be non-empty");
  const std::size_t rounds = matrices.size();
  if (rounds == 1) return Schedule(std::move(matrices), 1);
  return Schedule(std::move(matrices), rounds);
}

}  // namespace netdp::gossip
