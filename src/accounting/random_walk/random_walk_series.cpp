// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// S_T(W) = Σ_{i=1}^{T} W^i / i (Lemma 2 / eq. 13-15 of Cyffers, Bellet & Upadhyay)
// and the closed form of Theorem 3 / eq. 16. See docs/reference/accounting-random-walk.md.

#include "netdp/accounting/random_walk/random_walk_series.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "accounting/random_walk/random_walk_bipartite.hpp"
#include "netdp/gossip/spectral.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/linalg/sparse_block.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {
namespace {

void check_series_input(const gossip::GossipMatrix& w, std::size_t steps, const char* where) {
  require(steps >= 1, "{}: the number of steps T must be >= 1, got {}", where, steps);
  require(graph::is_connected(w.graph()),
          "{}: the graph of W ({} nodes) must be connected (Assumption 1: irreducible walk)", where,
          w.num_nodes());
}

void check_symmetric(const gossip::GossipMatrix& w, const char* where) {
  require(w.is_symmetric(),
          "{}: W must be symmetric (Assumption 2) for the spectral method; use "
          "the propagation method for a non-symmetric W",
          where);
}

/// Eigendecomposition of a symmetric doubly stochastic W, with the λ = 1 mode
/// (the largest eigenvalue; simple since W is connected) split off: its
/// projector is exactly 11ᵀ/n, so callers add it in closed form.
linalg::SymmetricEigen eigen_of(const gossip::GossipMatrix& w) {
  return linalg::symmetric_eigen(DenseMatrix(w.matrix()));
}

/// Σ_{k < n-1} f(λ_k) φ_k φ_kᵀ + top · 11ᵀ/n (λ ascending, so the λ = 1 mode is the last).
template <typename Function>
DenseMatrix reconstruct_without_top(const linalg::SymmetricEigen& eig, Function f, double top) {
  const Eigen::Index n = eig.values.size();
  Vector weights(n);
  for (Eigen::Index k = 0; k + 1 < n; ++k) weights[k] = f(eig.values[k]);
  weights[n - 1] = 0.0;
  DenseMatrix result = linalg::spectral_reconstruction(eig.vectors, weights);
  result.array() += top / static_cast<double>(n);
  return result;
}

/// Reversible W (π_u W_uv = π_v W_vu, e.g. closed-row): M = Π^{1/2} W Π^{-1/2} is symmetric and
/// W^i = Π^{-1/2} M^i Π^{1/2}, so S_T(W)_{uv} = R_{uv} sqrt(π_v/π_u) with R = Σ_k s_T(λ_k) φ_k φ_kᵀ;
/// the λ = 1 mode (φ = √π) gives H_T π_v exactly.
DenseMatrix reversible_series(const gossip::GossipMatrix& w, std::size_t steps) {
  const gossip::Stationary stationary = gossip::stationary_distribution(w);
  const Vector root = stationary.pi.cwiseSqrt();
  const Eigen::Index n = root.size();
  DenseMatrix m = DenseMatrix(w.matrix());
  for (Eigen::Index u = 0; u < n; ++u) {
    for (Eigen::Index v = 0; v < n; ++v) m(u, v) *= root[u] / root[v];
  }
  m = (0.5 * (m + m.transpose())).eval();  // exact symmetry up to rounding
  const linalg::SymmetricEigen eig = linalg::symmetric_eigen(std::move(m));
  Vector weights(n);
  for (Eigen::Index k = 0; k + 1 < n; ++k) weights[k] = partial_log_series(eig.values[k], steps);
  weights[n - 1] = 0.0;
  DenseMatrix r = linalg::spectral_reconstruction(eig.vectors, weights);
  const double h = harmonic_number(steps);
  for (Eigen::Index v = 0; v < n; ++v) {
    for (Eigen::Index u = 0; u < n; ++u) r(u, v) = r(u, v) * root[v] / root[u] + h * stationary.pi[v];
  }
  return r;
}

/// Rows first..first+count-1 of S_T(W), written to rows out_row.. of out, by propagation: r ← r W (r = e_u
/// W^i), S_u += r / i. The block is stored node-major (x[w * count + j] for target j), so one step is
/// x ← Wᵀ x with `wt` = Wᵀ in compressed rows (csr_times_block). One thread per block: no per-step barrier.
void propagate_block(const SparseMatrix& wt, std::size_t steps, Eigen::Index first, Eigen::Index count,
                     DenseMatrix& out, Eigen::Index out_row) {
  const Eigen::Index n = wt.rows();
  std::vector<double> x(static_cast<std::size_t>(n * count), 0.0);
  std::vector<double> next(x.size());
  std::vector<double> sum(x.size(), 0.0);
  for (Eigen::Index j = 0; j < count; ++j) x[static_cast<std::size_t>((first + j) * count + j)] = 1.0;
  for (std::size_t i = 1; i <= steps; ++i) {
    linalg::csr_times_block(wt.outerIndexPtr(), wt.innerIndexPtr(), wt.valuePtr(),
                            static_cast<std::size_t>(n), x.data(), static_cast<std::size_t>(count),
                            next.data());
    x.swap(next);
    const double inv = 1.0 / static_cast<double>(i);
    for (std::size_t k = 0; k < x.size(); ++k) sum[k] += inv * x[k];
  }
  for (Eigen::Index v = 0; v < n; ++v) {
    for (Eigen::Index j = 0; j < count; ++j)
      out(out_row + j, v) = sum[static_cast<std::size_t>(v * count + j)];
  }
}

/// Wᵀ in compressed rows, the operand of propagate_block.
SparseMatrix transposed(const SparseMatrix& w) {
  SparseMatrix wt = w.transpose();
  wt.makeCompressed();
  return wt;
}

/// S_T(W) for all pairs by propagation, O(T · nnz(W) · n), OpenMP over blocks of targets.
DenseMatrix propagate_series(const SparseMatrix& w, std::size_t steps) {
  constexpr Eigen::Index kBlock = 8;
  const Eigen::Index n = w.rows();
  const SparseMatrix wt = transposed(w);
  DenseMatrix result(n, n);
  const Eigen::Index blocks = (n + kBlock - 1) / kBlock;
  util::ParallelErrors errors;
#pragma omp parallel for schedule(dynamic)
  for (Eigen::Index b = 0; b < blocks; ++b) {
    errors.run(static_cast<std::int64_t>(b), [&] {
      const Eigen::Index first = b * kBlock;
      propagate_block(wt, steps, first, std::min(kBlock, n - first), result, first);
    });
  }
  errors.rethrow();
  return result;
}

/// An entry of S_T(W) is a sum of non-negative terms (W >= 0), but the spectral methods form it from
/// eigenvectors of both signs, so rounding can leave it just below zero. Where u and v are more than
/// T hops apart every term is zero: the entry is set to exactly 0. A negative entry closer than that
/// is a positive value lost to rounding: its row is recomputed by propagation, which adds
/// non-negative terms only. Positive entries are kept (rounding there can only overstate the loss
/// by as much as it could understate it; see docs/reference/accounting-random-walk.md).
void repair_negative_entries(const gossip::GossipMatrix& w, std::size_t steps, DenseMatrix& series) {
  const Eigen::Index n = series.rows();
  std::optional<SparseMatrix> wt;  // Wᵀ, formed once for the first row that needs propagation
  for (Eigen::Index u = 0; u < n; ++u) {
    if (series.row(u).minCoeff() >= 0.0) continue;
    const std::vector<std::uint32_t> hops = graph::bfs_distances(w.graph(), static_cast<graph::NodeId>(u));
    bool propagate = false;
    for (Eigen::Index v = 0; v < n; ++v) {
      if (series(u, v) >= 0.0) continue;
      if (hops[static_cast<std::size_t>(v)] > steps) {
        series(u, v) = 0.0;
      } else {
        propagate = true;
      }
    }
    if (propagate) {
      DenseMatrix row(1, n);
      if (!wt) wt = transposed(w.matrix());
      propagate_block(*wt, steps, u, 1, row, 0);
      series.row(u) = row.row(0);
    }
  }
}

}  // namespace

