// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Data sets for the decentralized training simulator: an in-memory
// table of features and targets, the readers that fill it, preprocessing as in
// the papers, and partitioning over the nodes of a graph.
//
// Conventions: one example per row of `features` (examples × features);
// `targets` holds the class index (0..num_classes−1, stored as double) for
// classification and the real value for regression.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::learn {

enum class Task {
  binary,      ///< targets in {0, 1}
  multiclass,  ///< targets in {0, ..., num_classes − 1}
  regression,  ///< real targets
};
/// "binary", "multiclass" or "regression" (the names of `data.task`).
std::string_view to_string(Task task);
/// Inverse of to_string; throws std::invalid_argument naming the value and the accepted names.
Task parse_task(std::string_view name);

struct Dataset {
  DenseMatrix features;  ///< examples × features
  Vector targets;        ///< one per example
  Task task = Task::regression;
  std::size_t num_classes = 0;  ///< 2 for binary, C for multiclass, 0 for regression
  std::vector<std::string> feature_names;
  /// Original label of each class (index = class), e.g. {"-1", "1"}; empty for regression.
  std::vector<std::string> class_names;

  std::size_t size() const { return static_cast<std::size_t>(features.rows()); }
  std::size_t dim() const { return static_cast<std::size_t>(features.cols()); }
  /// The examples at `rows`, in that order (same task, classes and names).
  Dataset subset(const std::vector<std::size_t>& rows) const;
};

struct TrainTest {
  Dataset train;
  Dataset test;
};

// ---- readers (throw std::invalid_argument naming the file, and the line/record for malformed input)

/// IDX images + labels (MNIST / Fashion-MNIST), gzip or plain (decided by the magic bytes, not the
/// name). Pixels are scaled to [0, 1]; the task is multiclass with 10 classes (or max label + 1).
Dataset read_idx(const std::string& images_path, const std::string& labels_path);

struct CsvOptions {
  std::string target_column;                 ///< required
  std::vector<std::string> feature_columns;  ///< empty: every column but the target
  enum class Missing { error, drop_row, mean_impute } missing = Missing::error;
  enum class Categorical { error, one_hot, drop } categorical = Categorical::error;
  Task task = Task::regression;  ///< binary/multiclass: the target column holds class labels
};
/// "error", "drop_row", "mean_impute" / "error", "one_hot", "drop" (the configuration's names).
std::string_view to_string(CsvOptions::Missing missing);
std::string_view to_string(CsvOptions::Categorical categorical);
/// CSV with a header row. A non-numeric column is categorical (handled per `categorical`);
/// an empty field is missing (handled per `missing`).
Dataset read_csv(const std::string& path, const CsvOptions& options);

/// LIBSVM / SVMlight: `label index:value ...`, 1-based indices. Labels {−1, +1} or {0, 1} → binary;
/// other integer labels → multiclass; `task` = regression keeps the raw values.
Dataset read_libsvm(const std::string& path, Task task = Task::binary, std::size_t num_features = 0);

struct SyntheticOptions {
  enum class Kind { logistic, linear } kind = Kind::logistic;
  std::size_t examples = 2000;
  std::size_t features = 10;
  double noise = 0.1;  ///< label noise (linear: std of the additive noise)
  std::uint64_t seed = 1;
};
/// A planted model: x ~ N(0, I/d), θ* ~ N(0, I); logistic: y ~ Bernoulli(sigmoid(x·θ*)),
/// linear: y = x·θ* + noise·N(0, 1). `planted` receives θ* when non-null.
Dataset make_synthetic(const SyntheticOptions& options, Vector* planted = nullptr);

// ---- preprocessing (the papers' pipeline)

/// Splits with a seeded shuffle; test_fraction in (0, 1).
TrainTest train_test_split(const Dataset& data, double test_fraction, std::uint64_t seed);
/// Standardizes every feature with the train set's mean and std (constant features: centred only).
void standardize(TrainTest& data);
/// Scales every example (row) to unit L2 norm (zero rows stay zero).
void normalize_rows(Dataset& data);
/// Regression targets divided by `scale` (> 0, finite), train and test alike (e.g. 1e5 puts
/// California housing prices in sklearn's units of $100,000). Throws for classification data.
void scale_targets(TrainTest& data, double scale);
/// California housing "houses": binary target = (value > median of the train targets).
void binarize_at_median(TrainTest& data);

// ---- partitioning over n nodes: node v receives the example indices parts[v]

struct PartitionSpec {
  enum class Kind {
    iid,        ///< seeded shuffle, equal shares (± 1)
    dirichlet,  ///< label skew: per class, shares ~ Dirichlet(alpha)
    shards,     ///< sort by label, cut into n·shards_per_node shards, deal shards_per_node to each node
    position,   ///< data correlated with graph position (random-walk paper, Appendix C)
  } kind = Kind::iid;
  double alpha = 0.5;
  std::size_t shards_per_node = 2;
  std::uint64_t seed = 1;
};
/// "iid", "dirichlet", "shards", "position".
std::string_view to_string(PartitionSpec::Kind kind);
/// Every example goes to exactly one node; every node gets at least one example (throws otherwise).
/// `graph` is required for `position` (may be null for the others).
std::vector<std::vector<std::size_t>> partition(const Dataset& data, std::size_t nodes,
                                                const PartitionSpec& spec,
                                                const graph::Graph* graph = nullptr);

}  // namespace netdp::learn
