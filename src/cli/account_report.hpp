#pragma once
// Private to the cli module: the per-pair rows of `netdp account`, their
// summary (loss by shortest-path distance, mean loss per observer, local-DP and
// central-DP baselines) and the one place they are written as JSON, CSV or a
// human table. Field names are documented in docs/cli.md.

#include <cstdint>
#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "netdp/graph/graph.hpp"

namespace netdp::cli {

/// Sensitivity fields of the linear-view accountants (linear-system, mf), for Δ = 1.
struct SensitivityFields {
  double ones = 0.0;
  double sum_abs = 0.0;
  std::optional<double> exact_value;
  double certified = 0.0;
  double sensitivity = 0.0;
  bool exact = false;
};

/// One (observer, target) guarantee, whatever the accountant.
struct AccountRow {
  graph::NodeId observer = 0;  ///< the observer (first member of a coalition)
  graph::NodeId target = 0;
  std::optional<std::uint32_t> distance;  ///< hop distance in the base graph (null if meaningless)
  double alpha = 0.0;                     ///< Rényi order of rdp_epsilon
  double rdp_epsilon = 0.0;               ///< reported (capped) Rényi DP ε at alpha
  double uncapped_rdp_epsilon = 0.0;
  std::optional<double> mu;  ///< μ-GDP (null when the bound is not Gaussian)
  double epsilon = 0.0;      ///< ε at the report's δ, rounded up
  bool capped = false;       ///< the local-DP cap set the reported value
  std::optional<SensitivityFields> sensitivity;
  std::optional<double> contributions;  ///< random walk: N_u
  std::optional<bool> condition_ok;     ///< random walk: σ² ≥ 2α(α−1)Δ²
};

/// A guarantee of a reference mechanism (as μ-GDP and its ε(δ)).
struct Baseline {
  double mu = 0.0;
  double epsilon = 0.0;
};

struct AccountReport {
  std::string method;
  double sigma = 0.0;
  double delta = 0.0;
  std::vector<graph::NodeId> colluders;  ///< non-empty when the observer is a coalition
  std::vector<AccountRow> rows;
  Baseline local_dp;    ///< every contribution of the target seen directly
  Baseline central_dp;  ///< a trusted aggregator adding the same total noise to the sum
  std::size_t num_nodes = 0;
  nlohmann::ordered_json parameters;   ///< the resolved options, echoed
  nlohmann::ordered_json calibration;  ///< null unless --target-epsilon was given
  std::vector<std::string> warnings;
  /// Extra fields merged into summary.per_observer[] (Muffliato: communications, mean_rdp_epsilon_eq7).
  std::map<graph::NodeId, nlohmann::ordered_json> observer_extras;
};

/// The summary object: by_distance, per_observer, overall statistics, baselines.
nlohmann::ordered_json summary_json(const AccountReport& report);

/// {"pairs": [...], "summary": {...}} streamed row by row (pairs omitted when !with_pairs).
void write_json(std::ostream& out, const AccountReport& report, bool with_pairs);
/// One line per pair, the JSON field names as header.
void write_csv(std::ostream& out, const AccountReport& report);
/// Human tables: parameters, the distance table, per-observer means, baselines.
void write_human(std::ostream& out, const AccountReport& report);

}  // namespace netdp::cli
