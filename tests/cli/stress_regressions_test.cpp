// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Commands a stress test of random accounting configurations once crashed or wrongly refused, run
// as a user types them. The library tests hold the reasons (LapackContracts, RandomWalkSeries); these
// keep the commands themselves working.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

namespace netdp::cli {
namespace {

/// The command's JSON after it exits 0.
nlohmann::json json_of(std::vector<std::string> args) {
  args.push_back("--json");
  args.push_back("--quiet");
  const testing::CliResult r = testing::run_cli(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
}

TEST(StressRegressions, OneRoundAtAHubOfTwentyLeaves) {
  const auto out = json_of({"account", "--graph", "star:n=20", "--rounds", "1", "--summary-only"});
  EXPECT_EQ(out["summary"]["pairs"], 380);
}

TEST(StressRegressions, CompareOnLesMiserablesClosedRow) {
  const auto out =
      json_of({"compare", "--graph", "lesmis", "--weights", "closed-row", "--rounds", "2", "--sigma", "1"});
  std::size_t pairs = 0;
  for (const auto& row : out["by_distance"]) pairs += row["pairs"].get<std::size_t>();
  EXPECT_EQ(pairs, 77U * 76U);
}

TEST(StressRegressions, RandomWalkOfOneStep) {
  const auto out =
      json_of({"account", "--graph", "karate", "--method", "random-walk", "--rounds", "1", "--summary-only"});
  EXPECT_EQ(out["summary"]["pairs"], 34 * 33);
  EXPECT_GE(out["summary"]["epsilon_min"].get<double>(), 0.0);
}

}  // namespace
}  // namespace netdp::cli
