// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal: sparse propagation of a block of columns of W_{0:t} (never a dense
// power), shared by the Muffliato accountant and its closed-form bounds.
//
// A block holds B columns of the n x n matrix W_{0:t}, stored row-major (row w
// of the block is (W_{0:t})_{w, c_0..c_{B-1}}), so the rows touched by one
// sparse row of W are contiguous and small enough to stay in cache.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "netdp/gossip/schedule.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting::detail {

/// One gossip step in CSR form, restricted to the rows of W that are not unit
/// rows e_i (the only rows that change the state; a pairwise-gossip step has two).
struct StepPlan {
  std::vector<int> rows;       ///< the active rows, increasing
  std::vector<int> row_start;  ///< entries of rows[k] are [row_start[k], row_start[k+1])
  std::vector<int> cols;
  std::vector<double> values;
  bool all_active = false;  ///< rows == 0..n-1
};

/// Builds the plan of a matrix.
StepPlan plan_step(const SparseMatrix& w);

/// Plans for every round of a schedule (one shared plan for a fixed schedule).
class SchedulePlan {
 public:
  explicit SchedulePlan(const gossip::Schedule& schedule);
  std::size_t rounds() const { return rounds_; }
  const StepPlan& at(std::size_t t) const { return plans_[plans_.size() == 1 ? 0 : t]; }

 private:
  std::vector<StepPlan> plans_;
  std::size_t rounds_ = 0;
};

/// B columns of W_{0:t}, propagated by M <- W_t M.
class ColumnBlock {
 public:
  ColumnBlock(std::size_t num_nodes, std::size_t capacity);

  /// M = [e_{c_0}, ..., e_{c_{B-1}}] (the columns of W_{0:0} = I), B = columns.size() <= capacity.
  void reset(std::span<const graph::NodeId> columns);
  /// M <- W M for the step's matrix.
  void apply(const StepPlan& step);

  std::size_t width() const { return width_; }
  const double* row(std::size_t w) const { return current_.data() + w * width_; }

 private:
  std::size_t num_nodes_ = 0;
  std::size_t width_ = 0;
  std::vector<double> current_;
  std::vector<double> scratch_;
};

/// Σ_j x_j² over j in [begin, end).
double sum_of_squares(const double* x, std::size_t begin, std::size_t end);
/// Σ_j |x_j| over j < width.
double sum_of_absolute(const double* x, std::size_t width);
/// out_j += Σ_k min(1, scales[m_k] · x_{m_k, j}²) for j < width, over the messages m_k = messages[k],
/// k < count, in that order, where x_m is row senders[m] of `block` (rows of `width` doubles);
/// messages with a scale that is not positive are skipped. The sums of one output tile stay in
/// registers across all the messages (one observer's messages at a time).
void accumulate_capped_ratios(const double* block, std::size_t width, const std::uint32_t* messages,
                              std::size_t count, const graph::NodeId* senders, const double* scales,
                              double* out);
/// out_j += x_j² for j < width.
void accumulate_squares(const double* x, double* out, std::size_t width);

/// Default block width: B columns of n doubles take about 1 MiB (three such
/// buffers per thread stay in a 2-4 MiB L2), B in [8, 256], a multiple of 8.
std::size_t default_block_columns(std::size_t num_nodes);

/// The communication graph of one step, E_t: the off-diagonal support of W_t, both ways ({v, w} is
/// an edge iff (W_t)_vw != 0 or (W_t)_wv != 0). Sorted neighbour lists. The Muffliato accountants
/// (Theorem 1 and the exact joint view) read a round's messages from it.
std::vector<std::vector<graph::NodeId>> step_neighbours(const SparseMatrix& w);

/// Every node on its own: {{0}, {1}, ..., {n-1}}.
std::vector<std::vector<graph::NodeId>> singleton_sets(std::size_t n);

/// Observer or target sets, each sorted; empty `sets` means singleton_sets(n). Throws
/// std::invalid_argument (naming `what`) on an empty set, a node out of range or a repeated node.
std::vector<std::vector<graph::NodeId>> validated_node_sets(
    const std::vector<std::vector<graph::NodeId>>& sets, std::size_t n, const char* what);

/// For each node, the indices of the sets that contain it.
std::vector<std::vector<std::uint32_t>> membership(const std::vector<std::vector<graph::NodeId>>& sets,
                                                   std::size_t n);

/// Zeroes sums(g, j) where target set j meets observer set g (a node's loss towards itself is not
/// defined).
void zero_undefined(DenseMatrix& sums, const std::vector<std::vector<graph::NodeId>>& observers,
                    const std::vector<std::vector<graph::NodeId>>& targets, std::size_t n);

/// Throws std::invalid_argument unless every stored entry of every W_t is finite.
void require_finite_entries(const gossip::Schedule& schedule);

/// Throws std::invalid_argument unless the union over t of the graphs of the
/// off-diagonal supports of W_t is connected (names a node not reachable from node 0).
void require_connected_support(const gossip::Schedule& schedule);

}  // namespace netdp::accounting::detail
