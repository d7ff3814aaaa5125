// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the cli module: each subcommand lives in its own <name>_command.cpp
// and registers itself on the application here. A subcommand's callback parses,
// calls the library and prints; it throws std::invalid_argument on bad input.

#include <CLI/CLI.hpp>

namespace netdp::cli {

void add_graph_command(CLI::App& app);
void add_dp_command(CLI::App& app);
void add_gossip_command(CLI::App& app);
void add_account_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_asymptotic_command(CLI::App& app);
void add_train_command(CLI::App& app);
void add_factorize_command(CLI::App& app);
void add_help_command(CLI::App& app);
void add_audit_command(CLI::App& app);
void add_report_command(CLI::App& app);

/// Thrown by a subcommand that has written its output and ends with a status other than 0 or 2
/// (`audit`: 3 on a violation).
struct ExitStatus {
  int code = 0;
};

}  // namespace netdp::cli
