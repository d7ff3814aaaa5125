// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Nodes keep their labels end to end: options take labels, rows and summaries name nodes by
// label (with the index beside it when they differ), matrix outputs come with a labels file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

namespace netdp::cli {
namespace {

using Json = nlohmann::json;
using testing::CliResult;
using testing::run_cli;

/// This process's scratch directory (test processes may run side by side).
std::filesystem::path temp_dir_path() {
  return std::filesystem::temp_directory_path() / ("netdp_labels_" + std::to_string(::getpid()));
}

std::filesystem::path temp_dir() {
  const auto dir = temp_dir_path();
  std::filesystem::create_directories(dir);
  return dir;
}

/// Removes the scratch directory once the process's tests have run.
class RemoveTempDir : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(temp_dir_path(), ignored);
  }
};
[[maybe_unused]] ::testing::Environment* const kRemoveTempDir =
    ::testing::AddGlobalTestEnvironment(new RemoveTempDir);

// A triangle 10-20-30 with a pendant 40: the file's ids are not 0..3.
std::string id_file() {
  const std::filesystem::path path = temp_dir() / "ids.txt";
  std::ofstream(path) << "10 20\n20 30\n30 10\n30 40\n";
  return "edgelist:" + path.string();
}

Json run_json(std::vector<std::string> args) {
  args.insert(args.begin(), {"account", "--quiet", "--json", "--rounds", "3"});
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return Json::parse(r.out);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(NodeLabels, FileIdsNameTheNodesInOptionsRowsAndSummary) {
  const Json j = run_json({"--graph", id_file(), "--observer", "40"});
  ASSERT_EQ(j["pairs"].size(), 3u);
  for (const Json& row : j["pairs"]) {
    EXPECT_EQ(row["observer"], 40);
    EXPECT_EQ(row["observer_index"], 3);
    // The target's label and index agree with the file's order (ids sorted: 10, 20, 30, 40).
    EXPECT_EQ(row["target"].get<int>(), 10 * (row["target_index"].get<int>() + 1));
  }
  EXPECT_EQ(j["pairs"][0]["target"], 10);
  EXPECT_EQ(j["summary"]["per_observer"][0]["observer"], 40);
  EXPECT_EQ(j["summary"]["per_observer"][0]["observer_index"], 3);
  EXPECT_EQ(j["summary"]["parameters"]["observer"], 40);

  // The same node by its index; a label that is only an index names no node.
  const Json by_index = run_json({"--graph", id_file(), "--observer-index", "3"});
  EXPECT_EQ(by_index["pairs"], j["pairs"]);
  const CliResult wrong = run_cli({"account", "--graph", id_file(), "--rounds", "3", "--observer", "3"});
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.err.find("--observer '3' names no node"), std::string::npos) << wrong.err;
  EXPECT_NE(wrong.err.find("--observer-index"), std::string::npos) << wrong.err;
}

TEST(NodeLabels, StringLabelsAreJsonStringsAndQuotedCsvWhenNeeded) {
  const Json j = run_json({"--graph", "florentine", "--colluders", "Medici,Strozzi", "--target", "Albizzi"});
  EXPECT_EQ(j["summary"]["colluders"], Json::array({"Medici", "Strozzi"}));
  ASSERT_EQ(j["pairs"].size(), 1u);
  EXPECT_EQ(j["pairs"][0]["observer"], "Medici");
  EXPECT_EQ(j["pairs"][0]["target"], "Albizzi");

  const CliResult csv = run_cli({"account", "--quiet", "--csv", "--graph", "florentine", "--rounds", "3",
                                 "--observer", "Medici", "--target", "Strozzi"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  const std::vector<std::string> rows = lines(csv.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].rfind("observer,target,observer_index,target_index,", 0), 0u) << rows[0];
  EXPECT_EQ(rows[1].rfind("Medici,Strozzi,", 0), 0u) << rows[1];

  // A label with a comma and a quote (a file's id) is one quoted CSV cell.
  const std::filesystem::path path = temp_dir() / "names.csv";
  std::ofstream(path) << "source,target\n\"a,\"\"b\",c\nc,d\n";
  const CliResult quoted = run_cli({"account", "--quiet", "--csv", "--graph", "csv:" + path.string(),
                                    "--rounds", "2", "--observer", "d", "--target", "a,\"b"});
  ASSERT_EQ(quoted.status, 0) << quoted.err;
  EXPECT_NE(quoted.out.find("d,\"a,\"\"b\","), std::string::npos) << quoted.out;
}

TEST(NodeLabels, GeneratedGraphsKeepIndexNamesAndNoIndexColumns) {
  const Json j = run_json({"--graph", "ring:n=5", "--observer", "2"});
  ASSERT_FALSE(j["pairs"].empty());
  EXPECT_EQ(j["pairs"][0]["observer"], 2);
  EXPECT_FALSE(j["pairs"][0].contains("observer_index"));
  // --lcc keeps each node's original index as its label.
  const Json lcc =
      run_json({"--graph", "florentine", "--lcc", "--observer", "Pazzi", "--target", "Salviati"});
  EXPECT_EQ(lcc["pairs"][0]["observer"], "Pazzi");
}

TEST(NodeLabels, MatrixOutputsComeWithALabelsFile) {
  const std::filesystem::path npy = temp_dir() / "flo.npy";
  const CliResult r =
      run_cli({"account", "--quiet", "--graph", "florentine", "--rounds", "3", "--out", npy.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream labels(temp_dir() / "flo.labels.txt");
  std::stringstream text;
  text << labels.rdbuf();
  const std::vector<std::string> names = lines(text.str());
  ASSERT_EQ(names.size(), 15u);
  // Row i of the matrix is the node of index i: the same order as `netdp graph --labels`.
  const CliResult g = run_cli({"graph", "--graph", "florentine", "--labels", "--json"});
  ASSERT_EQ(g.status, 0) << g.err;
  EXPECT_EQ(Json::parse(g.out)["labels"], Json(names));

  const std::filesystem::path mtx = temp_dir() / "w.mtx";
  const CliResult w = run_cli({"gossip", "--quiet", "--graph", "florentine", "--out", mtx.string()});
  ASSERT_EQ(w.status, 0) << w.err;
  EXPECT_TRUE(std::filesystem::exists(temp_dir() / "w.labels.txt"));
}

TEST(NodeLabels, AsymptoticTakesLabels) {
  const CliResult r = run_cli({"asymptotic", "--graph", "florentine", "--lcc", "--observer", "Medici",
                               "--target", "Strozzi", "--rounds-grid", "5", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["observer"], "Medici");
  EXPECT_EQ(j["target"], "Strozzi");
  EXPECT_TRUE(j.contains("observer_index"));
}

TEST(GossipNotes, APeriodicMatrixIsExplainedWithItsRemedy) {
  const CliResult r = run_cli({"gossip", "--graph", "hypercube:d=4", "--weights", "hamilton"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("note: W is periodic (period 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--weights metropolis"), std::string::npos) << r.out;
  const CliResult fixed =
      run_cli({"gossip", "--graph", "hypercube:d=4", "--weights", "metropolis", "--json"});
  ASSERT_EQ(fixed.status, 0) << fixed.err;
  EXPECT_TRUE(Json::parse(fixed.out)["notes"].empty());
}

}  // namespace
}  // namespace netdp::cli
