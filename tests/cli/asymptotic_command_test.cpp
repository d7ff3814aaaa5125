// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp asymptotic`: Theorem 13's limit is 1/n for a doubly stochastic W.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace netdp::cli {
namespace {

TEST(AsymptoticCommand, DoublyStochasticLimitIsOneOverN) {
  const auto result = testing::run_cli({"asymptotic", "--graph", "ring:n=7", "--observer", "0", "--target",
                                        "3", "--rounds-grid", "4,8", "--keep-observer-noise", "--json"});
  ASSERT_EQ(result.status, 0) << result.err;
  const auto j = nlohmann::json::parse(result.out);
  EXPECT_NEAR(j["limit"].get<double>(), 1.0 / 7.0, 1e-12);
  ASSERT_EQ(j["points"].size(), 2u);
  EXPECT_EQ(j["points"][1]["rounds"].get<int>(), 8);
  EXPECT_NEAR(j["points"][1]["per_round_ones"].get<double>(),
              j["points"][1]["sensitivity_squared_ones"].get<double>() / 8.0, 1e-15);
}

TEST(AsymptoticCommand, RejectsBadGridAndSameNodes) {
  EXPECT_EQ(testing::run_cli({"asymptotic", "--graph", "ring:n=7", "--rounds-grid", "4,x"}).status, 2);
  EXPECT_EQ(
      testing::run_cli({"asymptotic", "--graph", "ring:n=7", "--observer", "2", "--target", "2"}).status, 2);
}

}  // namespace
}  // namespace netdp::cli
