// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp audit`: the verdict, its exit status and the fields of its JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

namespace netdp::cli {
namespace {

using Json = nlohmann::json;

TEST(AuditCommand, APaperFormulaBelowTheViewIsAViolationWithStatus3) {
  const testing::CliResult r =
      testing::run_cli({"audit", "--quiet", "--json", "--graph", "path:n=4", "--rounds", "3", "--observer",
                        "3", "--target", "0", "--bound", "paper"});
  EXPECT_EQ(r.status, 3) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["verdict"], "VIOLATION");
  EXPECT_EQ(j["bound"], "paper-formula");
  EXPECT_GT(j["empirical_mu_lower"].get<double>(), j["claimed_mu"].get<double>());
  EXPECT_EQ(j["trials"], 100000);
  EXPECT_EQ(j["observer"], 3);
}

TEST(AuditCommand, TheExactViewIsConsistent) {
  const testing::CliResult r =
      testing::run_cli({"audit", "--quiet", "--graph", "florentine", "--rounds", "4", "--observer", "Medici",
                        "--target", "Strozzi", "--trials", "20000"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("verdict: consistent"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("observer Medici"), std::string::npos) << r.out;
}

TEST(AuditCommand, LinearSystemVectorReleasesAreAuditedAgainstTheCertifiedValue) {
  const testing::CliResult r = testing::run_cli(
      {"audit", "--quiet", "--json", "--graph", "ring:n=6", "--method", "linear-system", "--view", "plain",
       "--rounds", "3", "--observer", "0", "--target", "2", "--trials", "20000"});
  EXPECT_EQ(r.status, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["verdict"], "consistent");
  EXPECT_EQ(j["bound"], "upper-bound");
  EXPECT_EQ(j["dimension"], 3);
  EXPECT_NEAR(j["attack_mu"].get<double>(), j["claimed_mu"].get<double>(),
              1e-3 * j["claimed_mu"].get<double>());
}

TEST(AuditCommand, MfViewsAreAuditedUnderPndp) {
  const testing::CliResult r = testing::run_cli(
      {"audit", "--quiet", "--json", "--graph", "ring:n=6", "--method", "mf", "--algorithm", "muffliato-sgd",
       "--gossip-steps", "2", "--rounds", "3", "--observer", "0", "--target", "2", "--trials", "20000"});
  EXPECT_EQ(r.status, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["verdict"], "consistent");
  EXPECT_EQ(j["trust"], "pndp");
  EXPECT_NEAR(j["attack_mu"].get<double>(), j["claimed_mu"].get<double>(),
              1e-3 * j["claimed_mu"].get<double>());
}

TEST(AuditCommand, TheRandomWalksExpectedCountIsRefutedAndTheTailCountIsNot) {
  // Karate's leaf 11 hangs on node 0 alone: a walk started there hands node 0 the target's
  // contribution, where the paper composes T/n = 10/34 contributions.
  const std::vector<std::string> args = {
      "audit",   "--quiet", "--json",     "--graph", "karate",   "--method", "random-walk",  "--rounds", "10",
      "--sigma", "3",       "--observer", "0",       "--target", "11",       "--walk-start", "11"};
  std::vector<std::string> paper = args;
  paper.insert(paper.end(), {"--contributions", "expected"});
  const testing::CliResult refuted = testing::run_cli(paper);
  EXPECT_EQ(refuted.status, 3) << refuted.err;
  const Json j = Json::parse(refuted.out);
  EXPECT_EQ(j["verdict"], "VIOLATION");
  EXPECT_EQ(j["bound"], "paper-formula");
  EXPECT_EQ(j["test"], "likelihood-ratio");
  EXPECT_EQ(j["walk_start"], 11);
  EXPECT_TRUE(j["claimed_mu"].is_null());
  EXPECT_TRUE(j["attack_mu"].is_null());
  EXPECT_NEAR(j["claimed_contributions"].get<double>(), 10.0 / 34.0, 1e-12);
  EXPECT_GT(j["empirical_epsilon_lower"].get<double>(), j["claimed_epsilon"].get<double>());

  const testing::CliResult valid = testing::run_cli(args);
  EXPECT_EQ(valid.status, 0) << valid.err;
  const Json v = Json::parse(valid.out);
  EXPECT_EQ(v["verdict"], "consistent");
  EXPECT_EQ(v["bound"], "upper-bound");
  EXPECT_EQ(v["contributions"], "tail");
  // The same runs, so the same attack: only the claim changed.
  EXPECT_EQ(v["empirical_epsilon_lower"], j["empirical_epsilon_lower"]);
}

TEST(AuditCommand, EveryMfAlgorithmAndTrustModelIsAudited) {
  for (const auto& [algorithm, trust] : std::vector<std::pair<std::string, std::string>>{
           {"antipgd", "pndp"}, {"decor", "secldp"}, {"zip-dl", "pndp"}, {"dp-d-sgd", "ldp"}}) {
    std::vector<std::string> args = {"audit",   "--quiet",  "--json", "--graph",  "ring:n=6", "--method",
                                     "mf",      "--rounds", "3",      "--trials", "20000",    "--algorithm",
                                     algorithm, "--trust",  trust,    "--target", "2"};
    if (trust != "ldp") args.insert(args.end(), {"--observer", "0"});
    const testing::CliResult r = testing::run_cli(args);
    EXPECT_EQ(r.status, 0) << algorithm << " " << trust << ": " << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["verdict"], "consistent") << algorithm;
    EXPECT_EQ(j["trust"], trust);
    EXPECT_EQ(j["algorithm"], algorithm);
    EXPECT_EQ(j["observer"].is_null(), trust == "ldp");
    EXPECT_NEAR(j["attack_mu"].get<double>(), j["claimed_mu"].get<double>(),
                1e-3 * j["claimed_mu"].get<double>())
        << algorithm << " " << trust;
  }
}

TEST(AuditCommand, MuffliatoGdRefutesTheorem6AndNotItsView) {
  const std::vector<std::string> args = {"audit",
                                         "--quiet",
                                         "--json",
                                         "--graph",
                                         "er:n=30,p=0.15,seed=1,connected=1",
                                         "--gradient-steps",
                                         "10",
                                         "--rounds",
                                         "1",
                                         "--observer",
                                         "0",
                                         "--target",
                                         "20",
                                         "--trials",
                                         "5000",
                                         "--release-dimension",
                                         "1"};
  std::vector<std::string> paper = args;
  paper.insert(paper.end(), {"--bound", "paper"});
  const testing::CliResult refuted = testing::run_cli(paper);
  EXPECT_EQ(refuted.status, 3) << refuted.err;
  EXPECT_EQ(Json::parse(refuted.out)["verdict"], "VIOLATION");
  const testing::CliResult valid = testing::run_cli(args);
  EXPECT_EQ(valid.status, 0) << valid.err;
  const Json j = Json::parse(valid.out);
  EXPECT_EQ(j["gradient_steps"], 10);
  EXPECT_EQ(j["dimension"], 1);
  // Scalar releases are claimed at Σ|K_u| (an upper bound the attacker's signs need not reach).
  EXPECT_LE(j["attack_mu"].get<double>(), j["claimed_mu"].get<double>() * (1.0 + 1e-9));
}

TEST(AuditCommand, ACoalitionIsAuditedAgainstTheColludersClaim) {
  const testing::CliResult r =
      testing::run_cli({"audit", "--quiet", "--json", "--graph", "florentine", "--rounds", "4", "--colluders",
                        "Medici,Strozzi", "--target", "Pazzi", "--trials", "20000"});
  EXPECT_EQ(r.status, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["colluders"], Json::array({"Medici", "Strozzi"}));
  EXPECT_FALSE(j.contains("observer"));
  EXPECT_EQ(j["target"], "Pazzi");
  EXPECT_EQ(j["verdict"], "consistent");
  EXPECT_NEAR(j["attack_mu"].get<double>(), j["claimed_mu"].get<double>(), 1e-9);
}

TEST(AuditCommand, BadInputIsAClearError) {
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--method", "gossip"}, "--method 'gossip' is not one of: muffliato, random-walk, linear-system, mf"},
           {{"--method", "random-walk", "--schedule", "pairwise"},
            "--method random-walk walks on the fixed W"},
           {{"--contributions", "worst"}, "apply to --method random-walk only"},
           {{"--colluders", "0,1", "--observer", "2"}, "give --observer or --colluders, not both"},
           {{"--colluders", "0,1", "--target", "1"}, "--target '1' is one of the --colluders"},
           {{"--method", "random-walk", "--contributions", "5"},
            "--contributions 5: the audited walk enforces no cap"},
           {{"--method", "random-walk", "--walk-start", "9"}, "--walk-start"},
           {{"--view", "plain"},
            "--view, --first-power and --keep-observer-noise apply to --method linear-system"},
           {{"--release-dimension", "1"}, "--release-dimension applies to the linear views only"},
           {{"--method", "mf", "--gradient-steps", "3"}, "--gradient-steps, --authors-convention and"},
           {{"--method", "mf", "--trust", "ldp", "--observer", "1"},
            "--trust ldp has no observer nor colluders"},
           {{"--method", "mf", "--algorithm", "mf-d-sgd"}, "--algorithm mf-d-sgd needs --correlation C.mtx"},
           {{"--algorithm", "muffliato-sgd"}, "--trust, --algorithm, --participations, --separation and "},
           {{"--method", "linear-system", "--bound", "paper"},
            "--bound paper: only --method muffliato has a paper formula"},
           {{"--trials", "0"}, "--trials must be in 1..1099511627776, got 0"},
           {{"--trials", "1099511627777"}, "--trials must be in 1..1099511627776, got 1099511627777"},
           {{"--confidence", "1"}, "--confidence must be in (0, 1)"},
           {{"--observer", "2", "--target", "2"}, "are the same node '2'"},
           {{"--count-observer-noise"}, "--count-observer-noise applies to --bound paper only"}}) {
    std::vector<std::string> full = {"audit", "--quiet", "--graph", "ring:n=5", "--rounds", "2"};
    full.insert(full.end(), args.begin(), args.end());
    const testing::CliResult r = testing::run_cli(full);
    EXPECT_EQ(r.status, 2) << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace netdp::cli
