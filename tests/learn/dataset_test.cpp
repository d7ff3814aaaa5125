// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Dataset::subset and the label mapping shared by the readers.
#include "netdp/learn/dataset.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "../../src/learn/dataset_internal.hpp"

namespace netdp::learn {
namespace {

TEST(Dataset, SubsetCopiesRowsInOrder) {
  Dataset data;
  data.features = DenseMatrix{{1, 2}, {3, 4}, {5, 6}};
  data.targets = Vector{{0, 1, 2}};
  data.task = Task::multiclass;
  data.num_classes = 3;
  data.feature_names = {"a", "b"};
  const Dataset s = data.subset({2, 0});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.features(0, 0), 5);
  EXPECT_EQ(s.features(1, 1), 2);
  EXPECT_EQ(s.targets(0), 2);
  EXPECT_EQ(s.num_classes, 3u);
  EXPECT_EQ(s.feature_names, data.feature_names);
  EXPECT_THROW(data.subset({3}), std::invalid_argument);
}

TEST(Task, NamesRoundTripAndUnknownNamesListTheValidOnes) {
  for (const Task task : {Task::binary, Task::multiclass, Task::regression})
    EXPECT_EQ(parse_task(to_string(task)), task);
  EXPECT_EQ(to_string(Task::multiclass), "multiclass");
  try {
    parse_task("ranking");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'ranking'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("binary, multiclass, regression"), std::string::npos) << e.what();
  }
}

TEST(ParseDouble, AcceptsNumbersOnly) {
  double x = 0;
  EXPECT_TRUE(detail::parse_double(" +1.5 ", x));
  EXPECT_EQ(x, 1.5);
  EXPECT_TRUE(detail::parse_double("-2e3", x));
  EXPECT_EQ(x, -2000);
  for (const char* bad : {"", "nan", "inf", "1.5x", "abc", "+"})
    EXPECT_FALSE(detail::parse_double(bad, x)) << bad;
}

TEST(AssignTargets, BinarySignsAndZeroOne) {
  Dataset data;
  const std::vector<std::size_t> lines{1, 2, 3};
  detail::assign_targets(data, {"-1", "+1", "1"}, Task::binary, lines, "f");
  EXPECT_EQ(data.targets, (Vector{{0, 1, 1}}));
  EXPECT_EQ(data.num_classes, 2u);
  detail::assign_targets(data, {"1", "1", "1"}, Task::binary, lines, "f");  // one class present
  EXPECT_EQ(data.targets, (Vector{{1, 1, 1}}));
  EXPECT_THROW(detail::assign_targets(data, {"-1", "0", "1"}, Task::binary, lines, "f"),
               std::invalid_argument);
  detail::assign_targets(data, {"yes", "no", "yes"}, Task::binary, lines, "f");
  EXPECT_EQ(data.targets, (Vector{{1, 0, 1}}));
  EXPECT_EQ(data.class_names, (std::vector<std::string>{"no", "yes"}));
  EXPECT_THROW(detail::assign_targets(data, {"a", "b", "c"}, Task::binary, lines, "f"),
               std::invalid_argument);
}

TEST(AssignTargets, MulticlassSortsNumericallyAndMergesEqualValues) {
  Dataset data;
  detail::assign_targets(data, {"10", "2", "2.0", "1"}, Task::multiclass, {1, 2, 3, 4}, "f");
  EXPECT_EQ(data.targets, (Vector{{2, 1, 1, 0}}));
  EXPECT_EQ(data.num_classes, 3u);
}

TEST(AssignTargets, RegressionNeedsNumbersAndNamesTheLine) {
  Dataset data;
  const std::string message = [&] {
    try {
      detail::assign_targets(data, {"1", "x"}, Task::regression, {5, 7}, "file.csv");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_NE(message.find("file.csv: line 7"), std::string::npos) << message;
}

}  // namespace
}  // namespace netdp::learn
