// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal building blocks of maximize_over_signs (sign_max.hpp): local search, exact
// branch-and-bound search over sign vectors, and the verified SDP dual bound. All functions take
// the symmetrised K.

#include <cmath>
#include <cstdint>

#include "netdp/util/rng.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting::sign_max_detail {

/// sᵀ K s evaluated directly (no incremental updates).
double quadratic_form(const DenseMatrix& k, const Vector& s);

/// Signs from a spanning forest of the "sign graph" (edge i–j when K_ij != 0): s_j = s_i·sign(K_ij).
/// When that graph is balanced (e.g. K >= 0 entrywise), sᵀKs = Σ|K_ij|, the maximum.
Vector sign_graph_colouring(const DenseMatrix& k);

/// Signs of a real vector (0 maps to +1).
Vector signs_of(const Vector& v);

/// Moves s to a local maximum of sᵀKs under single flips (and pair flips when two_flip): repeats
/// the best improving move while it gains more than min_gain. Returns sᵀKs evaluated directly.
double improve_locally(const DenseMatrix& k, Vector& s, bool two_flip, double min_gain);

struct SearchOutcome {
  bool completed = false;   ///< false when the node budget ran out
  std::int64_t nodes = 0;   ///< children evaluated
  double best_value = 0.0;  ///< max sᵀKs found (the maximum when completed)
  Vector best_signs;
};

/// Depth-first branch and bound over s ∈ {±1}^m (s_0 fixed to +1 by the symmetry s ↦ −s) with
/// Russian-doll bounds: the maxima of the trailing principal blocks are solved first, smallest
/// first, and bound every partial assignment by  fixed part + 2·Σ_free |field_j| + max(trailing
/// block). Starts from the incumbent (value, signs). node_budget < 0 means unlimited.
SearchOutcome branch_and_bound(const DenseMatrix& k, const Vector& incumbent_signs, double incumbent_value,
                               std::int64_t node_budget);

struct SdpOutcome {
  double bound = 0.0;      ///< Σ max(y_i + shift, 0): verified upper bound on cᵀKc over the box
  double primal = 0.0;     ///< tr(K V Vᵀ) of the final Burer–Monteiro factor (a lower bound of the SDP)
  double shift = 0.0;      ///< uniform shift added to y so that Diag(y) − K ⪰ 0 is verified
  int sweeps = 0;          ///< coordinate-ascent sweeps used
  bool converged = false;  ///< primal stopped improving before max_sweeps
  DenseMatrix factor;      ///< V (m × rank), unit rows: for hyperplane rounding
};

/// Checks that K is square, finite and symmetric to `tolerance` relative to max|K_ij| (the
/// message names the entry) and returns its symmetric part (same quadratic form).
DenseMatrix validated_symmetric_part(const Eigen::Ref<const DenseMatrix>& k, double tolerance);

/// The validated symmetric part of K divided by 2^exponent so that max|K| is in [1, 2): an exact
/// scaling (a power of two) that keeps norms and squares far from overflow and underflow. Also
/// throws when Σ|K_ij| is not finite or above 4.4e307.
struct ScaledK {
  DenseMatrix k;
  int exponent = 0;
  double unscale(double x) const { return std::ldexp(x, exponent); }
};
ScaledK scaled_symmetric_part(const Eigen::Ref<const DenseMatrix>& k, double tolerance);

/// Rounding allowance of any evaluation of sᵀKs, tr(K VVᵀ) or Σ|K| for an m × m K (m² products
/// and sums; recursive summation errs by at most n·ε·Σ|terms|), doubled for comparisons.
double evaluation_rounding(Eigen::Index m, double sum_abs);

/// tr(Vᵀ K V) = Σ_i v_i · (K V)_i, with K V row by row (independent of the thread count).
double primal_objective(const DenseMatrix& k, const DenseMatrix& v);

/// m × rank matrix of independent uniformly random unit rows.
DenseMatrix random_unit_rows(Eigen::Index m, int rank, util::Rng& rng);

/// One cyclic sweep of the mixing method: v_i ← normalise(Σ_{j≠i} K_ij v_j) for each row i, which
/// never decreases tr(K V Vᵀ) over unit rows.
void mixing_sweep(const DenseMatrix& k, DenseMatrix& v);

struct VerifiedDual {
  double bound = 0.0;  ///< Σ max(y_i + shift, 0), rounded up: bounds tr(KG) for G ⪰ 0, diag(G) <= 1
  double shift = 0.0;  ///< uniform shift added to y so that Diag(y) − K ⪰ 0 is verified
};

/// The dual certificate read from a factor V (y_i = K_ii + ‖Σ_{j≠i} K_ij v_j‖, exact at a
/// stationary point), shifted by the negative part of λ_min(Diag(y) − K) plus the eigen-solver's
/// error margin, so that Diag(y) − K ⪰ 0 holds for the returned bound.
VerifiedDual verified_dual(const DenseMatrix& k, const DenseMatrix& v);

/// The same verification for a given dual vector y.
VerifiedDual verified_bound(const DenseMatrix& k, Vector y);

/// SDP relaxation max tr(KX) s.t. diag(X) = 1, X ⪰ 0, solved approximately by the mixing
/// method (Burer–Monteiro X = VVᵀ, block-coordinate ascent v_i ← normalise(Σ_{j≠i} K_ij v_j)).
/// Dual: y_i = K_ii + ‖Σ_{j≠i} K_ij v_j‖; then λ_min(Diag(y) − K) is computed and y is shifted
/// by its negative part plus an eigen-solver error margin, so the certificate Diag(y) − K ⪰ 0
/// holds for the returned bound (weak duality: cᵀKc <= cᵀDiag(y)c <= Σ max(y_i, 0)).
SdpOutcome sdp_dual_bound(const DenseMatrix& k, int rank, int max_sweeps, util::Rng& rng);

/// Error margin of a computed eigenvalue of the symmetric m × m matrix a (backward-stable solver:
/// |λ_computed − λ| <= p(m)·ε·‖a‖₂; we take 64(m+1)·ε·‖a‖_F).
double eigenvalue_margin(const DenseMatrix& a);

}  // namespace netdp::accounting::sign_max_detail
