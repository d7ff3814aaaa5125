// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The worst pairs of a stream and the histogram of its losses (pair_extremes.hpp).
#include "netdp/accounting/account/pair_extremes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace netdp::accounting {
namespace {

PairRow pair(graph::NodeId observer, graph::NodeId target, double epsilon) {
  PairRow row;
  row.observer = observer;
  row.target = target;
  row.epsilon = epsilon;
  return row;
}

TEST(PairExtremes, KeepsTheLargestPairsAndEachNodesMaximum) {
  PairExtremes extremes(4, 3);
  extremes.add(std::vector<PairRow>{pair(0, 1, 0.5), pair(0, 2, 2.0), pair(0, 3, 1.0)});
  extremes.add(std::vector<PairRow>{pair(1, 0, 2.0), pair(1, 2, 0.1)});
  extremes.add(std::vector<PairRow>{pair(2, 0, 3.0)});
  const std::vector<PairRow> top = extremes.top();
  ASSERT_EQ(top.size(), 3U);
  EXPECT_EQ(top[0].epsilon, 3.0);
  // A tie at 2.0: the lower observer first.
  EXPECT_EQ(top[1].observer, 0U);
  EXPECT_EQ(top[1].target, 2U);
  EXPECT_EQ(top[2].observer, 1U);
  EXPECT_EQ(extremes.observer_max()[0], 2.0);
  EXPECT_EQ(extremes.observer_max()[2], 3.0);
  EXPECT_TRUE(std::isnan(extremes.observer_max()[3]));
  EXPECT_EQ(extremes.target_max()[0], 3.0);
  EXPECT_EQ(extremes.target_max()[2], 2.0);
  EXPECT_EQ(extremes.target_max()[3], 1.0);
}

TEST(Histogram, EqualBinsOverZeroToTheMaxWithTheLastClosed) {
  const Histogram h = histogram(std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0, 1.0}, 4);
  ASSERT_EQ(h.edges.size(), 5U);
  EXPECT_EQ(h.edges.front(), 0.0);
  EXPECT_EQ(h.edges.back(), 1.0);
  EXPECT_EQ(h.counts, (std::vector<std::size_t>{1, 1, 1, 3}));
  EXPECT_TRUE(histogram(std::vector<double>{}, 3).counts.empty());
  EXPECT_EQ(histogram(std::vector<double>{0.0, 0.0}, 2).counts, (std::vector<std::size_t>{2, 0}));
  EXPECT_THROW(histogram(std::vector<double>{1.0}, 0), std::invalid_argument);
  EXPECT_THROW(histogram(std::vector<double>{-1.0}, 2), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
