// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Muffliato-GD/SGD accounting (Theorems 6 and 11) against the literal sums.

#include "netdp/accounting/muffliato/muffliato_gd.hpp"

#include <gtest/gtest.h>

#include "accounting/muffliato_test_helpers.hpp"

namespace netdp::accounting {
namespace {

using namespace testing;  // NOLINT: the helpers of this test suite

TEST(MuffliatoGd, Theorem6FixedMatrixIsStepsTimesTheorem1WithKRounds) {
  const int n = 10;
  const DenseMatrix w = metropolis(n, random_connected_edges(n, 0.25, 21));
  const std::size_t steps = 7, k = 4;
  MuffliatoOptions options;
  options.bound = MuffliatoBound::paper;  // the paper's formula under test
  options.sigma = 1.7;
  options.sensitivity = 0.3;
  const MuffliatoLosses losses = muffliato_gd_all_pairs(to_sparse(w), steps, k, options);
  // Eq. 9 literally: T Σ_{k<K} Σ_{w ∼ v} (W^k)²_{w,u} / ‖(W^k)_w‖² (observer noise known).
  const DenseMatrix one =
      reference_sums(std::vector<DenseMatrix>(k, w), options, all_singletons(n), all_singletons(n));
  for (int v = 0; v < n; ++v) {
    for (int u = 0; u < n; ++u) {
      if (u == v) continue;
      EXPECT_TRUE(close(losses.sums()(v, u), steps * one(v, u)));
      EXPECT_TRUE(close(losses.capped_sum(v, u), steps * std::min(1.0, one(v, u))));
      const PairLoss pair = losses.pair(v, u, 2.0);
      EXPECT_EQ(pair.capped, one(v, u) > 1.0);
      EXPECT_DOUBLE_EQ(pair.mu, 0.3 / 1.7 * std::sqrt(losses.capped_sum(v, u)));
    }
  }
  EXPECT_DOUBLE_EQ(losses.sum_cap(0), double(steps));
}

TEST(MuffliatoGd, Theorem11TimeVaryingSumsPerStepWithPerStepCap) {
  const int n = 9;
  std::vector<DenseMatrix> per_step;
  for (unsigned t = 0; t < 5; ++t) per_step.push_back(metropolis(n, random_connected_edges(n, 0.15, 40 + t)));
  const std::size_t k = 3;
  for (auto convention : {MessageConvention::paper, MessageConvention::authors_code}) {
    MuffliatoOptions options;
    options.bound = MuffliatoBound::paper;  // the paper's formula under test
    options.sigma = 1.0;
    options.messages = convention;
    std::vector<SparseMatrix> sparse;
    for (const auto& w : per_step) sparse.push_back(to_sparse(w));
    const MuffliatoLosses losses = muffliato_gd_all_pairs(sparse, k, options);
    DenseMatrix uncapped = DenseMatrix::Zero(n, n), capped = DenseMatrix::Zero(n, n);
    for (const auto& w : per_step) {
      const DenseMatrix s =
          reference_sums(std::vector<DenseMatrix>(k, w), options, all_singletons(n), all_singletons(n));
      uncapped += s;
      capped += s.cwiseMin(1.0);
    }
    for (int v = 0; v < n; ++v) {
      for (int u = 0; u < n; ++u) {
        if (u == v) continue;
        EXPECT_TRUE(close(losses.sums()(v, u), uncapped(v, u))) << v << "," << u;
        EXPECT_TRUE(close(losses.capped_sum(v, u), capped(v, u))) << v << "," << u;
      }
    }
  }
}

TEST(MuffliatoGd, RejectsBadInput) {
  const SparseMatrix w = to_sparse(metropolis(5, ring_edges(5)));
  MuffliatoOptions options;
  options.bound = MuffliatoBound::paper;  // the paper's formula under test
  options.sigma = 1.0;
  EXPECT_THROW((void)muffliato_gd_all_pairs(w, 0, 3, options), std::invalid_argument);
  EXPECT_THROW((void)muffliato_gd_all_pairs(w, 3, 0, options), std::invalid_argument);
  EXPECT_THROW((void)muffliato_gd_all_pairs(std::vector<SparseMatrix>{}, 3, options), std::invalid_argument);
  // Two steps on disjoint halves: connected neither alone nor together.
  const SparseMatrix a = to_sparse(metropolis(6, {{0, 1}, {1, 2}}));
  const SparseMatrix b = to_sparse(metropolis(6, {{3, 4}, {4, 5}}));
  EXPECT_THROW((void)muffliato_gd_all_pairs(std::vector<SparseMatrix>{a, b}, 2, options),
               std::invalid_argument);
  // ... but a step graph may be disconnected when the union of the steps is connected.
  const SparseMatrix c = to_sparse(metropolis(6, {{2, 3}, {5, 0}}));
  EXPECT_NO_THROW((void)muffliato_gd_all_pairs(std::vector<SparseMatrix>{a, b, c}, 2, options));
  MuffliatoOptions bad = options;
  bad.sigma = -1.0;
  EXPECT_THROW((void)muffliato_gd_all_pairs(w, 2, 2, bad), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
