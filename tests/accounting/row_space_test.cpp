// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// row_space: the smallest kept singular value its margin uses bounds A on the whole kept span; and
// its effort limit on a dense spectrum: views whose singular values run on densely below the Gram's
// resolution are given up (the local-DP cap), and the test that decides it leaves a spectrum that
// stops above the floor to the full computation.

#include "../../src/accounting/linear_system/row_space.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>

#include "netdp/util/rng.hpp"

namespace netdp::accounting::detail {
namespace {

using Index = Eigen::Index;

/// Orthonormal columns: the Q of a Gaussian matrix.
DenseMatrix orthonormal_columns(Index rows, Index cols, util::Rng& rng) {
  DenseMatrix gaussian(rows, cols);
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i) gaussian(i, j) = rng.standard_normal();
  return Eigen::HouseholderQR<DenseMatrix>(gaussian).householderQ() * DenseMatrix::Identity(rows, cols);
}

/// An m × n matrix with singular values 10^(−i/120) for i < rank (120 per decade, so 128 of them
/// span a factor 11.7) and no others.
DenseMatrix graded(Index m, Index n, Index rank, std::uint64_t seed) {
  util::Rng rng(seed);
  Vector values(rank);
  for (Index i = 0; i < rank; ++i) values[i] = std::pow(10.0, -static_cast<double>(i) / 120.0);
  return orthonormal_columns(m, rank, rng) * values.asDiagonal() *
         orthonormal_columns(n, rank, rng).transpose();
}

// A floor factor of 5.5e-5 puts the Gram's resolution near 10^-1.4 (about 170 pivots) and the floor
// near 10^-3.5 (index 425), so a 600-row matrix holds the dense part the test looks for with few flops.
constexpr double kFloorFactor = 5.5e-5;
constexpr Index kRows = 600;
constexpr Index kColumns = 660;

/// With the limit on, `a` is not given up: it is resolved to `rank` directions with a margin below
/// 1/2, exactly (same basis, same margin) as without the limit.
void expect_computed_in_full(const DenseMatrix& a, Index structural_rank, Index rank) {
  const RowSpace full = row_space(a, std::nullopt, kFloorFactor, structural_rank, 0.5, false);
  const RowSpace limited = row_space(a, std::nullopt, kFloorFactor, structural_rank, 0.5, true);
  EXPECT_FALSE(limited.dense_spectrum);
  EXPECT_EQ(limited.rank(), rank);
  EXPECT_LT(limited.margin, 0.5);
  EXPECT_EQ(limited.margin, full.margin);
  EXPECT_EQ(limited.basis, full.basis);
}

TEST(RowSpace, ADenseSpectrumDownToTheFloorIsGivenUpAsItsFullComputationWouldBe) {
  const DenseMatrix a = graded(kRows, kColumns, kRows, 1);
  const RowSpace full = row_space(a, std::nullopt, kFloorFactor, kRows, 0.5, false);
  // Without the limit: the spectrum reaches the floor with no gap, so the margin gives the view up.
  EXPECT_GE(full.margin, 0.5);
  EXPECT_FALSE(full.dense_spectrum);
  const RowSpace limited = row_space(a, std::nullopt, kFloorFactor, kRows, 0.5, true);
  EXPECT_TRUE(limited.dense_spectrum);
  EXPECT_EQ(limited.margin, 1.0);
  EXPECT_EQ(limited.rank(), 0);
}

TEST(RowSpace, ASpectrumThatStopsAboveTheFloorIsComputedInFull) {
  // 230 singular values: about 60 below the Gram's resolution, then a cliff far above the floor.
  // The pivots' tail is as dense as above and the rows left could reach the floor, but the third
  // sketch finds fewer directions than probes: the view is computed exactly as without the limit.
  expect_computed_in_full(graded(kRows, kColumns, 230, 2), kRows, 230);
}

TEST(RowSpace, FewRowsLeftBelowTheGramsResolutionAreComputedInFull) {
  // 370 rows: the Gram resolves about 160, and the 210 left cannot carry the pivots' rate down to the
  // floor (about 360 would; the singular values stop at 10^-3.1, above it). The sketches are full, but
  // the limit does not apply: the view is resolved, with a margin below 1/2.
  expect_computed_in_full(graded(370, kColumns, 370, 3), 370, 370);
}

/// An m × n matrix of the given rank whose singular values fall 110 per decade down to 10^-5, then
/// `fast` per decade.
DenseMatrix two_rates(Index m, Index n, Index rank, double fast, std::uint64_t seed) {
  util::Rng rng(seed);
  Vector values(rank);
  for (Index i = 0; i < rank; ++i) {
    const double slow = static_cast<double>(i) / 110.0;
    values[i] = std::pow(10.0, slow <= 5.0 ? -slow : -5.0 - (slow - 5.0) * 110.0 / fast);
  }
  return orthonormal_columns(m, rank, rng) * values.asDiagonal() *
         orthonormal_columns(n, rank, rng).transpose();
}

TEST(RowSpace, ASpectrumFasterBelowTheGramsResolutionIsGivenUpAtItsOwnRate) {
  // The pivots fall 110 per decade, and the rows left are too few to reach the floor at that rate;
  // below the Gram's resolution the spectrum falls 70 per decade and reaches the floor well before
  // the rows run out. The four sketches are full and the fourth's own rate predicts the floor.
  const double floor_factor = 1e-10;
  const DenseMatrix a = two_rates(900, 960, 900, 70.0, 4);
  const RowSpace full = row_space(a, std::nullopt, floor_factor, 900, 0.5, false);
  EXPECT_GE(full.margin, 0.5);
  const RowSpace limited = row_space(a, std::nullopt, floor_factor, 900, 0.5, true);
  EXPECT_TRUE(limited.dense_spectrum);
  EXPECT_EQ(limited.margin, 1.0);
}

TEST(RowSpace, CoupledBlocksTheSmallestKeptSingularValueBoundsAOnTheWholeSpan) {
  // Wedin's theorem, behind the margin, needs σ_min(A Zᵀ) over the whole kept span Z. Rows of very
  // different norms (graded singular values down to 10^-6..10^-13, rows scaled by e^±3) couple the
  // Gram's rows and the completion's directions: there the minimum of the blocks' own values (σ_min(L)
  // and each step's s) exceeded σ_min(A Zᵀ) by up to 2.6× in 300 such matrices. What row_space
  // reports must not.
  int completed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    util::Rng rng(seed);
    const Index m = 60;
    const Index n = 80;
    const Index rank = 20 + static_cast<Index>(seed % 40);
    Vector values(rank);
    const double depth = 6.0 + 7.0 * rng.uniform01();
    for (Index i = 0; i < rank; ++i)
      values[i] = std::pow(10.0, -depth * static_cast<double>(i) / static_cast<double>(rank - 1));
    DenseMatrix a = orthonormal_columns(m, rank, rng) * values.asDiagonal() *
                    orthonormal_columns(n, rank, rng).transpose();
    for (Index i = 0; i < m; ++i) a.row(i) *= std::exp(6.0 * rng.uniform01() - 3.0);
    const double floor_factor = rounding_floor_factor(n, m, 0);
    // From the Gram's rows (row_space), and from a start that did not come from A's rows: the right
    // singular vectors of A above 1e-4 of the largest (complete_row_space, as the column-Gram path).
    const Eigen::JacobiSVD<DenseMatrix> svd(a, Eigen::ComputeThinV);
    Index dominant = 0;
    while (svd.singularValues()[dominant] > 1e-4 * svd.singularValues()[0]) ++dominant;
    const RowSpace spaces[] = {
        row_space(a, std::nullopt, floor_factor, std::min(m, n), 0.5, false),
        complete_row_space(a, svd.matrixV().leftCols(dominant).transpose(),
                           svd.singularValues()[dominant - 1], std::min(m, n), floor_factor, 0.0, 0.5)};
    for (const RowSpace& space : spaces) {
      if (space.rank() == 0) continue;
      const double on_span =
          Eigen::JacobiSVD<DenseMatrix>(a * space.basis.transpose()).singularValues().minCoeff();
      EXPECT_LE(space.smallest_singular, on_span) << "seed " << seed;
      EXPECT_GE(space.margin, floor_factor * a.norm() / on_span) << "seed " << seed;
      ++completed;
    }
  }
  EXPECT_GE(completed, 60);
}

}  // namespace
}  // namespace netdp::accounting::detail
