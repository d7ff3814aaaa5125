// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp factorize`: agrees with the library, writes C, rejects bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "netdp/mf/factorize.hpp"
#include "netdp/util/matrix_market.hpp"

namespace netdp::cli {
namespace {

TEST(FactorizeCommand, OptimalPrefixSumMatchesLibraryAndWritesC) {
  const std::string path = (std::filesystem::temp_directory_path() / "netdp_factorize_test_c.mtx").string();
  const auto result = testing::run_cli(
      {"factorize", "--rounds", "8", "--participations", "2", "--separation", "4", "--json", "--out", path});
  ASSERT_EQ(result.status, 0) << result.err;
  const auto j = nlohmann::json::parse(result.out);
  const mf::Factorization f =
      mf::optimal_factorization(mf::prefix_sum_gram(8), mf::make_participation(8, 2, 4));
  EXPECT_DOUBLE_EQ(j["loss"].get<double>(), f.loss);
  EXPECT_DOUBLE_EQ(j["sensitivity"].get<double>(), f.sensitivity);
  EXPECT_EQ(j["certificate"]["kind"], "duality_gap");
  EXPECT_TRUE(j["certificate"]["converged"].get<bool>());
  const auto mtx = util::read_matrix_market(path);
  EXPECT_EQ(mtx.header.rows, 8u);
  for (const auto& e : mtx.entries) {
    EXPECT_GE(e.row, e.col);
    EXPECT_DOUBLE_EQ(e.value, f.c(static_cast<Eigen::Index>(e.row), static_cast<Eigen::Index>(e.col)));
  }
  std::remove(path.c_str());
}

TEST(FactorizeCommand, DlWorkloadMafaldaBeatsBaselines) {
  double optimal = 0.0;
  for (const std::string method : {"optimal", "dmf", "identity", "antipgd", "sqrt", "banded"}) {
    const auto result = testing::run_cli({"factorize", "--workload", "dl", "--graph", "florentine",
                                          "--rounds", "6", "--method", method, "--json"});
    ASSERT_EQ(result.status, 0) << method << ": " << result.err;
    const double loss = nlohmann::json::parse(result.out)["loss"].get<double>();
    if (method == "optimal") optimal = loss;
    EXPECT_LE(optimal, loss * (1.0 + 1e-12)) << method;
  }
}

// The (k, b)-cyclic optimizers by name: `optimal` (class trace) reaches the reference T = 16, k = 4
// value; `equal-norm` is the stricter set; `sign-relaxed`'s global bound certifies `optimal`.
TEST(FactorizeCommand, MultiEpochMethods) {
  std::map<std::string, nlohmann::json> out;
  for (const std::string method : {"optimal", "equal-norm", "sign-relaxed"}) {
    const auto result = testing::run_cli(
        {"factorize", "--rounds", "16", "--participations", "4", "--method", method, "--json"});
    ASSERT_EQ(result.status, 0) << method << ": " << result.err;
    out[method] = nlohmann::json::parse(result.out);
    EXPECT_EQ(out[method]["certificate"]["kind"], "duality_gap") << method;
    EXPECT_LE(out[method]["certificate"]["value"].get<double>(), 1e-8) << method;
  }
  const mf::Participation p = mf::make_participation(16, 4);
  mf::OptimizeOptions equal_norm;
  equal_norm.constraints = mf::MultiEpochConstraints::unit_diagonal;
  EXPECT_DOUBLE_EQ(out["optimal"]["loss"].get<double>(),
                   mf::optimal_factorization(mf::prefix_sum_gram(16), p).loss);
  EXPECT_DOUBLE_EQ(out["equal-norm"]["loss"].get<double>(),
                   mf::optimal_factorization(mf::prefix_sum_gram(16), p, equal_norm).loss);
  const double optimal = out["optimal"]["loss"].get<double>();
  EXPECT_LE(optimal, 215.57381 * (1.0 + 1e-8));
  EXPECT_GT(out["equal-norm"]["loss"].get<double>(), optimal);
  const double global = out["sign-relaxed"]["certificate"]["global_lower_bound"].get<double>();
  EXPECT_LE(global, optimal);
  EXPECT_GE(global, optimal * (1.0 - 1e-8));
}

TEST(FactorizeCommand, RejectsBadInput) {
  const auto kb =
      testing::run_cli({"factorize", "--rounds", "8", "--participations", "3", "--separation", "4"});
  EXPECT_EQ(kb.status, 2);
  EXPECT_NE(kb.err.find("> rounds T = 8"), std::string::npos) << kb.err;
  const auto zero = testing::run_cli({"factorize", "--rounds", "0"});
  EXPECT_EQ(zero.status, 2);
  EXPECT_NE(zero.err.find("--rounds"), std::string::npos) << zero.err;
  const auto method = testing::run_cli({"factorize", "--method", "cholesky"});
  EXPECT_EQ(method.status, 2);
  EXPECT_NE(method.err.find("'cholesky'"), std::string::npos) << method.err;
  const auto power = testing::run_cli({"factorize", "--workload", "dl", "--initial-power", "2"});
  EXPECT_EQ(power.status, 2);
  EXPECT_NE(power.err.find("--initial-power"), std::string::npos) << power.err;
}

}  // namespace
}  // namespace netdp::cli
