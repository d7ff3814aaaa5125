// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One interface for a pairwise account of a protocol: how much each observer (or coalition)
// learns about each target, for any noise σ and any δ, calibrated to a target ε. The command
// line, training and the bindings all call this layer; docs/reference/accounting.md shows it in use.
//
// An account is built once, at unit noise (σ = 1): the expensive structure (propagated gossip
// rows, Gram matrices, the random walk's series) does not depend on σ or δ. Then
//   rows(σ, δ)         every pair's μ-GDP / Rényi / (ε, δ) guarantee,
//   stream_rows(σ, δ)  the same, a chunk of whole observer blocks at a time,
//   calibrate_sigma    the smallest σ whose ε statistic meets a target.
// For the Gaussian accountants (Muffliato, linear-system, MF) every μ scales as Δ/σ, so σ
// changes are a rescaling and calibration has a closed form for `max` and `pair`; the random
// walk's bound is Rényi and is re-converted at each σ.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/accounting/account/certificate.hpp"
#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/compensated_sum.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// The protocol as data, read by every accountant: the network, the gossip schedule, the
/// number of rounds and the sensitivity of one contribution.
struct Protocol {
  explicit Protocol(gossip::GossipMatrix w) : network(std::move(w)) {}
  gossip::GossipMatrix network;
  /// Weighting of the graphs of time-varying schedules (er-per-round, dropout); none for a W given
  /// as data, which refuses those schedules.
  std::optional<gossip::Weighting> weighting = gossip::Weighting::hamilton;
  gossip::ScheduleSpec schedule{};
  /// Rounds T: gossip rounds (Muffliato, linear-system), walk steps (random walk), gradient
  /// steps (MF). Must be >= 1.
  std::size_t rounds = 10;
  /// Seed of random schedules.
  std::uint64_t seed = 1;
  /// Δ, the L2 sensitivity of one contribution (> 0).
  double sensitivity = 1.0;
  /// The schedule already drawn (training draws it before the run): used instead of drawing one
  /// from `schedule` and `seed`. Must be fixed or hold as many matrices as the accountant needs.
  std::optional<gossip::Schedule> drawn;
};

/// The schedule W_0..W_{rounds-1} of the protocol: `drawn` when set, else
/// gossip::schedule_from_spec(schedule, network, weighting, rounds, seed).
gossip::Schedule protocol_schedule(const Protocol& protocol, std::size_t rounds);

/// Which pairs to account and how to report them. Unset observer / target means every node.
struct PairQuery {
  std::optional<graph::NodeId> observer;
  std::optional<graph::NodeId> target;
  /// A share of the observers, strictly increasing (empty: every node). The account of a share holds
  /// exactly the rows of those observers in the account of every node, in the same order and with
  /// the same values: a run split across processes gives each one share (docs/reference/mpi.md). Not with
  /// `observer`, `colluders` or `group`.
  std::vector<graph::NodeId> observers;
  std::vector<graph::NodeId> colluders;  ///< a coalition observing together (instead of observer)
  std::vector<graph::NodeId> group;      ///< Muffliato: a group of targets (Theorem 13)
  /// Rényi order of rdp_epsilon. Gaussian accountants: 2 when unset. Random walk: when unset,
  /// the best order of dp::default_rdp_orders() for each pair's (ε, δ).
  std::optional<double> alpha;
};

/// Sensitivity fields of the linear-view accountants (linear-system, mf), for Δ = 1.
struct SensitivityFields {
  double ones = 0.0;                   ///< 1ᵀK1 (the papers' value)
  double sum_abs = 0.0;                ///< Σ|K| (always a valid upper bound)
  std::optional<double> exact_value;   ///< the maximum for the release dimension, when proven
  std::optional<double> vector_lower;  ///< vector releases: tr(KG) attained by directions found
  std::optional<double> vector_upper;  ///< vector releases: verified SDP dual bound
  double certified = 0.0;              ///< the tightest proven upper bound
  double sensitivity = 0.0;            ///< sqrt(certified)
  bool exact = false;                  ///< certified is the true maximum
};

