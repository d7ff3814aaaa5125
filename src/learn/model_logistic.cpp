// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Logistic regression: binary (sigmoid + log-loss) and multinomial (softmax cross-entropy).
// Both clipped sums use the factorization of the per-example gradient norm, so the n × p matrix
// of per-example gradients is never formed (docs/reference/learn-models.md, "Clipping").

#include <string_view>

#include "model_common.hpp"
#include "netdp/linalg/dense_kernels.hpp"

namespace netdp::learn::detail {
namespace {

// The models' products go through the one BLAS-backed GEMM (OpenBLAS's run-time kernels).
using linalg::multiply_into;

/// θ = [w (d entries); b].  ℓ(θ; x, y) = log(1 + e^z) − y z with z = w·x + b, y ∈ {0, 1}.
class BinaryLogistic final : public Model {
 public:
  BinaryLogistic(std::size_t features, double l2) : d_(features), l2_(l2) {}

  std::string_view name() const override { return "logistic (binary)"; }
  std::size_t num_parameters() const override { return d_ + 1; }
  Task task() const override { return Task::binary; }
  double l2() const override { return l2_; }
  Vector initial_parameters(std::uint64_t /*seed*/) const override {
    return Vector::Zero(static_cast<Eigen::Index>(d_ + 1));
  }

  double loss(const Vector& theta, const DenseMatrix& X, const Vector& y) const override {
    check(theta, X, y);
    require(X.rows() > 0, "{}: the mean loss needs at least one example", name());
    const Vector z = logits(theta, X);
    double total = 0.0;
    // log(1 + e^z) − y z = (1 − y)·softplus(z) + y·softplus(−z): no cancellation for huge |z|.
    for (Eigen::Index i = 0; i < z.size(); ++i) {
      total += y[i] > 0.5 ? softplus(-z[i]) : softplus(z[i]);
    }
    return total / static_cast<double>(X.rows()) + 0.5 * l2_ * theta.squaredNorm();
  }

  void per_example_gradients(const Vector& theta, const DenseMatrix& X, const Vector& y,
                             DenseMatrix& grads) const override {
    check(theta, X, y);
    scalar_residual_gradients(X, residuals(theta, X, y), grads);
  }

  /// g_i = r_i [x_i; 1] with r_i = σ(z_i) − y_i, so ‖g_i‖ = |r_i| ‖[x_i; 1]‖.
  Vector clipped_gradient_sum(const Vector& theta, const DenseMatrix& X, const Vector& y,
                              double clip) const override {
    check_clip(clip);
    check(theta, X, y);
    return scalar_residual_clipped_sum(X, residuals(theta, X, y), clip);
  }

  Vector predict(const Vector& theta, const DenseMatrix& X) const override {
    check_batch(name(), d_ + 1, d_, theta, X);
    return (logits(theta, X).array() >= 0.0).cast<double>().matrix();
  }

 private:
  void check(const Vector& theta, const DenseMatrix& X, const Vector& y) const {
    check_batch(name(), d_ + 1, d_, theta, X, y);
    check_labels(name(), y, 2);
  }
  Vector logits(const Vector& theta, const DenseMatrix& X) const {
    Vector z = X * theta.head(static_cast<Eigen::Index>(d_));
    z.array() += theta[static_cast<Eigen::Index>(d_)];
    return z;
  }
  Vector residuals(const Vector& theta, const DenseMatrix& X, const Vector& y) const {
    Vector r = logits(theta, X);
    for (Eigen::Index i = 0; i < r.size(); ++i) r[i] = sigmoid(r[i]) - y[i];
    return r;
  }

  std::size_t d_;
  double l2_;
};

/// θ holds one block [w_c; b_c] of d + 1 entries per class c (class-major), i.e. the column-major
/// (d + 1) × C matrix Θ with column c = [w_c; b_c].  ℓ(θ; x, y) = logsumexp(z) − z_y, z = Θᵀ[x; 1].
class MultinomialLogistic final : public Model {
 public:
  MultinomialLogistic(std::size_t features, std::size_t classes, double l2)
      : d_(features), classes_(classes), l2_(l2) {}

