// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Muffliato pairwise accountant (Cyffers, Even, Bellet & Massoulié, NeurIPS 2022):
// Theorem 1 for an arbitrary schedule W_0..W_{T-1}, its colluding-set form
// (Theorem 12) and its group-privacy form (Theorem 13, corrected). See
// docs/reference/accounting-muffliato.md for the formulas and the conventions chosen.
//
// Every node u releases y_u = x_u + η_u, η_u ~ N(0, σ²), once; gossip then sends
// the messages (W_{0:t} y)_w, W_{0:t} = W_{t-1}⋯W_0, W_{0:0} = I. The view of an
// observer v is the set of messages it receives from its neighbours w at the
// rounds t where {v, w} is an edge of W_t. Theorem 1 composes these messages
// one by one as Gaussian mechanisms:
//
//   S(v, u) = Σ_t Σ_{w : {v,w} ∈ E_t}  (W_{0:t})²_{w,u} / N_t(w, v),
//
// with N_t(w, v) = ‖(W_{0:t})_{w,·}‖² minus the observer's own coefficient
// (W_{0:t})²_{w,v} by default (v knows its own noise, DESIGN.md). Then
//   μ(u→v)       = (Δ/σ) · sqrt(S(v, u))   (μ-GDP; composition of Gaussians is exact),
//   ε_α(u→v)     = α μ² / 2                 (Rényi DP at order α, Theorem 1 / eq. 6),
// and, as the whole view is post-processing of y, μ is capped at the local-DP
// value Δ/σ of one release (the reported value; the uncapped one is kept).
//
// Theorem 1 is the paper's message-by-message bound. It is NOT an upper bound
// on the exact loss of v's joint view in general (messages share noise; e.g. on
// a path u – w – v, v recovers y_u exactly from its t = 0 and t = 1 messages).
// The exact joint view is the linear-view engine's job; the local-DP cap is
// always valid. See the docs.
// Derivation from the paper to this code: src/accounting/muffliato/derivation.md.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "netdp/accounting/account/certificate.hpp"
#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/accounting/worst_case/vector_max.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// Which gossip states are the messages (DESIGN.md, "round 0").
enum class MessageConvention {
  /// Theorem 1 as written: at round t = 0..T-1, w sends (W_{0:t} y)_w along the
  /// edges of W_t (before averaging). t = 0 sends y_w itself, so direct
  /// neighbours pay the full local-DP loss.
  paper,
  /// The authors' code (github.com/totilas/muffliato): at round t = 0..T-1, w
  /// sends (W_{0:t+1} y)_w along the edges of W_t (after averaging), i.e. the
  /// powers 1..T; the t = 0 exchange of raw noisy values is dropped.
  authors_code,
};

/// Whether the observer's own noise counts as noise in the messages it receives.
enum class ObserverNoise {
  /// Default (DESIGN.md): v knows η_v, so the noise variance of message w is
  /// σ² (‖(W_{0:t})_w‖² − Σ_{v ∈ observers} (W_{0:t})²_{w,v}).
  known,
  /// Theorem 1 / Theorem 12 as written: σ² ‖(W_{0:t})_w‖² (reproduces the paper).
  counted,
};

/// Sensitivity of a message to a group U of targets (Theorem 13).
enum class GroupSensitivity {
  /// Default, correct: every member may move by Δ, so the message moves by
  /// Δ Σ_{u∈U} |(W_{0:t})_{w,u}|; the ratio's numerator is (Σ_{u∈U} |W_{w,u}|)².
  sum_of_absolute,
  /// Eq. 18 as printed: Σ_{u∈U} (W_{0:t})²_{w,u}. Under-reports; for reproduction only.
  paper_sum_of_squares,
};

/// Which value the Muffliato functions report.
enum class MuffliatoBound {
  /// Default: the exact loss of the observer's whole view (muffliato_joint_view.hpp), an upper
  /// bound under every schedule, and composed per gradient step for Muffliato-GD.
  exact,
  /// The paper's message-by-message sums (Theorems 1, 12, 13; Theorems 6, 11 for Muffliato-GD).
  /// NOT an upper bound on the joint view: the messages share one noise draw per node.
  paper,
};

inline constexpr auto kMuffliatoBoundNames = std::to_array<util::EnumName<MuffliatoBound>>(
    {{MuffliatoBound::exact, "exact"}, {MuffliatoBound::paper, "paper"}});
static_assert(util::is_valid_enum_table(kMuffliatoBoundNames));

/// What a bound's values are: the exact joint view, or the paper's formula (not a bound).
Guarantee bound_guarantee(MuffliatoBound bound);

/// The default effort limit of the exact joint view's certificates (MuffliatoOptions::exact_effort):
/// 8·2²⁰ entries, 64 MiB per copy of a view modulo p.
inline constexpr double kDefaultExactEffort = 8.0 * 1024 * 1024;

