// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of `netdp account`: output fields, agreement with the
// library, calibration, and clear errors (exit status 2) on bad input.
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "../../src/cli/account_report.hpp"
#include "../../src/cli/output.hpp"
#include "../util/temp_file.hpp"
#include "cli_runner.hpp"
#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/accounting/muffliato/muffliato_gd.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::cli {
namespace {

using testing::run_cli;
using Json = nlohmann::json;

Json account_json(std::vector<std::string> args) {
  args.insert(args.begin(), {"account", "--json", "--quiet"});
  const auto result = run_cli(args);
  EXPECT_EQ(result.status, 0) << result.err;
  return Json::parse(result.out);
}

TEST(AccountCommand, MuffliatoPairsMatchTheLibrary) {
  const Json j = account_json(
      {"--graph", "ring:n=8", "--method", "muffliato", "--rounds", "5", "--sigma", "2", "--delta", "1e-6"});
  ASSERT_EQ(j["pairs"].size(), 8u * 7u);
  const auto g = graph::from_spec("ring:n=8");
  const auto w = gossip::make_gossip_matrix(g, gossip::Weighting::hamilton);
  accounting::MuffliatoOptions options;
  options.sigma = 2.0;
  const auto losses = accounting::muffliato_all_pairs(gossip::fixed_schedule(w, 5), options);
  for (const Json& row : j["pairs"]) {
    const auto v = row["observer"].get<std::size_t>();
    const auto u = row["target"].get<std::size_t>();
    const accounting::PairLoss loss = losses.pair(v, u, 2.0);
    EXPECT_NEAR(row["mu"].get<double>(), loss.mu, 1e-12 * loss.mu);
    EXPECT_NEAR(row["epsilon"].get<double>(), dp::gdp_epsilon(loss.mu, 1e-6), 1e-9);
    EXPECT_EQ(row["capped"].get<bool>(), loss.capped);
    const auto d = row["distance"].get<int>();
    EXPECT_EQ(d, std::min(std::abs(static_cast<int>(v) - static_cast<int>(u)),
                          8 - std::abs(static_cast<int>(v) - static_cast<int>(u))));
  }
  for (const char* field : {"alpha", "rdp_epsilon", "uncapped_rdp_epsilon", "delta"}) {
    EXPECT_TRUE(j["pairs"][0].contains(field)) << field;
  }
}

// A user's W that equals a built-in weighting: the same rows and summary for every accountant, on a
// symmetric W (hamilton) and on a row-stochastic one (closed-row).
TEST(AccountCommand, UsersMatrixGivesTheBuiltInNumbersForEveryAccountant) {
  for (const std::string weights : {"hamilton", "closed-row"}) {
    const netdp::testing::TempFile w = netdp::testing::TempFile::empty_name(".mtx");
    const auto wrote = run_cli({"gossip", "--graph", "florentine", "--weights", weights, "--out", w.path()});
    ASSERT_EQ(wrote.status, 0) << wrote.err;
    for (const auto& [method, name] : accounting::kMethodNames) {
      const std::vector<std::string> common = {"--graph",         "florentine", "--method",
                                               std::string(name), "--rounds",   "6"};
      std::vector<std::string> built_in = common;
      built_in.insert(built_in.end(), {"--weights", weights});
      std::vector<std::string> user = common;
      user.insert(user.end(), {"--matrix", w.path()});
      const Json a = account_json(built_in);
      const Json b = account_json(user);
      ASSERT_FALSE(a["pairs"].empty()) << name;
      EXPECT_EQ(a["pairs"], b["pairs"]) << weights << " " << name;
      Json summary_a = a["summary"];
      Json summary_b = b["summary"];
      EXPECT_EQ(summary_b["parameters"]["matrix"], w.path());
      summary_a.erase("parameters");
      summary_b.erase("parameters");
      EXPECT_EQ(summary_b["run"]["network"]["matrix"], w.path());
      summary_a.erase("run");  // the network (a weighting or the matrix) and the command line
      summary_b.erase("run");
      EXPECT_EQ(summary_a, summary_b) << weights << " " << name;
    }
  }
}

TEST(AccountCommand, UsersMatrixRefusesWeightsAndReweightingSchedules) {
  const netdp::testing::TempFile w = netdp::testing::TempFile::empty_name(".mtx");
  ASSERT_EQ(run_cli({"gossip", "--graph", "ring:n=6", "--out", w.path()}).status, 0);
  const auto both = run_cli({"account", "--matrix", w.path(), "--weights", "metropolis"});
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.err.find("give one or the other"), std::string::npos) << both.err;
  const auto dropout = run_cli({"account", "--matrix", w.path(), "--schedule", "dropout:p=0.5"});
  EXPECT_EQ(dropout.status, 2);
  EXPECT_NE(dropout.err.find("weights a new graph each round"), std::string::npos) << dropout.err;
  const auto other_graph = run_cli({"account", "--matrix", w.path(), "--graph", "ring:n=7"});
  EXPECT_EQ(other_graph.status, 2);
  EXPECT_NE(other_graph.err.find("on the graph 'ring:n=7': W is 6 x 6 but the graph has 7 nodes"),
            std::string::npos)
      << other_graph.err;
}

