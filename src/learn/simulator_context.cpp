// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// TrainContext: per-node minibatches, clipped gradient sums, gossip helpers.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>

#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/spectral.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/util/check.hpp"
#include "simulator_internal.hpp"

namespace netdp::learn {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// batch_x / batch_y = the examples order[first..last) of `data` (column by column: X is column-major).
void gather_rows(const Dataset& data, const std::vector<std::size_t>& order, std::size_t first,
                 std::size_t last, DenseMatrix& batch_x, Vector& batch_y) {
  const auto rows = static_cast<Eigen::Index>(last - first);
  batch_x.resize(rows, data.features.cols());
  batch_y.resize(rows);
  const std::size_t* index = order.data() + first;
  for (Eigen::Index j = 0; j < data.features.cols(); ++j) {
    const double* column = data.features.col(j).data();
    double* out = batch_x.col(j).data();
    for (Eigen::Index i = 0; i < rows; ++i) out[i] = column[index[i]];
  }
  for (Eigen::Index i = 0; i < rows; ++i) batch_y(i) = data.targets(static_cast<Eigen::Index>(index[i]));
}

}  // namespace

void require_fixed_schedule(const AlgorithmParams& params, std::string_view why) {
  require(params.fixed_schedule(), "algorithm.schedule = '{}': {}",
          gossip::schedule_spec_string(params.schedule), why);
}

accounting::Protocol TrainContext::protocol() const {
  accounting::Protocol protocol(base_);
  protocol.schedule = params_.schedule;
  protocol.rounds = params_.rounds;
  protocol.seed = seed_;
  protocol.sensitivity = 1.0;
  protocol.drawn = schedule_;
  return protocol;
}

TrainContext::TrainContext(const Model& model, std::vector<Dataset> node_data, gossip::GossipMatrix base,
                           gossip::Schedule schedule, AlgorithmParams params, std::uint64_t seed)
    : model_(&model),
      node_data_(std::move(node_data)),
      base_(std::move(base)),
      schedule_(std::move(schedule)),
      params_(std::move(params)),
      seed_(seed) {
  require(!node_data_.empty(), "training needs at least one node");
  require(node_data_.size() == base_.num_nodes(), "{} data shards for a graph of {} nodes", node_data_.size(),
          base_.num_nodes());
  for (std::size_t v = 0; v < node_data_.size(); ++v) {
    require(node_data_[v].size() >= 1, "node {} has no training example", v);
  }
  cyclic_order_.resize(node_data_.size());
  for (auto& order : cyclic_order_) order.clear();
}

double TrainContext::batch_divisor(std::size_t v) const {
  const std::size_t m = node_data_[v].size();
  return static_cast<double>(params_.batch_size == 0 ? m : std::min(params_.batch_size, m));
}

void TrainContext::draw_batch(std::size_t v, Rng& rng, bool cyclic, std::size_t t) {
  const std::size_t m = node_data_[v].size();
  const auto b = static_cast<std::size_t>(batch_divisor(v));
  auto& order = cyclic_order_[v];
  if (order.size() != m) {
    order.resize(m);
    std::iota(order.begin(), order.end(), std::size_t{0});
  }
  std::size_t first = 0;
  if (b < m) {
    if (cyclic) {
      // One seeded shuffle at step 0, then batches in turn (⌈m/b⌉ batches).
      if (t == 0) {
        for (std::size_t i = m; i > 1; --i) std::swap(order[i - 1], order[rng.uniform_below(i)]);
      }
      const std::size_t batches = (m + b - 1) / b;
      first = (t % batches) * b;
    } else {
      // Partial Fisher–Yates: the first b entries become a uniform sample without replacement.
      for (std::size_t i = 0; i < b; ++i) std::swap(order[i], order[i + rng.uniform_below(m - i)]);
    }
  }
  batch_range_[v] = {first, std::min(first + b, m)};
}

