// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Coefficient rows of the Koskela–Kulkarni views: options, row nodes, and the
// rows e_iᵀ W^k (or time-varying products) by sparse vector–matrix products.

#include <algorithm>
#include <cmath>

#include "accounting/linear_system/linear_system_detail.hpp"
#include "netdp/linalg/sparse_block.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting::detail {
namespace {

SparseMatrix transposed_row_major(const SparseMatrix& w) {
  SparseMatrix t = w.transpose();
  t.makeCompressed();
  return t;
}

/// out = wt * in for a node-major block (n rows of `width` values): column j of the block is
/// multiplied exactly as a sparse matrix–vector product, so the result for one column does not depend
/// on the others (batch independence).
void multiply_block(const SparseMatrix& wt, const double* in, double* out, std::size_t width) {
  linalg::csr_times_block(wt.outerIndexPtr(), wt.innerIndexPtr(), wt.valuePtr(),
                          static_cast<std::size_t>(wt.rows()), in, width, out);
}

/// Node-major blocks P_d (n x w), d = 0..count-1, into `blocks`: column j of P_d is
/// (e_{nodes[j]}ᵀ W^{d+p})ᵀ. Each power is multiplied straight into its block.
void power_blocks(const SparseMatrix& wt, std::span<const graph::NodeId> nodes, std::size_t count, int power,
                  std::vector<double>& blocks) {
  const auto n = static_cast<std::size_t>(wt.rows());
  const std::size_t w = nodes.size();
  blocks.resize(count * n * w);
  if (count == 0) return;
  std::vector<double> unit(n * w, 0.0);
  for (std::size_t j = 0; j < w; ++j) unit[static_cast<std::size_t>(nodes[j]) * w + j] = 1.0;
  if (power == 1) {
    multiply_block(wt, unit.data(), blocks.data(), w);
  } else {
    std::copy(unit.begin(), unit.end(), blocks.begin());
  }
  for (std::size_t d = 1; d < count; ++d) {
    multiply_block(wt, blocks.data() + (d - 1) * n * w, blocks.data() + d * n * w, w);
  }
}

void require_nodes(std::span<const graph::NodeId> nodes, std::size_t n, const char* what) {
  require(!nodes.empty(), "the {} set is empty", what);
  std::vector<graph::NodeId> sorted(nodes.begin(), nodes.end());
  std::sort(sorted.begin(), sorted.end());
  require(sorted.back() < n, "{} {} is not a node (num_nodes = {})", what, sorted.back(), n);
  require(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), "{} {} is listed twice", what,
          *std::adjacent_find(sorted.begin(), sorted.end()));
}

}  // namespace

Resolved resolve(const gossip::Schedule& schedule, const LinearSystemOptions& options) {
  Resolved r;
  r.view = options.view;
  r.rounds = options.rounds;
  r.steps = options.gossip_steps;
  r.keep_observer_noise = options.keep_observer_noise;
  r.rank = options.rank;
  r.num_nodes = schedule.num_nodes();
  require(r.rounds >= 1, "rounds must be >= 1, got {}", r.rounds);
  require(r.steps >= 1, "gossip_steps must be >= 1, got {}", r.steps);
  require(r.steps == 1 || r.view == LinearSystemView::secure_sum,
          "gossip_steps = {} is only defined for the secure-sum view (Theorems 9 and 10 use one step)",
          r.steps);
  const int default_power = r.view == LinearSystemView::plain ? 0 : 1;
  r.power = options.first_power.value_or(default_power);
  require(r.power == 0 || r.power == 1, "first_power must be 0 or 1, got {}", r.power);
  require(std::isfinite(r.rank.rank_tolerance) && r.rank.rank_tolerance > 0.0 && r.rank.rank_tolerance < 1.0,
          "rank_tolerance must be in (0, 1), got {}", r.rank.rank_tolerance);
  const std::size_t steps_total = r.rounds * r.steps;
  r.fixed = schedule.is_fixed();
  r.certifier = std::make_shared<const LazyRankCertifier>(schedule);
  require(r.fixed || schedule.rounds() >= steps_total,
          "the schedule has {} matrices but rounds * gossip_steps = {} * {} gossip steps need {}",
          schedule.rounds(), r.rounds, r.steps, steps_total);
  const std::size_t used = r.fixed ? 1 : steps_total;
  r.transposed.reserve(used);
  for (std::size_t q = 0; q < used; ++q) {
    const SparseMatrix& w = schedule.at(q);
    for (Eigen::Index k = 0; k < w.nonZeros(); ++k) {
      require(std::isfinite(w.valuePtr()[k]), "gossip matrix W_{} has a non-finite entry", q);
    }
    r.transposed.push_back(transposed_row_major(w));
  }
  return r;
}

