// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Train/test split, standardization with train statistics, row normalization, "houses" binarization.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "netdp/learn/dataset.hpp"

namespace netdp::learn {
namespace {

Dataset numbered(std::size_t n) {
  Dataset d;
  d.features.resize(static_cast<Eigen::Index>(n), 2);
  d.targets.resize(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < d.features.rows(); ++i) {
    d.features(i, 0) = static_cast<double>(i);
    d.features(i, 1) = 7.0;  // constant feature
    d.targets(i) = static_cast<double>(i);
  }
  d.feature_names = {"i", "seven"};
  return d;
}

TEST(TrainTestSplit, PartitionsTheExamplesDeterministically) {
  const Dataset d = numbered(100);
  const TrainTest a = train_test_split(d, 0.2, 5), b = train_test_split(d, 0.2, 5);
  ASSERT_EQ(a.test.size(), 20u);
  ASSERT_EQ(a.train.size(), 80u);
  EXPECT_EQ(a.test.targets, b.test.targets);
  EXPECT_NE(a.test.targets, train_test_split(d, 0.2, 6).test.targets);
  std::vector<double> all(a.train.targets.begin(), a.train.targets.end());
  all.insert(all.end(), a.test.targets.begin(), a.test.targets.end());
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<double>(i));
  for (Eigen::Index i = 0; i < a.train.features.rows(); ++i)
    EXPECT_EQ(a.train.features(i, 0), a.train.targets(i));
  EXPECT_EQ(a.train.feature_names, d.feature_names);
}

TEST(TrainTestSplit, RejectsBadFractions) {
  const Dataset d = numbered(10);
  for (double f : {0.0, 1.0, -0.5, std::nan(""), 0.01, 0.99})
    EXPECT_THROW(train_test_split(d, f, 1), std::invalid_argument) << f;
}

TEST(Standardize, UsesTrainStatisticsAndCentresConstantFeatures) {
  TrainTest data;
  data.train = numbered(4);  // feature 0: 0, 1, 2, 3 → mean 1.5, population std √1.25
  data.test = numbered(2);
  standardize(data);
  const double s = std::sqrt(1.25);
  EXPECT_NEAR(data.train.features(0, 0), -1.5 / s, 1e-12);
  EXPECT_NEAR(data.train.features(3, 0), 1.5 / s, 1e-12);
  EXPECT_NEAR(data.test.features(1, 0), -0.5 / s, 1e-12);
  EXPECT_EQ(data.train.features.col(1), Vector::Zero(4));
  EXPECT_EQ(data.test.features.col(1), Vector::Zero(2));
}

TEST(NormalizeRows, UnitNormAndZeroRowsStayZero) {
  Dataset d;
  d.features = DenseMatrix{{3, 4}, {0, 0}, {-1, 0}};
  normalize_rows(d);
  EXPECT_EQ(d.features, (DenseMatrix{{0.6, 0.8}, {0, 0}, {-1, 0}}));
}

TEST(BinarizeAtMedian, ThresholdIsTheTrainMedian) {
  TrainTest data;
  data.train = numbered(4);  // targets 0..3, median 1.5
  data.test = numbered(3);   // targets 0, 1, 2
  binarize_at_median(data);
  EXPECT_EQ(data.train.targets, (Vector{{0, 0, 1, 1}}));
  EXPECT_EQ(data.test.targets, (Vector{{0, 0, 1}}));
  EXPECT_EQ(data.test.task, Task::binary);
  EXPECT_EQ(data.train.num_classes, 2u);
  data.train = numbered(3);  // odd count: median 1, "above" is strict
  data.test = numbered(1);
  binarize_at_median(data);
  EXPECT_EQ(data.train.targets, (Vector{{0, 0, 1}}));
  EXPECT_THROW(binarize_at_median(data), std::invalid_argument);  // already binary
}

TEST(ScaleTargets, DividesRegressionTargetsAndRejectsBadScales) {
  TrainTest data;
  data.train = numbered(4);
  data.test = numbered(2);
  scale_targets(data, 4.0);
  EXPECT_EQ(data.train.targets, (Vector{{0.0, 0.25, 0.5, 0.75}}));
  EXPECT_EQ(data.test.targets, (Vector{{0.0, 0.25}}));
  EXPECT_EQ(data.train.features(3, 0), 3.0);  // features untouched
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::infinity()})
    EXPECT_THROW(scale_targets(data, bad), std::invalid_argument) << bad;
  binarize_at_median(data);
  scale_targets(data, 1.0);                                       // the default is a no-op on any task
  EXPECT_THROW(scale_targets(data, 2.0), std::invalid_argument);  // classification
}

}  // namespace
}  // namespace netdp::learn
