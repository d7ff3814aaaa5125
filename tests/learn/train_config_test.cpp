// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The typed training configuration: defaults, text ↔ struct in both directions, validation of a
// struct built in C++, the resource limits as keys, and docs/reference/learn.md's key table.

#include "netdp/learn/train_config.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "netdp/learn/train.hpp"

namespace netdp::learn {
namespace {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TrainConfigTest, DefaultsAreTheSchemaDefaults) {
  // The schema's defaults before the configuration was typed (a frozen copy: a change here is a
  // change of every run that relies on a default).
  const FlatConfig expected = {
      {"data.source", "synthetic-logistic"},
      {"data.path", ""},
      {"data.images", ""},
      {"data.labels", ""},
      {"data.task", "binary"},
      {"data.csv_target", ""},
      {"data.csv_features", ""},
      {"data.csv_missing", "error"},
      {"data.csv_categorical", "error"},
      {"data.examples", "2000"},
      {"data.features", "10"},
      {"data.noise", "0.1"},
      {"data.max_examples", "0"},
      {"data.test_fraction", "0.2"},
      {"data.standardize", "true"},
      {"data.normalize", "false"},
      {"data.target_scale", "1"},
      {"data.partition", "iid"},
      {"data.alpha", "0.5"},
      {"data.shards", "2"},
      {"network.graph", "er:n=20,p=0.3,connected=1"},
      {"network.lcc", "false"},
      {"network.weights", "hamilton"},
      {"network.matrix", ""},
      {"network.symmetrize", "false"},
      {"network.source_column", ""},
      {"network.target_column", ""},
      {"network.weight_column", ""},
      {"model.kind", "logistic"},
      {"model.l2", "0"},
      {"model.hidden", "32"},
      {"algorithm.name", "dp-d-sgd"},
      {"algorithm.rounds", "100"},
      {"algorithm.step_size", "0.1"},
      {"algorithm.batch_size", "32"},
      {"algorithm.clip", "1"},
      {"algorithm.sigma", "1"},
      {"algorithm.gossip_steps", "1"},
      {"algorithm.chebyshev", "false"},
      {"algorithm.schedule", "fixed"},
      {"algorithm.correlation", ""},
      {"algorithm.correlation_method", "mafalda"},
      {"algorithm.participations", "1"},
      {"algorithm.separation", "0"},
      {"algorithm.walk_contribution_cap", "0"},
      {"algorithm.walk_burn_in", "0"},
      {"privacy.target_epsilon", ""},
      {"privacy.delta", "1e-5"},
      {"privacy.calibrate_on", "mean"},
      {"privacy.bound", "exact"},
      {"privacy.release_dimension", "vector"},
      {"train.seed", "1"},
      {"train.eval_every", "10"},
      {"train.eval_node", "random"},
      {"limits.pairwise_work", "1.2e10"},
      {"limits.mf_literal_work", "5e9"},
      {"limits.gossip_ticks", "50000000"},
  };
  EXPECT_EQ(to_flat_config(TrainConfig{}), expected);
  EXPECT_EQ(resolve_config({}), expected);
  ASSERT_EQ(config_schema().size(), expected.size());
  for (const ConfigKey& key : config_schema()) {
    EXPECT_EQ(key.default_value, expected.at(key.key)) << key.key;
    EXPECT_FALSE(key.rule.empty()) << key.key;
  }
}

TEST(TrainConfigTest, TextBecomesTypedValues) {
  const TrainConfig c = parse_train_config({{"data.source", "houses"},
                                            {"data.csv_features", "a,,b"},
                                            {"data.csv_missing", "mean_impute"},
                                            {"data.partition", "dirichlet"},
                                            {"network.weights", "closed-row"},
                                            {"network.lcc", "1"},
                                            {"model.kind", "mlp"},
                                            {"algorithm.schedule", "er-per-round:p=0.25"},
                                            {"algorithm.correlation_method", "per-node"},
                                            {"algorithm.clip", "2.5"},
                                            {"privacy.target_epsilon", "3"},
                                            {"privacy.calibrate_on", "local"},
                                            {"train.seed", "18446744073709"},
                                            {"train.eval_node", "4"},
                                            {"limits.gossip_ticks", "7"}});
  EXPECT_EQ(c.data.source, DataSource::houses);
  EXPECT_EQ(c.data.csv_features, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(c.data.csv_missing, CsvOptions::Missing::mean_impute);
  EXPECT_EQ(c.data.partition, PartitionSpec::Kind::dirichlet);
  EXPECT_EQ(c.network.weighting, gossip::Weighting::closed_row);
  EXPECT_TRUE(c.network.lcc);
  EXPECT_EQ(c.model.kind, ModelSpec::Kind::mlp);
  EXPECT_EQ(c.algorithm.schedule, (gossip::ScheduleSpec{gossip::ScheduleSpec::Kind::er_per_round, 0.25}));
  EXPECT_EQ(c.algorithm.correlation_method, CorrelationMethod::per_node);
  EXPECT_EQ(c.algorithm.clip, 2.5);
  EXPECT_EQ(c.privacy.target_epsilon, 3.0);
  EXPECT_EQ(c.privacy.calibrate_on, CalibrateOn::local);
  EXPECT_EQ(c.train.seed, 18446744073709u);
  EXPECT_EQ(c.train.eval_node, std::size_t{4});
  EXPECT_EQ(c.limits.gossip_ticks, 7u);
  const TrainConfig defaults =
      parse_train_config({{"privacy.target_epsilon", ""}, {"train.eval_node", "random"}});
  EXPECT_FALSE(defaults.privacy.target_epsilon.has_value());
  EXPECT_FALSE(defaults.train.eval_node.has_value());
}

TEST(TrainConfigTest, TextRoundTripsThroughTheStruct) {
  TrainConfig c;
  c.data.source = DataSource::csv;
  c.data.csv_features = {"x1", "x2"};
  c.data.test_fraction = 0.1234567890123456789;
  c.network.graph = "ring:n=6";
  c.algorithm.schedule = {gossip::ScheduleSpec::Kind::dropout, 0.3};
  c.algorithm.sigma = 1.0 / 3.0;
  c.algorithm.clip = std::numeric_limits<double>::infinity();
  c.algorithm.name = "d-sgd";
  c.privacy.delta = 1e-7;
  c.privacy.target_epsilon = 0.5;
  c.train.eval_node = 2;
  c.limits.pairwise_work = 3.5e11;
  const FlatConfig flat = to_flat_config(c);
  EXPECT_EQ(flat.at("algorithm.schedule"), "dropout:p=0.3");
  EXPECT_EQ(flat.at("algorithm.clip"), "inf");
  EXPECT_EQ(flat.at("privacy.delta"), "1e-7");
  EXPECT_EQ(flat.at("limits.pairwise_work"), "3.5e11");
  EXPECT_EQ(flat.at("data.csv_features"), "x1,x2");
  const TrainConfig back = parse_train_config(flat);
  EXPECT_EQ(back.algorithm.sigma, c.algorithm.sigma);  // exact: shortest round-trip text
  EXPECT_EQ(back.data.test_fraction, c.data.test_fraction);
  EXPECT_EQ(to_flat_config(back), flat);
}

// The names of a rule "a | b | c" when it lists names only (a choice), else nothing.
std::vector<std::string> listed_names(const std::string& rule) {
  std::vector<std::string> names;
  for (std::size_t start = 0; start <= rule.size();) {
    const std::size_t bar = std::min(rule.find(" | ", start), rule.size());
    const std::string name = rule.substr(start, bar - start);
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") != std::string::npos)
      return {};
    names.push_back(name);
    start = bar + 3;
  }
  return names.size() >= 2 ? names : std::vector<std::string>{};
}

TEST(TrainConfigTest, EveryChoiceNameParsesAndPrintsBack) {
  std::size_t choices = 0;
  for (const ConfigKey& key : config_schema()) {
    const std::vector<std::string> names = listed_names(key.rule);
    choices += names.empty() ? 0 : 1;
    for (const std::string& name : names)
      EXPECT_EQ(resolve_config({{key.key, name}}).at(key.key), name) << key.key;
  }
  EXPECT_EQ(choices, 17u);  // 12 choices (data.source ... privacy.release_dimension) and 5 flags
  EXPECT_EQ(to_string(CalibrateOn::max), "max");
  EXPECT_EQ(to_string(CorrelationMethod::per_node), "per-node");
  EXPECT_EQ(to_string(DataSource::synthetic_linear), "synthetic-linear");
  EXPECT_EQ(to_string(CsvOptions::Categorical::one_hot), "one_hot");
}

TEST(TrainConfigTest, ValidateChecksAStructBuiltInCode) {
  EXPECT_NO_THROW(validate_train_config(TrainConfig{}));
  TrainConfig c;
  c.algorithm.sigma = -1.0;
  std::string message = error_of([&] { validate_train_config(c); });
  EXPECT_NE(message.find("config algorithm.sigma = '-1': must be finite and >= 0"), std::string::npos)
      << message;

  c = TrainConfig{};
  c.algorithm.schedule = {gossip::ScheduleSpec::Kind::er_per_round, 2.0};
  message = error_of([&] { validate_train_config(c); });
  EXPECT_NE(message.find("algorithm.schedule = 'er-per-round:p=2'"), std::string::npos) << message;
  EXPECT_NE(message.find("(0, 1]"), std::string::npos) << message;

  c = TrainConfig{};
  c.algorithm.name = "sgd";
  EXPECT_NE(error_of([&] { validate_train_config(c); }).find("expected one of d-sgd, dp-d-sgd"),
            std::string::npos);

  c = TrainConfig{};
  c.privacy.target_epsilon = 0.0;
  EXPECT_NE(error_of([&] { validate_train_config(c); }).find("must be empty or a finite number > 0"),
            std::string::npos);

  c = TrainConfig{};
  c.algorithm.clip = std::numeric_limits<double>::infinity();
  EXPECT_NE(error_of([&] { (void)run_training(c); }).find("finite clipping"), std::string::npos);
}

TrainConfig tiny_run() {
  TrainConfig c;
  c.data.examples = 300;
  c.data.features = 3;
  c.network.graph = "ring:n=6";
  c.algorithm.rounds = 6;
  c.algorithm.batch_size = 5;
  c.train.eval_every = 3;
  return c;
}

TEST(TrainConfigTest, TypedAndTextEntryPointsRunTheSameExperiment) {
  const TrainConfig c = tiny_run();
  const TrainResult typed = run_training(c);
  const TrainResult text = run_training(to_flat_config(c));
  EXPECT_EQ(typed.config, to_flat_config(c));
  EXPECT_EQ(typed.config, text.config);
  ASSERT_EQ(typed.history.size(), text.history.size());
  for (std::size_t i = 0; i < typed.history.size(); ++i) {
    EXPECT_EQ(typed.history[i].test_loss, text.history[i].test_loss);
    EXPECT_EQ(typed.history[i].epsilon_so_far, text.history[i].epsilon_so_far);
  }
}

TEST(TrainConfigTest, ProgressNamesEachPhaseBeforeTheRoundsThenEachEvaluation) {
  TrainConfig c = tiny_run();
  c.privacy.target_epsilon = 2.0;
  std::vector<std::string> events;
  TrainProgress progress;
  progress.phase = [&](std::string_view phase) { events.emplace_back(phase); };
  progress.evaluation = [&](const EvalRecord& r) { events.push_back(fmt::format("round {}", r.round)); };
  (void)run_training(c, progress);
  EXPECT_EQ(events, (std::vector<std::string>{"data and network", "privacy accountant", "calibration",
                                              "rounds", "round 3", "round 6"}));
}

TEST(TrainConfigTest, EachResourceLimitIsAKeyNamedByItsError) {
  struct Case {
    std::string algorithm;
    CalibrateOn calibrate_on;
    void (*lower)(ResourceLimits&);
    std::string key;
    accounting::MuffliatoBound bound = accounting::MuffliatoBound::exact;
  };
  const Case cases[] = {
      {"dp-d-sgd", CalibrateOn::mean, [](ResourceLimits& l) { l.pairwise_work = 1.0; },
       "limits.pairwise_work"},
      {"antipgd", CalibrateOn::max, [](ResourceLimits& l) { l.mf_literal_work = 1.0; },
       "limits.mf_literal_work"},
      {"muffliato-sgd", CalibrateOn::mean, [](ResourceLimits& l) { l.pairwise_work = 1.0; },
       "limits.pairwise_work"},
      {"randomized-gossip", CalibrateOn::max, [](ResourceLimits& l) { l.pairwise_work = 1.0; },
       "limits.pairwise_work"},
      {"randomized-gossip", CalibrateOn::local, [](ResourceLimits& l) { l.gossip_ticks = 5; },
       "limits.gossip_ticks"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.algorithm + " " + k.key);
    TrainConfig c = tiny_run();
    c.algorithm.name = k.algorithm;
    c.privacy.calibrate_on = k.calibrate_on;
    c.privacy.bound = k.bound;
    EXPECT_NO_THROW((void)run_training(c));  // the defaults admit the tiny run
    k.lower(c.limits);
    const std::string message = error_of([&] { (void)run_training(c); });
    EXPECT_NE(message.find("raise " + k.key), std::string::npos) << message;
    if (k.calibrate_on != CalibrateOn::local) {
      EXPECT_NE(message.find(fmt::format("privacy.calibrate_on = {}:", to_string(k.calibrate_on))),
                std::string::npos)
          << message;
      EXPECT_NE(message.find("privacy.calibrate_on = local"), std::string::npos) << message;
    }
  }
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(TrainConfigTest, DocsKeyTableIsTheSchema) {
  // docs/reference/learn.md holds `netdp train --print-schema`'s output between these two markers.
  const std::string doc = read_text(std::filesystem::path(NETDP_SOURCE_DIR) / "docs" / "reference" / "learn.md");
  const std::string begin = "<!-- config-schema:begin (netdp train --print-schema) -->\n";
  const std::string end = "<!-- config-schema:end -->";
  const auto first = doc.find(begin);
  const auto last = doc.find(end);
  ASSERT_NE(first, std::string::npos) << "docs/reference/learn.md lacks " << begin;
  ASSERT_NE(last, std::string::npos) << "docs/reference/learn.md lacks " << end;
  EXPECT_EQ(doc.substr(first + begin.size(), last - first - begin.size()), config_schema_markdown())
      << "docs/reference/learn.md's key table differs from config_schema(): paste `netdp train --print-schema` between "
         "the markers";
}

}  // namespace
}  // namespace netdp::learn
