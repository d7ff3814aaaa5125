// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Summaries of pairwise accounts: distances, ranges, quantiles, baselines (pairwise_summary.hpp).

#include "netdp/accounting/account/pairwise_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>

#include "accounting/account/pairwise_detail.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {

std::vector<std::size_t> observer_block_starts(std::span<const PairRow> rows) {
  std::vector<std::size_t> starts;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (k == 0 || rows[k].observer != rows[k - 1].observer) starts.push_back(k);
  }
  starts.push_back(rows.size());
  return starts;
}

namespace {

/// Where each row's hop distance comes from: a BFS from its observer, one per observer block, or,
/// for a coalition or a group, one BFS from each member of the set, kept for every row.
class HopSource {
 public:
  HopSource(const graph::Graph& g, const PairQuery& query)
      : g_(g), group_(!query.group.empty()), by_set_(group_ || !query.colluders.empty()) {
    if (!by_set_) return;
    for (const graph::NodeId member : group_ ? query.group : query.colluders) {
      const std::vector<std::uint32_t> d = graph::bfs_distances(g, member);
      if (from_set_.empty()) from_set_ = d;
      for (std::size_t v = 0; v < d.size(); ++v) from_set_[v] = std::min(from_set_[v], d[v]);
    }
  }
  /// Sets the distance of the rows of one observer block.
  void fill(std::span<PairRow> block) const {
    if (block.empty()) return;
    const std::vector<std::uint32_t> own =
        by_set_ ? std::vector<std::uint32_t>{} : graph::bfs_distances(g_, block.front().observer);
    for (PairRow& row : block) {
      const std::uint32_t hops = by_set_ ? from_set_[group_ ? row.observer : row.target] : own[row.target];
      row.distance = hops == graph::kUnreachable ? std::nullopt : std::optional<std::uint32_t>(hops);
    }
  }

 private:
  const graph::Graph& g_;
  bool group_;
  bool by_set_;
  std::vector<std::uint32_t> from_set_;
};

}  // namespace

void fill_distances(std::span<PairRow> rows, const graph::Graph& g, const PairQuery& query) {
  const HopSource hops(g, query);
  const std::vector<std::size_t> starts = observer_block_starts(rows);
  const auto blocks = static_cast<std::ptrdiff_t>(starts.size() - 1);
  util::ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1) if (blocks > 1)
  for (std::ptrdiff_t b = 0; b < blocks; ++b) {
    errors.run(static_cast<std::int64_t>(b), [&] {
      const auto begin = starts[static_cast<std::size_t>(b)];
      hops.fill(rows.subspan(begin, starts[static_cast<std::size_t>(b) + 1] - begin));
    });
  }
  errors.rethrow();
}

void RangesByDistance::add(std::uint32_t distance, double value) {
  if (by_distance_.size() <= distance) by_distance_.resize(static_cast<std::size_t>(distance) + 1);
  by_distance_[distance].add(value);
}

std::vector<std::pair<std::uint32_t, Range>> RangesByDistance::ranges() const {
  std::vector<std::pair<std::uint32_t, Range>> out;
  for (std::size_t d = 0; d < by_distance_.size(); ++d) {
    if (by_distance_[d].count() > 0) out.emplace_back(static_cast<std::uint32_t>(d), by_distance_[d].range());
  }
  return out;
}

void RangesByDistance::merge(const RangesByDistance& other) {
  if (by_distance_.size() < other.by_distance_.size()) by_distance_.resize(other.by_distance_.size());
  for (std::size_t d = 0; d < other.by_distance_.size(); ++d) by_distance_[d].merge(other.by_distance_[d]);
}

void SummaryBuilder::Part::add(const PairRow& row) {
  if (row.distance) {
    epsilon_by_distance.add(*row.distance, row.epsilon);
    if (row.mu) mu_by_distance.add(*row.distance, *row.mu);
  } else {
    no_distance_epsilon.add(row.epsilon);
    if (row.mu) no_distance_mu.add(*row.mu);
  }
  if (row.mu) overall_mu.add(*row.mu);
  overall.add(row.epsilon);
  capped += row.capped ? 1 : 0;
  condition_failed += row.condition_ok == false ? 1 : 0;
  certificates.add(row.certificate);
}

