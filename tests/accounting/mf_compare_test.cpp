// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Figure 2 comparison (MF paper): aggregation per distance and the bounds each side must obey.

#include "netdp/accounting/mf/mf_compare.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::accounting {
namespace {

TEST(MfCompare, RowsCoverEveryPairAndRespectLocalDp) {
  const graph::Graph g = graph::ring(8);
  const auto w = gossip::make_gossip_matrix(g, gossip::Weighting::closed_row);
  MfOptions options;
  options.noise_std = 2.0;
  const std::size_t rounds = 5;
  const double alpha = 2.0;
  const auto rows = compare_with_muffliato(w, rounds, 1, alpha, options);
  ASSERT_EQ(rows.size(), 4u);  // distances 1..4 on C_8
  std::size_t pairs = 0;
  // Local DP of T releases of sensitivity 1 with noise ν: μ² = T/ν², ε_α = α T / (2ν²).
  const double local = alpha * static_cast<double>(rounds) / (2.0 * options.noise_std * options.noise_std);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MfComparisonRow& row = rows[i];
    EXPECT_EQ(row.distance, i + 1);
    EXPECT_EQ(row.pairs, row.distance == 4 ? 8u : 16u);  // C_8: 2 targets per node at distance 1..3, 1 at 4
    pairs += row.pairs;
    EXPECT_LE(row.mf_min, row.mf_mean * (1 + 1e-12));
    EXPECT_LE(row.mf_mean, row.mf_max * (1 + 1e-12));
    EXPECT_LE(row.mf_max, local * (1 + 1e-9));
    EXPECT_LE(row.muffliato_min, row.muffliato_mean * (1 + 1e-12));
    EXPECT_LE(row.muffliato_mean, row.muffliato_max * (1 + 1e-12));
    EXPECT_GT(row.mf_min, 0.0);
  }
  // Ring symmetry (C_8 is vertex-transitive, closed-row = uniform 1/3): every pair at one distance is equal.
  for (const MfComparisonRow& row : rows) EXPECT_NEAR(row.mf_min, row.mf_max, 1e-9 * row.mf_max);
  EXPECT_EQ(pairs, 8u * 7u);
  // The loss decreases with distance.
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_LT(rows[i].mf_max, rows[i - 1].mf_max);
}

// A graph of 77 nodes or more, not a ring: each side's sign or vector maximum reaches the LAPACK
// eigenvalue calls with repeated spectra (a one-entry W for DSYEVR crashed here).
TEST(MfCompare, LesMiserablesClosedRowTwoRoundsCoversEveryPair) {
  const graph::Graph g = graph::from_spec("lesmis", 1);
  const auto w = gossip::make_gossip_matrix(g, gossip::Weighting::closed_row);
  MfOptions options;
  options.noise_std = 1.0;
  const std::size_t rounds = 2;
  const double alpha = 2.0;
  const auto rows = compare_with_muffliato(w, rounds, 1, alpha, options);
  std::size_t pairs = 0;
  const double local = alpha * static_cast<double>(rounds) / 2.0;
  for (const MfComparisonRow& row : rows) {
    pairs += row.pairs;
    EXPECT_LE(row.mf_max, local * (1 + 1e-9));
    EXPECT_LE(row.mf_min, row.mf_max);
  }
  EXPECT_EQ(pairs, g.num_nodes() * (g.num_nodes() - 1));
}

TEST(MfCompare, MuffliatoVariants) {
  const auto w = gossip::make_gossip_matrix(graph::ring(6), gossip::Weighting::closed_row);
  MfOptions options;
  options.noise_std = 3.0;
  const double local = 2.0 * 4.0 / (2.0 * 9.0);  // α T / (2ν²), α = 2, T = 4
  // Theorem 6 as written with K = 1: neighbours pay local DP at every step, others nothing.
  const auto per_step = compare_with_muffliato(w, 4, 1, 2.0, options, MuffliatoVariant::per_step);
  ASSERT_EQ(per_step.size(), 3u);
  EXPECT_NEAR(per_step[0].muffliato_max, local, 1e-12);
  EXPECT_EQ(per_step[1].muffliato_max, 0.0);
  // Propagated releases: every distance pays something, never more than local DP.
  const auto propagated = compare_with_muffliato(w, 4, 1, 2.0, options);
  for (const MfComparisonRow& row : propagated) {
    EXPECT_GT(row.muffliato_min, 0.0);
    EXPECT_LE(row.muffliato_max, local * (1 + 1e-12));
    EXPECT_GT(row.muffliato_exact_min, 0.0);
    EXPECT_LE(row.muffliato_exact_max, local * (1 + 1e-12));
  }
  // The exact per-step view with K = 1: a neighbour hears the target's release directly (local
  // DP per step) and a non-neighbour hears nothing of it in one round.
  EXPECT_NEAR(per_step[0].muffliato_exact_max, local, 1e-9);
  EXPECT_EQ(per_step[1].muffliato_exact_max, 0.0);
}

