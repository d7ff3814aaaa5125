// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Koskela & Kulkarni accountants ("Differential privacy analysis of
// decentralized gossip averaging under varying threat models",
// ../shared/papers/koskela-kulkarni-gossip-linear-systems*.txt): gossip
// averaging with additive Gaussian noise seen as a linear state-space system;
// every threat model is a LinearView (linear_view.hpp) with A = B on the kept
// noise columns.
//
// Dynamics (gossip step m = 0 .. K·T−1 applies W_m; injection s at step s·K):
//   ψ_{sK} += x_s + u_s,  ψ_{m+1} = W_m ψ_m,  u_s ~ N(0, ν² I_n).
// An observation of node i at step m is e_iᵀ W_m ⋯ W_{sK} (x_s + u_s) summed
// over s with sK <= m (first_power = 1, the state after the gossip step: long
// version, Lemma 7 / eq. 3.2) or e_iᵀ W_{m−1} ⋯ W_{sK} (first_power = 0, the
// state before it: short version eq. 3.2, and Theorem 10).
// Derivation from the paper to this code: src/accounting/linear_system/derivation.md.

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "netdp/accounting/account/progress.hpp"
#include "netdp/accounting/linear_system/linear_view.hpp"
#include "netdp/gossip/schedule.hpp"