// What the graph's reader changed is in the JSON's warnings, not only on stderr.
TEST(AccountCommand, GraphNotesSurviveIntoTheJsonWarnings) {
  const netdp::testing::TempFile file("a b 2\nb b 1\nb c 1\nc a 3\n", ".edges");
  const Json j = account_json({"--graph", "edgelist:" + file.path(), "--rounds", "3", "--summary-only"});
  const std::string warnings = j["summary"]["warnings"].dump();
  EXPECT_NE(warnings.find("1 self-loop dropped"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("the edge weights are not used by --weights hamilton"), std::string::npos)
      << warnings;
}

TEST(AccountCommand, SummaryGroupsByDistanceAndCarriesBaselines) {
  const Json j = account_json({"--graph", "hypercube:d=4", "--method", "muffliato", "--rounds", "6"});
  const Json& s = j["summary"];
  EXPECT_EQ(s["pairs"].get<std::size_t>(), 16u * 15u);
  // Hypercube symmetry: the loss depends only on the Hamming distance.
  for (const Json& d : s["by_distance"]) {
    EXPECT_NEAR(d["epsilon_min"].get<double>(), d["epsilon_max"].get<double>(),
                1e-9 * d["epsilon_max"].get<double>());
  }
  EXPECT_EQ(s["by_distance"].size(), 4u);
  EXPECT_NEAR(s["local_dp"]["epsilon"].get<double>(), dp::gdp_epsilon(1.0, 1e-5), 1e-12);
  EXPECT_LT(s["central_dp"]["epsilon"].get<double>(), s["local_dp"]["epsilon"].get<double>());
}

TEST(AccountCommand, CalibrationMeetsTheTargetOnMaxAndMean) {
  for (const std::string on : {"max", "mean"}) {
    const Json j = account_json({"--graph", "karate", "--method", "muffliato", "--rounds", "8",
                                 "--target-epsilon", "1.5", "--calibrate-on", on, "--summary-only"});
    const Json& c = j["summary"]["calibration"];
    const double achieved = c["achieved_epsilon"].get<double>();
    EXPECT_LE(achieved, 1.5) << on;
    EXPECT_GT(achieved, 1.5 * (1 - 1e-6)) << on;
    const double sigma = c["sigma"].get<double>();
    EXPECT_DOUBLE_EQ(j["summary"]["sigma"].get<double>(), sigma);
    const std::string key = on == "max" ? "epsilon_max" : "epsilon_mean";
    EXPECT_DOUBLE_EQ(j["summary"][key].get<double>(), achieved);
  }
}

TEST(AccountCommand, RandomWalkReportsConditionAndContributions) {
  const Json j =
      account_json({"--graph", "complete:n=6", "--method", "random-walk", "--rounds", "60", "--sigma", "6",
                    "--alpha", "3", "--observer", "0", "--contributions", "expected"});
  ASSERT_EQ(j["pairs"].size(), 5u);
  EXPECT_EQ(j["summary"]["bound"], "paper-formula");  // T/n is an expectation, not a bound
  for (const Json& row : j["pairs"]) {
    EXPECT_TRUE(row["mu"].is_null());
    EXPECT_DOUBLE_EQ(row["contributions"].get<double>(), 10.0);
    EXPECT_TRUE(row["condition_ok"].get<bool>());
    EXPECT_DOUBLE_EQ(row["alpha"].get<double>(), 3.0);
    EXPECT_GT(row["epsilon"].get<double>(), 0.0);
  }
}

TEST(AccountCommand, RandomWalkDefaultCountIsAValidTailBound) {
  // T = 10 on karate: T/n = 0.29 contributions would scale one contribution's loss down; the tail
  // bound counts at least the visit at the start, and the worst case counts every other step.
  const std::vector<std::string> walk = {"--graph", "karate",  "--method", "random-walk", "--rounds",
                                         "10",      "--sigma", "3",        "--target",    "0"};
  const Json tail = account_json(walk);
  EXPECT_EQ(tail["summary"]["bound"], "upper-bound");
  std::vector<std::string> expected_args = walk;
  expected_args.insert(expected_args.end(), {"--contributions", "expected"});
  const Json expected = account_json(expected_args);
  std::vector<std::string> worst_args = walk;
  worst_args.insert(worst_args.end(), {"--contributions", "worst"});
  const Json worst = account_json(worst_args);
  ASSERT_EQ(tail["pairs"].size(), 33u);
  for (std::size_t i = 0; i < 33; ++i) {
    const double k = tail["pairs"][i]["contributions"].get<double>();
    EXPECT_GE(k, 1.0);
    EXPECT_EQ(k, std::floor(k));
    EXPECT_EQ(worst["pairs"][i]["contributions"].get<double>(), 5.0);  // hamilton: no self-loop at 0
    EXPECT_NEAR(expected["pairs"][i]["contributions"].get<double>(), 10.0 / 34.0, 1e-15);
    EXPECT_GT(tail["pairs"][i]["epsilon"].get<double>(), expected["pairs"][i]["epsilon"].get<double>());
    EXPECT_LE(tail["pairs"][i]["epsilon"].get<double>(), worst["pairs"][i]["epsilon"].get<double>());
  }
}

TEST(AccountCommand, LinearSystemCarriesSensitivityFields) {
  const Json j = account_json({"--graph", "ring:n=6", "--method", "linear-system", "--rounds", "4",
                               "--observer", "0", "--sign-search", "auto", "--release-dimension", "1"});
  ASSERT_EQ(j["pairs"].size(), 5u);
  for (const Json& row : j["pairs"]) {
    const double certified = row["sensitivity_squared_certified"].get<double>();
    EXPECT_GE(row["sensitivity_squared_sum_abs"].get<double>(), certified * (1 - 1e-12));
    EXPECT_NEAR(row["sensitivity"].get<double>(), std::sqrt(certified), 1e-12);
    EXPECT_NEAR(row["mu"].get<double>(), std::sqrt(certified), 1e-12);
    EXPECT_TRUE(row["sensitivity_squared_vector_upper"].is_null());
  }
}

TEST(AccountCommand, VectorReleaseIsTheDefaultBetweenTheSignMaximumAndSumAbs) {
  const std::vector<std::string> base{"--graph",    "er:n=20,p=0.25,seed=3,connected=1",
                                      "--method",   "linear-system",
                                      "--rounds",   "6",
                                      "--observer", "1"};
  std::vector<std::string> scalar_args = base;
  scalar_args.insert(scalar_args.end(), {"--release-dimension", "1", "--sign-search", "auto"});
  const Json vector = account_json(base);
  const Json scalar = account_json(scalar_args);
  ASSERT_EQ(vector["pairs"].size(), scalar["pairs"].size());
  std::size_t above_scalar = 0;
  for (std::size_t i = 0; i < vector["pairs"].size(); ++i) {
    const Json& v = vector["pairs"][i];
    const double upper = v["sensitivity_squared_vector_upper"].get<double>();
    const double lower = v["sensitivity_squared_vector_lower"].get<double>();
    const double sign_max = scalar["pairs"][i]["sensitivity_squared_certified"].get<double>();
    EXPECT_EQ(v["sensitivity_squared_certified"].get<double>(), upper);
    EXPECT_LE(lower, upper);
    EXPECT_GE(upper, sign_max * (1 - 1e-9));
    EXPECT_LE(upper, v["sensitivity_squared_sum_abs"].get<double>() * (1 + 1e-12));
    above_scalar += upper > sign_max * (1 + 1e-6) ? 1 : 0;
  }
  EXPECT_GT(above_scalar, 0u);
  EXPECT_EQ(vector["summary"]["parameters"]["release_dimension"], "vector");
}

TEST(AccountCommand, ReleaseDimensionErrorsNameTheRule) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--method", "linear-system", "--release-dimension", "0"},
       "'vector' (a release of any dimension) or an integer p >= 1"},
      {{"--method", "linear-system", "--release-dimension", "two"}, "--release-dimension 'two'"},
      {{"--method", "random-walk", "--release-dimension", "2"}, "applies to the linear views only"},
      {{"--method", "muffliato", "--release-dimension", "2"}, "applies to the linear views only"},
      {{"--method", "linear-system", "--sign-search", "auto"}, "add --release-dimension 1"},
  };
  for (const auto& [args, words] : cases) {
    std::vector<std::string> argv{"account", "--graph", "ring:n=6", "--rounds", "3", "--quiet"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto result = run_cli(argv);
    EXPECT_EQ(result.status, 2) << words;
    EXPECT_NE(result.err.find(words), std::string::npos) << result.err;
  }
}

