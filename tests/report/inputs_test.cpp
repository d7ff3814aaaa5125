// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Bad report inputs are refused by name, and a report is written whole or not at all.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "netdp/report/report.hpp"

namespace netdp::report {
namespace {

namespace fs = std::filesystem;

class ReportInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("netdp_report_inputs_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  /// The message of read_input(path), which must refuse it.
  static std::string refusal(const std::string& path) {
    try {
      read_input(path);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    ADD_FAILURE() << path << " was accepted";
    return {};
  }
  fs::path dir_;
};

TEST_F(ReportInputs, RefusesMissingEmptyTruncatedAndForeignFilesByName) {
  const std::string missing = (dir_ / "nothing.json").string();
  EXPECT_NE(refusal(missing).find("nothing.json' does not exist"), std::string::npos) << refusal(missing);
  const std::string empty = write("empty.json", "");
  EXPECT_NE(refusal(empty).find("empty.json' is empty"), std::string::npos);
  const std::string truncated = write("cut.json", R"({"pairs": [{"observer": 0, "tar)");
  EXPECT_NE(refusal(truncated).find("cut.json' is not complete JSON"), std::string::npos)
      << refusal(truncated);
  const std::string foreign = write("other.json", R"({"name": "some other tool", "values": [1, 2]})");
  EXPECT_NE(refusal(foreign).find("other.json' is JSON, but not the output of `netdp account"),
            std::string::npos)
      << refusal(foreign);
}

TEST_F(ReportInputs, RefusesEmptyAndUnfinishedRunFolders) {
  fs::create_directories(dir_ / "run");
  EXPECT_NE(refusal((dir_ / "run").string()).find("run' is an empty folder"), std::string::npos);
  write("run/summary.json", R"({"algorithm": "d-sgd", "final_test_loss": 0.5, "netdp_version": "0"})");
  EXPECT_NE(refusal((dir_ / "run").string()).find("without metrics.json"), std::string::npos);
  write("run/metrics.json", R"([{"round": 1, "test_loss": 0.5}])");
  EXPECT_EQ(read_input((dir_ / "run").string()).kind, InputKind::train);
  // Its summary.json names the run too.
  EXPECT_EQ(read_input((dir_ / "run" / "summary.json").string()).kind, InputKind::train);
}

TEST_F(ReportInputs, AReportIsWrittenWholeOrNotAtAll) {
  const nlohmann::json data{{"title", "a </script><b> title"}, {"notes", {"</script>"}}};
  const std::string path = (dir_ / "r.html").string();
  write_report(path, data);
  std::ifstream in(path);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(page.find("@NETDP_"), std::string::npos);
  EXPECT_NE(page.find("<title>a &lt;/script&gt;&lt;b&gt; title</title>"), std::string::npos);
  // The data cannot end its <script> element early: one "</script>" per script element only.
  const auto count = [&](const std::string& s) {
    std::size_t n = 0;
    for (std::size_t at = page.find(s); at != std::string::npos; at = page.find(s, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("</script>"), count("<script"));
  EXPECT_THROW(write_report((dir_ / "no" / "such" / "dir.html").string(), data), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir_ / "no"));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1u);  // r.html, and no temporary file
}

}  // namespace
}  // namespace netdp::report