struct MuffliatoOptions {
  /// Exact joint view (default) or the paper's formula (by name only; not a valid bound).
  MuffliatoBound bound = MuffliatoBound::exact;
  double sigma = 0.0;        ///< noise standard deviation σ of each node's single release (> 0)
  double sensitivity = 1.0;  ///< Δ, L2 sensitivity of one node's input (Assumption 1) (> 0)
  MessageConvention messages = MessageConvention::paper;
  ObserverNoise observer_noise = ObserverNoise::known;
  GroupSensitivity group_sensitivity = GroupSensitivity::sum_of_absolute;
  /// Muffliato-GD (gradient steps): p, the dimension of each gradient release (vector_max.hpp).
  /// kAnyReleaseDimension (default) certifies the SDP value on a fixed W; 1 is a scalar release.
  std::size_t release_dimension = kAnyReleaseDimension;
  /// Number of target columns propagated together (0 = chosen from n for the cache).
  std::size_t block_columns = 0;
  /// Reject schedules whose union of supports is disconnected (Muffliato assumes a connected graph).
  bool require_connected = true;
  /// Called as progress(done, total) after each block of work (from one thread at a time).
  std::function<void(std::size_t done, std::size_t total)> progress;
  /// Symmetry hints of the graph of a fixed W (graph::SymmetryHints). The exact joint view keeps
  /// those that map W onto itself and, when every pair is asked, computes one observer per orbit.
  graph::SymmetryHints symmetries;
  /// Seed of the random primes of the exact joint view's certificates (docs/explanation/certificates.md).
  /// Unset: drawn from the system's entropy, so that the primes do not depend on the input.
  std::optional<std::uint64_t> certificate_seed;
  /// The effort limit of those certificates: a view of more entries (messages × nodes) is not
  /// computed in exact arithmetic, and the targets it reaches are reported at the cap as a counted
  /// give-up (cap-undetermined). Each view costs O(entries · rank) word operations.
  double exact_effort = kDefaultExactEffort;
};

/// One (observer, target) guarantee.
struct PairLoss {
  std::size_t observer = 0;  ///< row index of the observer set (node id for single observers)
  std::size_t target = 0;    ///< column index of the target set (node id for single targets)
  double alpha = 0.0;
  double mu = 0.0;           ///< reported μ-GDP value: min(uncapped_mu, local cap)
  double uncapped_mu = 0.0;  ///< (Δ/σ) sqrt(S)
  double rdp_epsilon = 0.0;  ///< α mu² / 2 (Rényi DP at order alpha, reported)
  double uncapped_rdp_epsilon = 0.0;
  bool capped = false;  ///< the local-DP cap was hit (uncapped_mu > mu)
};

/// (ε, δ) of a pair through its reported μ-GDP value, converted exactly (Dong,
/// Roth & Su 2022, Corollary 2.13, via dp::gdp_epsilon): tighter than the paper's
/// RDP conversion ε(α) + log(1/δ)/(α − 1). Returns 0 when μ = 0 (nothing leaks).
/// Requires delta in (0, 1).
double gdp_epsilon(const PairLoss& loss, double delta);

/// Pairwise Muffliato guarantees: one row per observer (set), one column per target (set).
class MuffliatoLosses {
 public:
  MuffliatoLosses(DenseMatrix sums, std::optional<DenseMatrix> capped_sums, std::vector<double> sum_caps,
                  std::vector<std::vector<graph::NodeId>> observers,
                  std::vector<std::vector<graph::NodeId>> targets, double sensitivity, double sigma);

  std::size_t num_observers() const { return observers_.size(); }
  std::size_t num_targets() const { return targets_.size(); }
  const std::vector<graph::NodeId>& observer_set(std::size_t i) const { return observers_[i]; }
  const std::vector<graph::NodeId>& target_set(std::size_t j) const { return targets_[j]; }

  /// The dimensionless sums S (uncapped): μ² = (Δ/σ)² S. Entries where the
  /// target meets the observer set are 0 and flagged by defined() = false.
  const DenseMatrix& sums() const { return sums_; }
  /// Moves the sums S out, leaving these losses without values (for an account that takes them over).
  DenseMatrix take_sums() { return std::move(sums_); }
  /// Moves the capped sums out, when they are not min(S, sum_cap).
  std::optional<DenseMatrix> take_capped_sums() { return std::exchange(capped_sums_, std::nullopt); }
  /// The capped sums: min(S, cap) (or the per-step caps composed, for Muffliato-GD).
  double capped_sum(std::size_t observer, std::size_t target) const;
  /// Whether the pair is a real pair (target set disjoint from observer set).
  bool defined(std::size_t observer, std::size_t target) const;

  double sensitivity() const { return sensitivity_; }
  double sigma() const { return sigma_; }
  /// Local-DP cap on S for target set j (1 for one node, |U| for a group of U nodes, T·… when composed).
  double sum_cap(std::size_t target) const { return sum_caps_[target]; }