  std::string_view name() const override { return "logistic (multinomial)"; }
  std::size_t num_parameters() const override { return (d_ + 1) * classes_; }
  Task task() const override { return Task::multiclass; }
  double l2() const override { return l2_; }
  Vector initial_parameters(std::uint64_t /*seed*/) const override {
    return Vector::Zero(static_cast<Eigen::Index>(num_parameters()));
  }

  double loss(const Vector& theta, const DenseMatrix& X, const Vector& y) const override {
    check(theta, X, y);
    require(X.rows() > 0, "{}: the mean loss needs at least one example", name());
    DenseMatrix Z = logits(theta, X);
    return softmax_rows(Z, y) / static_cast<double>(X.rows()) + 0.5 * l2_ * theta.squaredNorm();
  }

  void per_example_gradients(const Vector& theta, const DenseMatrix& X, const Vector& y,
                             DenseMatrix& grads) const override {
    check(theta, X, y);
    grads.resize(X.rows(), static_cast<Eigen::Index>(num_parameters()));
    outer_product_rows(residuals(theta, X, y), with_ones_column(X), 0, grads);
  }

  /// g_i = (p_i − e_{y_i}) ⊗ [x_i; 1], so ‖g_i‖ = ‖p_i − e_{y_i}‖ ‖[x_i; 1]‖; the sum is one GEMM.
  Vector clipped_gradient_sum(const Vector& theta, const DenseMatrix& X, const Vector& y,
                              double clip) const override {
    check_clip(clip);
    check(theta, X, y);
    DenseMatrix R = residuals(theta, X, y);
    if (clip != std::numeric_limits<double>::infinity()) {
      const Vector norms = augmented_row_norms(X);
      for (Eigen::Index i = 0; i < R.rows(); ++i) {
        R.row(i) *= clip_factor(R.row(i).norm() * norms[i], clip);
      }
    }
    const auto d = static_cast<Eigen::Index>(d_);
    const auto C = static_cast<Eigen::Index>(classes_);
    Vector sum(static_cast<Eigen::Index>(num_parameters()));
    Eigen::Map<DenseMatrix> G(sum.data(), d + 1, C);
    multiply_into(G.topRows(d), 1.0, X, true, R, false, 0.0);
    G.row(d) = R.colwise().sum();
    return sum;
  }

  Vector predict(const Vector& theta, const DenseMatrix& X) const override {
    check_batch(name(), num_parameters(), d_, theta, X);
    const DenseMatrix Z = logits(theta, X);
    Vector out(X.rows());
    for (Eigen::Index i = 0; i < Z.rows(); ++i) {
      Eigen::Index best = 0;
      Z.row(i).maxCoeff(&best);
      out[i] = static_cast<double>(best);
    }
    return out;
  }

 private:
  void check(const Vector& theta, const DenseMatrix& X, const Vector& y) const {
    check_batch(name(), num_parameters(), d_, theta, X, y);
    check_labels(name(), y, classes_);
  }
  /// Z = X W + 1 bᵀ (n × C), one GEMM.
  DenseMatrix logits(const Vector& theta, const DenseMatrix& X) const {
    const auto d = static_cast<Eigen::Index>(d_);
    const Eigen::Map<const DenseMatrix> Theta(theta.data(), d + 1, static_cast<Eigen::Index>(classes_));
    DenseMatrix Z(X.rows(), Theta.cols());
    multiply_into(Z, 1.0, X, false, Theta.topRows(d), false, 0.0);
    Z.rowwise() += Theta.row(d);
    return Z;
  }
  /// Row i: p_i − e_{y_i}.
  DenseMatrix residuals(const Vector& theta, const DenseMatrix& X, const Vector& y) const {
    DenseMatrix P = logits(theta, X);
    softmax_rows(P, y);
    for (Eigen::Index i = 0; i < P.rows(); ++i) P(i, static_cast<Eigen::Index>(y[i])) -= 1.0;
    return P;
  }

  std::size_t d_;
  std::size_t classes_;
  double l2_;
};

}  // namespace

std::unique_ptr<Model> make_binary_logistic(std::size_t features, double l2) {
  return std::make_unique<BinaryLogistic>(features, l2);
}

std::unique_ptr<Model> make_multinomial_logistic(std::size_t features, std::size_t classes, double l2) {
  return std::make_unique<MultinomialLogistic>(features, classes, l2);
}

}  // namespace netdp::learn::detail