// A run split over attackers: each share's pairs are the whole run's, so the table from the
// shares' pairs (in attacker order) is the whole table, to the bit.
TEST(MfCompare, SharesOfAttackersHoldTheirPairsOfTheWholeRun) {
  const auto w = gossip::make_gossip_matrix(graph::from_spec("florentine", 1), gossip::Weighting::closed_row);
  for (const std::size_t k : {std::size_t{1}, std::size_t{2}}) {
    for (const MuffliatoVariant variant : {MuffliatoVariant::propagated, MuffliatoVariant::per_step}) {
      const FigureTwoSetting setting{3, k, 1.5, 2.0, variant, true};
      const std::vector<ComparisonPair> whole = figure_two_pairs(w, setting);
      const std::vector<graph::NodeId> first{0, 3, 4, 9}, second{1, 2, 5, 6, 7, 8, 10, 11, 12, 13, 14};
      std::vector<ComparisonPair> joined = figure_two_pairs(w, setting, second);
      const std::vector<ComparisonPair> other = figure_two_pairs(w, setting, first);
      joined.insert(joined.end(), other.begin(), other.end());
      sort_comparison_pairs(joined);
      ASSERT_EQ(joined.size(), whole.size());
      for (std::size_t i = 0; i < whole.size(); ++i) {
        EXPECT_EQ(joined[i].attacker, whole[i].attacker);
        EXPECT_EQ(joined[i].target, whole[i].target);
        EXPECT_EQ(joined[i].mf, whole[i].mf);
        EXPECT_EQ(joined[i].muffliato, whole[i].muffliato);
        EXPECT_EQ(joined[i].muffliato_exact, whole[i].muffliato_exact);
        EXPECT_EQ(joined[i].secure_sum, whole[i].secure_sum);
      }
      const FigureTwo table = figure_two_table(w, setting, joined);
      const FigureTwo reference = figure_two(w, 3, k, 1.5, 2.0, variant, true);
      ASSERT_EQ(table.rows.size(), reference.rows.size());
      for (std::size_t i = 0; i < table.rows.size(); ++i) {
        EXPECT_EQ(table.rows[i].mf_mean, reference.rows[i].mf_mean);
        EXPECT_EQ(table.rows[i].muffliato_exact_max, reference.rows[i].muffliato_exact_max);
      }
      EXPECT_EQ(table.secure_sum.size(), k == 1 ? reference.secure_sum.size() : 0u);
      EXPECT_EQ(table.secure_sum_omitted.empty(), k == 1);
    }
  }
}

// With K > 1 rounds per step, Theorem 6's formula and the exact view of each step's release
// differ: the exact column is the exact view (composed over the steps, capped at local DP per
// step), not the formula again.
TEST(MfCompare, PerStepExactColumnIsTheExactView) {
  const auto w = gossip::make_gossip_matrix(graph::ring(7), gossip::Weighting::closed_row);
  MfOptions options;
  options.noise_std = 1.0;
  const auto rows = compare_with_muffliato(w, 3, 3, 2.0, options, MuffliatoVariant::per_step);
  const double local = 2.0 * 3.0 / 2.0;
  bool differs = false;
  for (const MfComparisonRow& row : rows) {
    EXPECT_LE(row.muffliato_exact_max, local * (1 + 1e-12));
    differs = differs || std::abs(row.muffliato_exact_max - row.muffliato_max) > 1e-9;
  }
  EXPECT_TRUE(differs);
}

TEST(MfCompare, BadInputs) {
  const auto w = gossip::make_gossip_matrix(graph::ring(5), gossip::Weighting::closed_row);
  EXPECT_THROW(compare_with_muffliato(w, 3, 1, 1.0), std::invalid_argument);
  MfOptions cyclic;
  cyclic.participation = MfParticipation::cyclic(1, 2);
  EXPECT_THROW(compare_with_muffliato(w, 3, 1, 2.0, cyclic), std::invalid_argument);
  const auto disconnected = gossip::make_gossip_matrix(graph::Graph::from_edges(4, {{0, 1}, {2, 3}}),
                                                       gossip::Weighting::closed_row);
  EXPECT_THROW(compare_with_muffliato(disconnected, 3, 1, 2.0), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
