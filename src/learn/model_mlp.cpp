// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// One-hidden-layer ReLU MLP: out = B ᵀ relu(Aᵀ x + b₁) + b₂ with a squared-error head (regression,
// one output) or a softmax cross-entropy head (classification, one output per class).
//
// θ = [A (d × h, column-major: column j = the weights into hidden unit j); b₁ (h);
//      B (h × k, column-major: column c = the weights into output c); b₂ (k)].
//
// Per example, with δ = ∂ℓ/∂out (k) and η = (B δ) ⊙ 1[pre > 0] (h):
//   ∇_A = x ηᵀ, ∇_b₁ = η, ∇_B = h δᵀ, ∇_b₂ = δ, so ‖g‖² = ‖η‖²(‖x‖² + 1) + ‖δ‖²(‖h‖² + 1),
// and the clipped sum is two GEMMs on the rescaled δ, η (no per-example matrix).

#include <cmath>
#include <string_view>

#include "model_common.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::learn::detail {
namespace {

// The models' products go through the one BLAS-backed GEMM (OpenBLAS's run-time kernels).
using linalg::multiply_into;

class Mlp final : public Model {
 public:
  Mlp(std::size_t features, std::size_t hidden, std::size_t classes, Task task, double l2)
      : d_(static_cast<Eigen::Index>(features)),
        h_(static_cast<Eigen::Index>(hidden)),
        k_(classes == 0 ? 1 : static_cast<Eigen::Index>(classes)),
        classes_(classes),
        task_(task),
        l2_(l2) {}

  std::string_view name() const override {
    return task_ == Task::regression ? "mlp (regression)" : "mlp (classification)";
  }
  std::size_t num_parameters() const override { return static_cast<std::size_t>(offset_b2() + k_); }
  Task task() const override { return task_; }
  double l2() const override { return l2_; }

  /// He initialization (uniform variant): weights ~ U(−√(6/fan_in), √(6/fan_in)), variance
  /// 2/fan_in (He et al. 2015); biases 0. Same seed, same θ on every platform.
  Vector initial_parameters(std::uint64_t seed) const override {
    util::Rng rng(seed);
    Vector theta = Vector::Zero(static_cast<Eigen::Index>(num_parameters()));
    const auto fill = [&](Eigen::Index offset, Eigen::Index count, Eigen::Index fan_in) {
      const double bound = std::sqrt(6.0 / static_cast<double>(fan_in));
      for (Eigen::Index i = 0; i < count; ++i) theta[offset + i] = bound * (2.0 * rng.uniform01() - 1.0);
    };
    fill(0, d_ * h_, d_);
    fill(offset_B(), h_ * k_, h_);
    return theta;
  }

  double loss(const Vector& theta, const DenseMatrix& X, const Vector& y) const override {
    check(theta, X, y);
    require(X.rows() > 0, "{}: the mean loss needs at least one example", name());
    Forward f = forward(theta, X);
    double total = 0.0;
    if (classes_ == 0) {
      total = 0.5 * (f.out.col(0) - y).squaredNorm();
    } else {
      total = softmax_rows(f.out, y);
    }
    return total / static_cast<double>(X.rows()) + 0.5 * l2_ * theta.squaredNorm();
  }

  void per_example_gradients(const Vector& theta, const DenseMatrix& X, const Vector& y,
                             DenseMatrix& grads) const override {
    check(theta, X, y);
    const Backward b = backward(theta, X, y);
    grads.resize(X.rows(), static_cast<Eigen::Index>(num_parameters()));
    outer_product_rows(b.eta, X, 0, grads);
    grads.middleCols(offset_b1(), h_) = b.eta;
    outer_product_rows(b.delta, b.hidden, offset_B(), grads);
    grads.middleCols(offset_b2(), k_) = b.delta;
  }

