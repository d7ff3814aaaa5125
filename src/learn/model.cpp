// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The Model base (default clipped sum, penalty, full gradient), make_model and accuracy.

#include "netdp/learn/model.hpp"

#include <cmath>
#include <limits>

#include "model_common.hpp"
#include "netdp/util/check.hpp"

namespace netdp::learn {

Vector Model::clipped_gradient_sum(const Vector& theta, const DenseMatrix& X, const Vector& y,
                                   double clip) const {
  detail::check_clip(clip);
  DenseMatrix grads;
  per_example_gradients(theta, X, y, grads);
  Vector sum = Vector::Zero(static_cast<Eigen::Index>(num_parameters()));
  for (Eigen::Index i = 0; i < grads.rows(); ++i) {
    sum += detail::clip_factor(grads.row(i).norm(), clip) * grads.row(i).transpose();
  }
  return sum;
}

Vector Model::penalty_gradient(const Vector& theta) const { return l2() * theta; }

Vector Model::gradient(const Vector& theta, const DenseMatrix& X, const Vector& y) const {
  require(X.rows() > 0, "{}: the gradient of the mean loss needs at least one example", name());
  Vector g = clipped_gradient_sum(theta, X, y, std::numeric_limits<double>::infinity());
  g /= static_cast<double>(X.rows());
  g += penalty_gradient(theta);
  return g;
}

std::unique_ptr<Model> make_model(const ModelSpec& spec, std::size_t features, Task task,
                                  std::size_t num_classes) {
  const auto kind = to_string(spec.kind);
  require(features >= 1, "{} model: the number of features must be >= 1, got {}", kind, features);
  require(std::isfinite(spec.l2) && spec.l2 >= 0.0, "{} model: l2 must be finite and >= 0, got {}", kind,
          spec.l2);
  if (task == Task::binary) {
    require(num_classes == 2, "{} model: a binary task has 2 classes, got num_classes = {}", kind,
            num_classes);
  } else if (task == Task::multiclass) {
    require(num_classes >= 2, "{} model: a multiclass task needs num_classes >= 2, got {}", kind,
            num_classes);
  }
  switch (spec.kind) {
    case ModelSpec::Kind::logistic:
      require(task != Task::regression,
              "logistic model: cannot fit a regression task (real targets); use model 'linear' or "
              "'mlp'");
      if (task == Task::binary) return detail::make_binary_logistic(features, spec.l2);
      return detail::make_multinomial_logistic(features, num_classes, spec.l2);
    case ModelSpec::Kind::linear:
      require(task == Task::regression,
              "linear model: fits regression tasks only, got a {} task; use model 'logistic' or 'mlp'",
              to_string(task));
      return detail::make_linear(features, spec.l2);
    case ModelSpec::Kind::mlp:
      require(spec.hidden >= 1, "mlp model: hidden units must be >= 1, got {}", spec.hidden);
      return detail::make_mlp(features, spec.hidden, task == Task::regression ? 0 : num_classes, task,
                              spec.l2);
  }
  throw std::invalid_argument("make_model: unknown model kind");
}

double accuracy(const Model& model, const Vector& theta, const Dataset& data) {
  require(model.task() != Task::regression, "accuracy: model {} is a regression model", model.name());
  require(data.size() > 0, "accuracy: the data set is empty");
  require(data.targets.size() == data.features.rows(),
          "accuracy: the data set has {} targets for {} examples", data.targets.size(), data.features.rows());
  const Vector predicted = model.predict(theta, data.features);
  const auto correct = (predicted.array() == data.targets.array()).count();
  return static_cast<double>(correct) / static_cast<double>(data.size());
}

}  // namespace netdp::learn
