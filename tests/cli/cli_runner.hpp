#pragma once
// Runs the netdp command in-process and captures what it prints.

#include <iostream>
#include <sstream>
#include <string>
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

}  // namespace netdp::cli::testing
