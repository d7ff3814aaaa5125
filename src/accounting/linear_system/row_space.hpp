// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the accounting module: an orthonormal basis of the row space of a dense view
// matrix A (m × N), as far as floating point resolves it, and the margin that makes a
// projector computed from it an upper bound.
//
// Every Gaussian view whose inputs enter with the coefficients of the noise (Muffliato gossip,
// the Koskela–Kulkarni linear systems, PNDP DP-D-SGD and Muffliato-SGD) has A_u = columns of
// B, so K_u = A_uᵀ (B Bᵀ)⁺ A_u is a block of the projector P on row(B): K_u = Z_uᵀ Z_u for
// any orthonormal basis Z of row(B). The Gram B Bᵀ resolves singular values of B only down to
// about sqrt(ε) σ_max; a randomized range finder on the residual B − B ZᵀZ finds the directions
// below that, down to the rounding of B itself. Singular values at or below that floor are taken as
// 0 (a rank decision), and the computed projector P is widened by the perturbation margin s of
// its subspace: ‖(P_exact − P) x‖ <= s ‖x‖, so xᵀP_exact x <= (sqrt(xᵀP x) + s ‖x‖)².

#include <Eigen/Core>
#include <limits>
#include <optional>

#include "netdp/accounting/account/certificate.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting::detail {

/// The computed row space of A and how far it can be from the exact one.
struct RowSpace {
  DenseMatrix basis;               ///< r × N, orthonormal rows spanning the resolved row(A)
  bool rank_decided = false;       ///< directions at or below the floor were taken as 0
  double margin = 0.0;             ///< s >= ‖P_exact − P‖₂ (capped at 1: then nothing is trusted)
  double smallest_singular = 0.0;  ///< the smallest singular value of A kept
  bool dense_spectrum = false;     ///< given up by the effort limit on a dense spectrum (margin 1)
  Eigen::Index rank() const { return basis.rows(); }
};

/// The rounding floor of a view's Gram relative to ‖A‖_F² = tr(A Aᵀ): entries of A built by
/// `depth` matrix products (about 2·depth ulps each), the Gram's own sums (columns) and the
/// eigensolver (rows).
double rounding_floor_factor(Eigen::Index columns, Eigen::Index rows, std::size_t depth);

/// min(non-zero rows, non-zero columns) of `a`: a bound on its rank in exact arithmetic.
Eigen::Index structural_rank(const DenseMatrix& a);

/// The row space of `a`. `known_gram` (lower triangle of a aᵀ) is used when given;
/// `structural_rank` bounds rank(a) in exact arithmetic (e.g. its non-zero columns). Gives up, with
/// no basis and margin 1, as soon as the margin is certain to exceed `abandon_margin`: for a caller
/// with a better-conditioned basis of the same space to try next, or one that reports such a view
/// at the cap anyway.
///
/// `give_up_dense_spectrum` adds a limit of effort, not of validity: the view is also given up when
/// its singular values are still dense below the Gram's resolution: the last 128 pivots of the
/// Gram's pivoted Cholesky within a factor F <= 16 of each other, enough rows left to reach the floor
/// at that rate (128·ln(L_last / floor) / ln F) or at the fourth sketch's own rate, and the first four
/// sketches of the completion each finding as many directions as they had probes (16, 32, 64, 128).
/// Such a spectrum runs on down to the floor, so its margin ends near 1 after hundreds more
/// directions; the view is reported at the cap, which is always a valid bound, and flagged
/// (RowSpace::dense_spectrum).
RowSpace row_space(const DenseMatrix& a, std::optional<DenseMatrix> known_gram, double floor_factor,
                   Eigen::Index structural_rank,
                   double abandon_margin = std::numeric_limits<double>::infinity(),
                   bool give_up_dense_spectrum = false);

/// Finishes a row space from `z`, orthonormal rows spanning part of row(a) whose smallest
/// singular value in `a` is `smallest_singular`: appends the directions of the residual a − a zᵀz
/// above the floor (up to `structural_rank`) and sets the margin. `margin` carries what the caller already
/// lost (0 or 1).
RowSpace complete_row_space(const DenseMatrix& a, DenseMatrix z, double smallest_singular,
                            Eigen::Index structural_rank, double floor_factor, double margin,
                            double abandon_margin = std::numeric_limits<double>::infinity());

/// K = Z_Sᵀ Z_S for the basis columns S = {first + s·stride : s < count}: the block of the computed
/// projector at those coordinates (a target's columns over its rounds).
DenseMatrix projector_block(const RowSpace& space, Eigen::Index first, Eigen::Index stride,
                            Eigen::Index count);

/// Σ|K| of a computed projector block of `size` × `size` widened by the margin s: each entry of the
/// exact block differs from the computed one by at most s.
double widen_sum_abs(double sum_abs, double margin, std::size_t size);

/// What a value widened by margin s is: an upper bound, or, at s >= 1 (nothing of the computed space
/// trusted), the cap as a give-up.
inline Certificate margin_certificate(double margin) {
  return margin >= 1.0 ? Certificate::cap_undetermined : Certificate::upper_bound;
}

/// (sqrt(value) + s·sqrt(size))², capped at nothing: the value of a computed projector block on
/// a box of `size` coordinates of magnitude <= 1, widened by the margin s of its subspace.
double widen_by_margin(double value, double margin, std::size_t size);

}  // namespace netdp::accounting::detail