/// One (observer, target) guarantee, whatever the accountant.
struct PairRow {
  graph::NodeId observer = 0;             ///< the observer (first member of a coalition)
  graph::NodeId target = 0;               ///< the target (first member of a group)
  std::optional<std::uint32_t> distance;  ///< hop distance in the base graph (fill_distances)
  double alpha = 0.0;                     ///< Rényi order of rdp_epsilon
  double rdp_epsilon = 0.0;               ///< reported (capped) Rényi DP ε at alpha
  double uncapped_rdp_epsilon = 0.0;
  std::optional<double> mu;  ///< μ-GDP (empty when the bound is not Gaussian)
  double epsilon = 0.0;      ///< ε at δ, rounded up
  bool capped = false;       ///< the local-DP cap set the reported value
  /// The linear-system accountant's sensitivity fields (when rows are printed); shared, so that a
  /// row stays small (an all-pairs stream passes millions of rows).
  std::shared_ptr<const SensitivityFields> sensitivity;
  /// What the value is: exact, an upper bound, the cap in span or undetermined, or a paper's formula.
  Certificate certificate = Certificate::upper_bound;
  /// A certified lower bound on the exact μ, when one is known (the exact joint view).
  std::optional<double> mu_lower;
  std::optional<double> contributions;  ///< random walk: N_u
  std::optional<bool> condition_ok;     ///< random walk: σ² >= 2α(α−1)Δ²
};

/// Muffliato's per-observer facts: T_v, the messages v receives, and eq. (7)'s mean loss.
struct ObserverDetail {
  graph::NodeId observer = 0;
  std::size_t communications = 0;
  double mean_rdp_epsilon_eq7 = 0.0;
};

/// Called with the rows of one or more whole observer blocks (an observer's rows are never split
/// between calls), observer-major.
using RowSink = std::function<void(std::span<const PairRow>)>;

/// Which ε of the pairs a calibration (or a report) uses.
enum class Statistic {
  mean,  ///< the mean over the pairs
  max,   ///< the worst pair
  pair,  ///< the single pair of the account (exactly one row)
};
inline constexpr auto kStatisticNames = std::to_array<util::EnumName<Statistic>>(
    {{Statistic::mean, "mean"}, {Statistic::max, "max"}, {Statistic::pair, "pair"}});
static_assert(util::is_valid_enum_table(kStatisticNames));
inline std::string_view statistic_name(Statistic statistic) {
  return util::name_of(kStatisticNames, statistic);
}
/// "mean" | "max" | "pair"; throws std::invalid_argument listing the names.
inline Statistic parse_statistic(std::string_view name) {
  return util::parse_enum(kStatisticNames, name, "statistic");
}

/// A pairwise account of a protocol, built once; every query is const and cheap.
class PairwiseAccount {
 public:
  virtual ~PairwiseAccount() = default;
  /// The accountant: "muffliato", "random-walk", "linear-system" or "mf".
  virtual std::string_view method() const = 0;
  /// Whether every row is μ-GDP with μ = unit_μ · Δ / σ (then calibration is closed-form).
  virtual bool gaussian() const = 0;
  /// The rows at noise σ and δ, in chunks of whole observer blocks (observer-major).
  virtual void stream_rows(double sigma, double delta, const RowSink& sink) const = 0;
  /// The number of rows stream_rows gives.
  virtual std::size_t pair_count() const = 0;
  /// How many noisy releases of a target's data a local-DP observer sees (the baselines), at δ
  /// (the random walk's count bound spends part of δ).
  virtual double releases(double delta) const = 0;
  /// Δ of the protocol.
  virtual double sensitivity() const = 0;
  /// Numerical verdicts of the build (rank, conditioning, Theorem 7's checks), typed (diagnostic.hpp).
  virtual std::vector<Diagnostic> diagnostics() const { return {}; }
  /// The diagnostics' texts, for display.
  std::vector<std::string> warnings() const { return diagnostic_texts(diagnostics()); }
  /// What the reported values are, shown beside them in every output (kGuaranteeNames).
  virtual Guarantee guarantee() const { return Guarantee::upper_bound; }
  /// Whether every reported value is an upper bound on the loss of the observer's whole view
  /// (false only for a paper's formula asked for by name).
  bool valid_bound() const { return guarantee() != Guarantee::paper_formula; }
  /// The chance that a value labelled by exact arithmetic modulo random primes is wrong (a union
  /// bound, docs/explanation/certificates.md), for accounts that use it.
  virtual std::optional<double> certificate_failure_probability() const { return std::nullopt; }
  /// Muffliato with a fixed or time-varying gossip schedule: T_v and eq. (7) per observer.
  virtual std::vector<ObserverDetail> observer_details(double /*sigma*/) const { return {}; }
  /// The statistic of the ε of every row at (σ, δ): the max, or the mean of RangeAccumulator
  /// (rounded up). Equal to epsilon_statistic(rows(σ, δ), statistic); this default streams the
  /// rows. Throws when `pair` is asked of != 1 row; 0 when there are no rows.
  virtual double epsilon_statistic(Statistic statistic, double sigma, double delta) const;
  /// Gaussian accounts: the largest unit μ over the pairs (0 when there are none).
  virtual double max_unit_mu() const { return 0.0; }
  /// Gaussian accounts: every pair's reported unit μ (μ = unit μ · Δ / σ), in row order; empty
  /// otherwise.
  virtual std::vector<double> unit_mus() const { return {}; }
  /// The mean ε of the pairs at (σ, δ), equal to epsilon_statistic(mean, σ, δ), and its derivative
  /// in σ.
  struct MeanAndSlope {
    double mean = 0.0;
    double slope = 0.0;  ///< d mean / dσ (not rounded: it only steers a search)
  };
  /// Gaussian accounts: the mean and its slope Σ dε_i/dσ / pairs, dε_i/dσ = −ε'(μ_i)·μ_i/σ
  /// (dp::gdp_epsilon_slope), from one conversion of the pairs; {0, 0} otherwise.
  virtual MeanAndSlope epsilon_mean_and_slope(double /*sigma*/, double /*delta*/) const { return {}; }

