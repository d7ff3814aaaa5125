// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "accounting/muffliato/muffliato_propagation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "netdp/linalg/multiversion.hpp"
#include "netdp/linalg/sparse_block.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting::detail {

StepPlan plan_step(const SparseMatrix& w) {
  StepPlan plan;
  const auto n = static_cast<int>(w.rows());
  plan.row_start.push_back(0);
  for (int i = 0; i < n; ++i) {
    // Row i is the unit row e_i iff its only non-zero entry is W_ii = 1.
    std::size_t nonzeros = 0;
    bool diagonal_one = false;
    for (SparseMatrix::InnerIterator it(w, i); it; ++it) {
      if (it.value() == 0.0) continue;
      ++nonzeros;
      diagonal_one = diagonal_one || (it.col() == i && it.value() == 1.0);
    }
    if (nonzeros == 1 && diagonal_one) continue;  // the state of node i does not change
    plan.rows.push_back(i);
    for (SparseMatrix::InnerIterator it(w, i); it; ++it) {
      if (it.value() == 0.0) continue;
      plan.cols.push_back(it.col());
      plan.values.push_back(it.value());
    }
    plan.row_start.push_back(static_cast<int>(plan.cols.size()));
  }
  plan.all_active = plan.rows.size() == static_cast<std::size_t>(n);
  return plan;
}

SchedulePlan::SchedulePlan(const gossip::Schedule& schedule) : rounds_(schedule.rounds()) {
  if (schedule.is_fixed()) {
    plans_.push_back(plan_step(schedule.at(0)));
  } else {
    plans_.reserve(rounds_);
    for (std::size_t t = 0; t < rounds_; ++t) plans_.push_back(plan_step(schedule.at(t)));
  }
}

ColumnBlock::ColumnBlock(std::size_t num_nodes, std::size_t capacity)
    : num_nodes_(num_nodes), current_(num_nodes * capacity), scratch_(num_nodes * capacity) {}

void ColumnBlock::reset(std::span<const graph::NodeId> columns) {
  width_ = columns.size();
  std::fill(current_.begin(), current_.begin() + static_cast<std::ptrdiff_t>(num_nodes_ * width_), 0.0);
  for (std::size_t j = 0; j < width_; ++j) current_[columns[j] * width_ + j] = 1.0;
}

void ColumnBlock::apply(const StepPlan& step) {
  const std::size_t active = step.rows.size();
  // All rows active: row i of the new state goes to row i of scratch; otherwise the k-th active row
  // goes to scratch row k and is copied back below.
  linalg::csr_times_block(step.row_start.data(), step.cols.data(), step.values.data(), active,
                          current_.data(), width_, scratch_.data());
  if (step.all_active) {
    current_.swap(scratch_);
    return;
  }
  for (std::size_t k = 0; k < active; ++k) {
    const auto i = static_cast<std::size_t>(step.rows[k]);
    std::copy(scratch_.begin() + static_cast<std::ptrdiff_t>(k * width_),
              scratch_.begin() + static_cast<std::ptrdiff_t>((k + 1) * width_),
              current_.begin() + static_cast<std::ptrdiff_t>(i * width_));
  }
}

NETDP_MULTIVERSION double sum_of_squares(const double* x, std::size_t begin, std::size_t end) {
  double s = 0.0;
#pragma omp simd reduction(+ : s)
  for (std::size_t j = begin; j < end; ++j) s += x[j] * x[j];
  return s;
}

NETDP_MULTIVERSION double sum_of_absolute(const double* x, std::size_t width) {
  double s = 0.0;
#pragma omp simd reduction(+ : s)
  for (std::size_t j = 0; j < width; ++j) s += std::abs(x[j]);
  return s;
}

namespace {

/// Columns [j, j + Tiles·kLanes) of `out`, the sums held in Tiles vector registers over the messages.
template <std::size_t Tiles>
[[gnu::always_inline]] inline void capped_ratio_tile(const double* block, std::size_t width,
                                                     const std::uint32_t* messages, std::size_t count,
                                                     const graph::NodeId* senders, const double* scales,
                                                     std::size_t j, double* out) {
  linalg::Lanes sum[Tiles];
  for (std::size_t q = 0; q < Tiles; ++q)
    std::memcpy(&sum[q], out + j + q * linalg::kLanes, sizeof(linalg::Lanes));
  const linalg::Lanes one = linalg::Lanes{} + 1.0;
  for (std::size_t k = 0; k < count; ++k) {
    const double scale = scales[messages[k]];
    if (!(scale > 0.0)) continue;
    const double* x = block + static_cast<std::size_t>(senders[messages[k]]) * width + j;
    for (std::size_t q = 0; q < Tiles; ++q) {
      linalg::Lanes lane;
      std::memcpy(&lane, x + q * linalg::kLanes, sizeof(linalg::Lanes));
      const linalg::Lanes ratio = scale * (lane * lane);
      sum[q] += ratio < one ? ratio : one;  // std::min(1.0, ratio), as the scalar tail below
    }
  }
  for (std::size_t q = 0; q < Tiles; ++q)
    std::memcpy(out + j + q * linalg::kLanes, &sum[q], sizeof(linalg::Lanes));
}

}  // namespace

