// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// `netdp report`: one self-contained HTML file from the outputs of `netdp account --json`,
// `netdp compare --json`, `netdp audit --json` and `netdp train --out DIR`. The inputs are read and
// checked here, every statistic the page shows is computed here (page_data), and the page only
// draws it (src/report/page/, with Vega-Lite, inlined). The CLI and Python call these functions.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/network_spec.hpp"

namespace netdp::report {

/// What produced an input.
enum class InputKind { account, compare, audit, train };

/// The name of a kind: "account", "compare", "audit", "train".
std::string input_kind_name(InputKind kind);

/// One input of a report. For a training run, `document` is its summary.json with the rows of
/// metrics.json added as "metrics".
struct Input {
  std::string file;  ///< as given (a JSON file, or a training run's folder)
  InputKind kind = InputKind::account;
  nlohmann::json document;
};

/// Reads one input: a JSON file written by `netdp account --json` (also --summary-only),
/// `compare --json` or `audit --json`, or the folder of `netdp train --out`. Throws
/// std::invalid_argument naming the file and what is wrong: missing or unreadable, not JSON
/// (truncated), JSON of another tool, a folder without summary.json and metrics.json.
Input read_input(const std::string& path);

/// The same for a document already in memory (Python's results); `name` stands for the file.
Input input_from_json(nlohmann::json document, const std::string& name);

struct ReportOptions {
  std::string title = "netdp report";
  /// The network to draw and describe; none: the one recorded in the first input that has one
  /// ("run" → "network"), its graph file looked up as written, then beside the input.
  std::optional<gossip::NetworkSpec> network;
  /// Or the network itself (Python's results, whose graph may have no SPEC), named `network_name`
  /// and `weights_name` in the page; it takes precedence over `network`.
  std::optional<gossip::GossipMatrix> matrix;
  std::string network_name;
  std::string weights_name;
  std::size_t max_heatmap_nodes = 1000;  ///< larger: per-observer mean and max instead
  std::size_t max_drawing_nodes = 2000;  ///< larger: no graph drawing
  std::size_t max_heatmap_cells = 250;   ///< cells per side; above, blocks of nodes
};

/// The data of the page (src/report/page/data-schema.md). Throws std::invalid_argument when
/// `inputs` is empty, or when an input's nodes do not fit the network.
nlohmann::json page_data(const std::vector<Input>& inputs, const ReportOptions& options);

/// Writes the page for `data` to `path`, whole or not at all (util::write_file_atomically): the
/// template with its CSS, the chart libraries, the data and the drawing script inlined, so that it
/// opens offline. Throws std::invalid_argument naming `path` when it cannot be written.
void write_report(const std::string& path, const nlohmann::json& data);

/// The record of the run that every JSON output carries as "run": the netdp version, the command
/// line (`command`, shell-quoted; empty: none) and the network it ran on.
nlohmann::json run_record(const std::string& command, const gossip::NetworkSpec& network);

/// The network of a run record (its "network"); throws std::invalid_argument naming the field that
/// is missing or of the wrong type.
gossip::NetworkSpec network_from_record(const nlohmann::json& run);

/// argv as one shell-quoted line, argv[0] written as "netdp".
std::string command_line(int argc, const char* const* argv);

}  // namespace netdp::report
