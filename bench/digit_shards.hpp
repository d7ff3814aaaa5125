// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Synthetic data of the MNIST shape (784 pixel features, 10 classes) for the learn benchmarks:
// timing does not depend on the pixel values, and no data file is needed.

#include <cstddef>
#include <vector>

#include "netdp/learn/dataset.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::bench {

inline constexpr Eigen::Index kDigitFeatures = 784;
inline constexpr std::size_t kDigitClasses = 10;

/// `nodes` shards of `per_node` examples: pixels uniform on [0, pixel_scale), labels uniform
/// over the 10 classes, drawn from one seeded stream (example by example).
inline std::vector<learn::Dataset> random_digit_shards(std::size_t nodes, Eigen::Index per_node,
                                                       double pixel_scale) {
  util::Rng rng(1);
  std::vector<learn::Dataset> shards(nodes);
  for (auto& d : shards) {
    d.task = learn::Task::multiclass;
    d.num_classes = kDigitClasses;
    d.features.resize(per_node, kDigitFeatures);
    d.targets.resize(per_node);
    for (Eigen::Index i = 0; i < per_node; ++i) {
      for (Eigen::Index j = 0; j < kDigitFeatures; ++j) d.features(i, j) = rng.uniform01() * pixel_scale;
      d.targets(i) = static_cast<double>(rng.uniform_below(kDigitClasses));
    }
  }
  return shards;
}

}  // namespace netdp::bench