  /// The Rényi curve ε(α) of one pair of the account at noise σ (Gaussian: αμ²/2; random walk:
  /// Theorem 3 at every order, capped, for the count bound at δ). Throws unless (observer, target)
  /// is a pair of the account.
  virtual dp::RdpCurve rdp_curve(graph::NodeId observer, graph::NodeId target, double sigma,
                                 double delta) const = 0;

  /// All rows at (σ, δ), observer-major. Requires σ > 0 finite and δ in (0, 1).
  std::vector<PairRow> rows(double sigma, double delta) const;
  /// The rows whose observer is in `observers` and target in `targets` (an empty set: all).
  /// Throws when a node of either set is not an observer (a target) of any row of the account.
  std::vector<PairRow> rows(double sigma, double delta, std::span<const graph::NodeId> observers,
                            std::span<const graph::NodeId> targets) const;
  /// The same rows streamed: `sink` gets the selected rows of each chunk of observer blocks
  /// (never an empty chunk); the same check after the last.
  void stream_selected_rows(double sigma, double delta, std::span<const graph::NodeId> observers,
                            std::span<const graph::NodeId> targets, const RowSink& sink) const;
};

/// A Gaussian guarantee at σ = Δ = 1: μ = unit_mu · Δ / σ.
struct UnitPair {
  graph::NodeId observer = 0;
  graph::NodeId target = 0;
  double unit_mu = 0.0;           ///< reported (capped where a cap applies)
  double uncapped_unit_mu = 0.0;  ///< before the local-DP cap
  std::optional<SensitivityFields> sensitivity;
  Certificate certificate = Certificate::upper_bound;  ///< what unit_mu is
  /// The chance that the exact arithmetic behind the certificate misjudged (0: none was used).
  double certificate_failure_probability = 0.0;
};

/// The unit μ of a Gaussian account on a grid of observers × targets, 8 bytes per cell: an
/// all-pairs account of n nodes holds one n × n matrix, not a list of pairs. Column i is observer
/// (set) i, row j target (set) j; the pairs are streamed observer-major (column by column) and, in
/// a column, by row.
struct UnitMuGrid {
  std::vector<graph::NodeId> observers;  ///< the observer of column i (first member of a coalition)
  std::vector<graph::NodeId> targets;    ///< the target of row j (first member of a group)
  /// targets × observers: unit μ before the local-DP cap; NaN where (observer, target) is not a pair.
  DenseMatrix uncapped;
  /// Per target: reported unit μ = min(uncapped, caps[j]) (+inf: no cap). Ignored when `reported`.
  std::vector<double> caps;
  /// The reported unit μ of every pair, when the cap is not one value per target.
  std::optional<DenseMatrix> reported;
  /// Empty, or the sensitivity fields of every pair in stream order.
  std::vector<SensitivityFields> sensitivity;
  /// Empty, or what each pair's value is (targets × observers, as `uncapped`).
  using CertificateMatrix = Eigen::Matrix<Certificate, Eigen::Dynamic, Eigen::Dynamic>;
  std::optional<CertificateMatrix> certificates;
  /// Empty, or a certified lower bound on each pair's exact unit μ (targets × observers; 0: none).
  std::optional<DenseMatrix> lower;
};

