// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Tests of `netdp train`'s input and output: TOML flattening and errors, --set overrides,
// the resolved-config round trip, and the metrics/summary files agreeing with the result.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "../../src/cli/train_output.hpp"
#include "cli_runner.hpp"
#include "netdp/learn/toml_config.hpp"
#include "netdp/learn/train_config.hpp"

namespace netdp::cli {
namespace {

using Json = nlohmann::json;
using learn::load_toml_config;

learn::TrainResult sample_result(bool classification) {
  learn::TrainResult r;
  r.config = {{"train.seed", "3"}, {"algorithm.name", "dp-d-sgd"}};
  r.algorithm = "dp-d-sgd";
  r.sigma = 1.25;
  r.epsilon = 3.5;
  r.delta = 1e-5;
  r.accountant = "local-gdp";
  r.warnings = {"a warning"};
  for (std::size_t i = 0; i < 3; ++i) {
    learn::EvalRecord e;
    e.round = 10 * (i + 1);
    e.train_loss = 0.7 / static_cast<double>(i + 1);
    e.test_loss = 0.1 + 0.7 / static_cast<double>(i + 2);
    e.average_model_test_loss = e.test_loss - 0.01;
    e.consensus_distance = 1.0 / 3.0 / static_cast<double>(i + 1);
    e.epsilon_so_far = 3.5 * static_cast<double>(i + 1) / 3.0;
    if (classification) {
      e.test_accuracy = 0.5 + 0.1 * static_cast<double>(i);
      e.average_model_accuracy = 0.55 + 0.1 * static_cast<double>(i);
    }
    r.history.push_back(e);
  }
  r.final_test_loss = r.history.back().test_loss;
  if (classification) r.final_test_accuracy = r.history.back().test_accuracy;
  return r;
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream cells(line);
    while (std::getline(cells, field, ',')) fields.push_back(field);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    rows.push_back(fields);
  }
  return rows;
}

TEST(TrainOutput, CsvJsonAndResultAgree) {
  const learn::TrainResult r = sample_result(true);
  const auto rows = parse_csv(metrics_csv(r));
  const Json json = metrics_json(r);
  ASSERT_EQ(rows.size(), r.history.size() + 1);
  ASSERT_EQ(json.size(), r.history.size());
  const std::vector<std::string>& header = rows[0];
  ASSERT_EQ(header.size(), 8u);
  for (std::size_t i = 0; i < r.history.size(); ++i) {
    const learn::EvalRecord& e = r.history[i];
    const std::vector<double> expected = {static_cast<double>(e.round),
                                          e.train_loss,
                                          e.test_loss,
                                          *e.test_accuracy,
                                          e.average_model_test_loss,
                                          *e.average_model_accuracy,
                                          e.consensus_distance,
                                          e.epsilon_so_far};
    ASSERT_EQ(rows[i + 1].size(), 8u);
    for (std::size_t k = 0; k < 8; ++k) {
      EXPECT_EQ(std::stod(rows[i + 1][k]), expected[k]) << header[k];  // exact: shortest round-trip text
      EXPECT_EQ(json[i][header[k]].get<double>(), expected[k]) << header[k];
    }
  }
}

TEST(TrainOutput, RegressionLeavesAccuracyEmptyAndNull) {
  const learn::TrainResult r = sample_result(false);
  const auto rows = parse_csv(metrics_csv(r));
  EXPECT_EQ(rows[1][3], "");
  EXPECT_EQ(rows[1][5], "");
  EXPECT_TRUE(metrics_json(r)[0]["test_accuracy"].is_null());
  EXPECT_TRUE(summary_json(r)["final_test_accuracy"].is_null());
}

TEST(TrainOutput, SummaryCarriesTheRequiredFields) {
  const learn::TrainResult r = sample_result(true);
  const Json s = summary_json(r);
  EXPECT_EQ(s["algorithm"], "dp-d-sgd");
  EXPECT_EQ(s["sigma"].get<double>(), 1.25);
  EXPECT_EQ(s["epsilon"].get<double>(), 3.5);
  EXPECT_EQ(s["delta"].get<double>(), 1e-5);
  EXPECT_EQ(s["accountant"], "local-gdp");
  EXPECT_TRUE(s["target_epsilon"].is_null());
  EXPECT_EQ(s["final_test_loss"].get<double>(), r.history.back().test_loss);
  EXPECT_EQ(s["final_test_accuracy"].get<double>(), *r.history.back().test_accuracy);
  EXPECT_EQ(s["seed"], 3);  // a number, as in the config
  EXPECT_EQ(s["warnings"], Json({"a warning"}));
  EXPECT_EQ(s["netdp_version"], kNetdpVersion);
}

TEST(TrainOutput, NonFiniteLossesBecomeNullWithAWarning) {
  learn::TrainResult r = sample_result(true);
  r.history[1].train_loss = std::nan("");
  EXPECT_TRUE(metrics_json(r)[1]["train_loss"].is_null());
  const Json s = summary_json(r);
  ASSERT_EQ(s["warnings"].size(), 2u);
  EXPECT_NE(s["warnings"][1].get<std::string>().find("round 20"), std::string::npos);
}

TEST(TrainOutput, WritesTheFourFiles) {
  const auto dir = std::filesystem::temp_directory_path() / "netdp_train_output_test" / "nested";
  std::filesystem::remove_all(dir.parent_path());
  const learn::TrainResult r = sample_result(true);
  write_training_outputs(r, dir.string());
  for (const char* name : {"metrics.csv", "metrics.json", "summary.json", "config.toml"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / name)) << name;
  }
  std::ifstream summary(dir / "summary.json");
  EXPECT_EQ(Json::parse(summary), summary_json(r));
  EXPECT_EQ(load_toml_config((dir / "config.toml").string()), r.config);
  std::filesystem::remove_all(dir.parent_path());
}

