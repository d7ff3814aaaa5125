// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// CSV reader: column choice, missing values, categorical columns, quoting, malformed lines; and
// California housing (../shared/datasets/housing) when present.
#include <gtest/gtest.h>

#include <filesystem>

#include "dataset_test_files.hpp"
#include "netdp/learn/dataset.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::learn {
namespace {

using testing::error_of;
using testing::TempFile;

const char* kTable =
    "a,b,city,y\n"
    "1,10,\"Paris, FR\",5\n"
    "2,,Lyon,6\n"
    "3,30,Paris,NA\n"
    "4,40,nan,8\n";

CsvOptions options_for(std::string target) {
  CsvOptions o;
  o.target_column = std::move(target);
  return o;
}
CsvOptions target_y() { return options_for("y"); }

TEST(CsvReader, SelectsNumericColumnsInTheGivenOrder) {
  TempFile f("t.csv", "a,b,y\n1,2,3\n4,5,6\n");
  CsvOptions o = target_y();
  o.feature_columns = {"b", "a"};
  const Dataset d = read_csv(f.path(), o);
  EXPECT_EQ(d.features, (DenseMatrix{{2, 1}, {5, 4}}));
  EXPECT_EQ(d.targets, (Vector{{3, 6}}));
  EXPECT_EQ(d.feature_names, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(d.task, Task::regression);
}

TEST(CsvReader, WhatTheRowsHoldIsCheckedAgainstTheMemoryLimitAsTheyAreRead) {
  // 20,000 rows of 50 one-digit fields: 2 MB of text, held as 51 strings a row (about 45 MB).
  std::string text;
  for (int c = 0; c < 50; ++c) {
    text += 'x';
    text += std::to_string(c);
    text += ',';
  }
  text += "y\n";
  std::string row;
  for (int c = 0; c <= 50; ++c) row += c < 50 ? "1," : "0\n";
  for (int r = 0; r < 20000; ++r) text += row;
  TempFile f("wide.csv", text);
  util::set_memory_limit(5e6);
  const std::string message = error_of([&] { read_csv(f.path(), target_y()); });
  util::set_memory_limit(0.0);
  EXPECT_NE(message.find("reading " + f.path() + " needs about"), std::string::npos) << message;
  EXPECT_NE(message.find("rows of 51 fields read so far"), std::string::npos) << message;
}

TEST(CsvReader, MissingValueIsAnErrorNamingFileLineAndColumn) {
  TempFile f("t.csv", kTable);
  CsvOptions o = target_y();
  o.categorical = CsvOptions::Categorical::drop;
  const std::string message = error_of([&] { read_csv(f.path(), o); });
  EXPECT_NE(message.find(f.path() + ": line 3: column 'b'"), std::string::npos) << message;
}

TEST(CsvReader, DropRowRemovesEveryRowWithAMissingValue) {
  TempFile f("t.csv", kTable);
  CsvOptions o = target_y();
  o.missing = CsvOptions::Missing::drop_row;
  o.categorical = CsvOptions::Categorical::one_hot;
  const Dataset d = read_csv(f.path(), o);
  // Only line 2 survives; its city is the only category left.
  EXPECT_EQ(d.feature_names, (std::vector<std::string>{"a", "b", "city=Paris, FR"}));
  EXPECT_EQ(d.features, (DenseMatrix{{1, 10, 1}}));
  EXPECT_EQ(d.targets, (Vector{{5}}));
}

TEST(CsvReader, MeanImputeFillsFeaturesButNotTheTarget) {
  TempFile f("t.csv", kTable);
  CsvOptions o = target_y();
  o.missing = CsvOptions::Missing::mean_impute;
  o.categorical = CsvOptions::Categorical::drop;
  EXPECT_NE(error_of([&] { read_csv(f.path(), o); }).find("line 4: the target 'y' is missing"),
            std::string::npos);
  TempFile g("g.csv", "a,b,y\n1,,1\n2,4,2\n3,8,3\n");
  const Dataset d = read_csv(g.path(), o);
  EXPECT_EQ(d.features, (DenseMatrix{{1, 6}, {2, 4}, {3, 8}}));
}

TEST(CsvReader, OneHotUsesSortedCategoriesAndImputesTheirFrequencies) {
  TempFile f("t.csv", "c,y\nb,1\na,2\nc,3\nNA,4\n");
  CsvOptions o = target_y();
  o.categorical = CsvOptions::Categorical::one_hot;
  o.missing = CsvOptions::Missing::mean_impute;
  const Dataset d = read_csv(f.path(), o);
  EXPECT_EQ(d.feature_names, (std::vector<std::string>{"c=a", "c=b", "c=c"}));
  const double third = 1.0 / 3.0;
  EXPECT_EQ(d.features, (DenseMatrix{{0, 1, 0}, {1, 0, 0}, {0, 0, 1}, {third, third, third}}));
}

TEST(CsvReader, CategoricalColumnIsAnErrorByDefault) {
  TempFile f("t.csv", "a,c,y\n1,x,1\n2,y,2\n");
  const std::string message = error_of([&] { read_csv(f.path(), target_y()); });
  EXPECT_NE(message.find("line 2: column 'c' is categorical"), std::string::npos) << message;
  CsvOptions o = target_y();
  o.categorical = CsvOptions::Categorical::drop;
  EXPECT_EQ(read_csv(f.path(), o).feature_names, (std::vector<std::string>{"a"}));
}

TEST(CsvReader, QuotedFieldsWithCommasAndQuotes) {
  TempFile f("t.csv", "\"x,1\",\"name\",y\n1,\"say \"\"hi\"\"\",1\n2,b,0\n");
  CsvOptions o = target_y();
  o.categorical = CsvOptions::Categorical::one_hot;
  o.task = Task::binary;
  const Dataset d = read_csv(f.path(), o);
  EXPECT_EQ(d.feature_names, (std::vector<std::string>{"x,1", "name=b", "name=say \"hi\""}));
  EXPECT_EQ(d.targets, (Vector{{1, 0}}));
}

TEST(CsvReader, MalformedLinesAndBadOptions) {
  TempFile f("t.csv", "a,y\n1,2\n3\n");
  EXPECT_NE(error_of([&] { read_csv(f.path(), target_y()); }).find("line 3: 1 fields, the header has 2"),
            std::string::npos);
  TempFile q("q.csv", "a,y\n\"1,2\n");
  EXPECT_NE(error_of([&] { read_csv(q.path(), target_y()); }).find("line 2: unterminated"),
            std::string::npos);
  TempFile ok("ok.csv", "a,y\n1,2\n");
  CsvOptions o = target_y();
  o = options_for("z");
  EXPECT_NE(error_of([&] { read_csv(ok.path(), o); }).find("no column 'z'"), std::string::npos);
  o = target_y();
  o.feature_columns = {"y"};
  EXPECT_THROW(read_csv(ok.path(), o), std::invalid_argument);
  EXPECT_THROW(read_csv(ok.path(), CsvOptions{}), std::invalid_argument);
  TempFile empty("e.csv", "a,y\n");
  EXPECT_THROW(read_csv(empty.path(), target_y()), std::invalid_argument);
}

// Needs ../shared/datasets/housing/housing.csv (California housing); skipped when absent.
TEST(CsvReader, CaliforniaHousingWhenPresent) {
  const std::string path = std::string(NETDP_SHARED_DIR) + "/datasets/housing/housing.csv";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "needs ../shared/datasets/housing/housing.csv";
  CsvOptions o = options_for("median_house_value");
  EXPECT_NE(error_of([&] { read_csv(path, o); }).find("'total_bedrooms' is missing"), std::string::npos);
  o.missing = CsvOptions::Missing::drop_row;
  EXPECT_NE(error_of([&] { read_csv(path, o); }).find("'ocean_proximity' is categorical"), std::string::npos);
  o.categorical = CsvOptions::Categorical::one_hot;
  const Dataset dropped = read_csv(path, o);
  EXPECT_EQ(dropped.size(), 20640u - 207u);
  o.missing = CsvOptions::Missing::mean_impute;
  const Dataset d = read_csv(path, o);
  ASSERT_EQ(d.size(), 20640u);
  // 8 numeric features + 5 ocean_proximity categories.
  EXPECT_EQ(d.dim(), 13u);
  EXPECT_EQ(d.feature_names[8], "ocean_proximity=<1H OCEAN");
  EXPECT_EQ(d.feature_names[9], "ocean_proximity=INLAND");
  EXPECT_EQ(d.features.rightCols(5).sum(), 20640.0);  // exactly one category per row
  EXPECT_EQ(d.targets(0), 452600.0);
}

}  // namespace
}  // namespace netdp::learn
