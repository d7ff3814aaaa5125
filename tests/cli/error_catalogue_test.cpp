// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The catalogue of bad inputs in docs/reference/errors.md, run case by case through the real `netdp` binary:
// the document's tables are the test's data. Each case must exit with its code, print every quoted
// fragment on stderr, and never crash, abort or report an internal failure.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace netdp::cli {
namespace {

namespace fs = std::filesystem;

struct Fixture {
  std::string name;
  std::string content;
};

struct Case {
  std::string id;
  std::string command;
  int exit_code = 0;
  std::vector<std::string> fragments;
};

/// The cells of a Markdown table row "| a | b | c |".
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::size_t start = row.find('|');
  while (start != std::string::npos) {
    const std::size_t end = row.find('|', start + 1);
    if (end == std::string::npos) break;
    std::string cell = row.substr(start + 1, end - start - 1);
    const std::size_t first = cell.find_first_not_of(' ');
    const std::size_t last = cell.find_last_not_of(' ');
    out.push_back(first == std::string::npos ? std::string() : cell.substr(first, last - first + 1));
    start = end;
  }
  return out;
}

/// The `code spans` of a cell, in order.
std::vector<std::string> code_spans(const std::string& cell) {
  std::vector<std::string> out;
  std::size_t open = cell.find('`');
  while (open != std::string::npos) {
    const std::size_t close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    out.push_back(cell.substr(open + 1, close - open - 1));
    open = cell.find('`', close + 1);
  }
  return out;
}

/// \n, \t, \\ and \xHH in a fixture's content.
std::string unescape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char c = text[++i];
    if (c == 'n') {
      out += '\n';
    } else if (c == 't') {
      out += '\t';
    } else if (c == 'x' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

struct Catalogue {
  std::vector<Fixture> fixtures;
  std::vector<Case> cases;
};

Catalogue read_catalogue(const std::string& path) {
  std::ifstream in(path);
  Catalogue c;
  std::string line;
  std::string section;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) section = line;
    if (line.rfind("| ", 0) != 0 || line.rfind("|---", 0) == 0) continue;
    const std::vector<std::string> row = cells(line);
    if (section.find("Files") != std::string::npos && row.size() == 2) {
      const std::vector<std::string> name = code_spans(row[0]);
      const std::vector<std::string> content = code_spans(row[1]);
      if (name.size() == 1 && content.size() == 1) c.fixtures.push_back({name[0], unescape(content[0])});
    } else if (section.find("catalogue") != std::string::npos && row.size() == 5 && !row[0].empty() &&
               std::isdigit(static_cast<unsigned char>(row[0][0]))) {
      const std::vector<std::string> command = code_spans(row[2]);
      if (command.size() != 1) continue;
      c.cases.push_back({row[0], command[0], std::stoi(row[3]), code_spans(row[4])});
    }
  }
  return c;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ErrorCatalogue, EveryCaseExitsCleanlyWithItsMessage) {
  const Catalogue catalogue = read_catalogue(std::string(NETDP_SOURCE_DIR) + "/docs/reference/errors.md");
  ASSERT_GE(catalogue.cases.size(), 60u) << "docs/reference/errors.md lists too few cases (or its tables moved)";
  const fs::path dir = fs::temp_directory_path() / ("netdp-error-catalogue-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const Fixture& f : catalogue.fixtures) std::ofstream(dir / f.name, std::ios::binary) << f.content;
  for (const Case& c : catalogue.cases) {
    SCOPED_TRACE("case " + c.id + ": " + c.command);
    ASSERT_EQ(c.command.rfind("netdp ", 0), 0u) << "a command starts with 'netdp '";
    // Each argument in single quotes (the catalogue's arguments hold no quote or space).
    std::string shell = "cd '" + dir.string() + "' && timeout 120 '" + std::string(NETDP_BINARY) + "'";
    std::istringstream words(replace_all(c.command.substr(6), "{dir}", dir.string()));
    for (std::string word; words >> word;) shell += " '" + word + "'";
    shell += " > out.txt 2> err.txt < /dev/null";
    const int status = std::system(shell.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal";
    const std::string err = read_text(dir / "err.txt");
    EXPECT_EQ(WEXITSTATUS(status), c.exit_code) << err;
    for (const std::string& fragment : c.fragments)
      EXPECT_NE(err.find(fragment), std::string::npos) << "missing '" << fragment << "' in: " << err;
    for (const char* crash : {"terminate", "failure:", "bad_alloc", "Aborted", "Segmentation"})
      EXPECT_EQ(err.find(crash), std::string::npos) << err;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace netdp::cli
