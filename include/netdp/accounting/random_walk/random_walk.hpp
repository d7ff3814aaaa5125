// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Random-walk accountant: pairwise network DP of private random-walk SGD
// (Algorithm 1 of Cyffers, Bellet & Upadhyay, ICML 2024). The token holds x; at
// each of T steps its holder adds Gaussian noise N(0, σ²) to a gradient of L2
// sensitivity Δ and forwards the token along W. For one contribution of u, the
// view of v (eq. 7) leaks, at Rényi order α (Lemma 2 + amplification by iteration):
//
//   ε_single(u→v) <= κ · (α Δ² / (2σ²)) · Σ_{i=1}^{T} (W^i)_{uv} / i,
//
// with κ = 2 as in the paper (weak convexity, Lemma 1 with c = 1; eq. 13, 15),
// valid when (σ/Δ)² >= 2α(α−1) (Theorem 3's condition). The view is post-processing of
// the token right after u's step, so ε_single is also <= α Δ²/(2σ²) (local DP of
// one step; the reported value is the min). N_u contributions compose: ε = N_u ε_single.
// See docs/reference/accounting-random-walk.md.
// Derivation from the paper to this code: src/accounting/random_walk/derivation.md.

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "netdp/accounting/random_walk/random_walk_series.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/next_up.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// What the observer sees of the token's arrival.
enum class RandomWalkView {
  /// eq. (7): v sees the token's value and whom it sends it to, not the sender (default).
  anonymous_sender,
  /// Appendix B.1: v also knows which neighbour w sent the token:
  /// ε̃(u→v) = max_{w ∈ N(v)} ε(u→w), and w = u costs the local-DP loss of one step.
  sender_known,
};

/// The constant of the weak-convexity step (Lemma 1: D_α(mixture) <= (1 + c) E[D_α], c ∈ (0, 1]).
enum class WeakConvexity {
  /// c = 1, factor 2, as in Lemma 2 / Theorem 3 (default; reproduces the paper).
  paper,
  /// c = α(α−1)Δ²/(2σ²), the smallest c the lemma allows here (every mixture
  /// component is <= α Δ²/(2σ²)); factor 1 + c <= 2 when the condition holds.
  tight,
};

/// How the pairwise account bounds the number N_u of the target's contributions (see
/// random_walk_visits.hpp). An explicit RandomWalkOptions::contributions overrides it.
enum class ContributionCount {
  /// Default: k_u with P(N_u > k_u) <= β for a walk from the worst start, β = tail_share · δ; the
  /// (ε, δ) is converted at δ − β. A valid bound.
  tail,
  /// The most visits any walk can make: T, or ⌈T/2⌉ when W_uu = 0. A valid bound.
  worst_case,
  /// T/n, the paper's expectation under the uniform stationary law (eq. 16): NOT a bound; labelled
  /// paper-formula in every output.
  expected,
};

inline constexpr auto kContributionCountNames =
    std::to_array<util::EnumName<ContributionCount>>({{ContributionCount::tail, "tail"},
                                                      {ContributionCount::worst_case, "worst"},
                                                      {ContributionCount::expected, "expected"}});
static_assert(util::is_valid_enum_table(kContributionCountNames));

struct RandomWalkOptions {
  std::size_t steps = 0;  ///< T, number of steps of the walk (>= 1)
  double sigma = 0.0;  ///< noise standard deviation σ per step (> 0); the paper's noise multiplier is σ/Δ
  double sensitivity = 1.0;  ///< Δ, L2 sensitivity of one gradient (> 0)
  /// N_u, the number of contributions of each target. Default (nullopt): the
  /// expected number T/n of visits under the uniform stationary law (the paper's
  /// choice, eq. 16; an expectation, not a worst case). Set it to the cap K of
  /// Remark 5 (after K contributions a node only adds noise) for a bound that
  /// holds for every walk. Must be finite and >= 0.
  std::optional<double> contributions;
  /// The pairwise account's count when `contributions` is unset (RandomWalkLosses itself uses T/n).
  ContributionCount count = ContributionCount::tail;
  /// β / δ for ContributionCount::tail: the share of δ spent on the count's failure probability.
  double tail_share = 0.1;
  RandomWalkView view = RandomWalkView::anonymous_sender;
  WeakConvexity weak_convexity = WeakConvexity::paper;
  RandomWalkSeriesMethod method = RandomWalkSeriesMethod::automatic;
  /// Called as progress(done, total) while the targets' visit-count bounds are computed (from one
  /// thread at a time).
  std::function<void(std::size_t done, std::size_t total)> progress;
};

