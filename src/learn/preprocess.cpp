// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The papers' preprocessing (Muffliato Section 6 / random-walk paper Section 6 on Houses: standardize,
// normalize each point to unit L2 norm, 80/20 split; Koskela–Kulkarni Section 5 on MNIST).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "netdp/learn/dataset.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::learn {

TrainTest train_test_split(const Dataset& data, double test_fraction, std::uint64_t seed) {
  require(std::isfinite(test_fraction) && test_fraction > 0.0 && test_fraction < 1.0,
          "train_test_split: test_fraction must be in (0, 1), got {}", test_fraction);
  const std::size_t n = data.size();
  const auto tests = static_cast<std::size_t>(std::llround(test_fraction * static_cast<double>(n)));
  require(tests >= 1 && tests < n,
          "train_test_split: test_fraction {} of {} examples leaves {} test examples (need 1..{})",
          test_fraction, n, tests, n == 0 ? 0 : n - 1);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  util::Rng rng(seed);
  rng.shuffle(order.begin(), order.end());
  const std::vector<std::size_t> test(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(tests));
  const std::vector<std::size_t> train(order.begin() + static_cast<std::ptrdiff_t>(tests), order.end());
  return {data.subset(train), data.subset(test)};
}

void standardize(TrainTest& data) {
  require(data.train.size() > 0, "standardize: the train set is empty");
  require(data.test.dim() == data.train.dim() || data.test.size() == 0,
          "standardize: train has {} features but test has {}", data.train.dim(), data.test.dim());
  const Eigen::RowVectorXd mean = data.train.features.colwise().mean();
  const Eigen::RowVectorXd std_dev =
      ((data.train.features.rowwise() - mean).array().square().colwise().mean()).sqrt().matrix();
  // Constant features (std 0) are only centred.
  const Eigen::RowVectorXd inverse = std_dev.unaryExpr([](double s) { return s > 0.0 ? 1.0 / s : 1.0; });
  for (Dataset* part : {&data.train, &data.test}) {
    if (part->size() == 0) continue;
    part->features = ((part->features.rowwise() - mean).array().rowwise() * inverse.array()).matrix();
  }
}

void normalize_rows(Dataset& data) {
  for (Eigen::Index i = 0; i < data.features.rows(); ++i) {
    const double norm = data.features.row(i).norm();
    if (norm > 0.0) data.features.row(i) /= norm;
  }
}

void scale_targets(TrainTest& data, double scale) {
  require(std::isfinite(scale) && scale > 0.0, "data.target_scale = {}: must be finite and > 0", scale);
  if (scale == 1.0) return;
  require(data.train.task == Task::regression,
          "data.target_scale = {}: only regression targets can be scaled (this data set is classification)",
          scale);
  data.train.targets /= scale;
  data.test.targets /= scale;
}

void binarize_at_median(TrainTest& data) {
  require(data.train.task == Task::regression,
          "binarize_at_median: the targets must be real values (regression)");
  require(data.train.size() > 0, "binarize_at_median: the train set is empty");
  std::vector<double> values(data.train.targets.data(),
                             data.train.targets.data() + data.train.targets.size());
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  const double median = values.size() % 2 == 1 ? values[m] : 0.5 * (values[m - 1] + values[m]);
  for (Dataset* part : {&data.train, &data.test}) {
    part->targets = (part->targets.array() > median).cast<double>().matrix();
    part->task = Task::binary;
    part->num_classes = 2;
    part->class_names = {fmt::format("<= {}", median), fmt::format("> {}", median)};
  }
}

}  // namespace netdp::learn
