// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "train_output.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <system_error>

#include "netdp/learn/toml_config.hpp"
#include "netdp/learn/train_config.hpp"
#include "netdp/report/report.hpp"
#include "netdp/util/check.hpp"
#include "output.hpp"

namespace netdp::cli {
namespace {

std::string csv_number(double x) { return fmt::format("{}", x); }
std::string csv_number(const std::optional<double>& x) { return x ? csv_number(*x) : std::string(); }

nlohmann::json json_number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}
nlohmann::json json_number(const std::optional<double>& x) {
  return x ? json_number(*x) : nlohmann::json(nullptr);
}

std::string config_value(const learn::FlatConfig& config, const std::string& key) {
  const auto it = config.find(key);
  return it == config.end() ? std::string() : it->second;
}

}  // namespace

std::string metrics_csv(const learn::TrainResult& result) {
  std::string out =
      "round,train_loss,test_loss,test_accuracy,average_model_test_loss,average_model_accuracy,"
      "consensus_distance,epsilon\n";
  for (const learn::EvalRecord& r : result.history) {
    out += fmt::format("{},{},{},{},{},{},{},{}\n", r.round, csv_number(r.train_loss),
                       csv_number(r.test_loss), csv_number(r.test_accuracy),
                       csv_number(r.average_model_test_loss), csv_number(r.average_model_accuracy),
                       csv_number(r.consensus_distance), csv_number(r.epsilon_so_far));
  }
  return out;
}

nlohmann::json metrics_json(const learn::TrainResult& result) {
  nlohmann::json rows = nlohmann::json::array();
  for (const learn::EvalRecord& r : result.history) {
    rows.push_back({{"round", r.round},
                    {"train_loss", json_number(r.train_loss)},
                    {"test_loss", json_number(r.test_loss)},
                    {"test_accuracy", json_number(r.test_accuracy)},
                    {"average_model_test_loss", json_number(r.average_model_test_loss)},
                    {"average_model_accuracy", json_number(r.average_model_accuracy)},
                    {"consensus_distance", json_number(r.consensus_distance)},
                    {"epsilon", json_number(r.epsilon_so_far)}});
  }
  return rows;
}

/// The run record (report::run_record) of a training run: this command line and the network that ran
/// (its random graph drawn from train.seed, as the simulator draws it).
nlohmann::json run_record(const learn::TrainResult& result) {
  gossip::NetworkSpec network = learn::parse_train_config(result.config).network;
  network.seed = std::stoull(config_value(result.config, "train.seed"));
  return report::run_record(invoked_command(), network);
}

nlohmann::json summary_json(const learn::TrainResult& result) {
  nlohmann::json warnings = result.warnings;
  for (const learn::EvalRecord& r : result.history) {
    if (!std::isfinite(r.train_loss) || !std::isfinite(r.test_loss) ||
        !std::isfinite(r.average_model_test_loss)) {
      warnings.push_back(
          fmt::format("non-finite loss at round {} (training diverged: lower the step size or "
                      "raise clipping); written as null in metrics.json",
                      r.round));
      break;
    }
  }
  return {{"algorithm", result.algorithm},
          {"sigma", json_number(result.sigma)},
          {"epsilon", json_number(result.epsilon)},
          {"delta", json_number(result.delta)},
          {"accountant", result.accountant},
          {"bound", result.valid_bound ? "upper-bound" : "paper-formula"},
          {"valid_bound", result.valid_bound},
          {"target_epsilon", json_number(result.target_epsilon)},
          {"final_test_loss", json_number(result.final_test_loss)},
          {"final_test_accuracy", json_number(result.final_test_accuracy)},
          {"evaluations", result.history.size()},
          {"rounds", result.history.empty() ? 0 : result.history.back().round},
          {"seed", std::stoull(config_value(result.config, "train.seed"))},
          {"warnings", warnings},
          {"netdp_version", kNetdpVersion},
          {"run", run_record(result)}};
}

void write_training_outputs(const learn::TrainResult& result, const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  require(!error, "--out '{}': cannot create the folder ({})", dir, error.message());
  const std::filesystem::path base(dir);
  write_text_file((base / "metrics.csv").string(), metrics_csv(result));
  write_text_file((base / "metrics.json").string(), dump_json(metrics_json(result)) + "\n");
  write_text_file((base / "summary.json").string(), dump_json(summary_json(result)) + "\n");
  const std::string header = fmt::format(
      "The resolved configuration of a `netdp train` run (netdp {}, seed {}).\n"
      "Rerun it with: netdp train --config config.toml",
      kNetdpVersion, config_value(result.config, "train.seed"));
  write_text_file((base / "config.toml").string(), learn::config_to_toml(result.config, header));
}

}  // namespace netdp::cli