/// One (observer, target) guarantee at order α.
struct RandomWalkPairLoss {
  graph::NodeId observer = 0;
  graph::NodeId target = 0;
  double alpha = 0.0;
  /// Reported Rényi-DP bound: N_u · min(amplified single, local cap) when the
  /// condition holds, N_u · local cap otherwise (then only the cap is valid). Rounded up.
  double rdp_epsilon = 0.0;
  /// N_u · amplified single-contribution value, as the paper writes it (not valid if !condition_ok).
  double uncapped_rdp_epsilon = 0.0;
  double single_rdp_epsilon = 0.0;  ///< rdp_epsilon / N_u (the per-contribution reported value)
  double contributions = 0.0;       ///< N_u
  bool capped = false;              ///< the local-DP cap (or the failed condition) set rdp_epsilon
  bool condition_ok = false;        ///< (σ/Δ)² >= 2α(α−1) (Theorem 3); when false only the cap is used
};

/// (σ/Δ)² >= 2α(α−1), the condition of Theorem 3 / eq. 16. Throws unless α > 1, σ, Δ > 0.
bool random_walk_condition_holds(double alpha, double sigma, double sensitivity = 1.0);

/// The largest α with (σ/Δ)² >= 2α(α−1): (1 + sqrt(1 + 2(σ/Δ)²)) / 2.
double random_walk_max_alpha(double sigma, double sensitivity = 1.0);

/// Pairwise random-walk guarantees for all ordered pairs: the series matrix
/// S_T(W) is computed once, and every (α, pair) is read from it in O(1)
/// (O(deg v) with sender_known), so many orders / a calibration are cheap.
class RandomWalkLosses {
 public:
  /// Validates options (steps >= 1, σ > 0, Δ > 0, contributions finite >= 0) and
  /// computes S_T(W) (and its return spectrum with `with_returns`, random_walk_series). Throws
  /// std::invalid_argument (disconnected W, bad method, bad options).
  RandomWalkLosses(const gossip::GossipMatrix& w, const RandomWalkOptions& options,
                   bool with_returns = false);
  /// From a precomputed series (must match w's size and options.steps).
  RandomWalkLosses(const gossip::GossipMatrix& w, RandomWalkSeries series, const RandomWalkOptions& options);
  /// The same, sharing the series without a copy (an n × n matrix).
  RandomWalkLosses(const gossip::GossipMatrix& w, std::shared_ptr<const RandomWalkSeries> series,
                   const RandomWalkOptions& options);

  std::size_t num_nodes() const { return static_cast<std::size_t>(series_->matrix.rows()); }
  const RandomWalkOptions& options() const { return options_; }
  const RandomWalkSeries& series() const { return *series_; }
  /// The series itself, for another account to share.
  const std::shared_ptr<const RandomWalkSeries>& shared_series() const { return series_; }
  double contributions() const { return contributions_; }

  /// One pair (observer != target, both < n, α > 1), anonymous or sender-known per options.
  RandomWalkPairLoss pair(graph::NodeId observer, graph::NodeId target, double alpha) const;
  /// The same with the target's count N_u given (finite, >= 0) instead of contributions().
  RandomWalkPairLoss pair(graph::NodeId observer, graph::NodeId target, double alpha,
                          double contributions) const;

  /// Reported ε (rdp_epsilon) for all pairs: row = observer v, column = target u; diagonal 0 (not a pair).
  DenseMatrix rdp_epsilon(double alpha) const;
  /// Same, uncapped (the paper's formula times N_u), no condition check.
  DenseMatrix uncapped_rdp_epsilon(double alpha) const;