TEST(AccountCommand, CsvHasTheJsonFieldNames) {
  const auto result = run_cli({"account", "--graph", "ring:n=5", "--csv", "--quiet", "--target", "2"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out.substr(0, result.out.find('\n')),
            "observer,target,distance,alpha,rdp_epsilon,uncapped_rdp_epsilon,mu,delta,epsilon,capped,bound,"
            "certificate,mu_lower");
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 5);
}

TEST(AccountCommand, GroupAndMuffliatoGdMatchTheLibrary) {
  const auto w = gossip::make_gossip_matrix(graph::from_spec("karate"), gossip::Weighting::hamilton);
  accounting::MuffliatoOptions options;
  options.sigma = 1.5;
  const Json group = account_json({"--graph", "karate", "--group", "0,1", "--rounds", "6", "--sigma", "1.5"});
  const auto group_losses = accounting::muffliato_group(gossip::fixed_schedule(w, 6), {0, 1}, options);
  ASSERT_EQ(group["pairs"].size(), 32u);
  for (const Json& row : group["pairs"]) {
    const auto v = row["observer"].get<std::size_t>();
    EXPECT_EQ(row["target"].get<std::size_t>(), 0u);
    EXPECT_NEAR(row["mu"].get<double>(), group_losses.pair(v, 0, 2.0).mu, 1e-12);
  }
  const Json gd = account_json({"--graph", "karate", "--gradient-steps", "3", "--rounds", "4", "--sigma",
                                "1.5", "--observer", "5", "--bound", "paper"});
  EXPECT_EQ(gd["summary"]["bound"], "paper-formula");
  EXPECT_FALSE(gd["summary"]["valid_bound"].get<bool>());
  const auto gd_losses = accounting::muffliato_gd_all_pairs(w.matrix(), 3, 4, options);
  ASSERT_EQ(gd["pairs"].size(), 33u);
  for (const Json& row : gd["pairs"]) {
    const auto u = row["target"].get<std::size_t>();
    EXPECT_NEAR(row["mu"].get<double>(), gd_losses.pair(5, u, 2.0).mu, 1e-12);
  }
}

