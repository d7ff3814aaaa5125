// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp compare`: the per-distance table agrees with the library.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "netdp/accounting/mf/mf_compare.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::cli {
namespace {

TEST(CompareCommand, MatchesTheLibraryPerDistance) {
  const auto result = testing::run_cli({"compare", "--graph", "florentine", "--weights", "closed-row",
                                        "--rounds", "6", "--sigma", "2", "--json"});
  ASSERT_EQ(result.status, 0) << result.err;
  const auto j = nlohmann::json::parse(result.out);
  const auto w = gossip::make_gossip_matrix(graph::from_spec("florentine"), gossip::Weighting::closed_row);
  accounting::MfOptions options;
  options.noise_std = 2.0;
  const auto rows = accounting::compare_with_muffliato(w, 6, 1, 2.0, options);
  ASSERT_EQ(j["by_distance"].size(), rows.size());
  std::size_t pairs = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& d = j["by_distance"][i];
    EXPECT_EQ(d["distance"].get<std::uint32_t>(), rows[i].distance);
    EXPECT_DOUBLE_EQ(d["mf_mean"].get<double>(), rows[i].mf_mean);
    EXPECT_DOUBLE_EQ(d["muffliato_max"].get<double>(), rows[i].muffliato_max);
    EXPECT_DOUBLE_EQ(d["muffliato_exact_max"].get<double>(), rows[i].muffliato_exact_max);
    EXPECT_LE(d["muffliato_exact_max"].get<double>(), j["local_dp"].get<double>() * (1 + 1e-12));
    EXPECT_LE(d["secure_sum_min"].get<double>(), d["secure_sum_max"].get<double>());
    pairs += d["pairs"].get<std::size_t>();
  }
  EXPECT_EQ(pairs, 15u * 14u);
  EXPECT_EQ(j["muffliato_bound"], "paper-formula");
  EXPECT_DOUBLE_EQ(j["local_dp"].get<double>(), 2.0 * 6.0 / (2.0 * 4.0));  // α T / (2σ²)
  EXPECT_DOUBLE_EQ(j["central_dp"].get<double>(), 2.0 * 6.0 / (2.0 * 4.0 * 15.0));
}

TEST(CompareCommand, RejectsBadAlpha) {
  const auto result = testing::run_cli({"compare", "--graph", "florentine", "--alpha", "0.5"});
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.err.find("--alpha"), std::string::npos);
}

TEST(CompareCommand, SaysWhenTheSecureSumColumnsAreOmitted) {
  const testing::CliResult k2 = testing::run_cli(
      {"compare", "--graph", "florentine", "--rounds", "4", "--gossip-steps", "2", "--sigma", "1", "--json"});
  ASSERT_EQ(k2.status, 0) << k2.err;
  EXPECT_NE(k2.err.find("netdp: notice: the secure-sum columns are omitted"), std::string::npos) << k2.err;
  EXPECT_TRUE(nlohmann::json::parse(k2.out)["secure_sum_omitted"].is_string());
  const testing::CliResult k1 =
      testing::run_cli({"compare", "--graph", "florentine", "--rounds", "4", "--sigma", "1", "--json"});
  ASSERT_EQ(k1.status, 0) << k1.err;
  EXPECT_TRUE(nlohmann::json::parse(k1.out)["secure_sum_omitted"].is_null());
  EXPECT_EQ(k1.err.find("notice"), std::string::npos) << k1.err;
}

}  // namespace
}  // namespace netdp::cli