/// The μ-GDP account shared by Muffliato, linear-system and MF (and by training's accounts).
class GaussianPairwiseAccount final : public PairwiseAccount {
 public:
  struct Info {
    std::string method;
    double sensitivity = 1.0;
    double releases = 1.0;
    std::optional<double> alpha;  ///< order of rdp_epsilon (2 when unset)
    std::vector<Diagnostic> diagnostics;
    Guarantee guarantee = Guarantee::upper_bound;  ///< PairwiseAccount::guarantee()
    /// T_v per node (Muffliato's eq. 7), empty otherwise.
    std::vector<std::size_t> communications;
    /// What every value is when the grid does not say pair by pair.
    Certificate certificate = Certificate::upper_bound;
    /// The chance that a value certified modulo random primes is wrong (docs/explanation/certificates.md).
    std::optional<double> certificate_failure_probability;
  };
  /// `grid` as built by an accountant. Throws unless the shapes agree and every pair's unit μ
  /// (uncapped, caps, reported) is finite and >= 0, Δ > 0.
  GaussianPairwiseAccount(UnitMuGrid grid, Info info);
  /// `pairs` in observer-major order: each observer's pairs contiguous, by increasing target. Pairs
  /// whose certificate differs from info.certificate are stored pair by pair, and their failure
  /// probabilities are added to info's (a union bound).
  GaussianPairwiseAccount(std::span<const UnitPair> pairs, Info info);

  std::string_view method() const override { return info_.method; }
  bool gaussian() const override { return true; }
  void stream_rows(double sigma, double delta, const RowSink& sink) const override;
  std::size_t pair_count() const override { return first_pair_.back(); }
  double releases(double /*delta*/) const override { return info_.releases; }
  double sensitivity() const override { return info_.sensitivity; }
  std::vector<Diagnostic> diagnostics() const override { return info_.diagnostics; }
  Guarantee guarantee() const override { return info_.guarantee; }
  /// Info's, as every output shows it (shown_failure_probability).
  std::optional<double> certificate_failure_probability() const override;
  std::vector<ObserverDetail> observer_details(double sigma) const override;
  /// From the pairs' μ and ε alone, converted as stream_rows converts them, without the rows.
  double epsilon_statistic(Statistic statistic, double sigma, double delta) const override;
  dp::RdpCurve rdp_curve(graph::NodeId observer, graph::NodeId target, double sigma,
                         double delta) const override;
  double max_unit_mu() const override { return max_unit_mu_; }
  std::vector<double> unit_mus() const override;
  MeanAndSlope epsilon_mean_and_slope(double sigma, double delta) const override;

  /// Every pair, in stream order (a copy: for small accounts, such as training's).
  std::vector<UnitPair> unit_pairs() const;
  const Info& info() const { return info_; }
  /// The values as one grid (a copy; an account kept pair by pair is spread on its grid), which
  /// the constructor from a grid takes back: what a process sends of the account of its share.
  UnitMuGrid grid() const;

 private:
  /// A pair as for_each_pair visits it: its index in stream order, grid column and row, unit μ.
  struct PairView {
    std::size_t index;
    std::size_t column;
    std::size_t row;
    double uncapped;
    double reported;
  };
  /// Calls visit(PairView) for every pair of columns [begin, end), in parallel over columns.
  template <class Visit>
  void for_each_pair(std::size_t begin, std::size_t end, const Visit& visit) const;
  /// Calls chunk(begin, end, mus, epsilons) for consecutive column ranges [begin, end) of about
  /// kRowChunk pairs: the pairs' μ at (σ, δ) and their ε, in stream order from pair first_pair_[begin].
  template <class Chunk>
  void for_each_chunk(double sigma, double delta, const Chunk& chunk) const;
  double dense_reported(Eigen::Index j, Eigen::Index i) const;
  void require_info() const;