void SummaryBuilder::Part::merge(const Part& other) {
  epsilon_by_distance.merge(other.epsilon_by_distance);
  mu_by_distance.merge(other.mu_by_distance);
  no_distance_epsilon.merge(other.no_distance_epsilon);
  no_distance_mu.merge(other.no_distance_mu);
  overall.merge(other.overall);
  overall_mu.merge(other.overall_mu);
  capped += other.capped;
  condition_failed += other.condition_failed;
  certificates.merge(other.certificates);
}

void SummaryBuilder::add(std::span<const PairRow> rows) {
  add_blocks(rows, [&](std::size_t begin, std::size_t end) { return rows.subspan(begin, end - begin); });
}

void SummaryBuilder::add_with_distances(std::span<const PairRow> rows, std::vector<PairRow>& copy,
                                        const graph::Graph* g, const PairQuery& query) {
  copy.resize(rows.size());
  const std::optional<HopSource> hops = g ? std::optional<HopSource>(std::in_place, *g, query) : std::nullopt;
  add_blocks(rows, [&](std::size_t begin, std::size_t end) {
    const std::span<PairRow> block = std::span<PairRow>(copy).subspan(begin, end - begin);
    std::copy(rows.begin() + static_cast<std::ptrdiff_t>(begin),
              rows.begin() + static_cast<std::ptrdiff_t>(end), block.begin());
    if (hops) hops->fill(block);
    return std::span<const PairRow>(block);
  });
}

template <class Block>
void SummaryBuilder::add_blocks(std::span<const PairRow> rows, const Block& block_of) {
  const std::vector<std::size_t> starts = observer_block_starts(rows);
  const std::size_t blocks = starts.size() - 1;
  std::vector<Part> parts(blocks);
  std::vector<RangeAccumulator> observers(blocks);
  const std::size_t base = epsilons_.size();
  epsilons_.resize(base + rows.size());
  util::ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1) if (blocks > 1)
  for (std::ptrdiff_t b = 0; b < static_cast<std::ptrdiff_t>(blocks); ++b) {
    errors.run(static_cast<std::int64_t>(b), [&] {
      const auto index = static_cast<std::size_t>(b);
      const std::span<const PairRow> block = block_of(starts[index], starts[index + 1]);
      Part part;  // on this thread's stack: neighbouring blocks do not share cache lines
      RangeAccumulator observer;
      double* epsilons = epsilons_.data() + base + starts[index];
      for (std::size_t k = 0; k < block.size(); ++k) {
        part.add(block[k]);
        observer.add(block[k].epsilon);
        epsilons[k] = block[k].epsilon;
      }
      parts[index] = std::move(part);
      observers[index] = observer;
    });
  }
  errors.rethrow();
  for (std::size_t b = 0; b < blocks; ++b) {
    total_.merge(parts[b]);
    const graph::NodeId observer = rows[starts[b]].observer;
    if (by_observer_.size() <= observer) by_observer_.resize(static_cast<std::size_t>(observer) + 1);
    by_observer_[observer].merge(observers[b]);
  }
}

namespace {

// The q-quantiles of the values for increasing q (the smallest value with at least a fraction q at
// or below it), by selection in place: the values are reordered, not copied. Each selection leaves
// the larger values after its position, so the next one searches only those.
std::vector<double> increasing_quantiles(std::vector<double>& values, std::initializer_list<double> qs) {
  std::vector<double> out;
  auto from = values.begin();
  for (const double q : qs) {
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
    const auto nth =
        values.begin() + static_cast<std::ptrdiff_t>(std::min(values.size() - 1, rank == 0 ? 0 : rank - 1));
    if (nth >= from) {
      std::nth_element(from, nth, values.end());
      from = nth + 1;
    }
    out.push_back(*nth);
  }
  return out;
}

}  // namespace