  /// Collusion (Appendix D, eq. 17-18): the coalition F (distinct nodes, target ∉ F)
  /// sees the first visit to any of its members: single loss from Σ_{v∈F} (W^i)_{uv}/i,
  /// capped at the local-DP loss. observer of the result is F's first member.
  RandomWalkPairLoss colluders(std::span<const graph::NodeId> coalition, graph::NodeId target,
                               double alpha) const;
  /// The same with the target's count N_u given.
  RandomWalkPairLoss colluders(std::span<const graph::NodeId> coalition, graph::NodeId target, double alpha,
                               double contributions) const;

  /// What a pair's (or a coalition's) loss depends on besides α and N_u: the series value, or
  /// `direct` when the observer may get the token straight from the target with the sender known
  /// (Appendix B.1; then only the local loss applies). Equal drivers give equal losses.
  struct Driver {
    double series_value = 0.0;
    bool direct = false;
  };
  /// The driver of one pair (validated as pair()).
  Driver driver(graph::NodeId observer, graph::NodeId target) const;
  /// The driver of a coalition (validated as colluders()): eq. 17, Σ_{v∈F} of the members' values.
  Driver coalition_driver(std::span<const graph::NodeId> coalition, graph::NodeId target) const;
  /// The loss of a driver at α with N_u = contributions (observer and target fields left 0).
  RandomWalkPairLoss loss(const Driver& driver, double alpha, double contributions) const;

  /// The parts of the loss at order α (validated) that every pair shares: one Gaussian step's
  /// loss, the Lemma 1 factor times it, and the condition of Theorem 3. A pair then costs a few
  /// flops (rdp_epsilon_of), for the many orders of a conversion to (ε, δ).
  struct StepLoss {
    double alpha = 0.0;
    double local = 0.0;      ///< α Δ²/(2σ²)
    double amplifier = 0.0;  ///< (1 + c) · local, eq. 13's coefficient of the series value
    bool condition_ok = false;
  };
  StepLoss step_loss(double alpha) const;
  /// eq. 13's single-contribution loss of a driver at step.alpha, before and after the local cap.
  struct SingleLoss {
    double amplified = 0.0;
    double single = 0.0;
  };
  static SingleLoss single_loss(const StepLoss& step, const Driver& driver) {
    const double amplified = driver.direct ? step.local : step.amplifier * driver.series_value;
    return {amplified, step.condition_ok ? std::min(amplified, step.local) : step.local};
  }
  /// loss(driver, step.alpha, contributions).rdp_epsilon, the same bits (contributions not checked).
  static double rdp_epsilon_of(const StepLoss& step, const Driver& driver, double contributions) {
    return util::next_up(contributions * single_loss(step, driver).single);
  }

  /// ε(α) of one pair as a function of α: the reported value at every α (cap-only beyond
  /// random_walk_max_alpha, where the condition of Theorem 3 fails).
  double rdp_epsilon_at(graph::NodeId observer, graph::NodeId target, double alpha) const;

  /// The pair's RDP curve on `orders` (with its callable, self-contained: it does not refer to
  /// *this), for dp::rdp_to_dp or composition with other mechanisms.
  dp::RdpCurve rdp_curve(graph::NodeId observer, graph::NodeId target,
                         std::vector<double> orders = dp::default_rdp_orders()) const;

  /// (ε, δ) of one pair: dp::rdp_to_dp(rdp_curve(...), delta, method), i.e. the best order of the
  /// grid refined continuously, rounded up. Every order gives a valid bound, so this is an upper bound.
  dp::RdpConversion to_dp(graph::NodeId observer, graph::NodeId target, double delta,
                          dp::RdpConversionMethod method = dp::RdpConversionMethod::improved) const;

 private:
  /// One field of every pair's loss as an n x n matrix (row = observer, diagonal 0).
  DenseMatrix loss_matrix(double alpha, double RandomWalkPairLoss::*field) const;
  double single_series(graph::NodeId observer, graph::NodeId target) const;

  gossip::GossipMatrix w_;
  RandomWalkOptions options_;
  std::shared_ptr<const RandomWalkSeries> series_;
  double contributions_ = 0.0;
};

}  // namespace netdp::accounting
