// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// make_model (task checks and messages), names, accuracy, and the base-class default clipped sum.

#include "netdp/learn/model.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "learn/dataset_test_files.hpp"
#include "learn/model_test_helpers.hpp"

namespace netdp::learn {
namespace {

using ::testing::HasSubstr;
using namespace netdp::learn::testing;

TEST(Model, MakeModelRejectsTasksItCannotFit) {
  EXPECT_THAT(error_of([] { make_model({ModelSpec::Kind::logistic}, 3, Task::regression, 0); }),
              HasSubstr("logistic model: cannot fit a regression task"));
  EXPECT_THAT(error_of([] { make_model({ModelSpec::Kind::linear}, 3, Task::binary, 2); }),
              HasSubstr("linear model: fits regression tasks only, got a binary task"));
  EXPECT_THAT(error_of([] { make_model({ModelSpec::Kind::logistic}, 3, Task::binary, 3); }),
              HasSubstr("a binary task has 2 classes, got num_classes = 3"));
  EXPECT_THAT(error_of([] { make_model({ModelSpec::Kind::mlp}, 3, Task::multiclass, 1); }),
              HasSubstr("needs num_classes >= 2, got 1"));
  EXPECT_THAT(error_of([] {
                make_model({ModelSpec::Kind::linear, -1.0}, 3, Task::regression, 0);
              }),
              HasSubstr("l2 must be finite and >= 0, got -1"));
  EXPECT_THAT(error_of([] {
                make_model({ModelSpec::Kind::mlp, 0.0, 0}, 3, Task::regression, 0);
              }),
              HasSubstr("hidden units must be >= 1, got 0"));
  EXPECT_THAT(error_of([] { make_model({ModelSpec::Kind::linear}, 0, Task::regression, 0); }),
              HasSubstr("number of features must be >= 1, got 0"));
}

TEST(Model, KindNamesRoundTrip) {
  for (const auto kind : {ModelSpec::Kind::logistic, ModelSpec::Kind::linear, ModelSpec::Kind::mlp}) {
    EXPECT_EQ(parse_model_kind(to_string(kind)), kind);
  }
  EXPECT_THAT(error_of([] { parse_model_kind("svm"); }), HasSubstr("unknown model 'svm'"));
}

TEST(Model, ClipNormMustBePositive) {
  const auto model = make_model({ModelSpec::Kind::linear}, 2, Task::regression, 0);
  const Batch b = random_batch(3, 2, 0, 1);
  EXPECT_THAT(error_of([&] { model->clipped_gradient_sum(Vector::Zero(3), b.X, b.y, 0.0); }),
              HasSubstr("clip norm C must be > 0"));
  EXPECT_THROW(model->clipped_gradient_sum(Vector::Zero(3), b.X, b.y, std::nan("")), std::invalid_argument);
}

/// A model that keeps the base-class clipped_gradient_sum (per-example rows, then clip-and-sum):
/// a linear model's rows, to compare the default path with the factorized one.
class DefaultClipping final : public Model {
 public:
  explicit DefaultClipping(std::unique_ptr<Model> inner) : inner_(std::move(inner)) {}
  std::string_view name() const override { return "default clipping"; }
  std::size_t num_parameters() const override { return inner_->num_parameters(); }
  Vector initial_parameters(std::uint64_t seed) const override { return inner_->initial_parameters(seed); }
  double loss(const Vector& t, const DenseMatrix& X, const Vector& y) const override {
    return inner_->loss(t, X, y);
  }
  void per_example_gradients(const Vector& t, const DenseMatrix& X, const Vector& y,
                             DenseMatrix& g) const override {
    inner_->per_example_gradients(t, X, y, g);
  }
  Vector predict(const Vector& t, const DenseMatrix& X) const override { return inner_->predict(t, X); }
  Task task() const override { return inner_->task(); }
  double l2() const override { return inner_->l2(); }

 private:
  std::unique_ptr<Model> inner_;
};

TEST(Model, DefaultClippedSumAgreesWithTheFastPath) {
  const auto fast = make_model({ModelSpec::Kind::logistic, 0.1}, 4, Task::multiclass, 3);
  const DefaultClipping slow(make_model({ModelSpec::Kind::logistic, 0.1}, 4, Task::multiclass, 3));
  const Batch b = random_batch(25, 4, 3, 2);
  const Vector theta = random_theta(*fast, 1.0, 3);
  for (const double clip : {0.05, 0.5, std::numeric_limits<double>::infinity()}) {
    const Vector expected = fast->clipped_gradient_sum(theta, b.X, b.y, clip);
    EXPECT_LE((slow.clipped_gradient_sum(theta, b.X, b.y, clip) - expected).norm(), 1e-12 * expected.norm());
  }
  EXPECT_LE(relative_error(slow.gradient(theta, b.X, b.y), fast->gradient(theta, b.X, b.y)), 1e-12);
}

TEST(Model, AccuracyCountsMatchesAndRejectsBadInput) {
  const auto model = make_model({ModelSpec::Kind::logistic}, 1, Task::binary, 2);
  Dataset data;
  data.task = Task::binary;
  data.num_classes = 2;
  data.features = (DenseMatrix(4, 1) << -2.0, -1.0, 1.0, 2.0).finished();
  data.targets = (Vector(4) << 0.0, 1.0, 1.0, 1.0).finished();
  const Vector theta = (Vector(2) << 1.0, 0.0).finished();  // predicts [x > 0]
  EXPECT_DOUBLE_EQ(accuracy(*model, theta, data), 0.75);
  Dataset empty = data;
  empty.features.resize(0, 1);
  empty.targets.resize(0);
  EXPECT_THAT(error_of([&] { accuracy(*model, theta, empty); }), HasSubstr("empty"));
  const auto regression = make_model({ModelSpec::Kind::linear}, 1, Task::regression, 0);
  EXPECT_THAT(error_of([&] { accuracy(*regression, theta, data); }), HasSubstr("regression model"));
}

}  // namespace
}  // namespace netdp::learn