PairwiseSummary SummaryBuilder::finish(std::span<const ObserverDetail> details, std::size_t histogram_bins) {
  PairwiseSummary s;
  if (histogram_bins > 0) s.histogram = histogram(epsilons_, histogram_bins);
  s.pairs = total_.overall.count();
  s.capped_pairs = total_.capped;
  s.condition_failed_pairs = total_.condition_failed;
  s.certificates = total_.certificates;
  if (total_.overall.count() > 0) {
    s.epsilon = total_.overall.range();
    const std::vector<double> q = increasing_quantiles(epsilons_, {0.5, 0.9, 0.99});
    s.epsilon_median = q[0];
    s.epsilon_p90 = q[1];
    s.epsilon_p99 = q[2];
  }
  if (total_.overall_mu.count() > 0) s.mu_max = total_.overall_mu.range().max;
  const auto mu_ranges = total_.mu_by_distance.ranges();
  for (const auto& [distance, epsilon] : total_.epsilon_by_distance.ranges()) {
    DistanceSummary d{distance, epsilon, std::nullopt};
    for (const auto& [mu_distance, mu] : mu_ranges) {
      if (mu_distance == distance) d.mu = mu;
    }
    s.by_distance.push_back(d);
  }
  if (total_.no_distance_epsilon.count() > 0) {
    DistanceSummary d{std::nullopt, total_.no_distance_epsilon.range(), std::nullopt};
    if (total_.no_distance_mu.count() > 0) d.mu = total_.no_distance_mu.range();
    s.by_distance.push_back(d);
  }
  std::vector<std::optional<ObserverDetail>> detail_of(by_observer_.size());
  for (const ObserverDetail& detail : details) {
    if (detail.observer < detail_of.size()) detail_of[detail.observer] = detail;
  }
  for (std::size_t v = 0; v < by_observer_.size(); ++v) {
    if (by_observer_[v].count() == 0) continue;
    ObserverSummary o;
    o.observer = static_cast<graph::NodeId>(v);
    o.epsilon_mean = by_observer_[v].range().mean;
    o.epsilon_max = by_observer_[v].range().max;
    if (v < detail_of.size()) o.detail = detail_of[v];
    s.per_observer.push_back(o);
  }
  return s;
}

std::vector<Diagnostic> summary_warnings(const PairwiseSummary& summary) {
  std::vector<Diagnostic> warnings;
  if (summary.condition_failed_pairs > 0) {
    warnings.push_back(
        {DiagnosticKind::theorem_condition_fails,
         fmt::format("{} of {} pairs: the random walk's amplification condition (σ/Δ)² >= 2α(α−1) (Theorem "
                     "3) fails at "
                     "the Rényi order chosen for them, so they report the local-DP loss of the target's "
                     "contributions "
                     "(condition_ok = false, capped = true); a larger σ restores the amplification",
                     summary.condition_failed_pairs, summary.pairs),
         summary.condition_failed_pairs});
  }
  return warnings;
}

PairwiseSummary summarize(std::span<const PairRow> rows, std::span<const ObserverDetail> details) {
  SummaryBuilder builder;
  builder.add(rows);
  return builder.finish(details);
}

namespace {

Baseline gaussian_baseline(double mu, double releases, double delta) {
  return {mu, releases > 0.0 ? detail::gdp_epsilon_or_zero(mu, delta) : 0.0};
}

}  // namespace

Baseline local_dp_baseline(const PairwiseAccount& account, double sigma, double delta) {
  const double releases = account.releases(delta);
  return gaussian_baseline(std::sqrt(releases) * account.sensitivity() / sigma, releases, delta);
}

Baseline central_dp_baseline(const PairwiseAccount& account, std::size_t num_nodes, double sigma,
                             double delta) {
  const double releases = account.releases(delta);
  const double mu =
      std::sqrt(releases) * account.sensitivity() / (sigma * std::sqrt(static_cast<double>(num_nodes)));
  return gaussian_baseline(mu, releases, delta);
}

}  // namespace netdp::accounting
