// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// One-hidden-layer ReLU MLP: gradients against finite differences, the factorized clipped sum
// against the literal loop, seeded He initialization, stability and a toy fit.

#include <gtest/gtest.h>

#include <cmath>

#include "learn/model_test_helpers.hpp"
#include "netdp/learn/model.hpp"

namespace netdp::learn {
namespace {

using namespace netdp::learn::testing;

struct MlpCase {
  Task task;
  std::size_t classes;  // 0 for regression
};
constexpr MlpCase kCases[] = {{Task::regression, 0}, {Task::binary, 2}, {Task::multiclass, 4}};

std::unique_ptr<Model> mlp(const MlpCase& c, double l2 = 0.0) {
  return make_model({ModelSpec::Kind::mlp, l2, 5}, 3, c.task, c.classes);
}

TEST(ModelMlp, ParameterCount) {
  // d·h + h + h·k + k with d = 3, h = 5.
  EXPECT_EQ(mlp(kCases[0])->num_parameters(), 15u + 5u + 5u + 1u);
  EXPECT_EQ(mlp(kCases[2])->num_parameters(), 15u + 5u + 20u + 4u);
}

TEST(ModelMlp, PerExampleGradientsMatchFiniteDifferences) {
  for (const auto& c : kCases) {
    const auto model = mlp(c);
    expect_per_example_gradients_match_finite_differences(*model, random_batch(6, 3, c.classes, 1),
                                                          model->initial_parameters(2));
  }
}

TEST(ModelMlp, GradientWithWeightDecayMatchesFiniteDifferences) {
  for (const auto& c : kCases) {
    const auto model = mlp(c, 0.2);
    expect_gradient_matches_loss(*model, random_batch(8, 3, c.classes, 3), model->initial_parameters(4));
  }
}

TEST(ModelMlp, ClippedSumMatchesLiteralAndRespectsTheBound) {
  for (const auto& c : kCases) {
    const auto model = mlp(c);
    const Vector theta = model->initial_parameters(5);
    expect_clipped_sum_matches_literal(*model, random_batch(30, 3, c.classes, 6), theta);
    expect_clipping_bound(*model, random_batch(10, 3, c.classes, 7), theta, 0.05);
  }
}

TEST(ModelMlp, HeInitializationIsSeededAndScaled) {
  const auto model = make_model({ModelSpec::Kind::mlp, 0.0, 200}, 100, Task::regression, 0);
  const Vector a = model->initial_parameters(11);
  EXPECT_EQ(a, model->initial_parameters(11));
  EXPECT_NE(a, model->initial_parameters(12));
  // First layer: 100·200 weights ~ U(±√(6/100)), variance 2/100; biases zero.
  const Vector first = a.head(100 * 200);
  const double variance = first.squaredNorm() / static_cast<double>(first.size());
  EXPECT_NEAR(variance, 2.0 / 100.0, 0.05 * 2.0 / 100.0);
  EXPECT_LE(first.cwiseAbs().maxCoeff(), std::sqrt(6.0 / 100.0));
  EXPECT_TRUE(a.segment(100 * 200, 200).isZero(0.0));
  EXPECT_EQ(a[a.size() - 1], 0.0);
}

TEST(ModelMlp, FiniteOnExtremeInputs) {
  for (const auto& c : kCases) expect_finite_on_extreme_inputs(*mlp(c), random_batch(8, 3, c.classes, 13));
}

TEST(ModelMlp, FitsANonlinearToySet) {
  // XOR-like labels (sign of x₀·x₁) are not linearly separable; the MLP must fit them.
  const Batch b = random_batch(200, 2, 2, 14);
  Dataset data;
  data.task = Task::binary;
  data.num_classes = 2;
  data.features = b.X;
  data.targets = (b.X.col(0).array() * b.X.col(1).array() > 0.0).cast<double>().matrix();
  const auto model = make_model({ModelSpec::Kind::mlp, 0.0, 16}, 2, Task::binary, 2);
  const Vector theta = gradient_descent(*model, data.features, data.targets, 0.5, 3000);
  EXPECT_GE(accuracy(*model, theta, data), 0.95);
  const auto linear = make_model({ModelSpec::Kind::logistic}, 2, Task::binary, 2);
  EXPECT_LT(accuracy(*linear, gradient_descent(*linear, data.features, data.targets, 0.5, 3000), data), 0.8);
}

}  // namespace
}  // namespace netdp::learn
