// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The accountant's flags that `netdp account` and `netdp audit` share: one flag per row of the
// library's option table (accounting::account_options), parsed into an AccountRequest by the table's
// own parser (set_account_option).

#include <CLI/CLI.hpp>
#include <deque>
#include <string>
#include <vector>

#include "netdp/accounting/account/account_request.hpp"

namespace netdp::cli {

struct RequestOptions {
  /// The request of the flags given, with C read from --correlation (when given).
  accounting::AccountRequest resolved() const;

  /// One option of the table bound to its flag and to where CLI11 stores what was given.
  struct Bound {
    const accounting::AccountOption* option = nullptr;
    CLI::Option* flag = nullptr;
    const std::string* text = nullptr;  ///< a value option's text
    const bool* on = nullptr;           ///< a flag's state
  };
  std::vector<Bound> bound;
  std::deque<std::string> texts;  ///< the values' storage (a deque: elements keep their addresses)
  std::deque<bool> switches;      ///< the flags' storage
  std::string correlation_path;   ///< --correlation: a Matrix Market file of mf-d-sgd's C
};

/// Adds a flag for every option of the table (`netdp audit`: those it offers).
void add_request_options(CLI::App* command, RequestOptions& options, bool audit = false);

}  // namespace netdp::cli
