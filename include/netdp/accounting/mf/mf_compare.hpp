// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The MF paper's Figure 2: for the same graph, W, T and noise, the Muffliato
// accounting of Muffliato-SGD / DP-D-SGD (Cyffers et al. 2022, Theorem 6, the paper's formula; and
// the exact joint view of each release, a valid bound) next to
// the MF accounting under PNDP (Theorem 7), summarised per shortest-path distance
// between attacker and target. Both are reported as Rényi DP at order α,
// ε_α = α μ² / 2 (Figure 2 uses α = 2), with μ² the GDP parameter squared.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/gossip/gossip_matrix.hpp"

namespace netdp::accounting {

/// Which Muffliato accounting of DP-D-SGD / Muffliato-SGD(K) goes beside the MF one.
enum class MuffliatoVariant {
  /// Default. Each gradient step's noisy input is a Muffliato release whose messages are
  /// gossiped until the end: its view over the remaining K(T − s) rounds, capped at local DP
  /// per release, composed over the T steps (Σ_s min(S_{K(T−s)}, 1)). Accounts for the
  /// propagation of earlier steps' inputs through the later parameters.
  propagated,
  /// Theorem 6 as written (muffliato_gd.hpp): each step's release is accounted over its own
  /// K gossip rounds only. With K = 1 non-neighbours get 0: not a bound for DP-D-SGD, whose
  /// parameters carry earlier inputs forward; for reproduction only.
  per_step,
};

struct MfComparisonRow {
  std::uint32_t distance = 0;  ///< hop distance between attacker and target
  std::size_t pairs = 0;
  double mf_min = 0.0, mf_mean = 0.0, mf_max = 0.0;  ///< MF: α μ²/2, μ = √certified / ν
  /// Muffliato's paper formula (Theorems 1 / 6, capped), α μ²/2: NOT an upper bound on the view.
  double muffliato_min = 0.0, muffliato_mean = 0.0, muffliato_max = 0.0;
  /// Muffliato's exact joint view of each release, composed, α μ²/2 (a valid upper bound).
  double muffliato_exact_min = 0.0, muffliato_exact_mean = 0.0, muffliato_exact_max = 0.0;
};

/// Every ordered pair (attacker v, target u ≠ v) of a connected graph, grouped by distance.
/// gossip_steps = K (1: DP-D-SGD); options.noise_std is ν/Δ for both accountants (Muffliato's
/// σ with Δ = 1); options.participation must be every_round (node level, as Muffliato).
/// Throws on alpha <= 1, a disconnected graph or cyclic participation.
std::vector<MfComparisonRow> compare_with_muffliato(const gossip::GossipMatrix& w, std::size_t rounds,
                                                    std::size_t gossip_steps, double alpha,
                                                    const MfOptions& options = {},
                                                    MuffliatoVariant variant = MuffliatoVariant::propagated);

/// One ordered pair's values in Figure 2, as Rényi ε at α (the columns of MfComparisonRow).
struct ComparisonPair {
  graph::NodeId attacker = 0;
  graph::NodeId target = 0;
  double mf = 0.0;
  double muffliato = 0.0;        ///< the paper's formula: NOT an upper bound on the view
  double muffliato_exact = 0.0;  ///< the exact joint view of each release, composed
  double secure_sum = 0.0;       ///< Koskela–Kulkarni secure summation (0 when not computed)
};

/// compare_with_muffliato's values pair by pair, for the attackers in `attackers` (increasing;
/// empty: every node), attacker-major with increasing targets. Each pair's values are those of
/// the run over every attacker, so the pairs of disjoint shares, put in that order, are the pairs
/// of the whole run (how `mpirun -np P netdp compare` splits the work).
std::vector<ComparisonPair> comparison_pairs(const gossip::GossipMatrix& w, std::size_t rounds,
                                             std::size_t gossip_steps, double alpha, const MfOptions& options,
                                             MuffliatoVariant variant,
                                             std::span<const graph::NodeId> attackers = {});

/// Puts the pairs of several shares, concatenated, in comparison_pairs' order: attacker, then target.
void sort_comparison_pairs(std::vector<ComparisonPair>& pairs);

/// The rows of compare_with_muffliato from every ordered pair of w's graph, in comparison_pairs'
/// order.
std::vector<MfComparisonRow> comparison_rows(const graph::Graph& graph,
                                             std::span<const ComparisonPair> pairs);

/// The whole Figure 2 table: compare_with_muffliato's rows, Koskela–Kulkarni's secure summation
/// (Theorem 8, observer noise removed) beside them when K = 1, and the two baselines at the same
/// noise, all as Rényi ε at α.
struct FigureTwo {
  std::vector<MfComparisonRow> rows;
  /// Secure summation's min / mean / max per distance (empty when omitted).
  std::vector<std::pair<std::uint32_t, Range>> secure_sum;
  /// Why the secure-summation columns are omitted (empty when they are not): it is defined for
  /// K = 1 only.
  std::string secure_sum_omitted;
  double local_dp = 0.0;    ///< each of the T releases of a node seen directly
  double central_dp = 0.0;  ///< a trusted aggregator adding the same total noise to the sum
};

/// The table of `netdp compare` (sigma: ν/Δ of both accountants). with_secure_sum = false drops
/// those columns without a note. Throws as compare_with_muffliato, and unless σ > 0.
FigureTwo figure_two(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t gossip_steps,
                     double sigma, double alpha, MuffliatoVariant variant = MuffliatoVariant::propagated,
                     bool with_secure_sum = true);

/// figure_two in two steps, for a run split over attackers: the pairs of a share of attackers
/// (comparison_pairs, with secure_sum filled when with_secure_sum and K = 1), then the table from
/// every pair, in comparison_pairs' order.
struct FigureTwoSetting {
  std::size_t rounds = 0;
  std::size_t gossip_steps = 1;
  double sigma = 1.0;
  double alpha = 2.0;
  MuffliatoVariant variant = MuffliatoVariant::propagated;
  bool with_secure_sum = true;
};
std::vector<ComparisonPair> figure_two_pairs(const gossip::GossipMatrix& w, const FigureTwoSetting& setting,
                                             std::span<const graph::NodeId> attackers = {});
FigureTwo figure_two_table(const gossip::GossipMatrix& w, const FigureTwoSetting& setting,
                           std::span<const ComparisonPair> pairs);

}  // namespace netdp::accounting
