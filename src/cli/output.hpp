#pragma once
// Private to the cli module: the one place where results are written out.
// Every subcommand builds a JSON value (stable field names, see docs/cli.md)
// and a human-readable table; --json prints the former, otherwise the latter.

#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

namespace netdp::cli {

struct OutputOptions {
  bool json = false;
};

/// Adds --json to a subcommand.
void add_output_options(CLI::App* command, OutputOptions& options);

/// Prints `result` as JSON (pretty, 2 spaces) when options.json, else calls `human`.
void print_result(const OutputOptions& options, const nlohmann::json& result,
                  const std::function<void(std::ostream&)>& human);

/// Writes `text` to `path`, throwing std::invalid_argument naming the path on failure.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace netdp::cli