TEST(AccountCommand, MuffliatoSummaryCarriesCommunicationsAndEq7) {
  const Json j = account_json({"--graph", "ring:n=5", "--rounds", "10", "--sigma", "2", "--alpha", "3"});
  for (const Json& o : j["summary"]["per_observer"]) {
    // Each node of a ring hears its 2 neighbours at each of the T = 10 rounds.
    EXPECT_EQ(o["communications"].get<std::size_t>(), 20u);
    // eq. 7: ε̄_v = α Δ² T_v / (2 n σ²).
    EXPECT_DOUBLE_EQ(o["mean_rdp_epsilon_eq7"].get<double>(), 3.0 * 20.0 / (2.0 * 5.0 * 4.0));
  }
}

TEST(AccountCommand, MuffliatoDefaultIsTheExactJointViewAndThePaperFormulaIsLabelled) {
  // Path 0 – 1 – 2 – 3, T = 3: observer 3 solves its three messages for y_0 (μ = Δ/σ = 1/2), where
  // Theorem 1 reports μ² = 0.2 · (Δ/σ)².
  const std::vector<std::string> pair = {"--graph", "path:n=4",   "--rounds", "3",        "--sigma",
                                         "2",       "--observer", "3",        "--target", "0"};
  const Json exact = account_json(pair);
  EXPECT_EQ(exact["summary"]["bound"], "exact-joint-view");
  EXPECT_TRUE(exact["summary"]["valid_bound"].get<bool>());
  ASSERT_EQ(exact["pairs"].size(), 1u);
  EXPECT_NEAR(exact["pairs"][0]["mu"].get<double>(), 0.5, 1e-12);
  EXPECT_EQ(exact["pairs"][0]["bound"], "exact-joint-view");
  std::vector<std::string> paper_args = pair;
  paper_args.insert(paper_args.end(), {"--bound", "paper"});
  const Json paper = account_json(paper_args);
  EXPECT_EQ(paper["summary"]["bound"], "paper-formula");
  EXPECT_FALSE(paper["summary"]["valid_bound"].get<bool>());
  EXPECT_NEAR(paper["pairs"][0]["mu"].get<double>(), std::sqrt(0.2) / 2.0, 1e-12);
  const auto table =
      run_cli({"account", "--quiet", "--graph", "path:n=4", "--rounds", "3", "--bound", "paper"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("NOT an upper bound"), std::string::npos) << table.out;
}

TEST(AccountCommand, AnExactEffortBelowTheViewsIsACountedCapAndNeverLowersAValue) {
  // Karate, T = 20: every view has more than 100 entries (messages x nodes), so none is certified in
  // exact arithmetic; the pairs they reach are the cap, cap-undetermined, counted and warned about.
  const std::vector<std::string> args = {"--graph", "karate", "--rounds", "20", "--sigma", "1"};
  const Json full = account_json(args);
  std::vector<std::string> limited_args = args;
  limited_args.insert(limited_args.end(), {"--exact-effort", "100"});
  const Json limited = account_json(limited_args);
  ASSERT_EQ(full["pairs"].size(), limited["pairs"].size());
  EXPECT_EQ(full["summary"]["certificates"]["cap-undetermined"], 0);
  EXPECT_GT(limited["summary"]["certificates"]["cap-undetermined"].get<int>(), 0);
  for (std::size_t i = 0; i < full["pairs"].size(); ++i) {
    const Json& a = full["pairs"][i];
    const Json& b = limited["pairs"][i];
    EXPECT_GE(b["mu"].get<double>(), a["mu"].get<double>() - 1e-15) << a;
    EXPECT_TRUE(b["certificate"] == "cap-undetermined" || b["certificate"] == "exact") << b;
  }
  const auto run = run_cli({"account", "--graph", "karate", "--rounds", "20", "--exact-effort", "100"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.err.find("--exact-effort 100"), std::string::npos) << run.err;
  const auto refused =
      run_cli({"account", "--graph", "karate", "--method", "random-walk", "--exact-effort", "10"});
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("--exact-effort applies to the exact joint view"), std::string::npos)
      << refused.err;
}

struct BadInput {
  std::vector<std::string> args;
  std::string message;
};

TEST(AccountCommand, BadInputIsAClearErrorWithStatus2) {
  const std::vector<BadInput> cases = {
      {{"--sigma", "0"}, "--sigma"},
      {{"--sigma", "-1"}, "--sigma"},
      {{"--rounds", "0"}, "--rounds"},
      {{"--alpha", "1"}, "--alpha"},
      {{"--observer", "40"}, "--observer '40' names no node: the graph's nodes are 0..33"},
      {{"--target", "34"}, "--target '34' names no node"},
      {{"--observer-index", "34"}, "--observer-index 34 is out of range: the graph has nodes 0..33"},
      {{"--observer", "1", "--observer-index", "1"}, "--observer excludes --observer-index"},
      {{"--graph", "florentine", "--observer", "Medic"},
       "--observer 'Medic' names no node: the graph's 15 nodes are named by their labels, e.g. 'Acciaiuoli'"},
      {{"--graph", "florentine", "--colluders", "Medici,0"}, "--colluders 'Medici,0': '0' names no node"},
      {{"--graph", "edgelist:/nonexistent/file.txt"}, "/nonexistent/file.txt"},
      {{"--graph", "er:n=30,p=0.01,seed=3"}, "disconnected"},
      {{"--method", "magic"}, "magic"},
      {{"--weights", "uniform"}, "uniform"},
      {{"--colluders", "1,x"}, "'x'"},
      {{"--schedule", "dropout:p=2"}, "p must be in (0, 1]"},
      {{"--target-epsilon", "1", "--calibrate-on", "pair"}, "--observer and --target"},
      {{"--group", "0,99"}, "--group '0,99': '99' names no node"},
      {{"--method", "random-walk", "--group", "1,2"}, "muffliato only"},
      {{"--bound", "theorem1"}, "--bound"},
      {{"--method", "random-walk", "--contributions", "often"}, "--contributions 'often'"},
      {{"--method", "random-walk", "--contributions", "-1"}, "--contributions '-1'"},
      {{"--contributions", "worst"}, "--method random-walk only"},
      {{"--tail-share", "0.5"}, "--method random-walk only"},
      {{"--method", "random-walk", "--tail-share", "1"}, "--tail-share must be in (0, 1)"},
      {{"--method", "random-walk", "--tail-share", "nan"}, "--tail-share"},
      {{"--method", "linear-system", "--bound", "paper"}, "--bound paper: only --method muffliato"},
      {{"--count-observer-noise"}, "--bound paper"},
      {{"--colluders", "1,2", "--target", "2"}, "target 2 is one of the colluders"},
  };
  for (const BadInput& c : cases) {
    std::vector<std::string> args = {"account", "--quiet"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    if (std::find(c.args.begin(), c.args.end(), "--graph") == c.args.end()) {
      args.insert(args.end(), {"--graph", "karate"});
    }
    const auto result = run_cli(args);
    EXPECT_EQ(result.status, 2) << c.message;
    EXPECT_NE(result.err.find(c.message), std::string::npos) << "stderr: " << result.err;
  }
}

TEST(AccountCommand, NpyMatrixLoadsInNumpyAndEqualsTheJsonRows) {
  // Debian's /usr/bin/python3 with python3-numpy (installed by `make test`) loads the file; a
  // missing numpy fails the test, it is not skipped.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "netdp_npy_test";
  std::filesystem::create_directories(dir);
  const std::string npy = (dir / "karate.npy").string();
  const std::string json = (dir / "karate.json").string();
  const std::vector<std::string> common = {"account",  "--graph", "karate",  "--method", "muffliato",
                                           "--rounds", "10",      "--sigma", "2",        "--quiet"};
  for (const auto& [out, extra] :
       {std::pair{npy, std::string("--field=mu")}, std::pair{json, std::string("--json")}}) {
    std::vector<std::string> args = common;
    args.insert(args.end(), {"--out", out, extra});
    const testing::CliResult r = testing::run_cli(args);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const std::string script =
      "import json, sys, numpy as np\n"
      "m = np.load(sys.argv[1]); d = json.load(open(sys.argv[2]))\n"
      "assert m.dtype == np.float64 and m.shape == (34, 34), (m.dtype, m.shape)\n"
      "for p in d['pairs']:\n"
      "    assert m[p['observer'], p['target']] == p['mu'], p\n"
      "assert (np.diag(m) == d['summary']['local_dp']['mu']).all()\n"
      "print('ok', len(d['pairs']))\n";
  const std::string script_path = (dir / "check.py").string();
  std::ofstream(script_path) << script;
  const std::string command = "/usr/bin/python3 " + script_path + " " + npy + " " + json + " 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buffer[256];
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "ok 1122\n");
  std::filesystem::remove_all(dir);
}

TEST(AccountCommand, TheHugePageRestartKeepsArgumentsAndOutput) {
  // The command starts itself again with glibc.malloc.hugetlb=1 (apps/netdp/main.cpp): the
  // arguments reach the restarted process and the bytes it prints are those of a run without it.
  const std::string binary = std::string("'") + NETDP_BINARY + "'";
  const std::string args =
      " account --graph ring:n=6 --method random-walk --rounds 40 --sigma 3 --json --summary-only";
  const auto with = testing::shell_output("env -u NETDP_HUGE_PAGES -u GLIBC_TUNABLES " + binary + args);
  const auto without = testing::shell_output("env -u GLIBC_TUNABLES NETDP_HUGE_PAGES=0 " + binary + args);
  const auto user_set = testing::shell_output("env GLIBC_TUNABLES=glibc.malloc.hugetlb=0 " + binary + args);
  ASSERT_EQ(with.first, 0) << with.second;
  EXPECT_NE(with.second.find("\"epsilon_max\""), std::string::npos);
  EXPECT_EQ(with, without);
  EXPECT_EQ(with, user_set);
  const auto refused =
      testing::shell_output("env -u NETDP_HUGE_PAGES " + binary + " account --graph ring:n=6 --rounds -3");
  EXPECT_NE(refused.first, 0);
  EXPECT_NE(refused.second.find("must be a whole number >= 0, got -3"), std::string::npos) << refused.second;
}

TEST(AccountCommand, NpyOptionsAreChecked) {
  const std::vector<std::string> base = {"account",   "--graph",  "karate", "--method",
                                         "muffliato", "--rounds", "5"};
  const auto error_of = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const testing::CliResult r = testing::run_cli(args);
    EXPECT_EQ(r.status, 2);
    return r.err;
  };
  EXPECT_NE(error_of({"--field", "mu"}).find("add --out FILE.npy"), std::string::npos);
  EXPECT_NE(error_of({"--out", "x.npy", "--csv"}).find("drop --json / --csv"), std::string::npos);
  EXPECT_NE(error_of({"--out", "x.npy", "--field", "sigma"})
                .find("unknown --field 'sigma'; expected one of: epsilon, mu, rdp_epsilon"),
            std::string::npos);
}

TEST(AccountCommand, NegativeCountsAreRefusedBeforeTheyWrap) {
  // An unsigned option would turn -3 into 2^64 − 3 and allocate until killed: every subcommand's
  // unsigned options refuse a minus sign with exit 2.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"account", "--graph", "karate", "--rounds", "-3"},
        std::vector<std::string>{"account", "--graph", "karate", "--rounds", "3", "--observer-index", "-1"},
        std::vector<std::string>{"factorize", "--workload", "prefix-sum", "--rounds", "-1"},
        std::vector<std::string>{"asymptotic", "--graph", "karate", "--target-index", "-2"}}) {
    const testing::CliResult r = testing::run_cli(args);
    EXPECT_EQ(r.status, 2) << args[0] << " " << args.back();
    EXPECT_NE(r.err.find("must be a whole number >= 0, got -"), std::string::npos) << r.err;
  }
}

