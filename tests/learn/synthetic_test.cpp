// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Synthetic planted models: shapes, determinism, and that the planted θ* is recoverable.
#include <gtest/gtest.h>

#include <cmath>

#include "netdp/learn/dataset.hpp"

namespace netdp::learn {
namespace {

TEST(Synthetic, SameSeedSameData) {
  SyntheticOptions o;
  o.examples = 50;
  o.features = 4;
  Vector a, b;
  const Dataset x = make_synthetic(o, &a), y = make_synthetic(o, &b);
  EXPECT_EQ(x.features, y.features);
  EXPECT_EQ(x.targets, y.targets);
  EXPECT_EQ(a, b);
  o.seed = 2;
  EXPECT_NE(make_synthetic(o).features, x.features);
}

TEST(Synthetic, LinearModelLeastSquaresRecoversThePlantedParameter) {
  SyntheticOptions o;
  o.kind = SyntheticOptions::Kind::linear;
  o.examples = 4000;
  o.features = 5;
  o.noise = 0.01;
  Vector theta;
  const Dataset d = make_synthetic(o, &theta);
  EXPECT_EQ(d.task, Task::regression);
  ASSERT_EQ(theta.size(), 5);
  const Vector fit = d.features.colPivHouseholderQr().solve(d.targets);
  EXPECT_LT((fit - theta).norm(), 0.05 * theta.norm());
  // x ~ N(0, I/d): E[x_j²] = 1/d.
  EXPECT_NEAR(d.features.array().square().mean(), 1.0 / 5.0, 0.01);
}

TEST(Synthetic, LogisticLabelsFollowTheSigmoid) {
  SyntheticOptions o;
  o.examples = 20000;
  o.features = 3;
  o.noise = 0.0;
  Vector theta;
  const Dataset d = make_synthetic(o, &theta);
  EXPECT_EQ(d.task, Task::binary);
  EXPECT_EQ(d.num_classes, 2u);
  // Mean of y − sigmoid(x·θ*) is 0 in expectation (std ≤ 0.5/√n).
  double residual = 0.0;
  for (Eigen::Index i = 0; i < d.targets.size(); ++i)
    residual += d.targets(i) - 1.0 / (1.0 + std::exp(-d.features.row(i).dot(theta)));
  EXPECT_LT(std::abs(residual / 20000.0), 5 * 0.5 / std::sqrt(20000.0));
  for (Eigen::Index i = 0; i < d.targets.size(); ++i) ASSERT_TRUE(d.targets(i) == 0.0 || d.targets(i) == 1.0);
  // The maximum-likelihood fit (Newton's method) lands near θ* (its std is about √(d/(0.2 n)) ≈ 0.03).
  Vector fit = Vector::Zero(3);
  for (int step = 0; step < 25; ++step) {
    Vector gradient = Vector::Zero(3);
    DenseMatrix hessian = DenseMatrix::Zero(3, 3);
    for (Eigen::Index i = 0; i < d.targets.size(); ++i) {
      const Vector x = d.features.row(i).transpose();
      const double p = 1.0 / (1.0 + std::exp(-x.dot(fit)));
      gradient += (p - d.targets(i)) * x;
      hessian += p * (1 - p) * x * x.transpose();
    }
    fit -= hessian.ldlt().solve(gradient);
  }
  EXPECT_LT((fit - theta).norm(), 0.2);
}

TEST(Synthetic, RejectsBadOptions) {
  SyntheticOptions o;
  o.examples = 0;
  EXPECT_THROW(make_synthetic(o), std::invalid_argument);
  o = {};
  o.features = 0;
  EXPECT_THROW(make_synthetic(o), std::invalid_argument);
  o = {};
  o.noise = 0.7;  // logistic flip probability above 1/2
  EXPECT_THROW(make_synthetic(o), std::invalid_argument);
  o.noise = std::nan("");
  EXPECT_THROW(make_synthetic(o), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::learn
