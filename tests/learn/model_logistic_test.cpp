// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Logistic regression (binary and multinomial): gradients against finite differences, the
// factorized clipped sum against the literal clip-and-sum loop, stability, and a toy fit.

#include <gtest/gtest.h>

#include <cmath>

#include "learn/model_test_helpers.hpp"
#include "netdp/learn/model.hpp"

namespace netdp::learn {
namespace {

using namespace netdp::learn::testing;

std::unique_ptr<Model> binary(double l2 = 0.0) {
  return make_model({ModelSpec::Kind::logistic, l2}, 4, Task::binary, 2);
}
std::unique_ptr<Model> multinomial(double l2 = 0.0) {
  return make_model({ModelSpec::Kind::logistic, l2}, 4, Task::multiclass, 3);
}

TEST(ModelLogistic, LayoutAndInitialParameters) {
  EXPECT_EQ(binary()->num_parameters(), 5u);
  EXPECT_EQ(multinomial()->num_parameters(), 15u);
  EXPECT_TRUE(binary()->initial_parameters(7).isZero(0.0));
  EXPECT_TRUE(multinomial()->initial_parameters(7).isZero(0.0));
}

TEST(ModelLogistic, BinaryPerExampleGradientsMatchFiniteDifferences) {
  const auto model = binary();
  expect_per_example_gradients_match_finite_differences(*model, random_batch(6, 4, 2, 1),
                                                        random_theta(*model, 1.0, 2));
}

TEST(ModelLogistic, MultinomialPerExampleGradientsMatchFiniteDifferences) {
  const auto model = multinomial();
  expect_per_example_gradients_match_finite_differences(*model, random_batch(6, 4, 3, 3),
                                                        random_theta(*model, 1.0, 4));
}

TEST(ModelLogistic, GradientIncludesPenaltyOutsideTheClip) {
  const std::unique_ptr<Model> penalized[] = {binary(0.3), multinomial(0.3)};
  const std::unique_ptr<Model> unpenalized[] = {binary(), multinomial()};
  for (int m = 0; m < 2; ++m) {
    const Model& model = *penalized[m];
    const Batch b = random_batch(7, 4, model.task() == Task::binary ? 2 : 3, 5);
    const Vector theta = random_theta(model, 1.0, 6);
    expect_gradient_matches_loss(model, b, theta);
    EXPECT_LE(relative_error(model.penalty_gradient(theta), 0.3 * theta), 1e-15);
    // The clipped sum is the data term only: with λ > 0 it equals the λ = 0 model's.
    EXPECT_EQ(model.clipped_gradient_sum(theta, b.X, b.y, 0.5),
              unpenalized[m]->clipped_gradient_sum(theta, b.X, b.y, 0.5));
  }
}

TEST(ModelLogistic, ClippedSumMatchesLiteralClipAndSum) {
  const auto b2 = binary();
  expect_clipped_sum_matches_literal(*b2, random_batch(40, 4, 2, 7), random_theta(*b2, 1.0, 8));
  const auto m3 = multinomial();
  expect_clipped_sum_matches_literal(*m3, random_batch(40, 4, 3, 9), random_theta(*m3, 1.0, 10));
}

TEST(ModelLogistic, ClippingBoundRespected) {
  const auto b2 = binary();
  expect_clipping_bound(*b2, random_batch(10, 4, 2, 11), random_theta(*b2, 2.0, 12), 0.1);
  const auto m3 = multinomial();
  expect_clipping_bound(*m3, random_batch(10, 4, 3, 13), random_theta(*m3, 2.0, 14), 0.1);
}

TEST(ModelLogistic, FiniteOnHugeLogits) {
  expect_finite_on_extreme_inputs(*binary(), random_batch(8, 4, 2, 15));
  expect_finite_on_extreme_inputs(*multinomial(), random_batch(8, 4, 3, 16));
}

TEST(ModelLogistic, HugeLogitLossesAreExact) {
  // z = ±1000: log(1 + e^1000) − 1000·y must give 1000 for a wrong label and 0 (not NaN) for a right one.
  const auto model = make_model({ModelSpec::Kind::logistic}, 1, Task::binary, 2);
  const Vector theta = (Vector(2) << 1000.0, 0.0).finished();
  const DenseMatrix X = DenseMatrix::Ones(1, 1);
  EXPECT_DOUBLE_EQ(model->loss(theta, X, Vector::Zero(1)), 1000.0);
  EXPECT_EQ(model->loss(theta, X, Vector::Ones(1)), 0.0);
  const auto multi = make_model({ModelSpec::Kind::logistic}, 1, Task::multiclass, 2);
  const Vector theta2 = (Vector(4) << 0.0, 0.0, 1000.0, 0.0).finished();  // z = (0, 1000)
  EXPECT_DOUBLE_EQ(multi->loss(theta2, X, Vector::Zero(1)), 1000.0);
  EXPECT_EQ(multi->loss(theta2, X, Vector::Ones(1)), 0.0);
}

TEST(ModelLogistic, DeterministicOutputs) {
  const auto model = multinomial();
  const Batch b = random_batch(20, 4, 3, 17);
  const Vector theta = random_theta(*model, 1.0, 18);
  EXPECT_EQ(model->clipped_gradient_sum(theta, b.X, b.y, 0.2),
            model->clipped_gradient_sum(theta, b.X, b.y, 0.2));
  EXPECT_EQ(model->loss(theta, b.X, b.y), model->loss(theta, b.X, b.y));
}

TEST(ModelLogistic, RejectsLabelsOutsideTheClasses) {
  const auto model = multinomial();
  Batch b = random_batch(3, 4, 3, 19);
  b.y[1] = 3.0;
  EXPECT_THROW(model->loss(model->initial_parameters(0), b.X, b.y), std::invalid_argument);
  b.y[1] = 0.5;
  EXPECT_THROW(model->clipped_gradient_sum(model->initial_parameters(0), b.X, b.y, 1.0),
               std::invalid_argument);
  EXPECT_THROW(model->clipped_gradient_sum(model->initial_parameters(0), b.X, b.y, 0.0),
               std::invalid_argument);
  EXPECT_THROW(model->loss(Vector::Zero(3), b.X, b.y), std::invalid_argument);
}

/// Examples whose label is the argmax of the scores W x, kept only with a margin ≥ 0.1 between the
/// best and second-best score (so the set is linearly separable with room to spare).
Dataset separable_set(const DenseMatrix& W, std::uint64_t seed) {
  const Batch b = random_batch(400, W.cols(), 2, seed);
  std::vector<Eigen::Index> keep;
  std::vector<double> labels;
  for (Eigen::Index i = 0; i < b.X.rows(); ++i) {
    Vector score = W * b.X.row(i).transpose();
    Eigen::Index best = 0;
    const double top = score.maxCoeff(&best);
    score[best] = -1e300;
    if (top - score.maxCoeff() >= 0.1) {
      keep.push_back(i);
      labels.push_back(static_cast<double>(best));
    }
  }
  Dataset data;
  data.features = b.X(keep, Eigen::all);
  data.targets = Eigen::Map<const Vector>(labels.data(), static_cast<Eigen::Index>(labels.size()));
  data.num_classes = static_cast<std::size_t>(W.rows());
  data.task = W.rows() == 2 ? Task::binary : Task::multiclass;
  return data;
}

TEST(ModelLogistic, SeparableToySetsReachFullAccuracy) {
  const DenseMatrix two = (DenseMatrix(2, 2) << 1.0, -1.0, -1.0, 1.0).finished();
  const DenseMatrix three = (DenseMatrix(3, 2) << 1.0, 0.0, 0.0, 1.0, -1.0, -1.0).finished();
  for (const DenseMatrix& W : {two, three}) {
    const Dataset data = separable_set(W, 20);
    ASSERT_GT(data.size(), 100u);
    const auto model = make_model({ModelSpec::Kind::logistic}, 2, data.task, data.num_classes);
    const Vector theta = gradient_descent(*model, data.features, data.targets, 10.0, 3000);
    EXPECT_EQ(accuracy(*model, theta, data), 1.0) << model->name();
    EXPECT_LT(accuracy(*model, model->initial_parameters(0), data), 1.0) << model->name();
  }
}

}  // namespace
}  // namespace netdp::learn
