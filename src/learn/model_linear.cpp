// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Linear (ridge) regression: ℓ(θ; x, y) = ½ (w·x + b − y)², θ = [w; b]; the penalty λ/2 ‖θ‖²
// covers the bias too (see docs/reference/learn-models.md).

#include <string_view>

#include "model_common.hpp"

namespace netdp::learn::detail {
namespace {

class Linear final : public Model {
 public:
  Linear(std::size_t features, double l2) : d_(features), l2_(l2) {}

  std::string_view name() const override { return "linear"; }
  std::size_t num_parameters() const override { return d_ + 1; }
  Task task() const override { return Task::regression; }
  double l2() const override { return l2_; }
  Vector initial_parameters(std::uint64_t /*seed*/) const override {
    return Vector::Zero(static_cast<Eigen::Index>(d_ + 1));
  }

  double loss(const Vector& theta, const DenseMatrix& X, const Vector& y) const override {
    check_batch(name(), d_ + 1, d_, theta, X, y);
    require(X.rows() > 0, "{}: the mean loss needs at least one example", name());
    return 0.5 * residuals(theta, X, y).squaredNorm() / static_cast<double>(X.rows()) +
           0.5 * l2_ * theta.squaredNorm();
  }

  void per_example_gradients(const Vector& theta, const DenseMatrix& X, const Vector& y,
                             DenseMatrix& grads) const override {
    check_batch(name(), d_ + 1, d_, theta, X, y);
    scalar_residual_gradients(X, residuals(theta, X, y), grads);
  }

  /// g_i = r_i [x_i; 1] with r_i = w·x_i + b − y_i, so ‖g_i‖ = |r_i| ‖[x_i; 1]‖.
  Vector clipped_gradient_sum(const Vector& theta, const DenseMatrix& X, const Vector& y,
                              double clip) const override {
    check_clip(clip);
    check_batch(name(), d_ + 1, d_, theta, X, y);
    return scalar_residual_clipped_sum(X, residuals(theta, X, y), clip);
  }

  Vector predict(const Vector& theta, const DenseMatrix& X) const override {
    check_batch(name(), d_ + 1, d_, theta, X);
    Vector out = X * theta.head(static_cast<Eigen::Index>(d_));
    out.array() += theta[static_cast<Eigen::Index>(d_)];
    return out;
  }

 private:
  Vector residuals(const Vector& theta, const DenseMatrix& X, const Vector& y) const {
    Vector r = predict(theta, X);
    r -= y;
    return r;
  }

  std::size_t d_;
  double l2_;
};

}  // namespace

std::unique_ptr<Model> make_linear(std::size_t features, double l2) {
  return std::make_unique<Linear>(features, l2);
}

}  // namespace netdp::learn::detail