  /// μ² for every pair, capped (reported) or not; undefined pairs are 0.
  DenseMatrix mu_squared(bool capped = true) const;
  /// Per pair (observer set × target set), what its sum is (the exact joint view sets them; other
  /// bounds leave them empty). `lower` holds a certified lower bound on each exact sum (0: none).
  using CertificateMatrix = Eigen::Matrix<Certificate, Eigen::Dynamic, Eigen::Dynamic>;
  const std::optional<CertificateMatrix>& certificates() const { return certificates_; }
  const std::optional<DenseMatrix>& lower_sums() const { return lower_sums_; }
  /// The chance that a value labelled by exact arithmetic modulo random primes is wrong (a union bound).
  double certificate_failure_probability() const { return failure_probability_; }
  void set_certificates(CertificateMatrix kinds, DenseMatrix lower, double failure_probability);

  /// Numerical decisions behind the sums (the joint view's rank decisions), for display.
  const std::vector<Diagnostic>& warnings() const { return warnings_; }
  void set_warnings(std::vector<Diagnostic> warnings) { warnings_ = std::move(warnings); }

  /// The full guarantee of one pair; throws std::invalid_argument if out of range,
  /// alpha <= 1, or the pair is undefined (target inside the observer set).
  PairLoss pair(std::size_t observer, std::size_t target, double alpha) const;

 private:
  DenseMatrix sums_;
  std::optional<DenseMatrix> capped_sums_;
  std::vector<double> sum_caps_;
  std::vector<std::vector<graph::NodeId>> observers_;
  std::vector<std::vector<graph::NodeId>> targets_;
  double sensitivity_ = 1.0;
  double sigma_ = 1.0;
  std::vector<Diagnostic> warnings_;
  std::optional<CertificateMatrix> certificates_;
  std::optional<DenseMatrix> lower_sums_;
  double failure_probability_ = 0.0;
};

/// Observer sets (rows) and target sets (columns). An empty list means "every
/// node on its own, in order 0..n-1". A set of several observers is a coalition
/// (Theorem 12); a set of several targets is a group (Theorem 13).
struct MuffliatoQuery {
  std::vector<std::vector<graph::NodeId>> observers;
  std::vector<std::vector<graph::NodeId>> targets;
  /// The observer sets of the whole account when `observers` are a share of it (empty: `observers`
  /// themselves). The exact joint view chooses on them which basis resolves the large views, so
  /// that a share's values are those of the whole account's.
  std::vector<std::vector<graph::NodeId>> population = {};
};

/// The sums of options.bound for `query` under `schedule`: the exact joint view
/// (muffliato_joint_view_losses) or Theorems 1 / 12 / 13 (muffliato_theorem1_losses). The
/// functions below (all pairs, one observer, colluders, group) go through it.
MuffliatoLosses muffliato_losses(const gossip::Schedule& schedule, const MuffliatoQuery& query,
                                 const MuffliatoOptions& options);

/// Theorem 1 / 12 / 13 sums for `query` under `schedule` (fast path: sparse
/// propagation of blocks of target columns, never a dense W power; OpenMP over
/// blocks; O(T · nnz(W) · n) time, memory O(observers × targets) + O(n · block) per thread).
/// Throws std::invalid_argument on σ <= 0, Δ <= 0, a non-finite W entry, a node
/// out of range or repeated within a set, an empty set, or (require_connected) a
/// disconnected union of supports. options.bound is not read: this is the paper's formula.
MuffliatoLosses muffliato_theorem1_losses(const gossip::Schedule& schedule, const MuffliatoQuery& query,
                                          const MuffliatoOptions& options);

/// All n² ordered pairs (observer v = row, target u = column, diagonal undefined).
MuffliatoLosses muffliato_all_pairs(const gossip::Schedule& schedule, const MuffliatoOptions& options);

/// One observer against every target (1 × n).
MuffliatoLosses muffliato_from_observer(const gossip::Schedule& schedule, graph::NodeId observer,
                                        const MuffliatoOptions& options);

/// A coalition of colluders against every target (Theorem 12; 1 × n).
MuffliatoLosses muffliato_colluders(const gossip::Schedule& schedule, std::vector<graph::NodeId> colluders,
                                    const MuffliatoOptions& options);

/// Every observer against one group of targets (Theorem 13; n × 1).
MuffliatoLosses muffliato_group(const gossip::Schedule& schedule, std::vector<graph::NodeId> group,
                                const MuffliatoOptions& options);

/// T_v: the number of messages node v receives up to round T (Σ_t |{w : {v,w} ∈ E_t}|), eq. 7.
std::vector<std::size_t> communication_counts(const gossip::Schedule& schedule);

/// Mean privacy loss towards v, eq. 7: ε̄_v = α Δ² T_v / (2 n σ²). With
/// ObserverNoise::known it equals (1/n) Σ_{u≠v} of the uncapped Theorem-1 ε
/// exactly; with ObserverNoise::counted it is an upper bound on that mean.
double mean_privacy_loss(std::size_t communications, std::size_t num_nodes, double alpha, double sensitivity,
                         double sigma);

}  // namespace netdp::accounting