NETDP_MULTIVERSION void accumulate_capped_ratios(const double* block, std::size_t width,
                                                 const std::uint32_t* messages, std::size_t count,
                                                 const graph::NodeId* senders, const double* scales,
                                                 double* out) {
  std::size_t j = 0;
  for (; j + 4 * linalg::kLanes <= width; j += 4 * linalg::kLanes)
    capped_ratio_tile<4>(block, width, messages, count, senders, scales, j, out);
  for (; j + linalg::kLanes <= width; j += linalg::kLanes)
    capped_ratio_tile<1>(block, width, messages, count, senders, scales, j, out);
  for (; j < width; ++j) {
    double sum = out[j];
    for (std::size_t k = 0; k < count; ++k) {
      const double scale = scales[messages[k]];
      if (!(scale > 0.0)) continue;
      const double x = block[static_cast<std::size_t>(senders[messages[k]]) * width + j];
      sum += std::min(1.0, scale * (x * x));
    }
    out[j] = sum;
  }
}

NETDP_MULTIVERSION void accumulate_squares(const double* x, double* out, std::size_t width) {
#pragma omp simd
  for (std::size_t j = 0; j < width; ++j) out[j] += x[j] * x[j];
}

std::size_t default_block_columns(std::size_t num_nodes) {
  const std::size_t target = (std::size_t{1} << 17) / std::max<std::size_t>(num_nodes, 1);
  return std::clamp<std::size_t>(target / 8 * 8, 8, 256);
}

std::vector<std::vector<graph::NodeId>> step_neighbours(const SparseMatrix& w) {
  std::vector<std::vector<graph::NodeId>> out(static_cast<std::size_t>(w.rows()));
  for (int i = 0; i < w.outerSize(); ++i) {
    for (SparseMatrix::InnerIterator it(w, i); it; ++it) {
      if (it.value() == 0.0 || it.col() == i) continue;
      out[static_cast<std::size_t>(i)].push_back(static_cast<graph::NodeId>(it.col()));
      out[static_cast<std::size_t>(it.col())].push_back(static_cast<graph::NodeId>(i));
    }
  }
  for (auto& list : out) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return out;
}

std::vector<std::vector<graph::NodeId>> singleton_sets(std::size_t n) {
  std::vector<std::vector<graph::NodeId>> sets(n);
  for (std::size_t v = 0; v < n; ++v) sets[v] = {static_cast<graph::NodeId>(v)};
  return sets;
}

std::vector<std::vector<graph::NodeId>> validated_node_sets(
    const std::vector<std::vector<graph::NodeId>>& sets, std::size_t n, const char* what) {
  if (sets.empty()) return singleton_sets(n);
  std::vector<std::vector<graph::NodeId>> sorted = sets;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    auto& set = sorted[i];
    require(!set.empty(), "{} set {} is empty", what, i);
    std::sort(set.begin(), set.end());
    for (std::size_t k = 0; k < set.size(); ++k) {
      require(set[k] < n, "{} node {} is out of range (the graph has {} nodes, ids 0..{})", what, set[k], n,
              n - 1);
      require(k == 0 || set[k] != set[k - 1], "{} node {} appears twice in {} set {}", what, set[k], what, i);
    }
  }
  return sorted;
}

std::vector<std::vector<std::uint32_t>> membership(const std::vector<std::vector<graph::NodeId>>& sets,
                                                   std::size_t n) {
  std::vector<std::vector<std::uint32_t>> of(n);
  for (std::size_t g = 0; g < sets.size(); ++g) {
    for (graph::NodeId v : sets[g]) of[v].push_back(static_cast<std::uint32_t>(g));
  }
  return of;
}

void zero_undefined(DenseMatrix& sums, const std::vector<std::vector<graph::NodeId>>& observers,
                    const std::vector<std::vector<graph::NodeId>>& targets, std::size_t n) {
  const auto targets_of = membership(targets, n);
  for (std::size_t g = 0; g < observers.size(); ++g) {
    for (graph::NodeId v : observers[g]) {
      for (std::uint32_t j : targets_of[v])
        sums(static_cast<Eigen::Index>(g), static_cast<Eigen::Index>(j)) = 0.0;
    }
  }
}

void require_finite_entries(const gossip::Schedule& schedule) {
  const std::size_t distinct = schedule.is_fixed() ? 1 : schedule.rounds();
  for (std::size_t t = 0; t < distinct; ++t) {
    const SparseMatrix& w = schedule.at(t);
    for (int i = 0; i < w.outerSize(); ++i) {
      for (SparseMatrix::InnerIterator it(w, i); it; ++it) {
        require(std::isfinite(it.value()), "gossip matrix W_{} has a non-finite entry ({}, {}) = {}", t, i,
                it.col(), it.value());
      }
    }
  }
}

namespace {

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

}  // namespace

void require_connected_support(const gossip::Schedule& schedule) {
  const std::size_t n = schedule.num_nodes();
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  const std::size_t distinct = schedule.is_fixed() ? 1 : schedule.rounds();
  for (std::size_t t = 0; t < distinct; ++t) {
    const SparseMatrix& w = schedule.at(t);
    for (int i = 0; i < w.outerSize(); ++i) {
      for (SparseMatrix::InnerIterator it(w, i); it; ++it) {
        if (it.value() == 0.0 || it.col() == i) continue;
        const std::size_t a = find_root(parent, static_cast<std::size_t>(i));
        const std::size_t b = find_root(parent, static_cast<std::size_t>(it.col()));
        if (a != b) parent[a] = b;
      }
    }
  }
  const std::size_t root = find_root(parent, 0);
  for (std::size_t v = 1; v < n; ++v) {
    require(find_root(parent, v) == root,
            "the communication graph (union of the supports of W_0..W_{}) must be connected, but node {} "
            "cannot be reached from node 0",
            schedule.rounds() - 1, v);
  }
}

}  // namespace netdp::accounting::detail
