// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs the netdp command in-process and captures what it prints.

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "netdp/cli/app.hpp"

namespace netdp::cli::testing {

struct CliResult {
  int status = 0;
  std::string out;
  std::string err;
};

inline CliResult run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "netdp");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::ostringstream out;
  std::ostringstream err;
  std::streambuf* old_out = std::cout.rdbuf(out.rdbuf());
  std::streambuf* old_err = std::cerr.rdbuf(err.rdbuf());
  CliResult result;
  result.status = run(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

/// Runs `command` in a shell (the real binary, e.g. with an environment of its own); its exit status
/// as pclose gives it, then stdout and stderr together.
inline std::pair<int, std::string> shell_output(const std::string& command) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  return {pclose(pipe), output};
}

/// `json` (a command's JSON output) with the command line of its run record blanked: the one field
/// that repeats the flags, so that runs given other --threads or --out compare byte for byte.
inline std::string without_command_line(std::string json) {
  const std::string key = "\"command\": \"";
  for (std::size_t at = json.find(key); at != std::string::npos; at = json.find(key, at + key.size())) {
    std::size_t end = at + key.size();
    while (end < json.size() && json[end] != '"') end += json[end] == '\\' ? 2 : 1;
    json.erase(at + key.size(), std::min(end, json.size()) - at - key.size());
  }
  return json;
}

}  // namespace netdp::cli::testing
