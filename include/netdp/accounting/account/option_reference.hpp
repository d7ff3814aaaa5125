// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The option reference of docs/reference/cli.md and docs/reference/python.md, written from the option table
// (account_options()): `netdp help options` prints it, and a test checks that the docs hold it.

#include <string>

namespace netdp::accounting {

/// How the reference names the options: as command-line flags (--tail-share) or Python keywords.
enum class OptionSpelling { command_line, python };

/// The option table as a Markdown table, one row per option in the help's order: the option, the
/// methods it applies to, its type (Python) or accepted values (command line), its default and its
/// help line.
std::string account_options_markdown(OptionSpelling spelling);

}  // namespace netdp::accounting