  /// Observers and targets always; the values in grid_.uncapped (and reported or caps) unless sparse_.
  UnitMuGrid grid_;
  /// A list of pairs whose grid would be mostly empty (local DP's diagonal) is kept pair by pair:
  /// the row and unit μ of every pair in stream order.
  bool sparse_ = false;
  std::vector<std::uint32_t> sparse_rows_;
  std::vector<double> sparse_uncapped_;
  std::vector<double> sparse_reported_;
  /// first_pair_[i]: the stream index of column i's first pair; first_pair_[columns] = pair count.
  std::vector<std::size_t> first_pair_{0};
  double max_unit_mu_ = 0.0;
  /// Whether its ε are read off dp::GdpEpsilonTable (detail::TablePages, decided on the unit μ).
  bool table_pays_ = false;
  Info info_;
};

/// The accounts of disjoint shares of the observers (PairQuery::observers) put together: every
/// column in increasing observer order (the order of an account of every observer), on the union
/// of their targets; the diagnostics in the order given, each once; the failure probabilities added
/// (a union bound); the rest of the info from the first. Throws unless the shares are disjoint and
/// their infos agree on the method, Δ, α and certificate.
std::unique_ptr<GaussianPairwiseAccount> join_gaussian_accounts(std::vector<UnitMuGrid> grids,
                                                                std::vector<GaussianPairwiseAccount::Info> infos);

// --------------------------------------------------------------- statistics

/// min / mean / max of one quantity.
struct Range {
  std::size_t count = 0;
  double min = 0.0;
  double mean = 0.0;
  double max = 0.0;
};

/// Running min / mean / max. The mean is an upper bound on the exact mean of the values added:
/// a compensated sum (within about an ulp) divided by the count, then two representable steps
/// up, never above the max.
class RangeAccumulator {
 public:
  void add(double x);
  /// Adds every value `other` has seen.
  void merge(const RangeAccumulator& other);
  Range range() const;
  std::size_t count() const { return count_; }

 private:
  std::size_t count_ = 0;
  util::CompensatedSum sum_;
  double min_ = 0.0;
  double max_ = 0.0;
};

/// The statistic of the rows' ε: the max, or the mean of RangeAccumulator (rounded up). Throws
/// when `pair` is asked of != 1 row; 0 when there are no rows.
double epsilon_statistic(std::span<const PairRow> rows, Statistic statistic);
/// account.epsilon_statistic(statistic, σ, δ).
inline double epsilon_statistic(const PairwiseAccount& account, Statistic statistic, double sigma,
                                double delta) {
  return account.epsilon_statistic(statistic, sigma, delta);
}

// --------------------------------------------------------------- calibration

struct CalibrationOptions {
  double sigma_start = 1.0;          ///< where the search starts (any σ > 0)
  double relative_tolerance = 1e-9;  ///< of σ
  double sigma_min = 1e-12;          ///< the search never goes below
  double sigma_max = 1e12;           ///< nor above
  /// Called with the number of evaluations of the statistic so far, after each one.
  std::function<void(std::size_t evaluations)> progress;
};

struct Calibration {
  double sigma = 0.0;             ///< the smallest σ found (the conservative end of the bracket)
  double achieved_epsilon = 0.0;  ///< the statistic at sigma (<= target, re-checked)
  bool closed_form = false;       ///< σ from μ ∝ 1/σ (Gaussian account, max or pair)
  std::size_t evaluations = 0;    ///< how many times the statistic was evaluated
};

/// The smallest σ whose statistic of ε at δ is <= target_epsilon, to the relative tolerance,
/// always on the conservative side, and re-checked at the σ returned. Gaussian accounts with
/// `max` or `pair`: σ = Δ · max unit μ / dp::gdp_mu_for(target, δ). Otherwise a bracketed
/// bisection on log σ (ε decreases in σ for every accountant). Throws std::invalid_argument when
/// the target is not finite and > 0, δ is outside (0, 1), the account has no pair, nothing leaks
/// (every σ meets the target), or no σ within [sigma_min, sigma_max] meets it.
Calibration calibrate_sigma(const PairwiseAccount& account, Statistic statistic, double target_epsilon,
                            double delta, const CalibrationOptions& options = {});

}  // namespace netdp::accounting
