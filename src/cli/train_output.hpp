// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the cli module: the files `netdp train` writes into its output folder
// (docs/reference/cli.md, "netdp train"): metrics.csv, metrics.json, summary.json, config.toml.

#include <nlohmann/json.hpp>
#include <string>

#include "netdp/learn/train.hpp"

namespace netdp::cli {

/// The netdp version recorded with every run (as printed by `netdp --version`): the CMake
/// project version, passed as NETDP_VERSION by CMakeLists.txt.
inline constexpr const char* kNetdpVersion = NETDP_VERSION;

/// One row per evaluation: round, train_loss, test_loss, test_accuracy, average_model_test_loss,
/// average_model_accuracy, consensus_distance, epsilon. Accuracy fields are empty for regression;
/// numbers in shortest round-trip form.
std::string metrics_csv(const learn::TrainResult& result);

/// The same rows as an array of objects with the CSV's field names (null for empty fields and
/// for non-finite numbers, which JSON cannot hold).
nlohmann::json metrics_json(const learn::TrainResult& result);

/// algorithm, sigma, epsilon, delta, final_test_loss, final_test_accuracy (null for regression),
/// target_epsilon (null when σ was given), accountant, warnings, seed, rounds, evaluations,
/// netdp_version.
nlohmann::json summary_json(const learn::TrainResult& result);

/// Writes the four files into `dir` (created with its parents when missing).
void write_training_outputs(const learn::TrainResult& result, const std::string& dir);

}  // namespace netdp::cli
