// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the cli module: the rows and summary of `netdp account` and the one place they are
// written as JSON, CSV or a human table. Field names are documented in docs/reference/cli.md.

#include <fmt/format.h>

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "netdp/accounting/account/observer_sample.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/account/pairwise_summary.hpp"
#include "node_names.hpp"

namespace netdp::cli {

/// At most this many warnings are printed; the JSON also carries their total.
inline constexpr std::size_t kMaxWarningsShown = 20;

struct AccountReport {
  std::string method;
  std::string bound =
      "upper-bound";        ///< the name of PairwiseAccount::guarantee(), in every row and the summary
  bool valid_bound = true;  ///< false for a paper's formula that is not a bound
  /// The chance that a value certified modulo random primes is wrong, when the account uses them.
  std::optional<double> certificate_failure_probability;
  double sigma = 0.0;
  double delta = 0.0;
  std::vector<graph::NodeId> colluders;  ///< non-empty when the observer is a coalition
  NodeNames names;                       ///< how the rows and the summary name nodes
  accounting::PairwiseSummary summary;
  accounting::Baseline local_dp;    ///< every contribution of the target seen directly
  accounting::Baseline central_dp;  ///< a trusted aggregator adding the same total noise to the sum
  std::size_t num_nodes = 0;
  std::size_t num_edges = 0;
  nlohmann::ordered_json parameters;     ///< the resolved options, echoed
  nlohmann::json run;                    ///< version, command line and network (report::run_record)
  nlohmann::ordered_json calibration;    ///< null unless --target-epsilon was given
  nlohmann::ordered_json sample;         ///< null unless --observers-sample was given (sample_json)
  std::vector<accounting::PairRow> top;  ///< --top: the pairs of largest ε, by decreasing ε
  std::vector<std::string> warnings;
};

/// The `sample` object of a run on sampled observers: who was sampled and the per-distance
/// estimates for all pairs (accounting::SampleEstimator), each estimate rounded up and its interval
/// outwards to 6 digits.
nlohmann::ordered_json sample_json(std::size_t sampled, std::size_t nodes, std::uint64_t seed,
                                   double confidence,
                                   const std::vector<accounting::DistanceEstimate>& estimates);

/// The summary object: by_distance, per_observer, overall statistics, baselines.
nlohmann::ordered_json summary_json(const AccountReport& report);

/// The rows of `netdp account`, written block by block as the accountant produces them (no
/// row is kept): JSON {"pairs": [...], "summary": {...}} (pairs omitted for summary-only) or CSV,
/// one line per pair with the JSON field names as header. Nodes are named by NodeNames (with
/// `observer_index` and `target_index` when the graph is relabelled). Numbers are formatted by fmt (shortest
/// round trip); JSON writes a non-finite number as null, CSV as inf. Once `out` has failed (a full
/// disk, a closed pipe, /dev/full), the next block throws std::invalid_argument "cannot write to
/// <destination>: <reason>", so that a run whose output is lost stops instead of computing on.
class RowWriter {
 public:
  enum class Format { json, json_summary_only, csv, none };
  RowWriter(std::ostream& out, std::string destination, Format format, const NodeNames& names,
            std::string bound, double delta);
  /// Writes one block of rows.
  void write(std::span<const accounting::PairRow> rows);
  /// Closes the pairs and writes the summary (JSON); nothing else for CSV.
  void finish(const AccountReport& report);

 private:
  std::ostream& out_;
  std::string destination_;  ///< how errors name `out_`: "standard output" or the quoted file name
  Format format_;
  const NodeNames& names_;
  std::string bound_;
  double delta_;
  bool first_ = true;
  std::vector<fmt::memory_buffer> buffers_;  ///< one per slice of a block, formatted in parallel
};

/// Human tables: a header (graph, weights, T, σ, δ, threat model, bound), the calibration as a
/// sentence, the overall ε, the distance table, per-observer means, baselines.
void write_human(std::ostream& out, const AccountReport& report);

}  // namespace netdp::cli
