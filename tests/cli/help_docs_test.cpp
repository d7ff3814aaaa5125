// The help texts against docs/cli.md: every subcommand has a section, every option a subcommand's
// --help lists is documented, and no help text carries notes meant for the developers.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "cli/cli_runner.hpp"

namespace netdp::cli {
namespace {

std::string cli_docs() {
  std::ifstream in(std::string(NETDP_SOURCE_DIR) + "/docs/cli.md");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string> subcommands() {
  const testing::CliResult r = testing::run_cli({"--help"});
  std::set<std::string> names;
  const std::regex line(R"(^  ([a-z]+)\s{2,})");
  std::istringstream lines(r.out);
  bool in_list = false;
  for (std::string l; std::getline(lines, l);) {
    if (l.rfind("Subcommands:", 0) == 0) in_list = true;
    std::smatch m;
    if (in_list && std::regex_search(l, m, line)) names.insert(m[1]);
  }
  return names;
}

TEST(HelpAndDocs, EverySubcommandAndOptionIsDocumented) {
  const std::string docs = cli_docs();
  ASSERT_FALSE(docs.empty()) << "docs/cli.md not found";
  const std::set<std::string> commands = subcommands();
  ASSERT_GE(commands.size(), 9u);
  const std::regex option(R"(^\s+(?:-[A-Za-z],\s?)?(--[a-z][a-z0-9-]*))");
  for (const std::string& command : commands) {
    SCOPED_TRACE(command);
    EXPECT_NE(docs.find("## `netdp " + command + "`"), std::string::npos) << "no section for " << command;
    const testing::CliResult help = testing::run_cli({command, "--help"});
    ASSERT_EQ(help.status, 0) << help.err;
    std::istringstream lines(help.out);
    std::size_t options = 0;
    for (std::string l; std::getline(lines, l);) {
      std::smatch m;
      if (!std::regex_search(l, m, option)) continue;
      ++options;
      const std::regex documented(std::string(m[1]) + "([^a-z0-9-]|$)");
      EXPECT_TRUE(std::regex_search(docs, documented))
          << m[1] << " of " << command << " is not in docs/cli.md";
    }
    EXPECT_GE(options, 1u);
    for (const char* note : {"issue ", "TODO", "FIXME", "{false}", "{true}", "--help-specs"})
      EXPECT_EQ(help.out.find(note), std::string::npos) << "'" << note << "' in the help of " << command;
  }
}

TEST(HelpAndDocs, HelpSpecsPrintsEveryGrammar) {
  const testing::CliResult r = testing::run_cli({"help", "specs"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* part : {"Graph SPEC", "hypercube", "Gossip schedules", "er-per-round:p=P",
                           "Gossip weightings", "lazy-uniform"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part;
  EXPECT_EQ(testing::run_cli({"help", "nonsense"}).status, 2);
}

}  // namespace
}  // namespace netdp::cli
