// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Loading and preparing the data set of a training run from its DataConfig (`data.*`).

#include <fmt/format.h>

#include <filesystem>
#include <numeric>

#include "netdp/util/check.hpp"
#include "simulator_internal.hpp"

namespace netdp::learn {

namespace {

// dir/<stem> or dir/<stem>.gz, whichever exists ("" if neither).
std::string existing(const std::filesystem::path& dir, const std::string& stem) {
  for (const std::string& name : {stem, stem + ".gz"}) {
    if (std::filesystem::exists(dir / name)) return (dir / name).string();
  }
  return {};
}

Dataset read_mnist_directory(const std::string& dir) {
  require(!dir.empty(), "config data.source = 'mnist' needs data.path (a directory of IDX files)");
  for (const std::string prefix : {"train", "t10k"}) {
    const std::string images = existing(dir, prefix + "-images-idx3-ubyte");
    const std::string labels = existing(dir, prefix + "-labels-idx1-ubyte");
    if (!images.empty() && !labels.empty()) return read_idx(images, labels);
  }
  throw std::invalid_argument(fmt::format(
      "config data.path = '{}': no train-/t10k-images-idx3-ubyte[.gz] with its labels file there", dir));
}

Dataset read_source(const DataConfig& c, std::uint64_t seed) {
  switch (c.source) {
    case DataSource::synthetic_logistic:
    case DataSource::synthetic_linear: {
      SyntheticOptions options;
      options.kind = c.source == DataSource::synthetic_linear ? SyntheticOptions::Kind::linear
                                                              : SyntheticOptions::Kind::logistic;
      options.examples = c.examples;
      options.features = c.features;
      options.noise = c.noise;
      options.seed = seed;
      return make_synthetic(options);
    }
    case DataSource::mnist:
      return read_mnist_directory(c.path);
    case DataSource::idx:
      require(!c.images.empty() && !c.labels.empty(),
              "config data.source = 'idx' needs data.images and data.labels");
      return read_idx(c.images, c.labels);
    case DataSource::libsvm:
    case DataSource::csv:
    case DataSource::housing:
    case DataSource::houses:
      break;
  }
  require(!c.path.empty(), "config data.source = '{}' needs data.path", to_string(c.source));
  if (c.source == DataSource::libsvm) return read_libsvm(c.path, c.task);
  CsvOptions options;
  options.target_column = c.csv_target;
  options.feature_columns = c.csv_features;
  options.missing = c.csv_missing;
  options.categorical = c.csv_categorical;
  options.task = c.task;
  if (c.source == DataSource::housing || c.source == DataSource::houses) {
    // California housing: regression on median_house_value (houses binarizes it at the train median).
    if (options.target_column.empty()) options.target_column = "median_house_value";
    options.task = Task::regression;
  } else {
    require(!options.target_column.empty(), "config data.source = 'csv' needs data.csv_target");
  }
  return read_csv(c.path, options);
}

}  // namespace

TrainTest load_train_test(const DataConfig& c, std::uint64_t seed) {
  Dataset data = read_source(c, sub_seed(seed, 1));
  if (c.max_examples > 0 && c.max_examples < data.size()) {
    std::vector<std::size_t> rows(c.max_examples);
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    data = data.subset(rows);
  }
  TrainTest split = train_test_split(data, c.test_fraction, sub_seed(seed, 2));
  if (c.source == DataSource::houses) binarize_at_median(split);
  scale_targets(split, c.target_scale);
  if (c.standardize) standardize(split);
  if (c.normalize) {
    normalize_rows(split.train);
    normalize_rows(split.test);
  }
  return split;
}

}  // namespace netdp::learn
