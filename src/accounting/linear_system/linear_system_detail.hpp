// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internals of the Koskela–Kulkarni accountants shared by linear_system*.cpp:
// resolved options, the coefficient rows of a view, and the per-view solve.

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "accounting/exact/rank_certificate.hpp"
#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/accounting/linear_system/linear_system.hpp"

namespace netdp::accounting::detail {

/// LinearSystemOptions after defaults and validation against a schedule.
struct Resolved {
  LinearSystemView view = LinearSystemView::secure_sum;
  std::size_t rounds = 1;  ///< T injections
  std::size_t steps = 1;   ///< K gossip steps per injection
  int power = 1;           ///< first power p
  bool keep_observer_noise = false;
  RankOptions rank;
  std::size_t num_nodes = 0;
  bool fixed = true;                     ///< time-invariant W
  std::vector<SparseMatrix> transposed;  ///< W_mᵀ (row-major) for the gossip steps used
  /// Exact ranks for the views whose observations are dependent (built on first use).
  std::shared_ptr<const LazyRankCertifier> certifier;
};

Resolved resolve(const gossip::Schedule& schedule, const LinearSystemOptions& options);

/// The nodes whose states form the view of `target` against `observers`:
/// the observers (secure-sum), N̄_target (secure-sum-adaptive), {target} (plain).
std::vector<graph::NodeId> view_rows(const gossip::Schedule& schedule, const Resolved& r,
                                     std::span<const graph::NodeId> observers, graph::NodeId target);

/// Coefficients of a view with c row nodes: observation o = step * c + j
/// (m = K·T·c observations) and injection s. The coefficient of node u is
///   fixed W:     lag(o − s·shift)(u) = e_{r_j}ᵀ W^{step − sK + p} e_u   (zero for o < s·shift),
///   time-varying: block[s](o, u)    = e_{r_j}ᵀ W_{step−1+p} ⋯ W_{sK} e_u,
/// with shift = K·c. Matrices are m x n, column u = the coefficients of node u.
struct ViewRows {
  std::size_t injections = 0;
  std::size_t observations = 0;
  std::size_t shift = 0;
  bool toeplitz = true;
  DenseMatrix lag;                   ///< toeplitz: row o' = lag o'
  std::vector<DenseMatrix> block;    ///< time-varying: one per injection
  std::vector<graph::NodeId> nodes;  ///< the row nodes r_j
};

ViewRows build_view_rows(const Resolved& r, std::span<const graph::NodeId> row_nodes);

/// Fixed-W rows for a batch of single-node views at once (one sparse
/// matrix–block product per power): out[k] is the ViewRows of batch[k]. `out` and
/// `blocks` (the powers) are scratch kept from call to call, so that their memory
/// is reused.
void build_single_rows_batch(const Resolved& r, std::span<const graph::NodeId> batch,
                             std::vector<ViewRows>& out, std::vector<double>& blocks);

/// B Bᵀ of a view with the noise of `excluded` nodes removed (diagonal
/// cumulative sum of the lag Gram matrix for fixed W).
DenseMatrix noise_gram(const ViewRows& rows, std::span<const graph::NodeId> excluded);

/// F with (B Bᵀ)⁺ = Fᵀ F: the inverse Cholesky factor (lower triangular) when
/// B Bᵀ has full numerical rank, else Λ_r^{-1/2} Q_rᵀ. Diagnostics as in TargetGram.
struct Factor {
  DenseMatrix f;  ///< rank x m
  bool lower_triangular = false;
  std::size_t rank = 0;
  double condition = 1.0;
  double subspace_margin = 0.0;                  ///< TargetGram::subspace_margin of every K_u of the view
  double certificate_failure_probability = 0.0;  ///< TargetGram::certificate_failure_probability
  std::vector<Diagnostic> warnings;
};
Factor factor_noise_gram(const DenseMatrix& bbt, const RankOptions& options);

/// Per-target summary of K_u computed inside the kernels.
struct GramSummary {
  double ones = 0.0;         ///< 1ᵀ K 1
  double sum_abs = 0.0;      ///< Σ |K_ij|
  bool nonnegative = false;  ///< K_ij >= 0 for every entry
};
/// Receives targets[k]'s summary and, when requested, K_u (T x T, row-major).
using GramEmit = std::function<void(std::size_t k, const GramSummary& summary, const double* gram)>;

/// K_u for every target via batched kernels over chunks of targets; calls emit once
/// for each targets[k], not in order. gram is K_u for every target with a negative entry in K_u
/// (its bound needs it) and for all targets when want_gram; otherwise it may be nullptr.
void target_grams(const ViewRows& rows, const Factor& factor, std::span<const graph::NodeId> targets,
                  bool want_gram, const GramEmit& emit);

}  // namespace netdp::accounting::detail
