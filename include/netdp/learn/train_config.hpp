// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The typed configuration of a training run (docs/reference/learn.md, "Configuration").
//
// TrainConfig is what run_training reads: one struct per section of the TOML file (data, network,
// model, algorithm, privacy, train, limits), enums for every choice, numbers as numbers. Strings
// exist only at the edge: parse_train_config turns the flat key → text map of a TOML file and its
// --set overrides into a TrainConfig once, and to_flat_config turns it back (the run record). One
// annotated table in src/learn/config.cpp (key, default, rule, description, struct member) drives
// both directions, the validation, config_schema() and the key table of docs/reference/learn.md.
//
//   learn::TrainConfig config;                 // every default of the schema
//   config.algorithm.name = "muffliato-sgd";
//   config.privacy.target_epsilon = 2.0;
//   config.privacy.calibrate_on = learn::CalibrateOn::local;
//   const learn::TrainResult result = learn::run_training(config);

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/accounting/worst_case/vector_max.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/learn/dataset.hpp"
#include "netdp/learn/model.hpp"

namespace netdp::learn {

/// Where the examples come from (`data.source`).
enum class DataSource {
  synthetic_logistic,  ///< planted logistic model (no files)
  synthetic_linear,    ///< planted linear model (no files)
  mnist,               ///< a directory of IDX files (train-* or t10k-*)
  idx,                 ///< one IDX images file and its labels file
  csv,                 ///< a CSV file with a header row
  libsvm,              ///< a LIBSVM / SVMlight file
  housing,             ///< California housing CSV, regression on median_house_value
  houses,              ///< California housing CSV, binarized at the train median
};

/// Which ε a run reports and calibrates on (`privacy.calibrate_on`).
enum class CalibrateOn {
  mean,   ///< the mean over ordered pairs of the pairwise accountant
  max,    ///< the largest pairwise value
  local,  ///< local GDP: everything a node sends (an upper bound on every pairwise view)
};

/// How mafalda computes its encoder C (`algorithm.correlation_method`).
enum class CorrelationMethod {
  mafalda,   ///< C_local optimized on the network (mf::mafalda_correlation)
  dmf,       ///< the centralized prefix-sum optimum at every node (mf::dmf_factorization)
  per_node,  ///< one C_v per node (mf::mafalda_per_node_correlation)
};

/// The names the configuration uses ("synthetic-logistic", "mean", "per-node", ...).
std::string_view to_string(DataSource source);
std::string_view to_string(CalibrateOn calibrate_on);
std::string_view to_string(CorrelationMethod method);

/// `data.*`: reading, preprocessing and partitioning the examples.
struct DataConfig {
  DataSource source = DataSource::synthetic_logistic;
  std::string path;                       ///< mnist: the directory; csv, libsvm, housing, houses: the file
  std::string images;                     ///< idx: the images file
  std::string labels;                     ///< idx: the labels file
  Task task = Task::binary;               ///< csv / libsvm
  std::string csv_target;                 ///< csv: the target column
  std::vector<std::string> csv_features;  ///< csv: empty = every column but the target
  CsvOptions::Missing csv_missing = CsvOptions::Missing::error;
  CsvOptions::Categorical csv_categorical = CsvOptions::Categorical::error;
  std::size_t examples = 2000;   ///< synthetic
  std::size_t features = 10;     ///< synthetic
  double noise = 0.1;            ///< synthetic
  std::size_t max_examples = 0;  ///< 0 = all
  double test_fraction = 0.2;
  bool standardize = true;
  bool normalize = false;
  double target_scale = 1.0;  ///< regression targets are divided by it
  PartitionSpec::Kind partition = PartitionSpec::Kind::iid;
  double alpha = 0.5;      ///< dirichlet
  std::size_t shards = 2;  ///< shards per node
};

/// `algorithm.*`: the training algorithm and its settings.
struct AlgorithmConfig {
  std::string name = "dp-d-sgd";  ///< a name of algorithm_registry()
  std::size_t rounds = 100;       ///< T gradient steps
  double step_size = 0.1;
  std::size_t batch_size = 32;  ///< 0 = the whole local data set
  double clip = 1.0;            ///< +inf only for the non-private d-sgd
  double sigma = 1.0;
  std::size_t gossip_steps = 1;
  bool chebyshev = false;
  gossip::ScheduleSpec schedule;  ///< fixed by default
  std::string correlation;        ///< mf-d-sgd: identity (also empty), antipgd or a Matrix Market file
  CorrelationMethod correlation_method = CorrelationMethod::mafalda;
  std::size_t participations = 1;
  std::size_t separation = 0;             ///< 0 = ⌈T/k⌉
  std::size_t walk_contribution_cap = 0;  ///< 0 = no cap
  std::size_t walk_burn_in = 0;
};

/// `privacy.*`: what is reported and calibrated.
struct PrivacyConfig {
  std::optional<double> target_epsilon;  ///< empty: run at algorithm.sigma
  double delta = 1e-5;
  CalibrateOn calibrate_on = CalibrateOn::mean;
  /// The account option `bound` (muffliato, randomized-gossip): exact, the whole view of every
  /// observer (a valid upper bound, the default), or paper, Theorems 6 / 11 (NOT an upper bound).
  accounting::MuffliatoBound bound = accounting::MuffliatoBound::exact;
  /// The linear-view accountants' release dimension: "vector" (the SDP value, default) or 1 (Σ|K|).
  std::size_t release_dimension = accounting::kAnyReleaseDimension;
};

/// `train.*`: seeding and evaluation.
struct RunConfig {
  std::uint64_t seed = 1;
  std::size_t eval_every = 10;           ///< 0 = only after the last round
  std::optional<std::size_t> eval_node;  ///< empty: a node drawn from the seed
};

/// `limits.*`: the work guards of the expensive accountants and of randomized gossip. A run above a
/// limit is refused with an error naming the key that raises it (never a silent fallback). Memory is
/// checked against the machine itself (util::require_memory), not a key.
struct ResourceLimits {
  /// Koskela–Kulkarni pairwise accountants: estimated work n(n−1)(r·T)³ (r rows per round).
  double pairwise_work = 1.2e10;
  /// antipgd's dense matrix-factorization accountant: estimated work n·(n·T)²·(d·T).
  double mf_literal_work = 5e9;
  /// randomized-gossip: edges drawn before training, T·K (16 bytes each at most).
  std::size_t gossip_ticks = 50'000'000;
};

/// A whole training run. The defaults are the schema's (config_schema()).
struct TrainConfig {
  DataConfig data;
  gossip::NetworkSpec network{"er:n=20,p=0.3,connected=1", false, gossip::Weighting::hamilton};
  ModelSpec model;
  AlgorithmConfig algorithm;
  PrivacyConfig privacy;
  RunConfig train;
  ResourceLimits limits;
};

/// The text form: "data.source" → "mnist", "algorithm.sigma" → "1.5", ... (TOML tables flattened).
using FlatConfig = std::map<std::string, std::string>;

/// Parses the keys of `given` into a TrainConfig; absent keys keep their defaults. Throws
/// std::invalid_argument naming the key for an unknown key (with the closest known one), and naming
/// key, value and rule for a value that does not parse or is out of range.
TrainConfig parse_train_config(const FlatConfig& given);

/// Every key of the schema with its value's canonical text (numbers in shortest round-trip form,
/// so parse_train_config(to_flat_config(c)) holds exactly the values of c).
FlatConfig to_flat_config(const TrainConfig& config);

/// Throws std::invalid_argument as parse_train_config would for a value out of range (checked
/// rule by rule in schema order, then the rules that tie keys together).
void validate_train_config(const TrainConfig& config);

/// One key of the schema.
struct ConfigKey {
  std::string key;
  std::string default_value;  ///< the canonical text of TrainConfig{}'s value
  std::string description;
  std::string rule;  ///< the values it accepts, e.g. "integer >= 1", "mean | max | local"
};
/// Every key the simulator understands, in documentation order.
const std::vector<ConfigKey>& config_schema();

/// The schema as a Markdown table (| key | default | accepted | meaning |), as in docs/reference/learn.md.
std::string config_schema_markdown();

/// Makes the relative file paths of `config` relative to `base` (a config file's folder, so a
/// config runs from any working directory): data.path, data.images, data.labels, the file of a
/// reader SPEC in network.graph (edgelist:, mtx:, csv:) and an algorithm.correlation file. Absolute
/// paths and the other keys are left as they are.
void resolve_relative_paths(FlatConfig& config, const std::filesystem::path& base);

/// to_flat_config(parse_train_config(given)): the schema's defaults overlaid with `given`, every
/// key present, values in canonical text. Throws as parse_train_config.
FlatConfig resolve_config(const FlatConfig& given);

}  // namespace netdp::learn