  Vector clipped_gradient_sum(const Vector& theta, const DenseMatrix& X, const Vector& y,
                              double clip) const override {
    check_clip(clip);
    check(theta, X, y);
    Backward b = backward(theta, X, y);
    if (clip != std::numeric_limits<double>::infinity()) {
      const Vector x_sq = X.rowwise().squaredNorm();
      const Vector h_sq = b.hidden.rowwise().squaredNorm();
      for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const double norm = std::sqrt(b.eta.row(i).squaredNorm() * (x_sq[i] + 1.0) +
                                      b.delta.row(i).squaredNorm() * (h_sq[i] + 1.0));
        const double s = clip_factor(norm, clip);
        b.eta.row(i) *= s;
        b.delta.row(i) *= s;
      }
    }
    Vector sum(static_cast<Eigen::Index>(num_parameters()));
    multiply_into(Eigen::Map<DenseMatrix>(sum.data(), d_, h_), 1.0, X, true, b.eta, false, 0.0);
    sum.segment(offset_b1(), h_) = b.eta.colwise().sum().transpose();
    multiply_into(Eigen::Map<DenseMatrix>(sum.data() + offset_B(), h_, k_), 1.0, b.hidden, true, b.delta,
                  false, 0.0);
    sum.segment(offset_b2(), k_) = b.delta.colwise().sum().transpose();
    return sum;
  }

  Vector predict(const Vector& theta, const DenseMatrix& X) const override {
    check_batch(name(), num_parameters(), static_cast<std::size_t>(d_), theta, X);
    const Forward f = forward(theta, X);
    if (classes_ == 0) return f.out.col(0);
    Vector out(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      Eigen::Index best = 0;
      f.out.row(i).maxCoeff(&best);
      out[i] = static_cast<double>(best);
    }
    return out;
  }

 private:
  struct Forward {
    DenseMatrix pre;     ///< n × h: Aᵀx + b₁ per row
    DenseMatrix hidden;  ///< n × h: relu(pre)
    DenseMatrix out;     ///< n × k
  };
  struct Backward {
    DenseMatrix hidden;  ///< n × h
    DenseMatrix delta;   ///< n × k: ∂ℓ_i/∂out_i
    DenseMatrix eta;     ///< n × h: ∂ℓ_i/∂pre_i
  };

  Eigen::Index offset_b1() const { return d_ * h_; }
  Eigen::Index offset_B() const { return offset_b1() + h_; }
  Eigen::Index offset_b2() const { return offset_B() + h_ * k_; }

  void check(const Vector& theta, const DenseMatrix& X, const Vector& y) const {
    check_batch(name(), num_parameters(), static_cast<std::size_t>(d_), theta, X, y);
    if (classes_ > 0) check_labels(name(), y, classes_);
  }

  Forward forward(const Vector& theta, const DenseMatrix& X) const {
    const Eigen::Map<const DenseMatrix> A(theta.data(), d_, h_);
    const Eigen::Map<const DenseMatrix> B(theta.data() + offset_B(), h_, k_);
    Forward f;
    f.pre.resize(X.rows(), h_);
    multiply_into(f.pre, 1.0, X, false, A, false, 0.0);
    f.pre.rowwise() += theta.segment(offset_b1(), h_).transpose();
    f.hidden = f.pre.cwiseMax(0.0);
    f.out.resize(X.rows(), k_);
    multiply_into(f.out, 1.0, f.hidden, false, B, false, 0.0);
    f.out.rowwise() += theta.segment(offset_b2(), k_).transpose();
    return f;
  }

  Backward backward(const Vector& theta, const DenseMatrix& X, const Vector& y) const {
    Forward f = forward(theta, X);
    Backward b;
    if (classes_ == 0) {
      b.delta = f.out.col(0) - y;
    } else {
      softmax_rows(f.out, y);
      for (Eigen::Index i = 0; i < X.rows(); ++i) f.out(i, static_cast<Eigen::Index>(y[i])) -= 1.0;
      b.delta = std::move(f.out);
    }
    const Eigen::Map<const DenseMatrix> B(theta.data() + offset_B(), h_, k_);
    b.eta.resize(b.delta.rows(), h_);
    multiply_into(b.eta, 1.0, b.delta, false, B, true, 0.0);
    b.eta.array() *= (f.pre.array() > 0.0).cast<double>();
    b.hidden = std::move(f.hidden);
    return b;
  }

  Eigen::Index d_, h_, k_;
  std::size_t classes_;  ///< 0 for regression
  Task task_;
  double l2_;
};

}  // namespace

std::unique_ptr<Model> make_mlp(std::size_t features, std::size_t hidden, std::size_t classes, Task task,
                                double l2) {
  return std::make_unique<Mlp>(features, hidden, classes, task, l2);
}

}  // namespace netdp::learn::detail
