// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "netdp/learn/train.hpp"

namespace netdp::learn {
namespace {

std::string error_of(const FlatConfig& given) {
  try {
    resolve_config(given);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigTest, DefaultsCoverEverySchemaKeyOnce) {
  const FlatConfig resolved = resolve_config({});
  std::set<std::string> seen;
  for (const ConfigKey& key : config_schema()) {
    EXPECT_TRUE(seen.insert(key.key).second) << key.key;
    ASSERT_TRUE(resolved.count(key.key)) << key.key;
    EXPECT_EQ(resolved.at(key.key), key.default_value);
    EXPECT_FALSE(key.description.empty()) << key.key;
  }
  EXPECT_EQ(resolved.size(), config_schema().size());
  EXPECT_EQ(resolved.at("data.source"), "synthetic-logistic");  // needs no files
}

TEST(ConfigTest, GivenValuesOverrideDefaults) {
  const FlatConfig resolved =
      resolve_config({{"algorithm.sigma", "2.5"}, {"algorithm.name", "muffliato-sgd"}});
  EXPECT_EQ(resolved.at("algorithm.sigma"), "2.5");
  EXPECT_EQ(resolved.at("algorithm.name"), "muffliato-sgd");
}

TEST(ConfigTest, UnknownKeySuggestsClosest) {
  const std::string message = error_of({{"algorithm.sigm", "1"}});
  EXPECT_NE(message.find("algorithm.sigm"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'algorithm.sigma'"), std::string::npos) << message;
  EXPECT_NE(error_of({{"network.weight", "hamilton"}}).find("'network.weights'"), std::string::npos);
}

TEST(ConfigTest, BadValuesNameKeyValueAndRule) {
  struct Case {
    std::string key, value, rule;
  };
  for (const Case& c :
       {Case{"algorithm.rounds", "abc", "non-negative integer"}, Case{"algorithm.rounds", "0", ">= 1"},
        Case{"algorithm.step_size", "-1", "> 0"}, Case{"algorithm.step_size", "inf", "finite"},
        Case{"algorithm.sigma", "nan", "not a number"}, Case{"privacy.delta", "1", "(0, 1)"},
        Case{"data.test_fraction", "0", "(0, 1)"}, Case{"data.source", "mnsit", "expected one of"},
        Case{"algorithm.schedule", "er-per-round:p=0", "er-per-round:p=P"},
        Case{"algorithm.schedule", "ring", "fixed"}, Case{"algorithm.chebyshev", "yes", "true or false"},
        Case{"algorithm.name", "sgd", "dp-d-sgd"}, Case{"privacy.target_epsilon", "-2", "> 0"},
        Case{"train.eval_node", "first", "integer"}}) {
    const std::string message = error_of({{c.key, c.value}});
    EXPECT_NE(message.find(c.key), std::string::npos) << c.key << ": " << message;
    EXPECT_NE(message.find("'" + c.value + "'"), std::string::npos) << c.key << ": " << message;
    EXPECT_NE(message.find(c.rule), std::string::npos) << c.key << ": " << message;
  }
}

TEST(ConfigTest, InfiniteClipOnlyForTheNonPrivateAlgorithm) {
  EXPECT_NO_THROW(resolve_config({{"algorithm.name", "d-sgd"}, {"algorithm.clip", "inf"}}));
  EXPECT_NE(error_of({{"algorithm.name", "dp-d-sgd"}, {"algorithm.clip", "inf"}}).find("finite clipping"),
            std::string::npos);
}

TEST(ConfigTest, AcceptsEveryScheduleForm) {
  for (const std::string schedule : {"fixed", "er-per-round:p=0.2", "dropout:p=1"}) {
    EXPECT_NO_THROW(resolve_config({{"algorithm.schedule", schedule}})) << schedule;
  }
}

}  // namespace
}  // namespace netdp::learn
