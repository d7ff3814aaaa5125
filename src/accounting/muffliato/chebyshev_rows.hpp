// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the accounting module: the messages of a Muffliato view under a fixed symmetric W in
// a Chebyshev basis, with a certified bound on their rounding error (docs/reference/accounting-muffliato.md,
// "Ill-conditioned views: the Chebyshev basis").
//
// The rows (W^t e_w)ᵀ, t < T, w a sender, span the block Krylov space K = span{p(W) e_w : deg p < T}.
// Powers are an ill-conditioned basis of K: on large graphs their singular values fall smoothly to
// the rounding floor and no rank decision on them can be certified. For α ≠ 0 the Chebyshev
// polynomial T_t(αW + βI) has exact degree t in W, so the rows c_{t,w} = (T_t(αW + βI) e_w)ᵀ span
// the same K, sender by sender, in exact arithmetic. With the spectrum of αW + βI inside [−1, 1]
// every T_t is bounded by 1 on it, the basis is far better conditioned, and the three-term
// recurrence's rounding error obeys e_t = Σ_{j ≤ t} U_{t−j}(αW + βI) δ_j (U the Chebyshev polynomials
// of the second kind, |U_k| <= k + 1 on [−1, 1]), so ‖e_t‖ <= Σ_j (t − j + 1) ‖δ_j‖. The local
// errors δ_j are measured: the residual of each computed step, evaluated in double-double (exact
// products by FMA, exact sums by TwoSum), plus a bound on the rounding of that evaluation.

#include <Eigen/Core>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting::detail {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// next = M x for M in compressed row-major (CSR) form and a row-major block x (n × B)
/// (csr_times_block).
void multiply_rows(const SparseMatrix& m, const RowMajorMatrix& x, RowMajorMatrix& next);

/// The blocks between the senders S of a basis of polynomials in a symmetric W: P_t(i, j) = p_t(W)_{s_i s_j}
/// with p_t = W^t (powers) or T_t(W̃) (Chebyshev), for t <= 2·last. Called at each step of the
/// propagation with x_t = `current` and x_{t−1} = `previous` (n × |S|, row-major, columns e_s
/// propagated): it reads blocks[t] off x_t while t <= last, and fills the blocks beyond `last` from
/// the products of two propagated blocks, W^{2t} = (W^t)², W^{2t−1} = W^t W^{t−1}, or
/// T_{2t} = 2T_t² − I, T_{2t−1} = 2T_t T_{t−1} − T_1 (so blocks[2t] = x_tᵀx_t, or 2x_tᵀx_t − I, ...).
enum class SenderBasis { powers, chebyshev };
void sender_blocks(const RowMajorMatrix& current, const RowMajorMatrix& previous,
                   const std::vector<graph::NodeId>& senders, std::size_t time, std::size_t last,
                   SenderBasis basis, std::vector<DenseMatrix>& blocks);

/// Whether W = Wᵀ entry for entry (no tolerance: the Chebyshev bounds need a symmetric W).
bool exactly_symmetric(const SparseMatrix& w);

/// lower <= λ_min(W) and λ_max(W) <= upper for a symmetric W (throws otherwise), proven: the upper end by
/// Gershgorin (rounded up), the lower end by a Cholesky factorisation of W − aI that succeeds in floating
/// point (Demmel's bound: λ_min(W − aI) >= −γ_{n+1} ‖R̂‖_F², Higham Theorem 10.3), a from a Lanczos estimate.
/// Falls back to Gershgorin's −upper when n is too large for a dense factorisation or the estimate
/// cannot be verified.
struct SpectralInterval {
  double lower = -1.0;
  double upper = 1.0;
};
SpectralInterval certified_spectral_interval(const SparseMatrix& w);

/// A message: sender `sender`'s state after `time` steps.
struct TimedSender {
  std::size_t time = 0;
  graph::NodeId sender = 0;
};

/// The lower triangle of C Cᵀ for the full rows of `messages` in the basis `basis`, from the sender
/// blocks that sender_blocks filled up to twice the last message time (`senders` sorted): with no
/// m² n product, G[(s,w),(t,w′)] = (W^{s+t})_{ww′} for the powers, and
/// (T_{s+t}(W̃)_{ww′} + T_{|s−t|}(W̃)_{ww′}) / 2 for Chebyshev (T_sT_t = (T_{s+t} + T_{|s−t|}) / 2).
DenseMatrix gram_from_sender_blocks(std::span<const TimedSender> messages,
                                    const std::vector<graph::NodeId>& senders,
                                    const std::vector<DenseMatrix>& blocks, SenderBasis basis);

/// The rows c_{t,w} of the messages (one row each, in the given order, which must be sorted by time;
/// senders < n) and a bound
/// on ‖Ĉ − C‖_F over them, where C is the exact Chebyshev basis of the affine map sending the
/// interval onto [−1, 1]. Every row of C lies in the row space of the messages' powers W^t e_w, and
/// the two span the same space.
struct ChebyshevRows {
  DenseMatrix rows;            ///< m × n
  double forward_error = 0.0;  ///< >= ‖Ĉ − C‖_F (an upper bound on ‖Ĉ − C‖₂)
  double alpha = 1.0;          ///< the map W -> αW + βI whose Chebyshev polynomials the rows are
  double beta = 0.0;
  /// With `with_gram`: the lower triangle of C Cᵀ from the product identity
  /// T_s T_t = (T_{s+t} + T_{|s−t|}) / 2 between the senders (T(W̃) symmetric), with no m² n product.
  std::optional<DenseMatrix> gram;
};

/// The forward error bound of every node's Chebyshev rows as a sender, up to `last_time`: at(w, t)
/// >= ‖ĉ_{t,w} − c_{t,w}‖ for the row that chebyshev_rows computes for a message (t, w). Each column
/// of the recurrence is computed and measured independently of the others in its block (the sparse
/// product, the step and the measured residual all treat columns one by one, in the same order), so
/// the bound of sender w at time t is the same in every view that hears w: measured once here for
/// all n senders (n·T sparse steps in double-double) instead of once per view that hears them.
class ChebyshevErrorTable {
 public:
  double at(graph::NodeId sender, std::size_t time) const;
  std::size_t nodes() const { return nodes_; }
  std::size_t last_time() const { return last_time_; }
  /// The map W -> αW + βI of the rows the bounds are for.
  double alpha() const { return alpha_; }
  double beta() const { return beta_; }

 private:
  friend ChebyshevErrorTable chebyshev_error_table(const SparseMatrix& w, SpectralInterval interval,
                                                   std::size_t last_time);
  std::size_t nodes_ = 0;
  std::size_t last_time_ = 0;
  double alpha_ = 1.0;
  double beta_ = 0.0;
  std::vector<double> errors_;  ///< sender-major, last_time + 1 entries per sender
};

/// The table for every sender of W, t <= last_time (OpenMP over blocks of senders).
ChebyshevErrorTable chebyshev_error_table(const SparseMatrix& w, SpectralInterval interval,
                                          std::size_t last_time);

/// With `errors` for the same map and at least as deep, the bounds are read from it and not measured.
ChebyshevRows chebyshev_rows(const SparseMatrix& w, SpectralInterval interval,
                             std::span<const TimedSender> messages, bool with_gram = false,
                             const ChebyshevErrorTable* errors = nullptr);

}  // namespace netdp::accounting::detail
