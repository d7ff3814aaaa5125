// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The options every subcommand takes (output.hpp) mean the same in each: --seed, --max-memory, the
// default graph, and where machine and human output go.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../util/temp_file.hpp"
#include "cli/cli_runner.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::cli {
namespace {

std::string graph_json(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"graph", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const testing::CliResult r = testing::run_cli(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

TEST(CommonOptions, SeedDrawsRandomGraphsWithoutTheirOwnSeed) {
  // --seed S is the default of seed=; a SPEC's own seed= wins.
  EXPECT_EQ(graph_json({"--graph", "er:n=40,p=0.2", "--seed", "5"}),
            graph_json({"--graph", "er:n=40,p=0.2,seed=5"}));
  EXPECT_EQ(graph_json({"--graph", "er:n=40,p=0.2"}), graph_json({"--graph", "er:n=40,p=0.2,seed=1"}));
  EXPECT_NE(graph_json({"--graph", "er:n=40,p=0.2", "--seed", "5"}),
            graph_json({"--graph", "er:n=40,p=0.2"}));
  EXPECT_EQ(graph_json({"--graph", "er:n=40,p=0.2,seed=1", "--seed", "5"}),
            graph_json({"--graph", "er:n=40,p=0.2,seed=1"}));
}

TEST(CommonOptions, SeedReachesRandomSchedulesAndIsRecorded) {
  const auto run = [](const char* seed) {
    const testing::CliResult r = testing::run_cli({"account", "--graph", "ring:n=8", "--schedule", "pairwise",
                                                   "--rounds", "30", "--json", "--quiet", "--seed", seed});
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  const nlohmann::json a = run("3");
  const nlohmann::json b = run("4");
  EXPECT_NE(a["pairs"], b["pairs"]);
  EXPECT_EQ(a["pairs"], run("3")["pairs"]);
}

TEST(CommonOptions, SeedReplacesTrainSeed) {
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() / ("netdp-seed-" + std::to_string(::getpid()));
  const testing::CliResult r =
      testing::run_cli({"train", "--quiet", "--json", "--out", out.string(), "--set", "train.seed=2", "--set",
                        "algorithm.rounds=2", "--seed", "9"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["seed"], 9);
  std::filesystem::remove_all(out);
}

TEST(CommonOptions, MaxMemoryIsTheLimitOfEveryEstimate) {
  const testing::CliResult r =
      testing::run_cli({"account", "--graph", "hypercube:d=8", "--bound", "paper", "--max-memory", "100k"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("the Muffliato Theorem 1 accountant needs about 1.05 MB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("more than the --max-memory limit of 100 kB"), std::string::npos) << r.err;
  util::set_memory_limit(0);  // run_cli parses in this process
  for (const char* command : {"graph", "gossip", "dp", "factorize", "asymptotic", "compare", "train"}) {
    const testing::CliResult bad = testing::run_cli({command, "--max-memory", "lots"});
    EXPECT_EQ(bad.status, 2) << command;
    EXPECT_NE(bad.err.find("memory size 'lots' is not a number of bytes"), std::string::npos)
        << command << bad.err;
  }
}

TEST(CommonOptions, EverySubcommandDefaultsToTheSameGraph) {
  for (const char* command : {"graph", "gossip"}) {
    const testing::CliResult r = testing::run_cli({command, "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["nodes"], 34) << command << ": karate, as for account";
  }
  const testing::CliResult account = testing::run_cli({"account", "--json", "--summary-only", "--quiet"});
  ASSERT_EQ(account.status, 0) << account.err;
  EXPECT_EQ(nlohmann::json::parse(account.out)["summary"]["parameters"]["graph"], "karate");
}

TEST(CommonOptions, MachineOutputGoesToTheFileAndTheHumanTableToStdout) {
  const auto path =
      std::filesystem::temp_directory_path() / ("netdp_out_" + std::to_string(::getpid()) + ".json");
  const testing::CliResult r = testing::run_cli(
      {"account", "--quiet", "--graph", "ring:n=6", "--rounds", "3", "--json", "--out", path.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream file(path);
  const nlohmann::json j = nlohmann::json::parse(file);
  EXPECT_EQ(j["summary"]["pairs"], 30);
  EXPECT_NE(r.out.find("netdp account: muffliato accountant on graph ring:n=6"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"pairs\""), std::string::npos) << r.out;
  std::filesystem::remove(path);
}

// What the graph's reader changed (here a dropped self-loop) is in every command's JSON warnings, as
// in account's summary, not only on stderr.
TEST(CommonOptions, GraphNotesSurviveIntoEveryCommandsJsonWarnings) {
  const netdp::testing::TempFile file("a b\nb b\nb c\nc d\nd a\na c\n", ".edges");
  const std::string graph = "edgelist:" + file.path();
  const std::vector<std::vector<std::string>> commands = {
      {"graph"},
      {"gossip"},
      {"compare", "--rounds", "3"},
      {"audit", "--rounds", "3", "--observer", "a", "--target", "c", "--trials", "20"},
      {"asymptotic", "--rounds-grid", "2,3", "--observer", "a", "--target", "c"},
      {"factorize", "--workload", "dl", "--rounds", "3"}};
  for (std::vector<std::string> args : commands) {
    args.insert(args.end(), {"--graph", graph, "--json"});
    const testing::CliResult r = testing::run_cli(args);
    ASSERT_EQ(r.status, 0) << args.front() << ": " << r.err;
    const std::string warnings = nlohmann::json::parse(r.out)["warnings"].dump();
    EXPECT_NE(warnings.find("1 self-loop dropped"), std::string::npos) << args.front() << ": " << warnings;
    EXPECT_NE(r.err.find("1 self-loop dropped"), std::string::npos) << args.front() << ": " << r.err;
  }
}

}  // namespace
}  // namespace netdp::cli
