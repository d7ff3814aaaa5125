// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// A planted model with a known parameter θ*, for tests that must converge to a known optimum.
#include <fmt/format.h>

#include <cmath>

#include "netdp/learn/dataset.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::learn {

Dataset make_synthetic(const SyntheticOptions& options, Vector* planted) {
  require(options.examples > 0, "make_synthetic: examples must be ≥ 1, got 0");
  require(options.features > 0, "make_synthetic: features must be ≥ 1, got 0");
  require(std::isfinite(options.noise) && options.noise >= 0.0,
          "make_synthetic: noise must be finite and ≥ 0, got {}", options.noise);
  const bool logistic = options.kind == SyntheticOptions::Kind::logistic;
  require(!logistic || options.noise <= 0.5,
          "make_synthetic: logistic noise is a label-flip probability and must be in [0, 0.5], got {}",
          options.noise);
  // What this holds, checked before the trainer's own estimate (netdp train) can run: the n x d
  // features and n targets, θ*, and a name of about 40 bytes per feature.
  const auto examples = static_cast<double>(options.examples);
  const auto features = static_cast<double>(options.features);
  util::require_memory(
      8.0 * examples * (features + 1.0) + 48.0 * features, "the synthetic data",
      fmt::format("data.examples = {} examples of data.features = {} features and a target, 8 "
                  "bytes each, and 48 bytes per feature",
                  options.examples, options.features),
      "use fewer examples (data.examples) or features (data.features)");
  const auto n = static_cast<Eigen::Index>(options.examples);
  const auto d = static_cast<Eigen::Index>(options.features);

  util::Rng rng(options.seed);
  Vector theta(d);
  for (Eigen::Index j = 0; j < d; ++j) theta(j) = rng.standard_normal();

  Dataset data;
  data.features.resize(n, d);
  data.targets.resize(n);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));  // x ~ N(0, I/d)
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) data.features(i, j) = scale * rng.standard_normal();
    const double margin = data.features.row(i).dot(theta);
    if (logistic) {
      bool y = rng.bernoulli(1.0 / (1.0 + std::exp(-margin)));
      if (rng.bernoulli(options.noise)) y = !y;
      data.targets(i) = y ? 1.0 : 0.0;
    } else {
      data.targets(i) = margin + options.noise * rng.standard_normal();
    }
  }
  data.task = logistic ? Task::binary : Task::regression;
  data.num_classes = logistic ? 2 : 0;
  if (logistic) data.class_names = {"0", "1"};
  for (Eigen::Index j = 0; j < d; ++j) data.feature_names.push_back(fmt::format("x{}", j));
  if (planted != nullptr) *planted = theta;
  return data;
}

}  // namespace netdp::learn