TEST(TrainExamples, EveryExampleConfigParsesAndItsDataResolveFromItsFolder) {
  namespace fs = std::filesystem;
  const bool shared = fs::is_directory(fs::path(NETDP_SHARED_DIR) / "datasets");
  if (!shared) {
    std::cout << "note: " << NETDP_SHARED_DIR << "/datasets is absent: the examples' data files are not "
              << "checked to exist, only to resolve from the examples' folder\n";
  }
  std::size_t count = 0;
  std::size_t paths = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(NETDP_SOURCE_DIR) / "examples")) {
    if (entry.path().extension() != ".toml") continue;
    ++count;
    const learn::FlatConfig c = load_toml_config(entry.path().string());
    for (const char* key :
         {"data.source", "network.graph", "algorithm.name", "algorithm.rounds", "train.seed"}) {
      EXPECT_EQ(c.count(key), 1u) << entry.path() << " lacks " << key;
    }
    // The paths resolve from the config's folder, whatever the working directory.
    learn::FlatConfig resolved = c;
    learn::resolve_relative_paths(resolved, entry.path().parent_path());
    for (const auto& [key, value] : resolved) {
      if (value == c.at(key)) continue;
      ++paths;
      const std::size_t scheme = value.find(':');
      const fs::path file = scheme != std::string::npos && value[0] != '/' ? value.substr(scheme + 1) : value;
      EXPECT_TRUE(file.is_absolute()) << entry.path() << " " << key << " = " << value;
      if (shared) {
        EXPECT_TRUE(fs::exists(file)) << entry.path() << " " << key << " -> " << file;
      }
    }
  }
  EXPECT_GE(count, 8u);
  EXPECT_GE(paths, count);
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

testing::CliResult tiny_run(const std::filesystem::path& out) {
  return testing::run_cli({"train", "--quiet", "--out", out.string(), "--set", "network.graph=ring:n=4",
                           "--set", "data.examples=200", "--set", "algorithm.rounds=6", "--set",
                           "train.eval_every=2"});
}

TEST(TrainCommand, TinyRunWritesAgreeingFilesAndIsDeterministic) {
  const auto base = std::filesystem::temp_directory_path() / "netdp_train_command_test";
  std::filesystem::remove_all(base);
  const auto first = tiny_run(base / "a");
  ASSERT_EQ(first.status, 0) << first.err;
  const auto second = tiny_run(base / "b");
  ASSERT_EQ(second.status, 0) << second.err;
  const std::string csv = read_file(base / "a" / "metrics.csv");
  EXPECT_EQ(csv, read_file(base / "b" / "metrics.csv"));
  const auto rows = parse_csv(csv);
  const Json metrics = Json::parse(read_file(base / "a" / "metrics.json"));
  const Json summary = Json::parse(read_file(base / "a" / "summary.json"));
  ASSERT_EQ(rows.size(), metrics.size() + 1);
  ASSERT_GE(metrics.size(), 2u);
  EXPECT_EQ(std::stod(rows.back()[2]), summary["final_test_loss"].get<double>());
  EXPECT_EQ(metrics.back()["test_loss"].get<double>(), summary["final_test_loss"].get<double>());
  EXPECT_EQ(metrics.back()["round"].get<std::size_t>(), 6u);
  for (const char* field : {"algorithm", "sigma", "epsilon", "delta", "final_test_loss",
                            "final_test_accuracy", "target_epsilon", "accountant", "warnings"}) {
    EXPECT_TRUE(summary.contains(field)) << field;
  }
  const learn::FlatConfig resolved = load_toml_config((base / "a" / "config.toml").string());
  EXPECT_EQ(resolved.at("algorithm.rounds"), "6");
  EXPECT_EQ(resolved.at("network.graph"), "ring:n=4");
  EXPECT_EQ(resolved.count("train.seed"), 1u);
  std::filesystem::remove_all(base);
}

