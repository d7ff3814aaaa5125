// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Helpers shared by the model implementations (src/learn/model_*.cpp): input checks, the
// numerically stable scalar functions, the row-wise softmax and the clip factor.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <string_view>

#include "netdp/learn/model.hpp"
#include "netdp/util/check.hpp"

namespace netdp::learn::detail {

/// Throws unless θ, X and y have the sizes the model expects.
inline void check_batch(std::string_view model, std::size_t params, std::size_t features, const Vector& theta,
                        const DenseMatrix& X) {
  require(static_cast<std::size_t>(theta.size()) == params,
          "{}: theta has {} entries, the model has {} parameters", model, theta.size(), params);
  require(static_cast<std::size_t>(X.cols()) == features,
          "{}: X has {} columns, the model expects {} features", model, X.cols(), features);
}

inline void check_batch(std::string_view model, std::size_t params, std::size_t features, const Vector& theta,
                        const DenseMatrix& X, const Vector& y) {
  check_batch(model, params, features, theta, X);
  require(y.size() == X.rows(), "{}: y has {} entries but X has {} rows", model, y.size(), X.rows());
}

/// Throws unless every target is a class index in {0, ..., classes − 1}.
inline void check_labels(std::string_view model, const Vector& y, std::size_t classes) {
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const double v = y[i];
    require(v >= 0.0 && v < static_cast<double>(classes) && v == std::floor(v),
            "{}: target {} of example {} is not a class index in 0..{}", model, v, i, classes - 1);
  }
}

/// Throws unless the clip norm C is > 0 (+∞ allowed: no clipping).
inline void check_clip(double clip) {
  require(clip > 0.0 && !std::isnan(clip), "clip norm C must be > 0 (or +inf for no clipping), got {}", clip);
}

/// min(1, C/‖g‖), with 1 for ‖g‖ = 0 and for C = +∞.
inline double clip_factor(double norm, double clip) { return norm > clip ? clip / norm : 1.0; }

/// log(1 + e^z) without overflow: max(z, 0) + log1p(e^{−|z|}).
inline double softplus(double z) { return std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z))); }

/// 1 / (1 + e^{−z}) without overflow in either tail.
inline double sigmoid(double z) {
  if (z >= 0.0) return 1.0 / (1.0 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1.0 + e);
}

/// Replaces each row of Z (logits) by its softmax and returns Σ_i (logsumexp(Z_i) − Z_i,y_i), the
/// summed cross-entropy, computed with the row maximum subtracted (no overflow for huge logits).
inline double softmax_rows(DenseMatrix& Z, const Vector& y) {
  double total = 0.0;
  for (Eigen::Index i = 0; i < Z.rows(); ++i) {
    const double m = Z.row(i).maxCoeff();
    const double target_logit = Z(i, static_cast<Eigen::Index>(y[i])) - m;
    Z.row(i).array() = (Z.row(i).array() - m).exp();
    const double s = Z.row(i).sum();  // ≥ 1: the maximum contributes e^0
    Z.row(i) /= s;
    total += std::log(s) - target_logit;
  }
  return total;
}

/// ‖[x_i; 1]‖₂ for every row of X.
inline Vector augmented_row_norms(const DenseMatrix& X) {
  return (X.rowwise().squaredNorm().array() + 1.0).sqrt().matrix();
}

// GLMs with one output (binary logistic, linear): g_i = r_i [x_i; 1] for a scalar residual r_i.

/// Row i of `grads` = r_i [x_i; 1].
inline void scalar_residual_gradients(const DenseMatrix& X, const Vector& r, DenseMatrix& grads) {
  grads.resize(X.rows(), X.cols() + 1);
  grads.leftCols(X.cols()) = r.asDiagonal() * X;
  grads.col(X.cols()) = r;
}

/// Σ_i clip(r_i [x_i; 1], C) using ‖g_i‖ = |r_i| ‖[x_i; 1]‖ (no per-example matrix): one GEMV.
inline Vector scalar_residual_clipped_sum(const DenseMatrix& X, Vector r, double clip) {
  if (clip != std::numeric_limits<double>::infinity()) {
    const Vector norms = augmented_row_norms(X);
    for (Eigen::Index i = 0; i < r.size(); ++i) r[i] *= clip_factor(std::abs(r[i]) * norms[i], clip);
  }
  Vector sum(X.cols() + 1);
  sum.head(X.cols()).noalias() = X.transpose() * r;
  sum[X.cols()] = r.sum();
  return sum;
}

/// Outer products, one per row: columns offset + c·m + l of `grads` (m = cols(X)) get R(i, c)·X(i, l),
/// i.e. row i holds vec(x_i r_iᵀ) in column-major order (the block layout of θ).
inline void outer_product_rows(const DenseMatrix& R, const DenseMatrix& X, Eigen::Index offset,
                               DenseMatrix& grads) {
  for (Eigen::Index c = 0; c < R.cols(); ++c) {
    grads.middleCols(offset + c * X.cols(), X.cols()) = R.col(c).asDiagonal() * X;
  }
}

/// [X 1]: X with a column of ones appended (the per-example-matrix paths only).
inline DenseMatrix with_ones_column(const DenseMatrix& X) {
  DenseMatrix out(X.rows(), X.cols() + 1);
  out << X, DenseMatrix::Ones(X.rows(), 1);
  return out;
}

/// Factories for the concrete models (one per source file).
std::unique_ptr<Model> make_binary_logistic(std::size_t features, double l2);
std::unique_ptr<Model> make_multinomial_logistic(std::size_t features, std::size_t classes, double l2);
std::unique_ptr<Model> make_linear(std::size_t features, double l2);
/// classes = 0: regression (one output, squared error); otherwise a softmax head over `classes`.
std::unique_ptr<Model> make_mlp(std::size_t features, std::size_t hidden, std::size_t classes, Task task,
                                double l2);

}  // namespace netdp::learn::detail
