// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Linear / ridge regression: gradients against finite differences, the clipped sum against the
// literal loop, and the ridge solution against the normal equations.

#include <gtest/gtest.h>

#include "learn/model_test_helpers.hpp"
#include "netdp/learn/model.hpp"

namespace netdp::learn {
namespace {

using namespace netdp::learn::testing;

std::unique_ptr<Model> linear(double l2 = 0.0) {
  return make_model({ModelSpec::Kind::linear, l2}, 3, Task::regression, 0);
}

TEST(ModelLinear, PerExampleGradientsMatchFiniteDifferences) {
  const auto model = linear();
  EXPECT_EQ(model->num_parameters(), 4u);
  expect_per_example_gradients_match_finite_differences(*model, random_batch(6, 3, 0, 1),
                                                        random_theta(*model, 1.0, 2));
}

TEST(ModelLinear, GradientOfRidgeLossMatchesFiniteDifferences) {
  const auto model = linear(0.25);
  expect_gradient_matches_loss(*model, random_batch(9, 3, 0, 3), random_theta(*model, 1.0, 4));
}

TEST(ModelLinear, ClippedSumMatchesLiteralAndRespectsTheBound) {
  const auto model = linear();
  const Vector theta = random_theta(*model, 1.0, 6);
  expect_clipped_sum_matches_literal(*model, random_batch(30, 3, 0, 5), theta);
  expect_clipping_bound(*model, random_batch(10, 3, 0, 7), theta, 0.05);
}

TEST(ModelLinear, RidgeMinimizerSolvesTheNormalEquations) {
  // The minimizer of (1/2n)‖X̃θ − y‖² + (λ/2)‖θ‖² (bias penalized too) is
  // θ* = (X̃ᵀX̃/n + λI)⁻¹ X̃ᵀy/n with X̃ = [X 1]; the model's gradient vanishes there.
  const double lambda = 0.1;
  const auto model = linear(lambda);
  const Batch b = random_batch(50, 3, 0, 8);
  DenseMatrix Xt(50, 4);
  Xt << b.X, DenseMatrix::Ones(50, 1);
  const DenseMatrix A = Xt.transpose() * Xt / 50.0 + lambda * DenseMatrix::Identity(4, 4);
  const Vector theta_star = A.ldlt().solve(Xt.transpose() * b.y / 50.0);
  EXPECT_LE(model->gradient(theta_star, b.X, b.y).norm(), 1e-12);
  const Vector fitted = gradient_descent(*model, b.X, b.y, 0.5, 3000);
  EXPECT_LE(relative_error(fitted, theta_star), 1e-9);
}

TEST(ModelLinear, PredictIsTheAffineMap) {
  const auto model = linear();
  const Batch b = random_batch(5, 3, 0, 9);
  const Vector theta = random_theta(*model, 1.0, 10);
  const Vector expected = (b.X * theta.head(3)).array() + theta[3];
  EXPECT_LE(relative_error(model->predict(theta, b.X), expected), 1e-15);
  expect_finite_on_extreme_inputs(*model, b);
}

TEST(ModelLinear, RejectsMismatchedShapes) {
  const auto model = linear();
  const Batch b = random_batch(4, 3, 0, 11);
  EXPECT_THROW(model->loss(Vector::Zero(3), b.X, b.y), std::invalid_argument);
  EXPECT_THROW(model->loss(Vector::Zero(4), DenseMatrix::Zero(4, 2), b.y), std::invalid_argument);
  EXPECT_THROW(model->loss(Vector::Zero(4), b.X, Vector::Zero(3)), std::invalid_argument);
  EXPECT_THROW(model->loss(Vector::Zero(4), DenseMatrix::Zero(0, 3), Vector::Zero(0)), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::learn