TEST(AccountCommand, SameBytesForAnyThreadCount) {
  // Graphs with several column blocks (the Muffliato sums) and batches (the walk's visit tails).
  const std::vector<std::vector<std::string>> cases = {
      {"--graph", "hypercube:d=10", "--method", "muffliato", "--rounds", "6", "--bound", "paper"},
      {"--graph", "er:n=700,p=0.012,seed=4,connected=1", "--method", "muffliato", "--rounds", "4", "--bound",
       "paper"},
      {"--graph", "hypercube:d=6", "--method", "muffliato", "--rounds", "5"},
      {"--graph", "hypercube:d=8", "--method", "random-walk", "--rounds", "300"},
      {"--graph", "karate", "--method", "linear-system", "--rounds", "6"},
      {"--graph", "karate", "--method", "linear-system", "--view", "plain", "--rounds", "4"},
      {"--graph", "karate", "--method", "mf", "--rounds", "5"}};
  const int default_threads = omp_get_max_threads();
  for (const auto& extra : cases) {
    std::string reference;
    for (const char* threads : {"1", "2", "3"}) {
      std::vector<std::string> args = {"account", "--sigma", "2", "--json", "--quiet", "--threads", threads};
      args.insert(args.end(), extra.begin(), extra.end());
      const testing::CliResult r = testing::run_cli(args);
      ASSERT_EQ(r.status, 0) << r.err;
      const std::string out = testing::without_command_line(r.out);  // which says --threads
      if (reference.empty()) reference = out;
      // Compared without printing (the outputs are megabytes): the first differing byte, if any.
      const auto differ = std::mismatch(out.begin(), out.end(), reference.begin(), reference.end());
      EXPECT_TRUE(out == reference) << extra[1] << " " << extra[3] << " with --threads " << threads
                                    << ": first difference at byte " << (differ.first - out.begin());
    }
  }
  omp_set_num_threads(default_threads);
}