RandomWalkSeries random_walk_series(const gossip::GossipMatrix& w, std::size_t steps,
                                    RandomWalkSeriesMethod method, bool with_returns) {
  check_series_input(w, steps, "random_walk_series");
  // S_T(W) is a dense n × n matrix; the spectral methods hold about four of that size at once, and
  // the return spectrum two more (its weights and the Gram matrix of its check).
  const auto n = static_cast<double>(w.num_nodes());
  util::require_memory((with_returns ? 48.0 : 32.0) * n * n, "the random-walk accountant",
                       fmt::format("S_T(W) and its eigendecomposition, {} n x n matrices of 8 bytes, n = {}",
                                   with_returns ? "six" : "four", w.num_nodes()),
                       "use a smaller graph");
  std::optional<detail::BipartiteSplit> split;
  if (method == RandomWalkSeriesMethod::automatic || method == RandomWalkSeriesMethod::spectral_bipartite) {
    if (w.is_symmetric()) split = detail::bipartite_split(w);
  }
  const bool symmetric = w.is_symmetric();
  const bool reversible = symmetric || gossip::symmetry_class(w) == gossip::SymmetryClass::reversible;
  if (method == RandomWalkSeriesMethod::automatic) {
    method = split        ? RandomWalkSeriesMethod::spectral_bipartite
             : reversible ? RandomWalkSeriesMethod::spectral
                          : RandomWalkSeriesMethod::propagation;
  }
  RandomWalkSeries series;
  series.steps = steps;
  series.method = method;
  if (method == RandomWalkSeriesMethod::propagation) {
    series.matrix = propagate_series(w.matrix(), steps);
    return series;
  }
  if (method == RandomWalkSeriesMethod::spectral && !symmetric) {
    require(reversible,
            "random_walk_series: the spectral method needs a symmetric or reversible W; use "
            "the propagation method for this W");
    series.matrix = reversible_series(w, steps);
    repair_negative_entries(w, steps, series.matrix);
    return series;
  }
  check_symmetric(w, "random_walk_series");
  if (method == RandomWalkSeriesMethod::spectral_bipartite) {
    require(
        split.has_value(),
        "random_walk_series: spectral_bipartite needs a zero diagonal and a bipartite graph with two equal "
        "parts; use spectral");
    series.matrix = detail::bipartite_series(w, *split, steps);
    repair_negative_entries(w, steps, series.matrix);
    return series;
  }
  const linalg::SymmetricEigen eig = eigen_of(w);
  if (with_returns && has_return_spectrum(w))
    series.returns = std::make_shared<const ReturnSpectrum>(return_spectrum(w, eig));
  series.matrix = reconstruct_without_top(
      eig, [steps](double lambda) { return partial_log_series(lambda, steps); }, harmonic_number(steps));
  repair_negative_entries(w, steps, series.matrix);
  return series;
}

