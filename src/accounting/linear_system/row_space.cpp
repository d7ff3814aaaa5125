// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "accounting/linear_system/row_space.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::accounting::detail {
namespace {

using Index = Eigen::Index;

/// Gaussian probes of the residual in the first completion step (see sketch_residual); later
/// steps take twice as many as the directions the step before added, up to kMaxProbes.
constexpr Index kProbes = 16;
constexpr Index kMaxProbes = 256;

/// Halko, Martinsson & Tropp (2011), Lemma 4.1: for k standard Gaussian vectors ω_i,
/// ‖R‖₂ <= 10·sqrt(2/π)·max_i ‖Rᵀω_i‖ except with probability 10^{−k}, whatever R's size.
constexpr double kProbeFactor = 7.978845608028654;  // 10·sqrt(2/π)

/// A dense spectrum below the Gram's resolution (see row_space): the last kDenseTailPivots pivots
/// of the Gram's pivoted Cholesky within a factor kDenseTailSpread of each other, and the first
/// kDenseTailSketches sketches of the residual each finding as many directions as they had probes.
constexpr Index kDenseTailPivots = 128;
constexpr double kDenseTailSpread = 16.0;
constexpr std::uint64_t kDenseTailSketches = 4;

/// rows <- rows − (rows Zᵀ) Z: the rows taken off span Z once (Z with orthonormal rows).
void project_off(DenseMatrix& rows, const DenseMatrix& z) {
  if (z.rows() > 0 && rows.rows() > 0) linalg::subtract_product(rows, linalg::product_transposed(rows, z), z);
}

/// Y = Ωᵀ(A − A ZᵀZ) for `probes` Gaussian columns ω_i (Z with orthonormal rows): a sketch of the
/// residual R that costs O(k(m + 2r)N) instead of R's 4mrN. Seeded by `step`: deterministic.
DenseMatrix sketch_residual(const DenseMatrix& a, const DenseMatrix& z, Index probes, std::uint64_t step) {
  util::Rng rng(0x5eedf00dULL + step);
  DenseMatrix omega(a.rows(), probes);
  for (Index j = 0; j < probes; ++j)
    for (Index i = 0; i < a.rows(); ++i) omega(i, j) = rng.standard_normal();
  DenseMatrix rows = linalg::transposed_product(omega, a);  // ΩᵀA (probes × N)
  project_off(rows, z);
  return rows;
}

/// Orthonormal rows `rows` taken off span Z, then made orthonormal again by an SVD that keeps the
/// directions with singular value above 1/2 (a direction that lost more than half its norm was
/// mostly in span Z; the SVD, unlike a Cholesky of the Gram, never fails). Projected once, and once
/// more only when a row lost more than 1 − 1/√2 of its norm ("twice is enough", Parlett, The
/// Symmetric Eigenvalue Problem, §6.9): what one projection leaves in span Z is the rounding of the
/// part it removed.
DenseMatrix taken_off(DenseMatrix rows, const DenseMatrix& z) {
  project_off(rows, z);
  if (rows.rows() > 0 && rows.rowwise().norm().minCoeff() < std::sqrt(0.5)) project_off(rows, z);
  const linalg::ThinSvd svd = linalg::thin_svd(rows.transpose());
  Index kept = 0;
  while (kept < svd.values.size() && svd.values[kept] > 0.5) ++kept;
  return svd.left.leftCols(kept).transpose();
}

/// Orthonormal rows spanning what the sketch `y` (already taken off Z once) adds to span Z: a
/// candidate subspace V, orthogonal to Z to working precision (y taken off Z once more, the left
/// singular vectors of yᵀ above its rounding, then taken_off). Empty when nothing is left.
/// Candidates only steer the search: what is appended is decided by found_directions.
DenseMatrix candidate_directions(DenseMatrix y, const DenseMatrix& z) {
  project_off(y, z);
  const linalg::ThinSvd svd = linalg::thin_svd(y.transpose());
  const double largest = svd.values.size() > 0 ? svd.values[0] : 0.0;
  const double resolution = std::numeric_limits<double>::epsilon() * static_cast<double>(y.cols()) * largest;
  Index kept = 0;
  while (kept < svd.values.size() && svd.values[kept] > resolution) ++kept;
  if (kept == 0) return DenseMatrix(0, y.cols());
  return taken_off(svd.left.leftCols(kept).transpose(), z);
}

/// The directions of row(A) off span Z found on the candidates V, as orthonormal rows, and a lower bound
/// on A's singular values along them. The SVD A Vᵀ = U Σ Xᵀ (A Vᵀ = R Vᵀ, as V ⊥ Z) picks the left
/// vectors u with σ above the floor; the rows M = Uᵀ R = Uᵀ A (I − ZᵀZ) lie in row(A) off Z (V itself
/// need not lie in row(A), so it is never appended). What is appended is the right singular vectors
/// q_j of M = P S Qᵀ with s_j above the floor: for x in their span ‖R x‖ >= ‖Uᵀ R x‖ >= s_min ‖x‖, and
/// s_j >= σ_j (M Xᵀ has the singular values σ). An SVD, not M's Gram, so that a batch whose singular
/// values span more than half the digits of a double keeps its smallest ones.
struct FoundDirections {
  DenseMatrix rows;
  double smallest_singular = 0.0;
  double largest_singular = 0.0;  ///< s_1 of M: with smallest_singular, the batch's rate of decay
};
FoundDirections found_directions(const DenseMatrix& a, const DenseMatrix& z, const DenseMatrix& v,
                                 double floor) {
  FoundDirections out;
  const linalg::ThinSvd picked = linalg::thin_svd(linalg::product_transposed(a, v));
  Index kept = 0;
  while (kept < picked.values.size() && picked.values[kept] > floor) ++kept;
  if (kept == 0) return out;
  DenseMatrix rows = linalg::transposed_product(picked.left.leftCols(kept), a);  // (Aᵀ U)ᵀ
  for (int twice = 0; twice < 2; ++twice) project_off(rows, z);
  const linalg::ThinSvd spanned = linalg::thin_svd(rows.transpose());
  Index appended = 0;
  while (appended < spanned.values.size() && spanned.values[appended] > floor) ++appended;
  if (appended == 0) return out;
  // Each q_j = Mᵀp_j / s_j carries M's rounding in span Z magnified by s_max / s_j: taken off Z again
  // (for x in the span of what is kept, R x is still R applied to a combination of the q_j).
  DenseMatrix directions = taken_off(spanned.left.leftCols(appended).transpose(), z);
  if (directions.rows() == 0) return out;
  out.smallest_singular = std::min(spanned.values[appended - 1], picked.values[kept - 1]);
  out.largest_singular = spanned.values[0];
  out.rows = std::move(directions);
  return out;
}

/// What row_space returns when it gives up: no basis, no trust (the local-DP cap).
RowSpace abandoned(Index columns, bool dense_spectrum = false) {
  RowSpace out;
  out.basis = DenseMatrix::Zero(0, columns);
  out.rank_decided = true;
  out.margin = 1.0;
  out.dense_spectrum = dense_spectrum;
  return out;
}

/// Whether `rows_left` more directions, their singular values falling from `from` by a factor
/// `spread` every `span` directions, would reach `floor`: rows_left >= span·ln(from / floor) / ln(spread).
bool rate_reaches_floor(double from, double spread, Index span, double floor, Index rows_left) {
  if (!(spread > 1.0) || !(from > floor)) return false;
  const double needed = static_cast<double>(span) * std::log(from / floor) / std::log(spread);
  return static_cast<double>(rows_left) >= needed;
}

/// What the Gram's pivoted Cholesky says about the spectrum below where it stopped (the effort
/// limit of row_space): whether its last kDenseTailPivots pivots L_ii lie within a factor
/// F <= kDenseTailSpread of each other (the spectrum still falls slowly there), and whether the
/// rows it left, up to the structural rank, could carry that rate down to the floor.
struct PivotTail {
  bool slow = false;
  bool reaches_floor = false;
};
PivotTail pivot_tail(const linalg::PivotedCholesky& chosen, double floor, Index structural_rank) {
  PivotTail out;
  if (chosen.rank <= kDenseTailPivots) return out;
  const auto pivots = chosen.factor.diagonal();
  const double last = pivots[chosen.rank - 1];
  const double spread = pivots[chosen.rank - kDenseTailPivots] / last;
  out.slow = spread > 1.0 && spread <= kDenseTailSpread && last > floor;
  out.reaches_floor =
      out.slow && rate_reaches_floor(last, spread, kDenseTailPivots, floor, structural_rank - chosen.rank);
  return out;
}

}  // namespace

