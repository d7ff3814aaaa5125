// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of `netdp dp`: the JSON fields agree with the dp module.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "netdp/dp/gdp.hpp"

namespace netdp::cli {
namespace {

using testing::run_cli;

TEST(DpCommand, EpsilonFromMuAndDelta) {
  const auto result = run_cli({"dp", "--mu", "2", "--delta", "1e-5", "--json"});
  ASSERT_EQ(result.status, 0) << result.err;
  const auto j = nlohmann::json::parse(result.out);
  EXPECT_DOUBLE_EQ(j["mu"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["delta"].get<double>(), 1e-5);
  EXPECT_DOUBLE_EQ(j["epsilon"].get<double>(), dp::gdp_epsilon(2.0, 1e-5));
}

TEST(DpCommand, DeltaFromMuAndEpsilon) {
  const auto result = run_cli({"dp", "--mu", "1", "--epsilon", "1", "--json"});
  ASSERT_EQ(result.status, 0) << result.err;
  const auto j = nlohmann::json::parse(result.out);
  EXPECT_DOUBLE_EQ(j["delta"].get<double>(), dp::gdp_delta(1.0, 1.0));
}

TEST(DpCommand, CalibrationGivesTheAnalyticGaussianSigma) {
  const auto result = run_cli(
      {"dp", "--calibrate", "--target-epsilon", "1", "--delta", "1e-5", "--sensitivity", "2", "--json"});
  ASSERT_EQ(result.status, 0) << result.err;
  const auto j = nlohmann::json::parse(result.out);
  EXPECT_DOUBLE_EQ(j["sigma"].get<double>(), dp::gdp_sigma_for(1.0, 1e-5, 2.0));
}

TEST(DpCommand, BadInputExitsWith2AndNamesTheValue) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"dp", "--mu", "0", "--delta", "1e-5"},
                                                                {"dp", "--mu", "1", "--delta", "1.5"},
                                                                {"dp", "--mu", "-3", "--epsilon", "1"}}) {
    const auto result = run_cli(args);
    EXPECT_EQ(result.status, 2);
    EXPECT_NE(result.err.find("error"), std::string::npos) << result.err;
  }
}

}  // namespace
}  // namespace netdp::cli