Vector random_walk_series_row(const gossip::GossipMatrix& w, graph::NodeId target, std::size_t steps) {
  check_series_input(w, steps, "random_walk_series_row");
  const std::size_t n = w.num_nodes();
  require(target < n, "random_walk_series_row: target {} is out of range (n = {})", target, n);
  DenseMatrix row(1, static_cast<Eigen::Index>(n));
  propagate_block(transposed(w.matrix()), steps, static_cast<Eigen::Index>(target), 1, row, 0);
  return row.row(0).transpose();
}

RandomWalkTheorem3 random_walk_theorem3(const gossip::GossipMatrix& w, std::size_t steps) {
  check_series_input(w, steps, "random_walk_theorem3");
  check_symmetric(w, "random_walk_theorem3");
  const linalg::SymmetricEigen eig = eigen_of(w);
  const Eigen::Index n = eig.values.size();
  RandomWalkTheorem3 result;
  // Tail of mode k: |Σ_{i>T} λ^i/i| <= |λ|^{T+1} / (T+1) · (1/(1−λ) if λ > 0, else 1: alternating).
  // With Σ_k |φ_k(u) φ_k(v)| <= 1 (Cauchy–Schwarz), the largest tail bounds every entry.
  const double t1 = static_cast<double>(steps) + 1.0;
  double rho = 0.0;
  double bound = 0.0;
  for (Eigen::Index k = 0; k + 1 < n; ++k) {
    const double lambda = std::clamp(eig.values[k], -1.0, 1.0);
    rho = std::max(rho, std::abs(lambda));
    const double tail = std::pow(std::abs(lambda), t1) / t1;
    bound = std::max(bound, lambda > 0.0 ? tail / (1.0 - lambda) : tail);
  }
  result.second_eigenvalue_modulus = rho;
  // −log(I − W + 11ᵀ/n): eigenvalue 1 on 1/√n (log 1 = 0), −log(1 − λ_k) on φ_k, k >= 2.
  result.matrix = reconstruct_without_top(
      eig, [](double lambda) { return -std::log1p(-std::max(-1.0, lambda)); }, harmonic_number(steps));
  result.truncation_bound = bound;
  return result;
}

}  // namespace netdp::accounting
