// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The decentralized training simulator's entry point: a typed configuration in
// (netdp/learn/train_config.hpp), a metrics history and the privacy spent out.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/learn/train_config.hpp"

namespace netdp::learn {

/// One evaluation (every `train.eval_every` rounds and after the last).
struct EvalRecord {
  std::size_t round = 0;
  double train_loss = 0.0;                       ///< mean over nodes of their local training loss
  double test_loss = 0.0;                        ///< random node's model (fixed node, seeded)
  std::optional<double> test_accuracy;           ///< random node's model; empty for regression
  double average_model_test_loss = 0.0;          ///< model averaged over nodes
  std::optional<double> average_model_accuracy;  ///< empty for regression
  double consensus_distance = 0.0;               ///< (1/n) Σ_v ‖θ_v − θ̄‖²
  double epsilon_so_far = 0.0;                   ///< privacy spent up to this round (0 when non-private)
};

struct TrainResult {
  /// The configuration that ran, as text: to_flat_config of the TrainConfig (every key, canonical
  /// values; the run record's config.toml). parse_train_config gives the TrainConfig back.
  FlatConfig config;
  std::string algorithm;  ///< its name as in the config
  double sigma = 0.0;     ///< noise multiplier used (calibrated when a target ε was given)
  double epsilon = 0.0;   ///< privacy of the whole run under `accountant` (0: non-private)
  double delta = 0.0;
  std::string accountant;   ///< e.g. "muffliato-mean-pairwise", "central-gdp", "local-gdp", "none"
  bool valid_bound = true;  ///< false: the accountant is a paper's formula, not an upper bound
  std::optional<double> target_epsilon;
  std::vector<EvalRecord> history;
  double final_test_loss = 0.0;
  std::optional<double> final_test_accuracy;  ///< empty for regression
  std::vector<std::string> warnings;
};

/// What run_training reports while it runs (each may be empty).
struct TrainProgress {
  /// When a phase before the rounds starts: "data and network", "privacy accountant",
  /// "calibration", then "rounds" (the rounds report through `evaluation`).
  std::function<void(std::string_view phase)> phase;
  /// After each evaluation.
  std::function<void(const EvalRecord&)> evaluation;
};

/// Runs the configured experiment. Deterministic given config.train.seed. Throws
/// std::invalid_argument on a bad configuration (validate_train_config) or data.
TrainResult run_training(const TrainConfig& config, const TrainProgress& progress);
/// run_training with only the evaluations reported: `progress` is called after each one.
TrainResult run_training(const TrainConfig& config,
                         const std::function<void(const EvalRecord&)>& progress = {});

/// run_training(parse_train_config(config), progress): the text form (TOML keys, --set overrides).
TrainResult run_training(const FlatConfig& config,
                         const std::function<void(const EvalRecord&)>& progress = {});

}  // namespace netdp::learn
