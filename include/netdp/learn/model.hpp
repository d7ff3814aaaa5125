// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Models for the training simulator: per-example gradients with L2 clipping.
// Parameters are one flat vector θ (layout documented per model in docs/reference/learn-models.md).
//
// The L2 penalty λ/2‖θ‖² is part of loss() and gradient() but NOT of the per-example gradients
// nor of clipped_gradient_sum(): it does not depend on the data, so a DP trainer adds
// penalty_gradient(θ) = λθ after clipping and noising (clipping it would only bias the update).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "netdp/learn/dataset.hpp"
#include "netdp/util/types.hpp"

namespace netdp::learn {

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string_view name() const = 0;
  virtual std::size_t num_parameters() const = 0;
  /// Deterministic initial θ (zeros for the linear models, seeded He init for the MLP).
  virtual Vector initial_parameters(std::uint64_t seed) const = 0;
  /// Mean loss over the rows of X (plus the model's L2 penalty, if any).
  virtual double loss(const Vector& theta, const DenseMatrix& X, const Vector& y) const = 0;
  /// Per-example gradients: row i of `grads` (resized to rows(X) × num_parameters()) is ∇ℓ(θ; x_i, y_i).
  virtual void per_example_gradients(const Vector& theta, const DenseMatrix& X, const Vector& y,
                                     DenseMatrix& grads) const = 0;
  /// Σ_i clip(∇ℓ(θ; x_i, y_i), C), where clip(g, C) = g · min(1, C/‖g‖₂); C = +∞ means no
  /// clipping. Models override this with a fast path that never forms the per-example matrix
  /// (GLMs: ‖∇ℓ_i‖ factorizes); the default uses per_example_gradients.
  virtual Vector clipped_gradient_sum(const Vector& theta, const DenseMatrix& X, const Vector& y,
                                      double clip) const;
  /// Predictions: the class index (classification) or the value (regression), one per row.
  virtual Vector predict(const Vector& theta, const DenseMatrix& X) const = 0;

  /// The task this model was built for (decides how targets are read).
  virtual Task task() const = 0;
  /// The L2 coefficient λ of the penalty λ/2 ‖θ‖² (applies to every entry of θ, biases included).
  virtual double l2() const = 0;
  /// ∇(λ/2 ‖θ‖²) = λθ: the data-independent part of the gradient, added outside the clip.
  Vector penalty_gradient(const Vector& theta) const;
  /// The gradient of loss(): (1/n) Σ_i ∇ℓ(θ; x_i, y_i) + λθ (no clipping).
  Vector gradient(const Vector& theta, const DenseMatrix& X, const Vector& y) const;
};

struct ModelSpec {
  enum class Kind { logistic, linear, mlp } kind = Kind::logistic;
  double l2 = 0.0;          ///< ridge / weight-decay coefficient λ (loss + λ/2 ‖θ‖²), ≥ 0
  std::size_t hidden = 32;  ///< MLP hidden units, ≥ 1
};

/// "logistic", "linear" or "mlp" (the names the config files use).
std::string_view to_string(ModelSpec::Kind kind);
/// Inverse of to_string; throws std::invalid_argument naming the value and the accepted names.
ModelSpec::Kind parse_model_kind(std::string_view name);

/// logistic: binary (one weight vector + bias) or multinomial (C × (d+1)) by data.task;
/// linear: least squares (½(x·w + b − y)²) with ridge λ; mlp: one ReLU hidden layer, softmax or
/// squared-error head by task. Throws std::invalid_argument on a task the model cannot fit.
std::unique_ptr<Model> make_model(const ModelSpec& spec, std::size_t features, Task task,
                                  std::size_t num_classes);

/// Classification accuracy (fraction of predictions equal to the targets); NaN-free: throws on
/// an empty set.
double accuracy(const Model& model, const Vector& theta, const Dataset& data);

}  // namespace netdp::learn
