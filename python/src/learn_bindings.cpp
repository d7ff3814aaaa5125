// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Training: `netdp train` on a config, its metrics as numpy columns and its summary.

#include <pybind11/stl.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "netdp/learn/toml_config.hpp"
#include "netdp/learn/train.hpp"

namespace netdp::python {
namespace {

/// `netdp train` on a config: a TOML file (its relative paths from its folder) or keys already
/// flat, then overrides (relative paths from the working directory), as the command merges them.
py::dict train(const std::optional<std::string>& path, learn::FlatConfig given, learn::FlatConfig overrides) {
  if (path) {
    given = learn::load_toml_config(*path);
    learn::resolve_relative_paths(given, std::filesystem::absolute(*path).parent_path());
  }
  learn::resolve_relative_paths(overrides, std::filesystem::current_path());
  for (auto& [key, value] : overrides) given[key] = std::move(value);
  const learn::TrainResult result = run_interruptibly<learn::TrainResult>(
      [config = learn::parse_train_config(given)] { return learn::run_training(config); });
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::int64_t> round;
  std::vector<double> train_loss, test_loss, test_accuracy, average_loss, average_accuracy, consensus,
      epsilon;
  for (const learn::EvalRecord& r : result.history) {
    round.push_back(static_cast<std::int64_t>(r.round));
    train_loss.push_back(r.train_loss);
    test_loss.push_back(r.test_loss);
    test_accuracy.push_back(r.test_accuracy.value_or(nan));
    average_loss.push_back(r.average_model_test_loss);
    average_accuracy.push_back(r.average_model_accuracy.value_or(nan));
    consensus.push_back(r.consensus_distance);
    epsilon.push_back(r.epsilon_so_far);
  }
  const auto n = static_cast<py::ssize_t>(round.size());
  py::dict metrics;  // metrics.csv's columns
  metrics["round"] = owned_array(std::move(round), {n});
  metrics["train_loss"] = owned_array(std::move(train_loss), {n});
  metrics["test_loss"] = owned_array(std::move(test_loss), {n});
  metrics["test_accuracy"] = owned_array(std::move(test_accuracy), {n});
  metrics["average_model_test_loss"] = owned_array(std::move(average_loss), {n});
  metrics["average_model_accuracy"] = owned_array(std::move(average_accuracy), {n});
  metrics["consensus_distance"] = owned_array(std::move(consensus), {n});
  metrics["epsilon"] = owned_array(std::move(epsilon), {n});
  py::dict summary;
  summary["algorithm"] = result.algorithm;
  summary["sigma"] = result.sigma;
  summary["epsilon"] = result.epsilon;
  summary["delta"] = result.delta;
  summary["accountant"] = result.accountant;
  summary["valid_bound"] = result.valid_bound;
  summary["target_epsilon"] = result.target_epsilon ? py::cast(*result.target_epsilon) : py::none();
  summary["final_test_loss"] = result.final_test_loss;
  summary["final_test_accuracy"] =
      result.final_test_accuracy ? py::cast(*result.final_test_accuracy) : py::none();
  summary["warnings"] = result.warnings;
  summary["config"] = result.config;
  py::dict out;
  out["metrics"] = metrics;
  out["summary"] = summary;
  return out;
}

}  // namespace

void bind_learn(py::module_& m) {
  m.def("train", &train, py::arg("path"), py::arg("config"), py::arg("overrides"));
}

}  // namespace netdp::python
