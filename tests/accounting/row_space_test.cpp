// The effort limit of row_space on a dense spectrum: views whose singular values run on densely
// below the Gram's resolution are given up (the local-DP cap), and the test that decides it leaves
// a spectrum that stops above the floor to the full computation.

#include "../../src/accounting/row_space.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
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
  const DenseMatrix a = graded(kRows, kColumns, 230, 2);
  const RowSpace full = row_space(a, std::nullopt, kFloorFactor, kRows, 0.5, false);
  const RowSpace limited = row_space(a, std::nullopt, kFloorFactor, kRows, 0.5, true);
  EXPECT_FALSE(limited.dense_spectrum);
  EXPECT_EQ(limited.rank(), 230);
  EXPECT_LT(limited.margin, 0.5);
  EXPECT_EQ(limited.margin, full.margin);
  EXPECT_EQ(limited.basis, full.basis);
}

TEST(RowSpace, FewRowsLeftBelowTheGramsResolutionAreComputedInFull) {
  // 370 rows: the Gram resolves about 160, and the 210 left cannot carry the pivots' rate down to the
  // floor (about 360 would; the singular values stop at 10^-3.1, above it). The sketches are full, but
  // the limit does not apply: the view is resolved, with a margin below 1/2.
  const DenseMatrix a = graded(370, kColumns, 370, 3);
  const RowSpace full = row_space(a, std::nullopt, kFloorFactor, 370, 0.5, false);
  const RowSpace limited = row_space(a, std::nullopt, kFloorFactor, 370, 0.5, true);
  EXPECT_FALSE(limited.dense_spectrum);
  EXPECT_EQ(limited.rank(), 370);
  EXPECT_LT(limited.margin, 0.5);
  EXPECT_EQ(limited.margin, full.margin);
  EXPECT_EQ(limited.basis, full.basis);
}

}  // namespace
}  // namespace netdp::accounting::detail