namespace netdp::accounting {

/// Threat model (`--view`).
enum class LinearSystemView {
  secure_sum,           ///< Theorem 8: observers see their own secure-summed states (non-adaptive)
  secure_sum_adaptive,  ///< Theorem 9: view of the target's closed neighbourhood N̄_j (any observer, adaptive)
  plain,                ///< Theorem 10: no secure summation; view of the target's own states (powers from 0)
};

std::string_view linear_system_view_name(LinearSystemView view);
/// "secure-sum" | "secure-sum-adaptive" | "plain"; throws otherwise, listing the names.
LinearSystemView parse_linear_system_view(std::string_view name);

struct LinearSystemOptions {
  LinearSystemView view = LinearSystemView::secure_sum;
  /// Injections T (rounds). The schedule must be fixed or have >= T·K matrices.
  std::size_t rounds = 1;
  /// 0 or 1; unset = the paper's choice for the view: 1 for secure-sum and
  /// secure-sum-adaptive (long version Lemma 7 and Theorem 9), 0 for plain (Theorem 10).
  std::optional<int> first_power;
  /// K gossip steps per injection (secure-sum only); the observers see their
  /// state after every step. 1 = the paper.
  std::size_t gossip_steps = 1;
  /// false (default): the observers' own noise is known to them and removed
  /// (Section 3.5, used in all the paper's experiments). true: the paper's first variant.
  bool keep_observer_noise = false;
  RankOptions rank;
};

/// The literal view (dense A, B exactly as the paper writes H_T, with the
/// observers' noise columns removed unless keep_observer_noise) of `target`
/// against `observers` (one node, or a colluding set; for secure-sum the rows
/// are S(observers); for secure-sum-adaptive S(N̄_target); for plain e_target).
/// A has num_nodes·T columns (time-major), B has the kept noise columns. For
/// tests and tiny inputs: memory (K·T·rows) x (n·T).
LinearView linear_system_view_literal(const gossip::Schedule& schedule,
                                      std::span<const graph::NodeId> observers, graph::NodeId target,
                                      const LinearSystemOptions& options);

/// ε(δ) per pair: `exact` runs dp::gdp_epsilon(μ, δ) for every pair (~16 µs
/// each); `table` reads it from the process's shared conversion table of δ
/// (dp::GdpEpsilonTable: never below the exact root, within 1e-10 relative of
/// it), for all-pairs runs on large graphs.
enum class EpsilonMode { exact, table };

/// Which fields the all-pairs path computes.
struct PairwiseOptions {
  double noise_std = 1.0;  ///< ν
  double delta = 1e-5;
  /// Scalar releases (release_dimension == 1) only.
  /// none (default): ones, sum_abs and certified = min(sum_abs, T), exact =
  /// (K_u >= 0 entrywise, then c = 1 is optimal and ones = sum_abs). T is valid
  /// because K_u ⪯ I: A_u is made of columns of B (the target's own noise), so
  /// K_u = C_uᵀ Π_row(B) C_u with C_u orthonormal columns — the local-DP bound.
  /// automatic: also maximize_over_signs per pair (much slower for large T).
  SignSearch sign_search = SignSearch::none;
  /// p, the dimension of each round's release: kAnyReleaseDimension (default, the SDP value of
  /// vector_max.hpp per pair with negative entries in K_u), 1 (scalar: sign_search applies), p >= 2.
  std::size_t release_dimension = kAnyReleaseDimension;
  /// OpenMP threads; 0 = the OpenMP default. Results do not depend on it.
  int threads = 0;
  /// Keep K_u in each result (memory: T² doubles per pair).
  bool keep_gram = false;
  /// How ε(δ) is computed per pair (see EpsilonMode).
  EpsilonMode epsilon_mode = EpsilonMode::exact;
  /// Bytes the caller holds for the results (e.g. an observers × targets grid), added to the memory
  /// estimate checked before the views are built.
  double caller_bytes = 0.0;
};

/// One pair: the plain result plus, when keep_gram, K_u.
struct PairResult {
  PairSensitivity pair;
  std::optional<DenseMatrix> gram;
};

/// Called once per observer with the results of all its targets, in target
/// order. Calls are serialised and come in observer order (whatever the thread count).
using PairSink = std::function<void(std::span<const PairResult>)>;

/// Structured path: every observer in `observers` (each a single node; for a
/// coalition use account_coalition) against every target in `targets` (a
/// target equal to the observer is skipped). Rows e_iᵀW^k by sparse products,
/// B Bᵀ by diagonal cumulative sums (fixed W), all targets of one observer in
/// one factorisation, OpenMP over observers. Results are identical for any
/// thread count.
void account_pairs(const gossip::Schedule& schedule, std::span<const graph::NodeId> observers,
                   std::span<const graph::NodeId> targets, const LinearSystemOptions& options,
                   const PairwiseOptions& pairwise, const PairSink& sink,
                   const ProgressCallback& progress = {});

/// Convenience: account_pairs collected into a vector (observer-major).
std::vector<PairResult> account_all_pairs(const gossip::Schedule& schedule,
                                          std::span<const graph::NodeId> observers,
                                          std::span<const graph::NodeId> targets,
                                          const LinearSystemOptions& options, const PairwiseOptions& pairwise,
                                          const ProgressCallback& progress = {});

/// A colluding set (secure-sum: rows S(coalition); the noise of every member is
/// removed unless keep_observer_noise) against every target outside it.
std::vector<PairResult> account_coalition(const gossip::Schedule& schedule,
                                          std::span<const graph::NodeId> coalition,
                                          std::span<const graph::NodeId> targets,
                                          const LinearSystemOptions& options,
                                          const PairwiseOptions& pairwise);

/// Theorem 13 (short version, Section 4): for primitive row-stochastic W,
/// (Δ_T(j→i))² / T → π_j² / ‖π‖² (= 1/n for doubly stochastic W), with the
/// observer's noise counted (as in the theorem). With it removed (Section 3.5) the
/// same argument, with coordinate i of π deleted from the stationary row space,
/// gives π_j² / (‖π‖² − π_i²) (our derivation, checked numerically; not in the paper).
struct AsymptoticRatePoint {
  std::size_t rounds = 0;
  double sensitivity_squared_ones = 0.0;  ///< 1ᵀK1 at this T (the theorem's c = 1)
  /// Worst scalar release: max over sign vectors (sign_max.hpp), or its certified bound.
  double sensitivity_squared_sign_max = 0.0;
  bool sign_max_exact = false;
  /// Worst vector release: the SDP value (vector_max.hpp), or its verified upper bound.
  double sensitivity_squared_vector = 0.0;
  bool vector_exact = false;
  double sensitivity_squared_certified = 0.0;  ///< the default (vector) certified value at this T
  double per_round_ones = 0.0;                 ///< ones / T
  double per_round_sign_max = 0.0;             ///< sign_max / T
  double per_round_vector = 0.0;               ///< vector / T
  double per_round_certified = 0.0;            ///< certified / T
};
struct AsymptoticRate {
  double limit_theorem13 = 0.0;               ///< π_j² / ‖π‖²
  double limit_observer_noise_removed = 0.0;  ///< π_j² / (‖π‖² − π_i²)
  double limit = 0.0;                         ///< the one matching options.keep_observer_noise
  Vector stationary;                          ///< π (πᵀW = πᵀ, Σπ = 1)
  std::vector<AsymptoticRatePoint> points;
};

/// Evaluates (Δ_T)²/T for each T in `rounds_grid` (secure-sum, fixed W, the
/// options' first power and noise variant) at c = 1, at the worst scalar release
/// (sign maximum) and at the worst vector release (SDP value), next to the limits. Throws unless the view is
/// secure-sum, the schedule is fixed and W is row-stochastic and primitive.
AsymptoticRate asymptotic_rate(const gossip::Schedule& schedule, graph::NodeId observer, graph::NodeId target,
                               std::span<const std::size_t> rounds_grid, const LinearSystemOptions& options);

}  // namespace netdp::accounting
