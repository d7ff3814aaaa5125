#pragma once
// The MF paper's options that `netdp account` and `netdp audit` share: --trust, --algorithm,
// --correlation and (k, b)-cyclic participation (docs/accounting-mf.md).

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "netdp/accounting/mf_views.hpp"

namespace netdp::cli {

struct MfCommandOptions {
  std::string trust = "pndp";
  std::string algorithm = "dp-d-sgd";
  std::size_t participations = 0;  ///< k of (k, b)-cyclic participation (0: every round)
  std::size_t separation = 0;      ///< b
  std::string correlation_path;

  /// The algorithm with K = gossip_steps and C read from --correlation (which mf-d-sgd needs).
  accounting::MfAlgorithmSpec algorithm_spec(std::size_t gossip_steps) const;
  accounting::MfParticipation participation() const;
  /// "every-round" or "cyclic:k=K,b=B".
  std::string participation_name() const;
};

/// Adds --trust, --algorithm, --participations, --separation and --correlation.
void add_mf_options(CLI::App* command, MfCommandOptions& options);

}  // namespace netdp::cli
