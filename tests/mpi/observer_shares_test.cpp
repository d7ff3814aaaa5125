// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The shares of the observers a run across processes deals out (distributed_account.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "netdp/mpi/distributed_account.hpp"
#include "netdp/mpi/world.hpp"

namespace netdp::mpi {
namespace {

double share_cost(const std::vector<graph::NodeId>& share, const std::vector<double>& cost) {
  double total = 0.0;
  for (const graph::NodeId v : share) total += cost[v];
  return total;
}

/// Every observer in exactly one share, each share increasing.
void expect_partition(const std::vector<std::vector<graph::NodeId>>& shares, std::size_t n) {
  std::vector<graph::NodeId> all;
  for (const auto& share : shares) {
    EXPECT_TRUE(std::is_sorted(share.begin(), share.end()));
    all.insert(all.end(), share.begin(), share.end());
  }
  std::sort(all.begin(), all.end());
  std::vector<graph::NodeId> expected(n);
  std::iota(expected.begin(), expected.end(), graph::NodeId{0});
  EXPECT_EQ(all, expected);
}

TEST(BalancedShares, DealsTheCostliestFirstToTheLightestShare) {
  // A hub of cost 10 and nine leaves of cost 1 in three shares: the hub alone, the leaves 5 + 4.
  std::vector<double> cost(10, 1.0);
  cost[0] = 10.0;
  const auto shares = balanced_shares(cost, 3);
  expect_partition(shares, 10);
  EXPECT_EQ(shares[0], std::vector<graph::NodeId>{0});
  EXPECT_DOUBLE_EQ(share_cost(shares[1], cost), 5.0);
  EXPECT_DOUBLE_EQ(share_cost(shares[2], cost), 4.0);
}

TEST(BalancedShares, EqualCostsGoRoundTheShares) {
  const std::vector<double> cost(7, 2.0);
  const auto shares = balanced_shares(cost, 3);
  expect_partition(shares, 7);
  EXPECT_EQ(shares[0], (std::vector<graph::NodeId>{0, 3, 6}));
  EXPECT_EQ(shares[1], (std::vector<graph::NodeId>{1, 4}));
  EXPECT_EQ(shares[2], (std::vector<graph::NodeId>{2, 5}));
}

TEST(BalancedShares, FewerObserversThanSharesLeavesTheLastEmptyAndRefusesBadCosts) {
  const auto shares = balanced_shares(std::vector<double>{1.0, 1.0}, 4);
  expect_partition(shares, 2);
  EXPECT_TRUE(shares[2].empty() && shares[3].empty());
  EXPECT_THROW(balanced_shares(std::vector<double>{1.0, -1.0}, 2), std::invalid_argument);
  EXPECT_THROW(balanced_shares(std::vector<double>{1.0}, 0), std::invalid_argument);
}

TEST(ConsecutiveShares, SizesDifferByAtMostOneAndFollowTheObservers) {
  const auto shares = consecutive_shares(8, 3);
  expect_partition(shares, 8);
  EXPECT_EQ(shares[0], (std::vector<graph::NodeId>{0, 1, 2}));
  EXPECT_EQ(shares[1], (std::vector<graph::NodeId>{3, 4, 5}));
  EXPECT_EQ(shares[2], (std::vector<graph::NodeId>{6, 7}));
}

TEST(World, AProcessStartedAloneIsRankZeroOfOne) {
  // The tests are never started by mpirun: no Session starts MPI.
  EXPECT_EQ(world().rank, 0);
  EXPECT_EQ(world().size, 1);
  EXPECT_FALSE(world().distributed());
}

}  // namespace
}  // namespace netdp::mpi