double rounding_floor_factor(Index columns, Index rows, std::size_t depth) {
  return std::numeric_limits<double>::epsilon() *
         static_cast<double>(columns + rows + 2 * static_cast<Index>(depth) + 2);
}

Index structural_rank(const DenseMatrix& a) {
  std::vector<unsigned char> row_used(static_cast<std::size_t>(a.rows()), 0);
  Index rows = 0;
  Index columns = 0;
  for (Index j = 0; j < a.cols(); ++j) {  // one pass in storage order
    const double* column = a.data() + j * a.rows();
    if (rows == a.rows()) {  // every row seen: only whether this column is non-zero matters
      columns += std::any_of(column, column + a.rows(), [](double x) { return x != 0.0; }) ? 1 : 0;
      continue;
    }
    bool used = false;
    for (Index i = 0; i < a.rows(); ++i) {
      if (column[i] == 0.0) continue;
      used = true;
      if (row_used[static_cast<std::size_t>(i)] == 0) {
        row_used[static_cast<std::size_t>(i)] = 1;
        ++rows;
      }
    }
    columns += used ? 1 : 0;
  }
  return std::min(rows, columns);
}

namespace {

/// What the completion starts from besides z. `smallest_singular` is the smallest singular value of
/// A on span z; while `factor` is set (z = L⁻¹A[p], A[p] = L z) it is min_i L_ii, an upper bound of
/// σ_min(L), and σ_min(L) itself (an r³ eigenvalue problem) is computed only for a view that is kept
/// without appended directions (with them, σ_min(A Zᵀ) replaces it).
/// `tail`: the pivots' half of row_space's dense-spectrum test (pivot_tail(); all false when the
/// test is off).
struct Start {
  double smallest_singular = 0.0;
  const DenseMatrix* factor = nullptr;
  PivotTail tail;
  double norm = 0.0;  ///< ‖A‖_F
};

/// The columns summed in one block when A Zᵀ is formed for its smallest singular value: ⌈√N⌉, which
/// makes the product's rounding bound γ_{block + ⌈N/block⌉} <= γ_{2√N + 1} instead of γ_N
/// (product_transposed_blocked), but at least kMinProductBlock: a GEMM over fewer columns runs well
/// below the rate of one over all of them (at N = 744, blocks of 28 made a whole all-pairs run 7 %
/// slower).
constexpr Index kMinProductBlock = 64;
Index product_block(Index columns) {
  const auto root = static_cast<Index>(std::ceil(std::sqrt(static_cast<double>(columns))));
  return std::max(kMinProductBlock, root);
}

/// A bound on how far the singular values of the computed A Zᵀ (Z: r orthonormal rows of length N,
/// formed by product_transposed_blocked) lie from the exact ones, as a multiple of ‖A‖_F. The product:
/// |fl(A Zᵀ) − A Zᵀ| <= γ_k |A||Zᵀ| entrywise with k = block + ⌈N/block⌉, and an entry of |A||Zᵀ| is
/// at most ‖a_i‖ (Cauchy–Schwarz on a unit row of Z), so the error's norm is at most γ_k √r ‖A‖_F;
/// the SVD adds p(m, r) ε ‖A Zᵀ‖₂ <= (m + 2) ε ‖A‖_F. Weyl's inequality carries both to σ_min. The
/// product's γ_k is taken with ε = 2u in place of u, as the other allowances here: γ_{2k}.
double product_singular_value_rounding(Index columns, Index rank, Index rows) {
  const Index block = product_block(columns);
  const double terms = static_cast<double>(block + (columns + block - 1) / block);
  return linalg::inner_product_gamma(2.0 * terms) * std::sqrt(static_cast<double>(rank)) +
         std::numeric_limits<double>::epsilon() * static_cast<double>(rows + 2);
}

RowSpace complete(const DenseMatrix& a, DenseMatrix z, Start start, Index structural_rank,
                  double floor_factor, double margin, double abandon_margin) {
  // The Gram resolves singular values only down to about sqrt(floor): complete the basis with the
  // directions of the residual R = A − A ZᵀZ, which holds those at their own scale, down to the
  // floating-point floor of A itself, ε_f ‖A‖_F. An adaptive randomized range finder (Halko,
  // Martinsson & Tropp 2011, Algorithm 4.2) looks for them in sketches ΩᵀR, and found_directions
  // appends the vectors of row(A) they reveal above the floor. It stops when a sketch certifies
  // ‖R‖₂ below the floor (HMT Lemma 4.1: failure probability 10^{−k} for k probes), or when nothing
  // above the floor is left to find; then ‖R‖_F, computed in full, bounds what was left out.
  RowSpace out;
  out.margin = margin;
  const Index n = a.cols();
  Index rank = z.rows();
  const Index start_rank = rank;
  const double norm = start.norm;
  const double residual_floor = floor_factor * norm;
  double residual_bound = 0.0;  // a bound on ‖A − A ZᵀZ‖₂ (0: not needed, the rank is structural)
  Index probes = kProbes;
  double smallest_singular = start.smallest_singular;
  bool every_sketch_full = true;
  for (std::uint64_t step = 0; rank < structural_rank && out.margin < 1.0; ++step) {
    // The margin is at least floor / smallest kept singular value, which only falls from here (and
    // is at most smallest_singular while that is an upper bound).
    if (residual_floor > abandon_margin * smallest_singular) return abandoned(n);
    const DenseMatrix y = sketch_residual(a, z, probes, step);
    residual_bound = kProbeFactor * y.rowwise().norm().maxCoeff();
    if (residual_bound <= residual_floor) break;  // certified: nothing left above the floor
    const DenseMatrix v = candidate_directions(y, z);
    FoundDirections found;
    if (v.rows() > 0) found = found_directions(a, z, v, residual_floor);
    const Index added = found.rows.rows();
    // Every probe found a direction so far: with a dense pivot tail, the effort limit of row_space.
    // The rows left must reach the floor at the pivots' rate or at this sketch's own.
    every_sketch_full = every_sketch_full && added == probes;
    if (start.tail.slow && every_sketch_full && step + 1 == kDenseTailSketches &&
        (start.tail.reaches_floor ||
         rate_reaches_floor(found.smallest_singular, found.largest_singular / found.smallest_singular,
                            added - 1, residual_floor, structural_rank - rank - added)))
      return abandoned(n, true);
    if (added == 0) {
      // What the sketch sees is at or below the floor, but its bound is not: ‖R‖_F, computed
      // in full, is the deterministic bound (and usually below the floor).
      DenseMatrix residual = a;
      project_off(residual, z);
      residual_bound = std::min(residual_bound, residual.norm());
      break;
    }
    DenseMatrix joined(rank + added, n);
    joined << z, found.rows;
    z.swap(joined);
    rank += added;
    smallest_singular = std::min(smallest_singular, found.smallest_singular);
    probes = std::min(kMaxProbes, std::max(kProbes, 2 * added));
  }
  if (rank > start_rank) {
    // The margin needs the smallest singular value of A on the whole kept span, σ_min(A Zᵀ) (Wedin's
    // theorem for A against A ZᵀZ). The blocks' own values — σ_min(L) for the rows the Gram picked,
    // each completion step's s for the directions it added — do not bound it once the completion has
    // added some: the blocks are coupled through A's rows (row_space_test.cpp, CoupledBlocks…). So it
    // is computed from A Zᵀ itself (m × r, r <= m), less the rounding of the product and of its SVD,
    // and it replaces them.
    const Vector values = linalg::singular_values(linalg::product_transposed_blocked(a, z, product_block(n)));
    const double on_span =
        values[values.size() - 1] - product_singular_value_rounding(n, rank, a.rows()) * norm;
    if (!(residual_floor <= abandon_margin * on_span)) return abandoned(n);
    smallest_singular = on_span;
  } else if (start.factor != nullptr) {
    // Without appended directions σ_min(L) bounds it: A[p] Zᵀ = L C holds a subset of A Zᵀ's rows.
    // The exact σ_min(L) <= min_i L_ii, now that the completion has not given the view up.
    const double kept_rows =
        std::sqrt(std::max(linalg::smallest_eigenvalue(linalg::lower_gram(*start.factor)), 0.0));
    if (residual_floor > abandon_margin * kept_rows) return abandoned(n);
    smallest_singular = std::min(smallest_singular, kept_rows);
  }
  // The projector of an orthonormal basis is accurate to about κ(A)·ε_f; a rank decision
  // (directions below the floor taken as 0) adds the perturbation of the kept subspace,
  // sin θ <= E / gap, E the larger of the floor and the residual's certified bound.
  out.rank_decided = rank < structural_rank;
  const double floor = std::max(residual_floor, out.rank_decided ? residual_bound : 0.0);
  const double accuracy = floor / smallest_singular;
  const double gap = out.rank_decided ? floor / std::max(smallest_singular - floor, 0.0) : 0.0;
  out.margin = std::min(1.0, std::max({out.margin, accuracy, gap}));
  out.smallest_singular = smallest_singular;
  out.basis = std::move(z);
  return out;
}

}  // namespace

