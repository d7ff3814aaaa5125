// Loading and preparing the data set of a training run from the resolved `data.*` keys.

#include <fmt/format.h>

#include <filesystem>
#include <numeric>

#include "netdp/util/check.hpp"
#include "simulator_internal.hpp"
#include "train_config.hpp"

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

Dataset read_source(const FlatConfig& c, std::uint64_t seed) {
  const std::string& source = c.at("data.source");
  if (source == "synthetic-logistic" || source == "synthetic-linear") {
    SyntheticOptions options;
    options.kind =
        source == "synthetic-linear" ? SyntheticOptions::Kind::linear : SyntheticOptions::Kind::logistic;
    options.examples = parse_count("data.examples", c.at("data.examples"));
    options.features = parse_count("data.features", c.at("data.features"));
    options.noise = parse_real("data.noise", c.at("data.noise"));
    options.seed = seed;
    return make_synthetic(options);
  }
  if (source == "mnist") return read_mnist_directory(c.at("data.path"));
  if (source == "idx") {
    require(!c.at("data.images").empty() && !c.at("data.labels").empty(),
            "config data.source = 'idx' needs data.images and data.labels");
    return read_idx(c.at("data.images"), c.at("data.labels"));
  }
  require(!c.at("data.path").empty(), "config data.source = '{}' needs data.path", source);
  if (source == "libsvm") return read_libsvm(c.at("data.path"), parse_task(c.at("data.task")));
  CsvOptions options;
  options.target_column = c.at("data.csv_target");
  const std::string& features = c.at("data.csv_features");
  for (std::size_t start = 0; start < features.size();) {
    const std::size_t comma = std::min(features.find(',', start), features.size());
    if (comma > start) options.feature_columns.push_back(features.substr(start, comma - start));
    start = comma + 1;
  }
  const std::string& missing = c.at("data.csv_missing");
  options.missing = missing == "drop_row"      ? CsvOptions::Missing::drop_row
                    : missing == "mean_impute" ? CsvOptions::Missing::mean_impute
                                               : CsvOptions::Missing::error;
  const std::string& categorical = c.at("data.csv_categorical");
  options.categorical = categorical == "one_hot" ? CsvOptions::Categorical::one_hot
                        : categorical == "drop"  ? CsvOptions::Categorical::drop
                                                 : CsvOptions::Categorical::error;
  options.task = parse_task(c.at("data.task"));
  if (source == "housing" || source == "houses") {
    // California housing: regression on median_house_value (houses binarizes it at the train median).
    if (options.target_column.empty()) options.target_column = "median_house_value";
    options.task = Task::regression;
  } else {
    require(!options.target_column.empty(), "config data.source = 'csv' needs data.csv_target");
  }
  return read_csv(c.at("data.path"), options);
}

}  // namespace

TrainTest load_train_test(const FlatConfig& c, std::uint64_t seed) {
  Dataset data = read_source(c, sub_seed(seed, 1));
  const std::size_t max_examples = parse_count("data.max_examples", c.at("data.max_examples"));
  if (max_examples > 0 && max_examples < data.size()) {
    std::vector<std::size_t> rows(max_examples);
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    data = data.subset(rows);
  }
  TrainTest split =
      train_test_split(data, parse_real("data.test_fraction", c.at("data.test_fraction")), sub_seed(seed, 2));
  if (c.at("data.source") == "houses") binarize_at_median(split);
  scale_targets(split, parse_real("data.target_scale", c.at("data.target_scale")));
  if (parse_bool("data.standardize", c.at("data.standardize"))) standardize(split);
  if (parse_bool("data.normalize", c.at("data.normalize"))) {
    normalize_rows(split.train);
    normalize_rows(split.test);
  }
  return split;
}

std::uint64_t sub_seed(std::uint64_t seed, std::uint64_t stream) {
  // splitmix64 of seed + stream · golden ratio: independent-looking seeds per component.
  std::uint64_t z = seed + stream * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace netdp::learn