std::vector<graph::NodeId> view_rows(const gossip::Schedule& schedule, const Resolved& r,
                                     std::span<const graph::NodeId> observers, graph::NodeId target) {
  const std::size_t n = r.num_nodes;
  require(target < n, "target {} is not a node (num_nodes = {})", target, n);
  require_nodes(observers, n, "observer");
  require(std::find(observers.begin(), observers.end(), target) == observers.end(),
          "target {} is also an observer: a node's privacy against itself is not defined", target);
  switch (r.view) {
    case LinearSystemView::secure_sum:
      return {observers.begin(), observers.end()};
    case LinearSystemView::plain:
      return {target};
    case LinearSystemView::secure_sum_adaptive: {
      // N̄_j: j and every node exchanging with j in some gossip step (support of W_q, both directions).
      std::vector<graph::NodeId> rows{target};
      const std::size_t used = r.fixed ? 1 : r.rounds * r.steps;
      for (std::size_t q = 0; q < used; ++q) {
        const SparseMatrix& w = schedule.at(q);
        for (SparseMatrix::InnerIterator it(w, target); it; ++it) {
          if (it.value() != 0.0) rows.push_back(static_cast<graph::NodeId>(it.col()));
        }
        const SparseMatrix& wt = r.transposed[q];
        for (SparseMatrix::InnerIterator it(wt, target); it; ++it) {
          if (it.value() != 0.0) rows.push_back(static_cast<graph::NodeId>(it.col()));
        }
      }
      std::sort(rows.begin(), rows.end());
      rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
      return rows;
    }
  }
  return {};
}

void build_single_rows_batch(const Resolved& r, std::span<const graph::NodeId> batch,
                             std::vector<ViewRows>& out, std::vector<double>& blocks) {
  require(r.fixed, "build_single_rows_batch needs a fixed schedule");
  const std::size_t n = r.num_nodes;
  const std::size_t w = batch.size();
  const std::size_t lags = r.rounds * r.steps;
  power_blocks(r.transposed.front(), batch, lags, r.power, blocks);
  out.resize(w);
  for (std::size_t k = 0; k < w; ++k) {
    ViewRows& v = out[k];
    v.nodes.assign(1, batch[k]);
    v.injections = r.rounds;
    v.observations = lags;
    v.shift = r.steps;
    v.toeplitz = true;
    v.lag.resize(static_cast<Eigen::Index>(lags), static_cast<Eigen::Index>(n));
  }
  // Node by node: the w values of (d, u) sit together in `blocks`, and column u of each lag is
  // contiguous, so both sides are read and written a cache line at a time.
  for (std::size_t u = 0; u < n; ++u) {
    for (std::size_t d = 0; d < lags; ++d) {
      const double* p = blocks.data() + (d * n + u) * w;
      for (std::size_t j = 0; j < w; ++j) out[j].lag.data()[u * lags + d] = p[j];
    }
  }
}

ViewRows build_view_rows(const Resolved& r, std::span<const graph::NodeId> row_nodes) {
  const std::size_t n = r.num_nodes;
  const std::size_t c = row_nodes.size();
  const std::size_t steps_total = r.rounds * r.steps;
  ViewRows v;
  v.nodes.assign(row_nodes.begin(), row_nodes.end());
  v.injections = r.rounds;
  v.observations = steps_total * c;
  v.shift = r.steps * c;
  const auto m = static_cast<Eigen::Index>(v.observations);
  if (r.fixed) {
    v.toeplitz = true;
    std::vector<double> blocks;
    power_blocks(r.transposed.front(), row_nodes, steps_total, r.power, blocks);
    v.lag.resize(m, static_cast<Eigen::Index>(n));
    for (std::size_t d = 0; d < steps_total; ++d) {
      for (std::size_t j = 0; j < c; ++j) {
        const double* p = blocks.data() + d * n * c + j;
        const auto o = static_cast<Eigen::Index>(d * c + j);
        for (std::size_t u = 0; u < n; ++u) v.lag(o, static_cast<Eigen::Index>(u)) = p[u * c];
      }
    }
    return v;
  }
  // Time-varying (Koskela–Kulkarni Appendix E): e_iᵀ W_{m−1+p} ⋯ W_{sK}, by a
  // backward sweep over s for each observation step m.
  v.toeplitz = false;
  v.block.assign(r.rounds, DenseMatrix::Zero(m, static_cast<Eigen::Index>(n)));
  Vector current(static_cast<Eigen::Index>(n));
  for (std::size_t j = 0; j < c; ++j) {
    for (std::size_t step = 0; step < steps_total; ++step) {
      current.setZero();
      current(row_nodes[j]) = 1.0;
      // Next matrix to apply (as a signed index: -1 means none left).
      std::ptrdiff_t q = static_cast<std::ptrdiff_t>(step) - 1 + r.power;
      for (std::ptrdiff_t s = static_cast<std::ptrdiff_t>(step / r.steps); s >= 0; --s) {
        const auto first = s * static_cast<std::ptrdiff_t>(r.steps);
        for (; q >= first; --q) current = r.transposed[static_cast<std::size_t>(q)] * current;
        v.block[static_cast<std::size_t>(s)].row(static_cast<Eigen::Index>(step * c + j)) =
            current.transpose();
      }
    }
  }
  return v;
}

}  // namespace netdp::accounting::detail