RowSpace complete_row_space(const DenseMatrix& a, DenseMatrix z, double smallest_singular,
                            Index structural_rank, double floor_factor, double margin,
                            double abandon_margin) {
  return complete(a, std::move(z), Start{smallest_singular, nullptr, PivotTail{}, a.norm()}, structural_rank,
                  floor_factor, margin, abandon_margin);
}

RowSpace row_space(const DenseMatrix& a, std::optional<DenseMatrix> known_gram, double floor_factor,
                   Index structural_rank, double abandon_margin, bool give_up_dense_spectrum) {
  const Index m = a.rows();
  if (m == 0 || structural_rank == 0) {
    RowSpace out;
    out.basis = DenseMatrix::Zero(0, a.cols());
    return out;
  }
  DenseMatrix gram = known_gram ? std::move(*known_gram) : linalg::lower_gram(a);
  const double floor = floor_factor * gram.diagonal().sum();
  // The rows a pivoted Cholesky of the Gram picks (largest remaining norm first, until the rest
  // is at the floor) span the resolved row space: Z = L⁻¹ A[p] has orthonormal rows up to
  // rounding, which one re-orthonormalisation (Cholesky of Z Zᵀ, as in CholeskyQR2) removes.
  // The rows left out are checked, and what they add is found, by the completion.
  const linalg::PivotedCholesky chosen = linalg::pivoted_cholesky(gram, floor);
  const Index rank = chosen.rank;
  if (rank == 0) {
    RowSpace out;
    out.basis = DenseMatrix::Zero(0, a.cols());
    out.rank_decided = true;
    out.margin = 1.0;  // nothing above the floor: no subspace can be trusted
    return out;
  }
  // σ_min(L) <= min_i L_ii bounds the margin from below before any O(r² N) work.
  if (floor_factor * std::sqrt(gram.diagonal().sum()) > abandon_margin * chosen.factor.diagonal().minCoeff())
    return abandoned(a.cols());
  DenseMatrix z(rank, a.cols());
  for (Index j = 0; j < a.cols(); ++j)  // column by column: both matrices in storage order
    for (Index i = 0; i < rank; ++i) z(i, j) = a(chosen.pivots[static_cast<std::size_t>(i)], j);
  linalg::solve_lower_in_place(chosen.factor, z);
  const double margin = linalg::orthonormalize_rows(z) ? 0.0 : 1.0;  // too far from orthonormal to trust
  // A[p] = L Z, so the kept rows' smallest singular value is L's (a lower bound on A's in span Z),
  // computed once the view is known to be kept.
  const double norm = a.norm();
  const Start start{
      chosen.factor.diagonal().minCoeff(), &chosen.factor,
      give_up_dense_spectrum ? pivot_tail(chosen, floor_factor * norm, structural_rank) : PivotTail{}, norm};
  return complete(a, std::move(z), start, structural_rank, floor_factor, margin, abandon_margin);
}

DenseMatrix projector_block(const RowSpace& space, Index first, Index stride, Index count) {
  DenseMatrix columns(space.rank(), count);
  for (Index s = 0; s < count; ++s) columns.col(s) = space.basis.col(first + s * stride);
  return columns.transpose() * columns;
}

double widen_sum_abs(double sum_abs, double margin, std::size_t size) {
  return sum_abs + margin * static_cast<double>(size * size);
}

double widen_by_margin(double value, double margin, std::size_t size) {
  const double root = std::sqrt(std::max(value, 0.0)) + margin * std::sqrt(static_cast<double>(size));
  return root * root;
}

}  // namespace netdp::accounting::detail
