// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// A sample of observers and its per-distance estimates (observer_sample.hpp).
#include "netdp/accounting/account/observer_sample.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

namespace netdp::accounting {
namespace {

TEST(SampleObservers, DrawsDistinctNodesInOrderTheSameForASeed) {
  const std::vector<graph::NodeId> a = sample_observers(100, 20, 7);
  EXPECT_EQ(a, sample_observers(100, 20, 7));
  EXPECT_NE(a, sample_observers(100, 20, 8));
  EXPECT_EQ(a.size(), 20U);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_EQ(std::set<graph::NodeId>(a.begin(), a.end()).size(), 20U);
  EXPECT_LT(a.back(), 100U);
  EXPECT_EQ(sample_observers(5, 5, 1), (std::vector<graph::NodeId>{0, 1, 2, 3, 4}));
  EXPECT_THROW(sample_observers(5, 0, 1), std::invalid_argument);
  EXPECT_THROW(sample_observers(5, 6, 1), std::invalid_argument);
}

/// A population of n observers: observer v's pairs at distance d = 1 + (v + u) % 3 have
/// ε = 1 + ((v · 7 + u · 3) % 11) / 10, for every target u != v.
std::vector<PairRow> population_rows(graph::NodeId v, std::size_t n) {
  std::vector<PairRow> rows;
  for (graph::NodeId u = 0; u < n; ++u) {
    if (u == v) continue;
    PairRow row;
    row.observer = v;
    row.target = u;
    row.distance = 1 + (v + u) % 3;
    row.epsilon = 1.0 + static_cast<double>((v * 7 + u * 3) % 11) / 10.0;
    rows.push_back(row);
  }
  return rows;
}

std::vector<DistanceEstimate> estimate(const std::vector<graph::NodeId>& sample, std::size_t n) {
  SampleEstimator estimator(n, sample.size());
  for (const graph::NodeId v : sample) estimator.add(population_rows(v, n));
  return estimator.finish(0.95);
}

TEST(SampleEstimator, EveryObserverGivesTheExactMeansAndCounts) {
  const std::size_t n = 40;
  std::vector<graph::NodeId> all(n);
  for (graph::NodeId v = 0; v < n; ++v) all[v] = v;
  const std::vector<DistanceEstimate> e = estimate(all, n);
  ASSERT_EQ(e.size(), 3U);
  for (const DistanceEstimate& d : e) {
    double sum = 0.0;
    std::size_t pairs = 0;
    for (graph::NodeId v = 0; v < n; ++v)
      for (const PairRow& row : population_rows(v, n))
        if (*row.distance == d.distance) {
          sum += row.epsilon;
          ++pairs;
        }
    EXPECT_EQ(d.sampled_pairs, pairs);
    EXPECT_DOUBLE_EQ(d.estimated_pairs, static_cast<double>(pairs));
    EXPECT_NEAR(d.mean, sum / static_cast<double>(pairs), 1e-12);
    EXPECT_EQ(d.ci_low, d.mean);
    EXPECT_EQ(d.ci_high, d.mean);
  }
}

TEST(SampleEstimator, TheIntervalsCoverTheTrueMeanAboutAsOftenAsTheySay) {
  const std::size_t n = 200;
  std::vector<graph::NodeId> all(n);
  for (graph::NodeId v = 0; v < n; ++v) all[v] = v;
  const std::vector<DistanceEstimate> truth = estimate(all, n);
  std::size_t covered = 0;
  std::size_t intervals = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    for (const DistanceEstimate& d : estimate(sample_observers(n, 15, seed), n)) {
      ASSERT_TRUE(d.ci_low && d.ci_high);
      ASSERT_LE(*d.ci_low, d.mean);
      ASSERT_GE(*d.ci_high, d.mean);
      const double true_mean = truth[d.distance - 1].mean;
      covered += *d.ci_low <= true_mean && true_mean <= *d.ci_high ? 1 : 0;
      ++intervals;
    }
  }
  // 95 % intervals over 600 draws: at least 90 % cover (the ratio estimator's interval is
  // approximate for 15 observers).
  EXPECT_GE(static_cast<double>(covered) / static_cast<double>(intervals), 0.90)
      << covered << " of " << intervals;
}

TEST(SampleEstimator, OneObserverHasNoInterval) {
  const std::vector<DistanceEstimate> e = estimate({3}, 10);
  ASSERT_FALSE(e.empty());
  EXPECT_FALSE(e.front().ci_low.has_value());
  EXPECT_GT(e.front().sample_max, 0.0);
}

}  // namespace
}  // namespace netdp::accounting
