#pragma once
// Private to the cli module: the rows and summary of `netdp account` and the one place they are
// written as JSON, CSV or a human table. Field names are documented in docs/cli.md.

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "netdp/accounting/pairwise.hpp"
#include "netdp/accounting/pairwise_summary.hpp"

namespace netdp::cli {

/// At most this many warnings are printed; the JSON also carries their total.
inline constexpr std::size_t kMaxWarningsShown = 20;

struct AccountReport {
  std::string method;
  std::string bound = "upper-bound";  ///< PairwiseAccount::bound(), in every row and the summary
  bool valid_bound = true;            ///< false for a paper's formula that is not a bound
  double sigma = 0.0;
  double delta = 0.0;
  std::vector<graph::NodeId> colluders;  ///< non-empty when the observer is a coalition
  std::vector<accounting::PairRow> rows;
  accounting::PairwiseSummary summary;
  accounting::Baseline local_dp;    ///< every contribution of the target seen directly
  accounting::Baseline central_dp;  ///< a trusted aggregator adding the same total noise to the sum
  std::size_t num_nodes = 0;
  nlohmann::ordered_json parameters;   ///< the resolved options, echoed
  nlohmann::ordered_json calibration;  ///< null unless --target-epsilon was given
  std::vector<std::string> warnings;
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
