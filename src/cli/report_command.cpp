// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp report`: one self-contained HTML file from outputs of account, compare, audit and train.

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "netdp/report/report.hpp"
#include "netdp/util/atomic_file.hpp"
#include "network_options.hpp"
#include "output.hpp"

namespace netdp::cli {
namespace {

struct ReportCommandOptions {
  std::vector<std::string> inputs;
  std::string out;
  std::string title = "netdp report";
  NetworkOptions network;
  OutputOptions output;
};

void run_report(const ReportCommandOptions& o) {
  std::vector<report::Input> inputs;
  for (const std::string& file : o.inputs) inputs.push_back(report::read_input(file));
  report::ReportOptions options;
  options.title = o.title;
  if (o.network.graph_option->count() > 0 || !o.network.matrix.empty())
    options.network = network_spec(o.network, o.output.seed);
  const nlohmann::json data = report::page_data(inputs, options);
  report::write_report(o.out, data);
  std::error_code error;
  const auto bytes = std::filesystem::file_size(o.out, error);
  if (!util::is_standard_output(o.out)) {
    const nlohmann::json result{{"report", o.out},
                                {"bytes", error ? nlohmann::json() : nlohmann::json(bytes)},
                                {"notes", data["notes"]}};
    print_result(o.output, result, [&](std::ostream& out) {
      fmt::print(out, "report written to {}{}\n", o.out,
                 error ? "" : fmt::format(" ({:.1f} MB)", static_cast<double>(bytes) / 1e6));
    });
  }
  write_warnings(data["notes"].get<std::vector<std::string>>(), o.output);
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportCommandOptions>();
  auto* cmd = app.add_subcommand("report",
                                 "One self-contained HTML file (opens offline) with the plots of account, "
                                 "compare, audit and train outputs");
  cmd->add_option(
         "--input", o->inputs,
         "Outputs to show: files of `netdp account --json`, `compare --json`, `audit --json`, and folders "
         "of `netdp train --out` (repeatable, several after one --input)")
      ->required();
  cmd->add_option("--out", o->out, "The HTML file to write (whole or not at all)")->required();
  cmd->add_option("--title", o->title, "The page's title")->capture_default_str();
  add_network_options(cmd, o->network);
  add_output_options(cmd, o->output, "Print {report, bytes, notes} as JSON on stdout");
  cmd->callback([o] { run_report(*o); });
}

}  // namespace netdp::cli
