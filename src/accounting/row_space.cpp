#include "row_space.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "dense_kernels.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::accounting::detail {
namespace {

using Index = Eigen::Index;

/// Deflation passes beyond the Gram's resolution (each adds the directions the previous ones
/// could not resolve; one is enough in every case measured).
constexpr int kMaxDeflations = 3;

/// Gaussian probes of the residual before a deflation pass (see residual_is_below).
constexpr Index kProbes = 16;

/// Halko, Martinsson & Tropp (2011), Lemma 4.1: for k standard Gaussian vectors ω_i,
/// ‖R‖₂ <= 10·sqrt(2/π)·max_i ‖Rᵀω_i‖ except with probability 10^{−k}, whatever R's size.
constexpr double kProbeFactor = 7.978845608028654;  // 10·sqrt(2/π)

/// Whether R = A − A ZᵀZ (Z with orthonormal rows) has ‖R‖₂ <= `threshold`, from kProbes Gaussian
/// left probes (false with probability <= 1e-16 when it has not). Each probe costs O((m + 2r) N)
/// instead of the residual's 4mrN. Fixed seed: the result is deterministic.
bool residual_is_below(const DenseMatrix& a, const DenseMatrix& z, double threshold) {
  util::Rng rng(0x5eedf00dULL);
  DenseMatrix probes(a.rows(), kProbes);
  for (Index j = 0; j < kProbes; ++j)
    for (Index i = 0; i < a.rows(); ++i) probes(i, j) = rng.standard_normal();
  DenseMatrix rows = transposed_product(probes, a);  // ωᵀA (probes × N)
  subtract_product(rows, product_transposed(rows, z), z);
  return kProbeFactor * rows.rowwise().norm().maxCoeff() <= threshold;
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

RowSpace complete_row_space(const DenseMatrix& a, DenseMatrix z, double smallest_singular,
                            Index structural_rank, double floor_factor, double margin) {
  // The Gram resolves singular values only down to about sqrt(floor): deflate. The residual
  // R = A − A ZᵀZ holds the directions it could not see, at their own scale; its Gram resolves
  // them down to the floating-point floor of A itself, ε_f ‖A‖_F.
  RowSpace out;
  out.margin = margin;
  const Index m = a.rows();
  const Index n = a.cols();
  Index rank = z.rows();
  const double residual_floor = floor_factor * a.norm();
  for (int pass = 0; pass < kMaxDeflations && rank < structural_rank && out.margin < 1.0; ++pass) {
    if (pass == 0 && residual_is_below(a, z, residual_floor)) break;
    DenseMatrix residual = a;
    subtract_product(residual, product_transposed(a, z), z);
    if (residual.norm() <= residual_floor) break;  // nothing left above the floor
    DenseMatrix residual_gram = lower_gram(residual);
    const double residual_trace = residual_gram.diagonal().sum();
    const double cut = std::max(floor_factor * residual_trace, residual_floor * residual_floor);
    const SymmetricEigen more = symmetric_eigen(std::move(residual_gram));
    Index added = 0;
    while (added < m && more.values[m - 1 - added] > cut) ++added;
    if (added == 0) {
      out.margin = 1.0;  // a residual above the floor that no direction explains: trust nothing
      break;
    }
    DenseMatrix more_basis = more.vectors.rightCols(added);
    for (Index i = 0; i < added; ++i) more_basis.col(i) /= std::sqrt(more.values[m - added + i]);
    DenseMatrix z_more = transposed_product(more_basis, residual);
    // Orthogonal to the rows already kept, then orthonormal (twice, for the rounding).
    for (int twice = 0; twice < 2; ++twice) {
      subtract_product(z_more, product_transposed(z_more, z), z);
      if (!orthonormalize_rows(z_more)) out.margin = 1.0;
    }
    DenseMatrix joined(rank + added, n);
    joined << z, z_more;
    z.swap(joined);
    rank += added;
    smallest_singular = std::min(smallest_singular, std::sqrt(more.values[m - added]));
  }
  // The projector of an orthonormal basis is accurate to about κ(A)·ε_f; a rank decision
  // (directions below the floor taken as 0) adds the perturbation of the kept subspace,
  // sin θ <= floor / gap.
  out.rank_decided = rank < structural_rank;
  const double accuracy = residual_floor / smallest_singular;
  const double gap =
      out.rank_decided ? residual_floor / std::max(smallest_singular - residual_floor, 0.0) : 0.0;
  out.margin = std::min(1.0, std::max({out.margin, accuracy, gap}));
  out.smallest_singular = smallest_singular;
  out.basis = std::move(z);
  return out;
}

RowSpace row_space(const DenseMatrix& a, std::optional<DenseMatrix> known_gram, double floor_factor,
                   Index structural_rank) {
  const Index m = a.rows();
  if (m == 0 || structural_rank == 0) {
    RowSpace out;
    out.basis = DenseMatrix::Zero(0, a.cols());
    return out;
  }
  DenseMatrix gram = known_gram ? std::move(*known_gram) : lower_gram(a);
  const double floor = floor_factor * gram.diagonal().sum();
  // The rows a pivoted Cholesky of the Gram picks (largest remaining norm first, until the rest
  // is at the floor) span the resolved row space: Z = L⁻¹ A[p] has orthonormal rows up to
  // rounding, which one re-orthonormalisation (Cholesky of Z Zᵀ, as in CholeskyQR2) removes.
  // The rows left out are checked, and what they add is found, by the deflation pass.
  const PivotedCholesky chosen = pivoted_cholesky(gram, floor);
  const Index rank = chosen.rank;
  if (rank == 0) {
    RowSpace out;
    out.basis = DenseMatrix::Zero(0, a.cols());
    out.rank_decided = true;
    out.margin = 1.0;  // nothing above the floor: no subspace can be trusted
    return out;
  }
  DenseMatrix z(rank, a.cols());
  for (Index j = 0; j < a.cols(); ++j)  // column by column: both matrices in storage order
    for (Index i = 0; i < rank; ++i) z(i, j) = a(chosen.pivots[static_cast<std::size_t>(i)], j);
  solve_lower_in_place(chosen.factor, z);
  const double margin = orthonormalize_rows(z) ? 0.0 : 1.0;  // too far from orthonormal to trust
  // A[p] = L Z, so the kept rows' smallest singular value is L's (a lower bound on A's in span Z).
  const double smallest =
      std::sqrt(std::max(Eigen::SelfAdjointEigenSolver<DenseMatrix>(chosen.factor * chosen.factor.transpose(),
                                                                    Eigen::EigenvaluesOnly)
                             .eigenvalues()(0),
                         0.0));
  return complete_row_space(a, std::move(z), smallest, structural_rank, floor_factor, margin);
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
