// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// A gossip schedule: the matrices W_0, ..., W_{T-1} applied at rounds 0..T-1.
// A fixed schedule stores one matrix; a time-varying one stores one per round.

#include <cstddef>
#include <vector>

#include "netdp/util/types.hpp"

namespace netdp::gossip {

class Schedule {
 public:
  /// W_t = w for t = 0..rounds-1. Throws unless w is square and rounds >= 1.
  static Schedule fixed(SparseMatrix w, std::size_t rounds);
  /// W_t = matrices[t]. Throws unless all are square of the same size and there is at least one.
  static Schedule sequence(std::vector<SparseMatrix> matrices);

  std::size_t rounds() const { return rounds_; }
  std::size_t num_nodes() const { return static_cast<std::size_t>(matrices_.front().rows()); }
  bool is_fixed() const { return matrices_.size() == 1; }
  /// W_t (for a fixed schedule, the same matrix for every t < rounds()).
  const SparseMatrix& at(std::size_t t) const { return matrices_[is_fixed() ? 0 : t]; }

 private:
  Schedule(std::vector<SparseMatrix> matrices, std::size_t rounds)
      : matrices_(std::move(matrices)), rounds_(rounds) {}
  std::vector<SparseMatrix> matrices_;
  std::size_t rounds_ = 0;
};

}  // namespace netdp::gossip
