// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// mf::read_correlation / mf::write_correlation: an exact round trip, and every rule refused with a
// message naming the file and the rule.
#include "netdp/mf/correlation_io.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>

#include "netdp/mf/factorize.hpp"
#include "util/temp_file.hpp"

namespace netdp::mf {
namespace {

using netdp::testing::read_text;
using netdp::testing::TempFile;
using ::testing::HasSubstr;

const std::string kBanner = "%%MatrixMarket matrix coordinate real general\n";

/// The message of read_correlation on a file with `content`, which must throw.
std::string read_error(const std::string& content, std::string* path = nullptr) {
  const TempFile file(content, ".mtx");
  if (path != nullptr) *path = file.path();
  try {
    read_correlation(file.path());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "read_correlation accepted:\n" << content;
  return {};
}

TEST(CorrelationIo, RoundTripIsExact) {
  // Values that need all 17 significant digits, and an optimized C.
  DenseMatrix c = DenseMatrix::Zero(3, 3);
  c << 1.0 / 3.0, 0.0, 0.0,                            //
      -std::nextafter(0.1, 1.0), std::sqrt(2.0), 0.0,  //
      1e-300, -2.0 / 7.0, std::numeric_limits<double>::max();
  for (const DenseMatrix& m : {c, optimal_factorization(prefix_sum_gram(8), make_participation(8, 2, 4)).c}) {
    const TempFile file = TempFile::empty_name(".mtx");
    write_correlation(file.path(), m);
    const DenseMatrix back = read_correlation(file.path());
    ASSERT_EQ(back.rows(), m.rows());
    ASSERT_EQ(back.cols(), m.cols());
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      for (Eigen::Index j = 0; j < m.cols(); ++j) EXPECT_EQ(back(i, j), m(i, j)) << i << ", " << j;
    }
  }
}

TEST(CorrelationIo, WritesTheLowerTriangleOnly) {
  const TempFile file = TempFile::empty_name(".mtx");
  write_correlation(file.path(), antipgd_correlation(2));
  EXPECT_EQ(read_text(file.path()), kBanner + "2 2 3\n1 1 1\n2 1 1\n2 2 1\n");
}

TEST(CorrelationIo, ReadsRepeatsAsSumsAndADiagonalSymmetricFile) {
  const TempFile repeated(kBanner + "2 2 4\n1 1 1\n2 1 0.5\n2 1 0.25\n2 2 2\n", ".mtx");
  DenseMatrix expected(2, 2);
  expected << 1.0, 0.0, 0.75, 2.0;
  EXPECT_EQ(read_correlation(repeated.path()), expected);
  const TempFile diagonal("%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 3\n2 2 4\n", ".mtx");
  EXPECT_EQ(read_correlation(diagonal.path()), DenseMatrix(Eigen::Vector2d(3.0, 4.0).asDiagonal()));
}

TEST(CorrelationIo, RefusesANonSquareMatrix) {
  std::string path;
  const std::string message = read_error(kBanner + "2 3 2\n1 1 1\n2 2 1\n", &path);
  EXPECT_THAT(message, HasSubstr("C is 2 x 3, it must be square"));
  EXPECT_THAT(message, HasSubstr(path));
}

TEST(CorrelationIo, RefusesAnEntryAboveTheDiagonal) {
  std::string path;
  const std::string message = read_error(kBanner + "3 3 4\n1 1 1\n2 2 1\n3 3 1\n1 3 0.5\n", &path);
  EXPECT_THAT(message, HasSubstr("entry (1, 3) = 0.5 is above the diagonal"));
  EXPECT_THAT(message, HasSubstr("lower triangular"));
  EXPECT_THAT(message, HasSubstr("tolerance 0"));
  EXPECT_THAT(message, HasSubstr(path));
  // Tolerance 0: a tiny entry is refused too, and so is one a repeat would cancel.
  EXPECT_THAT(read_error(kBanner + "2 2 3\n1 1 1\n2 2 1\n1 2 1e-300\n"),
              HasSubstr("entry (1, 2) = 1e-300 is above the diagonal"));
  EXPECT_THAT(read_error(kBanner + "2 2 4\n1 1 1\n2 2 1\n1 2 1\n1 2 -1\n"),
              HasSubstr("entry (1, 2) = 1 is above the diagonal"));
  // A symmetric file with an off-diagonal entry stands for a matrix with an upper entry.
  EXPECT_THAT(read_error("%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 1\n2 2 1\n"),
              HasSubstr("entry (1, 2) = 1 is above the diagonal"));
}

TEST(CorrelationIo, RefusesAZeroDiagonal) {
  std::string path;
  const std::string message = read_error(kBanner + "3 3 3\n1 1 1\n2 1 1\n3 3 1\n", &path);
  EXPECT_THAT(message, HasSubstr("diagonal entry (2, 2) = 0"));
  EXPECT_THAT(message, HasSubstr("non-zero diagonal (invertible)"));
  EXPECT_THAT(message, HasSubstr(path));
}

TEST(CorrelationIo, RefusesANonFiniteEntry) {
  // The parser refuses a literal inf; repeats that overflow are caught after summing.
  EXPECT_THAT(read_error(kBanner + "1 1 1\n1 1 inf\n"), HasSubstr("not a finite number"));
  std::string path;
  const std::string message = read_error(kBanner + "1 1 2\n1 1 1e308\n1 1 1e308\n", &path);
  EXPECT_THAT(message, HasSubstr("entry (1, 1) = inf is not finite"));
  EXPECT_THAT(message, HasSubstr(path));
}

TEST(CorrelationIo, RefusesAnEmptyOrHugeMatrixAndAMissingFile) {
  EXPECT_THAT(read_error(kBanner + "0 0 0\n"), HasSubstr("C is empty"));
  EXPECT_THAT(read_error(kBanner + "100000 100000 0\n"), HasSubstr("C is 100000 x 100000, larger than"));
  try {
    read_correlation("/nonexistent/netdp_c.mtx");
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/netdp_c.mtx"));
  }
}

TEST(CorrelationIo, TheWriterRefusesWhatTheReaderWouldAndLeavesNoFile) {
  const TempFile file = TempFile::empty_name(".mtx");
  DenseMatrix upper = DenseMatrix::Identity(2, 2);
  upper(0, 1) = 0.25;
  DenseMatrix singular = DenseMatrix::Identity(2, 2);
  singular(1, 1) = 0.0;
  DenseMatrix infinite = DenseMatrix::Identity(2, 2);
  infinite(1, 0) = std::numeric_limits<double>::infinity();
  const auto error_of = [&](const DenseMatrix& c) -> std::string {
    try {
      write_correlation(file.path(), c);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return {};
  };
  EXPECT_THAT(error_of(DenseMatrix::Identity(2, 3)), HasSubstr("C is 2 x 3, it must be square"));
  EXPECT_THAT(error_of(upper), HasSubstr("entry (1, 2) = 0.25 is above the diagonal"));
  EXPECT_THAT(error_of(singular), HasSubstr("diagonal entry (2, 2) = 0"));
  EXPECT_THAT(error_of(infinite), HasSubstr("entry (2, 1) = inf is not finite"));
  EXPECT_THAT(error_of(upper), HasSubstr(file.path()));
  EXPECT_FALSE(std::filesystem::exists(file.path()));
}

TEST(CorrelationIo, AFailedWriteKeepsTheOldFile) {
  const TempFile file(kBanner + "1 1 1\n1 1 2\n", ".mtx");
  DenseMatrix upper = DenseMatrix::Identity(2, 2);
  upper(0, 1) = 1.0;
  EXPECT_THROW(write_correlation(file.path(), upper), std::invalid_argument);
  EXPECT_EQ(read_correlation(file.path()), DenseMatrix::Constant(1, 1, 2.0));
}

}  // namespace
}  // namespace netdp::mf