TEST(AccountCommand, HumanOutputSaysWhatRanAndWarningsGoToStderr) {
  const testing::CliResult r =
      testing::run_cli({"account", "--graph", "karate", "--rounds", "30", "--target-epsilon", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* part :
       {"netdp account: muffliato accountant on graph karate (34 nodes, 78 edges), weights "
        "hamilton, T = 30",
        "delta 1e-05", "threat model: each observer alone", "calibration: sigma = ",
        " gives mean epsilon = 1 at delta = 1e-05 (target 1)", "epsilon over 1122 pairs: min "})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << " missing in:\n" << r.out;
  // Diagnostics on stderr, once per distinct message; none on stdout; none with --quiet.
  EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("netdp: warning: exact joint view:"), std::string::npos) << r.err;
  const testing::CliResult quiet = testing::run_cli(
      {"account", "--graph", "karate", "--rounds", "30", "--target-epsilon", "1", "--quiet"});
  ASSERT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.err.find("warning"), std::string::npos) << quiet.err;
  EXPECT_EQ(quiet.out, r.out);
}

TEST(Warnings, AreDeduplicatedWithTheirCountsAndSilencedByQuiet) {
  const std::vector<std::string> warnings = {"pair capped", "rank decided", "pair capped", "pair capped"};
  std::ostringstream err;
  std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
  write_warnings(warnings, OutputOptions{});
  OutputOptions quiet;
  quiet.quiet = true;
  write_warnings(warnings, quiet);
  std::cerr.rdbuf(old);
  EXPECT_EQ(err.str(), "netdp: warning: pair capped (3 times)\nnetdp: warning: rank decided\n");
}

}  // namespace
}  // namespace netdp::cli
