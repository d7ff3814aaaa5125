// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The help texts against docs/reference/cli.md: every subcommand has a section, every option a subcommand's
// --help lists is documented, and no help text carries notes meant for the developers.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "cli/cli_runner.hpp"
#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/account/option_reference.hpp"
#include "netdp/util/option_spelling.hpp"

namespace netdp::cli {
namespace {

std::string cli_docs() {
  std::ifstream in(std::string(NETDP_SOURCE_DIR) + "/docs/reference/cli.md");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The name at the start of `line` after `indent` spaces: [a-z] then [a-z0-9-], or "" if none.
std::string word_after(const std::string& line, std::size_t indent) {
  std::size_t end = indent;
  while (end < line.size() &&
         (std::islower(static_cast<unsigned char>(line[end])) != 0 ||
          (end > indent && (std::isdigit(static_cast<unsigned char>(line[end])) != 0 || line[end] == '-'))))
    ++end;
  return line.substr(indent, end - indent);
}

std::set<std::string> subcommands() {
  const testing::CliResult r = testing::run_cli({"--help"});
  std::set<std::string> names;
  std::istringstream lines(r.out);
  bool in_list = false;
  for (std::string l; std::getline(lines, l);) {
    if (l.rfind("Subcommands:", 0) == 0) in_list = true;
    if (in_list && l.rfind("  ", 0) == 0 && l.size() > 2 && l[2] != ' ') {
      const std::string name = word_after(l, 2);
      if (!name.empty()) names.insert(name);
    }
  }
  return names;
}

// The long option a help line lists first ("  --rounds,-T UINT", "  -h,--help"), or "".
std::string option_of(const std::string& line) {
  const std::size_t first = line.find_first_not_of(' ');
  if (first == std::string::npos || first == 0) return "";
  std::size_t at = first;
  if (line.compare(at, 1, "-") == 0 && line.compare(at, 2, "--") != 0) {  // "-h,--help"
    const std::size_t comma = line.find(',', at);
    if (comma == std::string::npos || comma > at + 2) return "";
    at = line.find_first_not_of(' ', comma + 1);
  }
  if (at == std::string::npos || line.compare(at, 2, "--") != 0) return "";
  const std::string name = word_after(line, at + 2);
  return name.empty() ? "" : "--" + name;
}

// Whether `docs` holds `option` not followed by another name character (--seed, not --seeds).
bool documents(const std::string& docs, const std::string& option) {
  for (std::size_t at = docs.find(option); at != std::string::npos; at = docs.find(option, at + 1)) {
    const std::size_t next = at + option.size();
    if (next == docs.size() ||
        !(std::isalnum(static_cast<unsigned char>(docs[next])) != 0 || docs[next] == '-'))
      return true;
  }
  return false;
}

TEST(HelpAndDocs, EverySubcommandAndOptionIsDocumented) {
  const std::string docs = cli_docs();
  ASSERT_FALSE(docs.empty()) << "docs/reference/cli.md not found";
  const std::set<std::string> commands = subcommands();
  ASSERT_GE(commands.size(), 9u);
  for (const std::string& command : commands) {
    SCOPED_TRACE(command);
    EXPECT_NE(docs.find("## `netdp " + command + "`"), std::string::npos) << "no section for " << command;
    const testing::CliResult help = testing::run_cli({command, "--help"});
    ASSERT_EQ(help.status, 0) << help.err;
    std::istringstream lines(help.out);
    std::size_t options = 0;
    for (std::string l; std::getline(lines, l);) {
      const std::string name = option_of(l);
      if (name.empty()) continue;
      ++options;
      EXPECT_TRUE(documents(docs, name)) << name << " of " << command << " is not in docs/reference/cli.md";
    }
    EXPECT_GE(options, 1u);
    for (const char* note : {"issue ", "TODO", "FIXME", "{false}", "{true}", "--help-specs"})
      EXPECT_EQ(help.out.find(note), std::string::npos) << "'" << note << "' in the help of " << command;
  }
}

// The text of docs/reference/<page> between "<!-- begin: {marker} -->" and "<!-- end: {marker} -->" (their
// own lines excluded), or "" when the page has no such block.
std::string generated_block(const std::string& page, const std::string& marker) {
  std::ifstream in(std::string(NETDP_SOURCE_DIR) + "/docs/reference/" + page);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::string begin = fmt::format("<!-- begin: {} -->\n", marker);
  const std::string end = fmt::format("<!-- end: {} -->", marker);
  const std::size_t from = doc.find(begin);
  if (from == std::string::npos) return "";
  const std::size_t to = doc.find(end, from);
  if (to == std::string::npos) return "";
  return doc.substr(from + begin.size(), to - from - begin.size());
}

// The option reference of both pages is the option table's, as `netdp help options` and `netdp help
// python-options` print it: regenerate the blocks with those commands when an option changes.
TEST(HelpAndDocs, TheOptionReferencesAreTheOptionTable) {
  const testing::CliResult printed = testing::run_cli({"help", "options"});
  ASSERT_EQ(printed.status, 0) << printed.err;
  EXPECT_EQ(printed.out, accounting::account_options_markdown(accounting::OptionSpelling::command_line));
  EXPECT_EQ(generated_block("cli.md", "netdp help options"), printed.out)
      << "docs/reference/cli.md's option reference differs from `netdp help options`";
  const testing::CliResult python = testing::run_cli({"help", "python-options"});
  ASSERT_EQ(python.status, 0) << python.err;
  EXPECT_EQ(python.out, accounting::account_options_markdown(accounting::OptionSpelling::python));
  EXPECT_EQ(generated_block("python.md", "netdp help python-options"), python.out)
      << "docs/reference/python.md's option reference differs from `netdp help python-options`";
  // Every option is a row of both, with exactly its methods.
  for (const accounting::AccountOption& option : accounting::account_options()) {
    SCOPED_TRACE(std::string(option.name));
    const std::string flag = fmt::format("| `{}`", util::flag_of(option.name));
    const std::size_t at = printed.out.find(flag);
    ASSERT_NE(at, std::string::npos);
    // The second cell: "| `--flag` | methods | ...".
    const std::size_t from = printed.out.find(" | ", at) + 3;
    const std::string methods = ", " + printed.out.substr(from, printed.out.find(" | ", from) - from) + ",";
    for (const auto& entry : accounting::kMethodNames)
      EXPECT_EQ(methods.find(fmt::format(" {},", entry.name)) != std::string::npos,
                option.applies_to(entry.value))
          << entry.name << " in '" << methods << "'";
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
