#pragma once
// Private to the accounting module: the messages of a Muffliato view under a fixed symmetric W in
// a Chebyshev basis, with a certified bound on their rounding error (docs/accounting-muffliato.md,
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
#include <span>
#include <vector>

#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting::detail {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// next = Wᵀ x for a row-major block x (n × B): row j of W scatters into the rows of its columns.
void propagate_transposed(const SparseMatrix& w, const RowMajorMatrix& x, RowMajorMatrix& next);

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
};
ChebyshevRows chebyshev_rows(const SparseMatrix& w, SpectralInterval interval,
                             std::span<const TimedSender> messages);

}  // namespace netdp::accounting::detail
