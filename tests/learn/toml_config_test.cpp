// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The TOML reader of training configurations (toml_config.hpp): tables become dotted keys, scalars
// text, overrides apply in order, and a written config reads back as itself.
#include "netdp/learn/toml_config.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

namespace netdp::learn {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TrainConfig, TablesBecomeDottedKeysAndScalarsText) {
  const FlatConfig c = parse_toml_config(
      "name = \"run\"\n[algorithm]\nsigma = 1.5\nrounds = 500\nchebyshev = true\nname = \"dp-d-sgd\"\n"
      "[data]\nsource = \"mnist\"\ntest_fraction = 1e-1\n",
      "test.toml");
  EXPECT_EQ(c.at("name"), "run");
  EXPECT_EQ(c.at("algorithm.sigma"), "1.5");
  EXPECT_EQ(c.at("algorithm.rounds"), "500");
  EXPECT_EQ(c.at("algorithm.chebyshev"), "true");
  EXPECT_EQ(c.at("algorithm.name"), "dp-d-sgd");
  EXPECT_EQ(c.at("data.source"), "mnist");
  EXPECT_DOUBLE_EQ(std::stod(c.at("data.test_fraction")), 0.1);
  EXPECT_EQ(c.size(), 7u);
}

TEST(TrainConfig, DottedKeysInTomlAreTheSameAsTables) {
  EXPECT_EQ(parse_toml_config("algorithm.sigma = 2\n", "a.toml"),
            parse_toml_config("[algorithm]\nsigma = 2\n", "b.toml"));
}

TEST(TrainConfig, DoublesKeepFullPrecision) {
  const FlatConfig c = parse_toml_config("[x]\nv = 0.1234567890123456789\n", "p.toml");
  EXPECT_EQ(std::stod(c.at("x.v")), 0.1234567890123456789);
}

TEST(TrainConfig, ArraysAndDeepTablesAreRejectedNamingTheKey) {
  const std::string array = error_of([] { parse_toml_config("[network]\nnodes = [1, 2]\n", "cfg.toml"); });
  EXPECT_NE(array.find("network.nodes"), std::string::npos) << array;
  EXPECT_NE(array.find("cfg.toml:2"), std::string::npos) << array;
  const std::string deep = error_of([] { parse_toml_config("[a.b]\nc = 1\n", "cfg.toml"); });
  EXPECT_NE(deep.find("'a.b'"), std::string::npos) << deep;
}

TEST(TrainConfig, MalformedTomlNamesFileAndLine) {
  const std::string e =
      error_of([] { parse_toml_config("[algorithm]\nsigma = 1.5\nrounds = = 3\n", "bad.toml"); });
  EXPECT_NE(e.find("bad.toml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("malformed TOML"), std::string::npos) << e;
}

TEST(TrainConfig, MissingFileIsAClearError) {
  const std::string e = error_of([] { load_toml_config("/nonexistent/netdp.toml"); });
  EXPECT_NE(e.find("/nonexistent/netdp.toml"), std::string::npos) << e;
}

TEST(TrainConfig, SetOverridesTheFileInOrder) {
  FlatConfig c = parse_toml_config("[algorithm]\nsigma = 1.5\n", "f.toml");
  apply_overrides(c, {"algorithm.sigma=2", "train.seed=7", "algorithm.sigma=3", "data.path=a=b"});
  EXPECT_EQ(c.at("algorithm.sigma"), "3");
  EXPECT_EQ(c.at("train.seed"), "7");
  EXPECT_EQ(c.at("data.path"), "a=b");
  const std::string e = error_of([&] { apply_overrides(c, {"sigma"}); });
  EXPECT_NE(e.find("'sigma'"), std::string::npos) << e;
  EXPECT_NE(error_of([&] { apply_overrides(c, {"=1"}); }), "(no error)");
}

TEST(TrainConfig, ResolvedConfigRoundTripsThroughToml) {
  const FlatConfig c = {{"algorithm.sigma", "1.5"},
                        {"algorithm.name", "dp-d-sgd"},
                        {"algorithm.chebyshev", "false"},
                        {"data.path", "../shared/x \"q\".csv"},
                        {"data.csv.target", "y"},
                        {"network.graph", "er:n=100,p=0.2"},
                        {"train.seed", "42"},
                        {"version", "1e-5"}};
  const std::string text = config_to_toml(c, "line one\nline two");
  EXPECT_EQ(text.rfind("# line one\n# line two\n", 0), 0u) << text;
  EXPECT_EQ(parse_toml_config(text, "round-trip"), c) << text;
}

}  // namespace
}  // namespace netdp::learn
