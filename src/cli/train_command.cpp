// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp train`: runs the decentralized training simulator (learn::run_training) on a
// TOML config with --set overrides, and writes metrics, summary and resolved config.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "netdp/learn/toml_config.hpp"
#include "netdp/learn/train.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "train_output.hpp"

namespace netdp::cli {
namespace {

struct TrainOptions {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string out;
  bool print_schema = false;
  OutputOptions output;
};

// runs/<config name or "default">-<UTC time>, e.g. runs/mnist-20261123-151500.
std::string default_out_dir(const std::string& config_path) {
  const std::string name =
      config_path.empty() ? std::string("default") : std::filesystem::path(config_path).stem().string();
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  return fmt::format("runs/{}-{}", name, stamp);
}

std::string optional_text(const std::optional<double>& x) { return x ? fmt::format("{:.4f}", *x) : "-"; }

void print_progress(const learn::EvalRecord& r) {
  std::cerr << fmt::format(
      "round {:>6}  train_loss {:.5g}  test_loss {:.5g}  accuracy {}  avg_model_loss {:.5g}  "
      "consensus {:.3g}  epsilon {:.4g}\n",
      r.round, r.train_loss, r.test_loss, optional_text(r.test_accuracy), r.average_model_test_loss,
      r.consensus_distance, r.epsilon_so_far);
}

void run_train(const TrainOptions& options) {
  if (options.print_schema) {
    std::cout << learn::config_schema_markdown();
    return;
  }
  learn::FlatConfig given;
  // Paths in the file are relative to its folder, --set paths to the working directory; both are
  // made absolute, so the recorded config.toml reruns from anywhere.
  if (!options.config_path.empty()) {
    given = learn::load_toml_config(options.config_path);
    learn::resolve_relative_paths(given, std::filesystem::absolute(options.config_path).parent_path());
  }
  learn::FlatConfig overrides;
  learn::apply_overrides(overrides, options.overrides);
  learn::resolve_relative_paths(overrides, std::filesystem::current_path());
  for (auto& [key, value] : overrides) given[key] = std::move(value);
  if (options.output.seed_given) given["train.seed"] = std::to_string(options.output.seed);
  const learn::TrainConfig config = learn::parse_train_config(given);
  const std::string out = options.out.empty() ? default_out_dir(options.config_path) : options.out;
  // The phases before the rounds as progress lines; the rounds as one line per evaluation.
  ProgressReporter reporter = ProgressReporter::for_stderr(options.output.quiet, "netdp train");
  learn::TrainProgress progress;
  progress.phase = [&reporter](std::string_view phase) {
    if (phase == "rounds") {
      reporter.finish();
    } else {
      reporter.phase(std::string(phase));
    }
  };
  if (!options.output.quiet) progress.evaluation = print_progress;
  learn::TrainResult result = learn::run_training(config, progress);
  if (config.privacy.target_epsilon && given.count("algorithm.sigma") != 0) {
    // A σ given beside a target ε is replaced by the calibrated one: said on stderr and in the summary.
    const std::string notice = fmt::format(
        "algorithm.sigma = {} was given, but privacy.target_epsilon = {} calibrates it: sigma = {} ran",
        given.at("algorithm.sigma"), *config.privacy.target_epsilon, result.sigma);
    if (!options.output.quiet) std::cerr << "netdp: notice: " << notice << "\n";
    result.warnings.push_back(notice);
  }
  write_training_outputs(result, out);
  const nlohmann::json summary = summary_json(result);
  print_result(options.output, summary, [&](std::ostream& os) {
    os << fmt::format("algorithm   {}\nsigma       {}\nepsilon     {} at delta {} ({})\n", result.algorithm,
                      result.sigma, result.epsilon, result.delta, result.accountant);
    os << fmt::format("final test loss {}, accuracy {}\n", result.final_test_loss,
                      optional_text(result.final_test_accuracy));
    os << "outputs in " << out << "\n";
  });
  write_warnings(summary["warnings"].get<std::vector<std::string>>(), options.output);
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto options = std::make_shared<TrainOptions>();
  CLI::App* cmd = app.add_subcommand(
      "train", "Run a decentralized (DP) training experiment from a TOML config; writes metrics and summary");
  cmd->add_option("--config", options->config_path,
                  "TOML config ([section] key = value → section.key); none: the schema's defaults");
  cmd->add_option("--set", options->overrides, "Override one key: --set algorithm.sigma=1.5 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--out", options->out, "Output folder (created); default runs/<config name>-<UTC time>");
  cmd->add_flag("--print-schema", options->print_schema,
                "Print every config key (default, accepted values, meaning) as the Markdown table of "
                "docs/reference/learn.md, and exit");
  add_output_options(cmd, options->output);
  cmd->callback([options] { run_train(*options); });
}

}  // namespace netdp::cli