void TrainContext::clipped_mean_gradients(const DenseMatrix& theta, Rng& rng, DenseMatrix& grads, bool cyclic,
                                          std::size_t t) {
  const std::size_t n = num_nodes();
  grads.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(num_parameters()));
  // The batches are drawn first, in node order, from the one stream (as a sequential loop would);
  // the gradients then run in parallel over nodes, so the result is the same for any thread count.
  batch_range_.resize(n);
  for (std::size_t v = 0; v < n; ++v) draw_batch(v, rng, cyclic, t);
  const auto nodes = static_cast<std::int64_t>(n);
  ParallelErrors errors;
#pragma omp parallel
  {
    DenseMatrix batch_x;
    Vector batch_y;
    Vector row;
    // Contiguous ranges of nodes per thread: a cache line of θ's and the gradients' columns holds
    // eight consecutive nodes, and interleaved nodes would pass each line of the rows written
    // between the cores at every node.
#pragma omp for schedule(static)
    for (std::int64_t node = 0; node < nodes; ++node) {
      const auto v = static_cast<std::size_t>(node);
      const Dataset& data = node_data_[v];
      const std::size_t first = batch_range_[v].first;
      const std::size_t last = batch_range_[v].second;
      row = theta.row(node).transpose();
      errors.run(node, [&] {
        Vector sum;
        if (last - first == data.size()) {
          // The whole local data set: the order was never shuffled (b ≥ m), use it in place.
          sum = model_->clipped_gradient_sum(row, data.features, data.targets, params_.clip);
        } else {
          gather_rows(data, cyclic_order_[v], first, last, batch_x, batch_y);
          sum = model_->clipped_gradient_sum(row, batch_x, batch_y, params_.clip);
        }
        grads.row(node) = sum.transpose() / batch_divisor(v);
      });
    }
  }
  errors.rethrow();
}

void TrainContext::add_penalty(const DenseMatrix& theta, DenseMatrix& grads) const {
  const double l2 = model_->l2();
  if (l2 != 0.0) grads += l2 * theta;
}

void TrainContext::gossip(const SparseMatrix& w, DenseMatrix& theta) {
  buffer_.resize(w.rows(), theta.cols());
  // Many nodes and a small model: blocks of rows of W, in parallel.
  constexpr Eigen::Index kRows = 1024;
  if (theta.cols() < 64 && w.rows() > kRows) {
    const Eigen::Index row_blocks = (w.rows() + kRows - 1) / kRows;
#pragma omp parallel for schedule(static)
    for (Eigen::Index k = 0; k < row_blocks; ++k) {
      const Eigen::Index first = k * kRows;
      const Eigen::Index height = std::min(kRows, w.rows() - first);
      buffer_.middleRows(first, height).noalias() = w.middleRows(first, height) * theta;
    }
    theta.swap(buffer_);
    return;
  }
  // Otherwise blocks of columns, each copied to row-major so that row i of W θ is a sum of
  // contiguous rows w_ik θ_k (vectorized), instead of a gather down each column. Every output
  // entry is the same sum in the same order for any thread count.
  constexpr Eigen::Index kColumns = 128;
  const Eigen::Index column_blocks = (theta.cols() + kColumns - 1) / kColumns;
#pragma omp parallel if (column_blocks > 1)
  {
    RowMajorMatrix block;
    RowMajorMatrix product;
#pragma omp for schedule(static)
    for (Eigen::Index k = 0; k < column_blocks; ++k) {
      const Eigen::Index first = k * kColumns;
      const Eigen::Index width = std::min(kColumns, theta.cols() - first);
      block = theta.middleCols(first, width);
      product.noalias() = w * block;
      buffer_.middleCols(first, width) = product;
    }
  }
  theta.swap(buffer_);
}

void TrainContext::gossip_k(const SparseMatrix& w, std::size_t k, DenseMatrix& theta) {
  if (!params_.chebyshev) {
    for (std::size_t i = 0; i < k; ++i) gossip(w, theta);
    return;
  }
  if (chebyshev_gamma_ == 0.0) {
    chebyshev_gamma_ = gossip::muffliato_chebyshev_gamma(gossip::second_eigenvalue(base_).spectral_gap);
  }
  theta = gossip::chebyshev_gossip(w, theta, k, chebyshev_gamma_);
}

}  // namespace netdp::learn
