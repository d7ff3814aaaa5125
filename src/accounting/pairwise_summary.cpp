// Summaries of pairwise accounts: distances, ranges, quantiles, baselines (pairwise_summary.hpp).

#include "netdp/accounting/pairwise_summary.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "netdp/dp/gdp.hpp"
#include "netdp/graph/metrics.hpp"
#include "pairwise_detail.hpp"

namespace netdp::accounting {

void fill_distances(std::span<PairRow> rows, const graph::Graph& g, const PairQuery& query) {
  // Distances from a set of nodes: the nearest member of the set.
  const auto nearest = [&g](const std::vector<graph::NodeId>& set) {
    std::vector<std::uint32_t> best;
    for (graph::NodeId member : set) {
      const std::vector<std::uint32_t> d = graph::bfs_distances(g, member);
      if (best.empty()) best = d;
      for (std::size_t v = 0; v < d.size(); ++v) best[v] = std::min(best[v], d[v]);
    }
    return best;
  };
  const std::vector<std::uint32_t> from_coalition = nearest(query.colluders);
  const std::vector<std::uint32_t> from_group = nearest(query.group);
  std::optional<graph::NodeId> current;
  std::vector<std::uint32_t> dist;
  for (PairRow& row : rows) {
    std::uint32_t hops = 0;
    if (!query.group.empty()) {
      hops = from_group[row.observer];
    } else if (!query.colluders.empty()) {
      hops = from_coalition[row.target];
    } else {
      if (current != row.observer) {
        dist = graph::bfs_distances(g, row.observer);
        current = row.observer;
      }
      hops = dist[row.target];
    }
    row.distance = hops == graph::kUnreachable ? std::nullopt : std::optional<std::uint32_t>(hops);
  }
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

void SummaryBuilder::add(std::span<const PairRow> rows) {
  for (const PairRow& row : rows) {
    if (row.distance) {
      epsilon_by_distance_.add(*row.distance, row.epsilon);
      if (row.mu) mu_by_distance_.add(*row.distance, *row.mu);
    } else {
      no_distance_epsilon_.add(row.epsilon);
      if (row.mu) no_distance_mu_.add(*row.mu);
    }
    if (row.mu) overall_mu_.add(*row.mu);
    if (by_observer_.size() <= row.observer) by_observer_.resize(static_cast<std::size_t>(row.observer) + 1);
    by_observer_[row.observer].add(row.epsilon);
    overall_.add(row.epsilon);
    epsilons_.push_back(row.epsilon);
    capped_ += row.capped ? 1 : 0;
  }
}

namespace {

// The q-quantile of the values (the smallest value with at least a fraction q at or below it), by
// selection in place: the values are reordered, not copied.
double quantile(std::vector<double>& values, double q) {
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  const auto nth =
      values.begin() + static_cast<std::ptrdiff_t>(std::min(values.size() - 1, rank == 0 ? 0 : rank - 1));
  std::nth_element(values.begin(), nth, values.end());
  return *nth;
}

}  // namespace

PairwiseSummary SummaryBuilder::finish(std::span<const ObserverDetail> details) {
  PairwiseSummary s;
  s.pairs = overall_.count();
  s.capped_pairs = capped_;
  if (overall_.count() > 0) {
    s.epsilon = overall_.range();
    s.epsilon_median = quantile(epsilons_, 0.5);
    s.epsilon_p90 = quantile(epsilons_, 0.9);
    s.epsilon_p99 = quantile(epsilons_, 0.99);
  }
  if (overall_mu_.count() > 0) s.mu_max = overall_mu_.range().max;
  const auto mu_ranges = mu_by_distance_.ranges();
  for (const auto& [distance, epsilon] : epsilon_by_distance_.ranges()) {
    DistanceSummary d{distance, epsilon, std::nullopt};
    for (const auto& [mu_distance, mu] : mu_ranges) {
      if (mu_distance == distance) d.mu = mu;
    }
    s.by_distance.push_back(d);
  }
  if (no_distance_epsilon_.count() > 0) {
    DistanceSummary d{std::nullopt, no_distance_epsilon_.range(), std::nullopt};
    if (no_distance_mu_.count() > 0) d.mu = no_distance_mu_.range();
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
