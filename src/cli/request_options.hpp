#pragma once
// The accountant's flags that `netdp account` and `netdp audit` share, bound to the library's
// AccountRequest (accounting/account_request.hpp), which checks them and builds the account.

#include <CLI/CLI.hpp>
#include <string>

#include "netdp/accounting/account_request.hpp"

namespace netdp::cli {

struct RequestOptions {
  accounting::AccountRequest request;
  std::string correlation_path;  ///< --correlation: a Matrix Market file of mf-d-sgd's C

  /// The request with C read from --correlation (when given).
  accounting::AccountRequest resolved() const;
};

/// Adds --method, --gradient-steps, --bound, --count-observer-noise, --contributions,
/// --tail-share, --sender-known, --view, --first-power, --gossip-steps, --release-dimension,
/// --trust, --algorithm, --participations, --separation and --correlation.
void add_request_options(CLI::App* command, RequestOptions& options);

}  // namespace netdp::cli
