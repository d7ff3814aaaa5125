// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Summaries of a pairwise account: ε and μ by shortest-path distance, per observer, overall
// (with quantiles and the count at the local-DP cap), and the local-DP and central-DP baselines
// at the same noise. Built row block by row block, so an all-pairs run need not keep its rows.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/accounting/account/pair_extremes.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/graph/graph.hpp"

namespace netdp::accounting {

/// Where each observer block of `rows` starts (rows of one observer are contiguous), then
/// rows.size(): block b is [starts[b], starts[b + 1]).
std::vector<std::size_t> observer_block_starts(std::span<const PairRow> rows);

/// Hop distances from each row's observer (a coalition: its nearest member) to its target (a
/// group: its nearest member) in g; unreachable pairs keep an empty distance. Rows of one
/// observer should be contiguous (one BFS per observer block, the blocks in parallel).
void fill_distances(std::span<PairRow> rows, const graph::Graph& g, const PairQuery& query);

/// min / mean / max of a quantity grouped by hop distance: the one grouping every distance table
/// (netdp account, netdp compare, the MF paper's Figure 2) uses.
class RangesByDistance {
 public:
  void add(std::uint32_t distance, double value);
  void merge(const RangesByDistance& other);
  /// (distance, range) for every distance that received a value, by increasing distance.
  std::vector<std::pair<std::uint32_t, Range>> ranges() const;

 private:
  std::vector<RangeAccumulator> by_distance_;  ///< index = distance
};

struct DistanceSummary {
  std::optional<std::uint32_t> distance;  ///< empty: pairs without a distance
  Range epsilon;
  std::optional<Range> mu;  ///< empty when no row of the group is Gaussian
};

struct ObserverSummary {
  graph::NodeId observer = 0;
  double epsilon_mean = 0.0;
  double epsilon_max = 0.0;
  std::optional<ObserverDetail> detail;
};

/// A guarantee of a reference mechanism, as μ-GDP and its ε(δ).
struct Baseline {
  double mu = 0.0;
  double epsilon = 0.0;
};

struct PairwiseSummary {
  std::size_t pairs = 0;
  std::optional<Range> epsilon;  ///< empty when there are no pairs
  std::optional<double> epsilon_median;
  std::optional<double> epsilon_p90;
  std::optional<double> epsilon_p99;
  std::optional<double> mu_max;               ///< over the Gaussian rows
  std::size_t capped_pairs = 0;               ///< rows whose reported value is the local-DP cap
  std::size_t condition_failed_pairs = 0;     ///< random walk: rows with condition_ok == false
  CertificateCounts certificates;             ///< rows of each certificate kind
  std::vector<DistanceSummary> by_distance;   ///< by increasing distance, then the undefined one
  std::vector<ObserverSummary> per_observer;  ///< by observer
  std::optional<Histogram> histogram;         ///< every pair's ε, when asked of finish()
};

/// Accumulates rows block by block (in any order) into a PairwiseSummary. The observer blocks of
/// each add() are summarised in parallel and merged in order: the result does not depend on the
/// thread count.
class SummaryBuilder {
 public:
  /// A builder for about `expected_rows` rows (room for their ε is taken once, not grown).
  explicit SummaryBuilder(std::size_t expected_rows = 0) { epsilons_.reserve(expected_rows); }
  void add(std::span<const PairRow> rows);
  /// The consumer's pass over one chunk of a stream: `rows` copied into `copy` (resized to them),
  /// each copy given its hop distance in `g` as fill_distances gives it (no graph: none), and
  /// added. One observer block per thread, copied, measured and summarised while it is in that
  /// core's cache; the same summary and rows as copying, fill_distances and add().
  void add_with_distances(std::span<const PairRow> rows, std::vector<PairRow>& copy, const graph::Graph* g,
                          const PairQuery& query);
  /// The summary of every row added; `details` (Muffliato's T_v) are attached to their observers.
  /// The quantiles are selected in place among the stored ε (no copy), which reorders them.
  /// With `histogram_bins` > 0, also the histogram of every pair's ε in that many bins.
  PairwiseSummary finish(std::span<const ObserverDetail> details = {}, std::size_t histogram_bins = 0);

 private:
  /// Everything but the per-observer ranges and the stored ε, for any set of rows.
  struct Part {
    RangesByDistance epsilon_by_distance;
    RangesByDistance mu_by_distance;
    RangeAccumulator no_distance_epsilon;
    RangeAccumulator no_distance_mu;
    RangeAccumulator overall;
    RangeAccumulator overall_mu;
    std::size_t capped = 0;
    std::size_t condition_failed = 0;
    CertificateCounts certificates;
    void add(const PairRow& row);
    void merge(const Part& other);
  };
  /// Summarises the observer blocks of `rows` in parallel: block_of(begin, end) gives the rows of
  /// block [begin, end) to summarise (the rows themselves, or a prepared copy of them).
  template <class Block>
  void add_blocks(std::span<const PairRow> rows, const Block& block_of);
  Part total_;
  std::vector<RangeAccumulator> by_observer_;  ///< index = observer
  std::vector<double> epsilons_;               ///< for the quantiles
};

/// The warnings the rows themselves call for, with their totals (the random-walk pairs whose
/// amplification condition failed). Front ends add them to the accountant's own warnings.
std::vector<Diagnostic> summary_warnings(const PairwiseSummary& summary);

/// The summary of `rows` (SummaryBuilder over one block).
PairwiseSummary summarize(std::span<const PairRow> rows, std::span<const ObserverDetail> details = {});

/// Local DP at the same noise: an observer sees each of the target's R releases directly,
/// μ = √R Δ/σ (R = account.releases()).
Baseline local_dp_baseline(const PairwiseAccount& account, double sigma, double delta);
/// Central DP at the same noise: a trusted aggregator adds noise of std σ√n to the sum of n
/// contributions, μ = √R Δ / (σ √n).
Baseline central_dp_baseline(const PairwiseAccount& account, std::size_t num_nodes, double sigma,
                             double delta);

}  // namespace netdp::accounting
