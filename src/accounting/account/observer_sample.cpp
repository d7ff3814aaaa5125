// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// A sample of observers and what it estimates of all pairs (observer_sample.hpp).

#include "netdp/accounting/account/observer_sample.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <numeric>

#include "netdp/accounting/account/pairwise_summary.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::accounting {

std::vector<graph::NodeId> sample_observers(std::size_t n, std::size_t k, std::uint64_t seed) {
  require(k >= 1 && k <= n, "a sample of observers must hold 1 to {} of the {} nodes, got {}", n, n, k);
  // The first k places of a Fisher–Yates shuffle (netdp's own, the same draws on every platform).
  std::vector<graph::NodeId> nodes(n);
  std::iota(nodes.begin(), nodes.end(), graph::NodeId{0});
  util::Rng rng(util::sub_seed(seed, 0x0b5e7e5));
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(rng.uniform_below(n - i));
    std::swap(nodes[i], nodes[j]);
  }
  nodes.resize(k);
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

SampleEstimator::SampleEstimator(std::size_t nodes, std::size_t sampled) : nodes_(nodes), sampled_(sampled) {
  require(sampled >= 1 && sampled <= nodes, "a sample of {} observers of {} nodes", sampled, nodes);
}

void SampleEstimator::add(std::span<const PairRow> rows) {
  const std::vector<std::size_t> starts = observer_block_starts(rows);
  for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
    // One cluster per distance this observer reaches.
    std::vector<Cluster> clusters;
    for (std::size_t k = starts[b]; k < starts[b + 1]; ++k) {
      if (!rows[k].distance) continue;
      const std::uint32_t d = *rows[k].distance;
      if (clusters.size() <= d) clusters.resize(d + 1);
      clusters[d].sum += rows[k].epsilon;
      clusters[d].pairs += 1;
      clusters[d].max = std::max(clusters[d].max, rows[k].epsilon);
    }
    if (by_distance_.size() < clusters.size()) by_distance_.resize(clusters.size());
    for (std::size_t d = 0; d < clusters.size(); ++d)
      if (clusters[d].pairs > 0) by_distance_[d].push_back(clusters[d]);
  }
}

std::vector<DistanceEstimate> SampleEstimator::finish(double confidence) const {
  require(confidence > 0.0 && confidence < 1.0, "confidence must be in (0, 1), got {}", confidence);
  std::vector<DistanceEstimate> out;
  const auto k = static_cast<double>(sampled_);
  const auto n = static_cast<double>(nodes_);
  for (std::size_t d = 0; d < by_distance_.size(); ++d) {
    const std::vector<Cluster>& clusters = by_distance_[d];
    if (clusters.empty()) continue;
    DistanceEstimate e;
    e.distance = static_cast<std::uint32_t>(d);
    double sum = 0.0;
    for (const Cluster& c : clusters) {
      sum += c.sum;
      e.sampled_pairs += c.pairs;
      e.sample_max = std::max(e.sample_max, c.max);
    }
    const double pairs = static_cast<double>(e.sampled_pairs);
    e.mean = sum / pairs;
    const double mean_pairs = pairs / k;
    e.estimated_pairs = n * mean_pairs;
    if (sampled_ == nodes_) {
      e.ci_low = e.ci_high = e.mean;  // every observer: the mean itself
    } else if (sampled_ >= 2) {
      // Observers without a pair at this distance are clusters with y = m = 0: they add nothing.
      double squares = 0.0;
      for (const Cluster& c : clusters) {
        const double residual = c.sum - e.mean * static_cast<double>(c.pairs);
        squares += residual * residual;
      }
      const double variance = (1.0 - k / n) * (squares / (k - 1.0)) / (k * mean_pairs * mean_pairs);
      const boost::math::students_t t(k - 1.0);
      const double half = boost::math::quantile(t, 0.5 + confidence / 2.0) * std::sqrt(variance);
      e.ci_low = std::max(0.0, e.mean - half);  // a mean of losses is >= 0
      e.ci_high = e.mean + half;
    }
    out.push_back(e);
  }
  return out;
}

}  // namespace netdp::accounting
