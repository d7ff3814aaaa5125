#pragma once
// The decentralized training simulator's entry point (issue 5): a resolved
// configuration in, a metrics history and the privacy spent out.
//
// Configuration is a flat key → value map ("data.source" → "mnist",
// "algorithm.sigma" → "1.5", ...). The `cli` module fills it from a TOML file
// and --set overrides; this module owns the schema: the keys, their defaults,
// their validation and their documentation (docs/learn.md).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace netdp::learn {

using FlatConfig = std::map<std::string, std::string>;

/// One key of the schema: its default (as text) and a one-line description.
struct ConfigKey {
  std::string key;
  std::string default_value;
  std::string description;
};
/// Every key the simulator understands, in documentation order.
const std::vector<ConfigKey>& config_schema();

/// The schema's defaults overlaid with `given`. Throws std::invalid_argument naming the key
/// for an unknown key (with the closest known one), and naming key, value and rule for a value
/// that does not parse or is out of range. The result holds every key of the schema.
FlatConfig resolve_config(const FlatConfig& given);

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
  FlatConfig config;          ///< the resolved configuration that ran
  std::string algorithm;      ///< its name as in the config
  double sigma = 0.0;         ///< noise multiplier used (calibrated when a target ε was given)
  double epsilon = 0.0;       ///< privacy of the whole run under `accountant` (0: non-private)
  double delta = 0.0;
  std::string accountant;     ///< e.g. "muffliato-mean-pairwise", "central-gdp", "local-gdp", "none"
  std::optional<double> target_epsilon;
  std::vector<EvalRecord> history;
  double final_test_loss = 0.0;
  std::optional<double> final_test_accuracy;  ///< empty for regression
  std::vector<std::string> warnings;
};

/// Runs the configured experiment. Deterministic given config "train.seed". `progress` is called
/// after each evaluation. Throws std::invalid_argument on a bad configuration or data.
TrainResult run_training(const FlatConfig& config, const std::function<void(const EvalRecord&)>& progress = {});

}  // namespace netdp::learn
