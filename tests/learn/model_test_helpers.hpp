// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared checks for the model tests: literal references (central finite differences, the
// per-example clip-and-sum loop) that every model's fast paths must agree with.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

#include "netdp/learn/model.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::learn::testing {

struct Batch {
  DenseMatrix X;
  Vector y;
};

/// n random examples with features uniform in [−1, 1]; targets: class indices (classes ≥ 2) or
/// uniform reals in [−2, 2] (classes = 0).
inline Batch random_batch(Eigen::Index n, Eigen::Index d, std::size_t classes, std::uint64_t seed) {
  util::Rng rng(seed);
  Batch b{DenseMatrix(n, d), Vector(n)};
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) b.X(i, j) = 2.0 * rng.uniform01() - 1.0;
    b.y[i] = classes == 0 ? 4.0 * rng.uniform01() - 2.0 : static_cast<double>(rng.uniform_below(classes));
  }
  return b;
}

/// θ with entries uniform in [−scale, scale].
inline Vector random_theta(const Model& model, double scale, std::uint64_t seed) {
  util::Rng rng(seed);
  Vector theta(static_cast<Eigen::Index>(model.num_parameters()));
  for (auto& v : theta) v = scale * (2.0 * rng.uniform01() - 1.0);
  return theta;
}

inline double relative_error(const Vector& a, const Vector& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-300);
}

/// Central finite differences of model.loss at θ (step h per coordinate).
inline Vector finite_difference_gradient(const Model& model, const Vector& theta, const DenseMatrix& X,
                                         const Vector& y, double h = 1e-5) {
  Vector g(theta.size());
  Vector t = theta;
  for (Eigen::Index j = 0; j < theta.size(); ++j) {
    t[j] = theta[j] + h;
    const double up = model.loss(t, X, y);
    t[j] = theta[j] - h;
    const double down = model.loss(t, X, y);
    t[j] = theta[j];
    g[j] = (up - down) / (2.0 * h);
  }
  return g;
}

/// Every row of per_example_gradients equals the finite-difference gradient of the loss on that
/// example alone (the model must have l2 = 0, so the loss on one row is ℓ(θ; x_i, y_i)).
inline void expect_per_example_gradients_match_finite_differences(const Model& model, const Batch& b,
                                                                  const Vector& theta) {
  ASSERT_EQ(model.l2(), 0.0);
  DenseMatrix grads;
  model.per_example_gradients(theta, b.X, b.y, grads);
  ASSERT_EQ(grads.rows(), b.X.rows());
  ASSERT_EQ(static_cast<std::size_t>(grads.cols()), model.num_parameters());
  for (Eigen::Index i = 0; i < b.X.rows(); ++i) {
    const DenseMatrix xi = b.X.row(i);
    const Vector yi = b.y.segment(i, 1);
    const Vector fd = finite_difference_gradient(model, theta, xi, yi);
    EXPECT_LE(relative_error(grads.row(i).transpose(), fd), 1e-6) << model.name() << ", example " << i;
  }
}

/// The literal reference: clip every per-example gradient row and add them up.
inline Vector literal_clipped_sum(const DenseMatrix& grads, double clip) {
  Vector sum = Vector::Zero(grads.cols());
  for (Eigen::Index i = 0; i < grads.rows(); ++i) {
    const double norm = grads.row(i).norm();
    const double factor = norm > clip ? clip / norm : 1.0;
    sum += factor * grads.row(i).transpose();
  }
  return sum;
}

/// clipped_gradient_sum (the fast path) against the literal loop, for clip norms below, around
/// and above the per-example norms, and C = ∞ against the plain sum of the rows.
inline void expect_clipped_sum_matches_literal(const Model& model, const Batch& b, const Vector& theta) {
  DenseMatrix grads;
  model.per_example_gradients(theta, b.X, b.y, grads);
  const Vector norms = grads.rowwise().norm();
  const double median_norm = norms[norms.size() / 2];
  for (const double clip : {1e-3 * median_norm, median_norm, 10.0 * norms.maxCoeff()}) {
    const Vector fast = model.clipped_gradient_sum(theta, b.X, b.y, clip);
    const Vector literal = literal_clipped_sum(grads, clip);
    EXPECT_LE((fast - literal).norm(), 1e-12 * std::max(1.0, literal.norm()))
        << model.name() << ", C = " << clip;
  }
  const Vector unclipped =
      model.clipped_gradient_sum(theta, b.X, b.y, std::numeric_limits<double>::infinity());
  const Vector plain = grads.colwise().sum().transpose();
  EXPECT_LE((unclipped - plain).norm(), 1e-12 * std::max(1.0, plain.norm())) << model.name();
}

/// On a single example the clipped sum is the clipped gradient: norm exactly min(‖g‖, C).
inline void expect_clipping_bound(const Model& model, const Batch& b, const Vector& theta, double clip) {
  DenseMatrix grads;
  model.per_example_gradients(theta, b.X, b.y, grads);
  for (Eigen::Index i = 0; i < b.X.rows(); ++i) {
    const DenseMatrix xi = b.X.row(i);
    const Vector yi = b.y.segment(i, 1);
    const double norm = model.clipped_gradient_sum(theta, xi, yi, clip).norm();
    EXPECT_LE(norm, clip * (1.0 + 1e-12)) << model.name() << ", example " << i;
    EXPECT_NEAR(norm, std::min(grads.row(i).norm(), clip), 1e-12 * std::max(1.0, norm));
  }
}

/// gradient() = mean of the per-example rows + λθ = the finite-difference gradient of loss().
inline void expect_gradient_matches_loss(const Model& model, const Batch& b, const Vector& theta) {
  const Vector fd = finite_difference_gradient(model, theta, b.X, b.y);
  EXPECT_LE(relative_error(model.gradient(theta, b.X, b.y), fd), 1e-6) << model.name();
}

/// Every output finite for inputs that overflow exp() naively (|logits| ~ 1e8).
inline void expect_finite_on_extreme_inputs(const Model& model, const Batch& b) {
  const Vector theta = random_theta(model, 1e4, 99);
  const DenseMatrix X = 1e4 * b.X;
  EXPECT_TRUE(std::isfinite(model.loss(theta, X, b.y))) << model.name();
  DenseMatrix grads;
  model.per_example_gradients(theta, X, b.y, grads);
  EXPECT_TRUE(grads.allFinite()) << model.name();
  EXPECT_TRUE(model.clipped_gradient_sum(theta, X, b.y, 1.0).allFinite()) << model.name();
  EXPECT_TRUE(model.predict(theta, X).allFinite()) << model.name();
}

/// Plain gradient descent on the mean loss (for the toy-set tests).
inline Vector gradient_descent(const Model& model, const DenseMatrix& X, const Vector& y, double step,
                               int iterations) {
  Vector theta = model.initial_parameters(1);
  for (int t = 0; t < iterations; ++t) theta -= step * model.gradient(theta, X, y);
  return theta;
}

}  // namespace netdp::learn::testing
