// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/util/matrix_market.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "util/temp_file.hpp"

namespace netdp::util {
namespace {

using ::testing::HasSubstr;

MatrixMarketData parse(const std::string& text) {
  std::istringstream in(text);
  return parse_matrix_market(in, "test.mtx");
}

// The message of the std::invalid_argument thrown by parse(text).
std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return "";
}

TEST(MatrixMarket, ReadsRealGeneralWithCommentsAndOneBasedIndices) {
  const MatrixMarketData data = parse(
      "%%MatrixMarket matrix coordinate real general\n% a comment\n\n2 3 3\n1 1 0.5\n2 3 -1e-3\n1 3 2\n");
  EXPECT_EQ(data.header.field, MatrixMarketField::real);
  EXPECT_EQ(data.header.symmetry, MatrixMarketSymmetry::general);
  EXPECT_EQ(data.header.rows, 2u);
  EXPECT_EQ(data.header.cols, 3u);
  EXPECT_EQ(data.header.nnz, 3u);
  const std::vector<MatrixMarketEntry> expected{{0, 0, 0.5}, {1, 2, -1e-3}, {0, 2, 2.0}};
  EXPECT_EQ(data.entries, expected);
  EXPECT_EQ(expand_symmetric(data), expected);
}

TEST(MatrixMarket, BannerIsCaseInsensitiveAndPatternValuesAreOne) {
  const MatrixMarketData data =
      parse("%%MatrixMarket MATRIX Coordinate PATTERN Symmetric\n3 3 2\n2 1\n3 3\n");
  EXPECT_EQ(data.header.field, MatrixMarketField::pattern);
  EXPECT_EQ(data.header.symmetry, MatrixMarketSymmetry::symmetric);
  const std::vector<MatrixMarketEntry> stored{{1, 0, 1.0}, {2, 2, 1.0}};
  EXPECT_EQ(data.entries, stored);
  // The mirror of (2,1) is added; the diagonal entry is not doubled.
  const std::vector<MatrixMarketEntry> full{{1, 0, 1.0}, {2, 2, 1.0}, {0, 1, 1.0}};
  EXPECT_EQ(expand_symmetric(data), full);
}

TEST(MatrixMarket, IntegerFieldRejectsFractions) {
  EXPECT_EQ(parse("%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 7\n").entries[0].value, 7.0);
  EXPECT_THAT(parse_error("%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 7.5\n"),
              HasSubstr("line 3"));
}

TEST(MatrixMarket, MalformedLinesAreReportedWithTheirNumberAndContent) {
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  EXPECT_THAT(parse_error(banner + "% c\n2 2 2\n1 1 1.0\n1 x 2.0\n"), HasSubstr("test.mtx: line 5"));
  EXPECT_THAT(parse_error(banner + "% c\n2 2 2\n1 1 1.0\n1 x 2.0\n"), HasSubstr("'1 x 2.0'"));
  EXPECT_THAT(parse_error(banner + "2 2 1\n3 1 1.0\n"), HasSubstr("line 3"));       // row out of range
  EXPECT_THAT(parse_error(banner + "2 2 1\n0 1 1.0\n"), HasSubstr("line 3"));       // 0 is not 1-based
  EXPECT_THAT(parse_error(banner + "2 2 1\n1 1\n"), HasSubstr("line 3"));           // value missing
  EXPECT_THAT(parse_error(banner + "2 2 1\n1 1 nan\n"), HasSubstr("line 3"));       // not finite
  EXPECT_THAT(parse_error(banner + "2 2\n"), HasSubstr("line 2"));                  // bad size line
  EXPECT_THAT(parse_error(banner + "2 2 1\n1 1 1\n2 2 1\n"), HasSubstr("line 4"));  // too many
  EXPECT_THAT(parse_error(banner + "2 2 2\n1 1 1\n"), HasSubstr("2 entries announced, 1 found"));
  EXPECT_THAT(parse_error("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n"),
              HasSubstr("lower triangle"));
  EXPECT_THAT(parse_error("%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n"), HasSubstr("square"));
}

TEST(MatrixMarket, RejectsUnsupportedBannersAndEmptyInput) {
  EXPECT_THAT(parse_error(""), HasSubstr("empty file"));
  EXPECT_THAT(parse_error("1 1 1\n"), HasSubstr("line 1"));
  EXPECT_THAT(parse_error("%%MatrixMarket matrix array real general\n"), HasSubstr("coordinate"));
  EXPECT_THAT(parse_error("%%MatrixMarket matrix coordinate complex general\n"), HasSubstr("field"));
  EXPECT_THAT(parse_error("%%MatrixMarket matrix coordinate real hermitian\n"), HasSubstr("symmetry"));
  EXPECT_THAT(parse_error("%%MatrixMarket matrix coordinate real general\n% only comments\n"),
              HasSubstr("size line"));
}

TEST(MatrixMarket, MissingFileIsNamed) {
  try {
    read_matrix_market("/nonexistent/dir/w.mtx");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/dir/w.mtx"));
  }
}

TEST(MatrixMarket, WriteThenReadRoundTripsDoublesExactly) {
  const MatrixMarketHeader header{MatrixMarketField::real, MatrixMarketSymmetry::general, 3, 2, 0};
  const std::vector<MatrixMarketEntry> entries{{0, 0, 1.0 / 3.0}, {2, 1, -2.5e-300}, {1, 0, 0.1 + 0.2}};
  const testing::TempFile file = testing::TempFile::empty_name(".mtx");
  write_matrix_market(file.path(), header, entries);
  const MatrixMarketData back = read_matrix_market(file.path());
  EXPECT_EQ(back.header.rows, 3u);
  EXPECT_EQ(back.header.cols, 2u);
  EXPECT_EQ(back.header.nnz, 3u);
  EXPECT_EQ(back.entries, entries);  // bit-exact values
}

TEST(MatrixMarket, WritesPatternAndIntegerFields) {
  std::ostringstream pattern;
  write_matrix_market(pattern, {MatrixMarketField::pattern, MatrixMarketSymmetry::symmetric, 3, 3, 0},
                      {{1, 0, 1.0}, {2, 1, 1.0}});
  EXPECT_EQ(pattern.str(), "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n");
  std::ostringstream integer;
  write_matrix_market(integer, {MatrixMarketField::integer, MatrixMarketSymmetry::general, 1, 1, 0},
                      {{0, 0, -4.0}});
  EXPECT_EQ(integer.str(), "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 -4\n");
}

TEST(MatrixMarket, WriterRejectsInvalidEntries) {
  std::ostringstream out;
  const MatrixMarketHeader sym{MatrixMarketField::real, MatrixMarketSymmetry::symmetric, 2, 2, 0};
  EXPECT_THROW(write_matrix_market(out, sym, {{0, 1, 1.0}}), std::invalid_argument);  // upper triangle
  EXPECT_THROW(write_matrix_market(out, sym, {{2, 0, 1.0}}), std::invalid_argument);  // out of range
  const MatrixMarketHeader integer{MatrixMarketField::integer, MatrixMarketSymmetry::general, 1, 1, 0};
  EXPECT_THROW(write_matrix_market(out, integer, {{0, 0, 0.5}}), std::invalid_argument);
  EXPECT_THROW(write_matrix_market("/nonexistent/dir/out.mtx", integer, {}), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::util