TEST(TrainCommand, BadKeyExitsWithStatusTwoNamingIt) {
  const auto result =
      testing::run_cli({"train", "--quiet", "--set", "algorithm.sigmaa=1", "--out", "/tmp/netdp_unused"});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("algorithm.sigmaa"), std::string::npos) << result.err;
  const auto missing = testing::run_cli({"train", "--config", "/nonexistent/x.toml"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("/nonexistent/x.toml"), std::string::npos) << missing.err;
}

TEST(TrainCommand, PrintSchemaIsTheDocsTable) {
  const auto result = testing::run_cli({"train", "--print-schema"});
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out, learn::config_schema_markdown());
}

TEST(TrainCommand, PathsInAConfigAreRelativeToItsFolderAndRecordedAbsolute) {
  namespace fs = std::filesystem;
  const fs::path base = fs::temp_directory_path() / ("netdp-config-paths-" + std::to_string(::getpid()));
  fs::create_directories(base / "configs" / "data");
  {
    std::ofstream csv(base / "configs" / "data" / "points.csv");
    csv << "a,b,y\n";
    for (int i = 0; i < 60; ++i) csv << (i % 7) << "," << (i % 5) << "," << (i % 2) << "\n";
    std::ofstream(base / "configs" / "data" / "square.txt") << "0 1\n1 2\n2 3\n3 0\n";
    std::ofstream(base / "configs" / "run.toml")
        << "[data]\nsource = \"csv\"\npath = \"data/points.csv\"\ncsv_target = \"y\"\n"
        << "[network]\ngraph = \"edgelist:data/square.txt\"\n[algorithm]\nrounds = 2\n";
  }
  // Run from this process's working directory, which is not the config's folder.
  ASSERT_NE(fs::current_path(), base / "configs");
  const testing::CliResult r =
      testing::run_cli({"train", "--quiet", "--config", (base / "configs" / "run.toml").string(), "--out",
                        (base / "out").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const learn::FlatConfig recorded = load_toml_config((base / "out" / "config.toml").string());
  EXPECT_EQ(recorded.at("data.path"), (base / "configs" / "data" / "points.csv").string());
  EXPECT_EQ(recorded.at("network.graph"), "edgelist:" + (base / "configs" / "data" / "square.txt").string());
  // A --set path is relative to the working directory, and recorded absolute too.
  const testing::CliResult missing =
      testing::run_cli({"train", "--quiet", "--config", (base / "configs" / "run.toml").string(), "--set",
                        "data.path=data/points.csv", "--out", (base / "o2").string()});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find((fs::current_path() / "data" / "points.csv").string()), std::string::npos)
      << missing.err;
  fs::remove_all(base);
}

TEST(TrainCommand, ASigmaReplacedByCalibrationIsSaidAndTheRecordedConfigIsWhatRan) {
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() / ("netdp-sigma-notice-" + std::to_string(::getpid()));
  const testing::CliResult r =
      testing::run_cli({"train", "--json", "--out", out.string(), "--set", "algorithm.rounds=4", "--set",
                        "algorithm.sigma=2", "--set", "privacy.target_epsilon=1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.err.find("netdp: notice: algorithm.sigma = 2 was given, but privacy.target_epsilon = 1 calibrates"),
      std::string::npos)
      << r.err;
  const Json summary = Json::parse(r.out);
  const double sigma = summary["sigma"].get<double>();
  EXPECT_NE(sigma, 2.0);
  bool noted = false;
  for (const auto& w : summary["warnings"]) noted |= w.get<std::string>().find("algorithm.sigma = 2") == 0;
  EXPECT_TRUE(noted);
  const learn::FlatConfig recorded = load_toml_config((out / "config.toml").string());
  EXPECT_EQ(std::stod(recorded.at("algorithm.sigma")), sigma);
  fs::remove_all(out);
}

TEST(TrainCommand, WarningsGoToStderrNotToTheTable) {
  const auto dir = std::filesystem::temp_directory_path() / "netdp_train_diagnostics";
  const testing::CliResult r =
      testing::run_cli({"train", "--out", dir.string(), "--set", "network.graph=ring:n=4", "--set",
                        "data.examples=100", "--set", "algorithm.rounds=2", "--set", "train.eval_every=1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("netdp: warning: "), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace netdp::cli
