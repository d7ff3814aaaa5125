// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the cli module: the one place where results are written out.
// Every subcommand builds a JSON value (stable field names, see docs/reference/cli.md)
// and a human-readable table; --json prints the former, otherwise the latter.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "netdp/graph/graph.hpp"

namespace netdp::cli {

/// The options every subcommand takes, with the same meaning everywhere.
struct OutputOptions {
  bool json = false;        ///< --json: machine-readable JSON on stdout
  bool quiet = false;       ///< --quiet: no progress bars, notes or warnings on stderr (errors still)
  std::uint64_t seed = 1;   ///< --seed: everything the command draws at random
  bool seed_given = false;  ///< whether --seed was on the command line (train: it overrides train.seed)
};

/// Adds the options every subcommand takes: --json, --quiet, --seed, --threads (which sets the
/// OpenMP thread count while parsing) and --max-memory (which sets util::set_memory_limit);
/// `json_help` describes what its JSON holds. --help is CLI11's, on every subcommand.
void add_output_options(CLI::App* command, OutputOptions& options,
                        const std::string& json_help = "Print machine-readable JSON on stdout");

/// `value` as JSON text (pretty with `indent` spaces, one line when -1). A string that is not valid
/// UTF-8 (which no reader lets in: a label, a path from the command line) is written with U+FFFD in
/// place of its bad bytes rather than failing the output. The one way the cli module dumps JSON.
template <class Json>
std::string dump_json(const Json& value, int indent = 2) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

/// The command line of this run (report::command_line), set by run() before the command parses.
const std::string& invoked_command();
void set_invoked_command(std::string command);

/// Prints `result` as JSON (pretty, 2 spaces) when options.json, else calls `human`.
void print_result(const OutputOptions& options, const nlohmann::json& result,
                  const std::function<void(std::ostream&)>& human);

/// Prints `warnings` on stderr as "netdp: warning: …", each distinct message once in first-seen
/// order with its count ("(12 times)"), unless --quiet. The one way every subcommand warns.
void write_warnings(const std::vector<std::string>& warnings, const OutputOptions& options);

/// Prints what the graph's reader changed in the input (graph::Graph::notes) as warnings.
void warn_graph_notes(const graph::Graph& g, const OutputOptions& options);

/// Writes `text` to `path` (util::write_file_atomically: whole or not at all; `-`, /dev/stdout and
/// pipes in place), throwing std::invalid_argument naming the path on failure.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace netdp::cli
