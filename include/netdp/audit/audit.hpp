// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Empirical privacy auditing: the observer's view of the simulated protocol on two neighbouring
// inputs, the Neyman–Pearson optimal attack on it, and a lower confidence bound on μ and ε
// (dp/audit_bounds.hpp) to set beside an accountant's claim (docs/reference/audit.md).
//
// Every protocol audited here is linear with Gaussian noise: its inputs y = x + η (η ~ N(0, σ² I),
// one coordinate per node for Muffliato, one per node and round for Koskela–Kulkarni) reach the
// observer as messages A y. The audit identifies A by running the protocol's simulation on the
// unit inputs (not from an accountant's formulas). The observer knows some coordinates (its own
// releases); A′ keeps the others. The two inputs differ by a shift δ in the target's coordinates
// (zero elsewhere: the law of the view shifts by A δ whatever the other inputs are). The optimal
// statistic is s = cᵀ(view − known part), c = (A′ᵀ)⁺ δ′: s = gᵀ y′ with g = Π_{row(A′)} δ′,
// N(0, σ²‖g‖²) without the shift and shifted by ⟨g, δ′⟩ = ‖g‖² with it. A release of dimension r
// runs r independent coordinates with shifts δ_1..δ_r (the columns of the direction matrix) and
// adds their statistics. The threshold is the midpoint, fixed before the trials; the statistical
// guarantee does not depend on how A′'s rank is decided (a worse c only weakens the attack).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "netdp/accounting/linear_system/linear_system.hpp"
#include "netdp/accounting/mf/mf_views.hpp"
#include "netdp/accounting/random_walk/random_walk.hpp"
#include "netdp/dp/audit_bounds.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/types.hpp"

namespace netdp::audit {

/// The most trials per input: 2^40 (about 1.1·10¹²), far beyond any run's time, so that counts of
/// both inputs stay exact in 64 bits.
inline constexpr std::size_t kMaxAuditTrials = std::size_t{1} << 40;

/// Who attacks: one observer, or a coalition of colluders that pool the messages they receive and
/// know all their own inputs (the threat model of `netdp account --colluders`).
struct Attackers {
  Attackers(graph::NodeId observer) : nodes{observer} {}  // NOLINT(google-explicit-constructor)
  Attackers(std::vector<graph::NodeId> coalition) : nodes(std::move(coalition)) {}  // NOLINT
  Attackers() = default;  ///< none (the MF paper's LDP: every message public, no attacker node)
  std::vector<graph::NodeId> nodes;
};

struct AuditOptions {
  std::size_t trials = 100000;  ///< per input (without and with the shift), 1..kMaxAuditTrials
  std::uint64_t seed = 1;
  double confidence = 0.95;  ///< of the lower bounds (both error rates together)
  double delta = 1e-5;       ///< of the ε lower bound
  /// Called with the trials done so far (both inputs), from the calling thread.
  std::function<void(std::size_t)> progress;
};

struct AuditResult {
  std::size_t trials = 0;  ///< per input
  /// Rows of the observer's view A; for the random walk, the most token values the observer
  /// received in one run.
  std::size_t messages = 0;
  std::size_t dimension = 1;        ///< coordinates of each release (columns of the direction)
  double threshold = 0.0;           ///< of the test statistic
  std::size_t false_positives = 0;  ///< trials without the shift with s > threshold
  std::size_t false_negatives = 0;  ///< trials with the shift with s <= threshold
  /// ‖g‖/σ: the μ of the designed test under the model (linear views; the random walk's view is
  /// not Gaussian).
  std::optional<double> attack_mu;
  /// Runs per input, besides `trials`, that chose the threshold (random walk; 0: the midpoint).
  std::size_t calibration_trials = 0;
  dp::PrivacyLowerBound bound;  ///< valid with probability >= options.confidence
};

/// Audits Muffliato gossip averaging (Cyffers et al. Algorithm 1, the paper's convention) on
/// `schedule` (its rounds are the T gossip rounds): every node releases y = x + η once, and at
/// rounds t = 0..T−1 the observer receives (W_{t−1} ⋯ W_0 y)_w from each neighbour w of v under
/// W_t; it knows y_v. The shift is Δ on the target. Trials run in parallel in fixed batches, each
/// seeded from (seed, input, batch): the result does not depend on the thread count, and memory
/// does not grow with the trial count. A coalition receives the messages of all its members and
/// knows all their releases. Throws unless the observers (distinct, at least one) and the target
/// are nodes, the target is not an observer, σ, Δ > 0 and trials >= 1.
AuditResult audit_muffliato(const gossip::Schedule& schedule, const Attackers& observer, graph::NodeId target,
                            double sigma, double sensitivity, const AuditOptions& options);

/// Koskela–Kulkarni gossip with a noisy injection every round (linear_system.hpp's dynamics):
/// ψ += x_s + u_s at the start of round s, then K gossip steps; the observed rows (the observer
/// for secure-sum, N̄_target for secure-sum-adaptive, the target for plain) are read before
/// (first power 0) or after (1) each step. The observer knows its own injections (Section 3.5).
/// The shift of the target's injection at round s is Δ·D(s, :), D chosen by the attacker to
/// maximise its test's μ² = Δ² tr(Dᵀ K_u D)/σ² (K_u from the identified view): for
/// release_dimension 1 a sign vector (exhaustive for T <= 16, else a local search from the top
/// eigenvector's signs), otherwise unit rows of dimension T by the projected power iteration of
/// the SDP's factorisation (Burer–Monteiro). Throws as audit_muffliato.
AuditResult audit_linear_system(const gossip::Schedule& schedule, const Attackers& observer,
                                graph::NodeId target, double sigma, double sensitivity,
                                const accounting::LinearSystemOptions& system, std::size_t release_dimension,
                                const AuditOptions& options);

/// Muffliato-GD / SGD (Cyffers et al. Algorithm 2; docs/reference/accounting-muffliato.md): gradient step
/// s = 0..T−1 releases x_s + η_s (fresh noise) into each node's state, then gossips K rounds
/// r = sK..sK+K−1 with W_r (schedule: the T·K matrices, or fixed); at round r the observers receive
/// the state of each neighbour under W_r and know their own releases. Directions as
/// audit_linear_system. Throws as audit_muffliato, unless T, K >= 1 and the schedule has T·K matrices.
AuditResult audit_muffliato_gd(const gossip::Schedule& schedule, const Attackers& observer,
                               graph::NodeId target, double sigma, double sensitivity,
                               std::size_t gradient_steps, std::size_t gossip_rounds,
                               std::size_t release_dimension, const AuditOptions& options);

/// The MF paper's algorithm, trust model and participation as audit_mf runs them.
struct MfAuditSpec {
  accounting::MfAlgorithmSpec algorithm;  ///< any of the six, with its K, C or DECOR scale
  accounting::MfTrust trust = accounting::MfTrust::pndp;
  std::size_t rounds = 1;                     ///< gradient steps T
  accounting::MfParticipation participation;  ///< every round, or (k, b)-cyclic
};

/// The MF paper's algorithms (Appendix A, docs/reference/accounting-mf.md): every step node v adds its
/// gradient and its noise ζ to its state and gossips K times on W; DP-D-SGD and Muffliato-SGD add
/// z, ANTIPGD z_t − z_{t−1}, DECOR z plus ± the secrets of its edges, MF-D-SGD C†Z; Zip-DL sends
/// each neighbour its state plus a share of zero-sum noise. Every noise coordinate is drawn by a
/// node, which knows it. The attackers read, under PNDP, every message their neighbours outside the
/// coalition send them (each node's state before averaging: powers from 0, eq. 5–6) and know their
/// own inputs and noise; under LDP every message (no attacker nodes); under SecLDP every message
/// and the attackers' knowledge. The target's shift is Δ·D on its steps (on the worst class of a
/// cyclic participation), D as for audit_linear_system. Where the target's change leaves the
/// range of the noise the view is not private: the test is exact and attack_mu is +∞. Throws as
/// audit_muffliato (attackers may be empty except under PNDP, and must be under LDP), unless K = 1
/// for every algorithm but Muffliato-SGD and C fits T and n.
AuditResult audit_mf(const gossip::GossipMatrix& w, const Attackers& attackers, graph::NodeId target,
                     double sigma, double sensitivity, const MfAuditSpec& spec, std::size_t release_dimension,
                     const AuditOptions& options);

/// The most calibration runs per input of audit_random_walk.
inline constexpr std::size_t kMaxWalkCalibrationTrials = std::size_t{1} << 16;

/// Audits the random walk (Cyffers, Bellet & Upadhyay, Algorithm 1) on a sum query: at each of the
/// `steps` steps the holder adds its input plus N(0, σ²) to the token and passes it on along W
/// (draw_next_holder, as netdp train walks). The observer sees the view of eq. (7): the time and
/// the token's value at each of its visits, and whom it sends it to (with
/// RandomWalkView::sender_known also who sent it); a coalition pools the visits of its members.
/// The token starts at `start` (public), or when unset at a uniformly drawn node outside the
/// observers that they are not told. The shift is Δ on the target's input.
///
/// The view is a mixture over the hidden paths, not Gaussian. Given the visit times and the nodes
/// the observer knows, the unseen segments between its visits are independent (Markov property),
/// so the likelihood ratio is a product over segments of Σ_c P(c | segment) N(D; cΔ, Lσ²)/N(D; 0,
/// Lσ²), D the segment's increment, L its length and c the target's visits in it; P(c | segment)
/// comes from a dynamic programme over (node, count) for each start, length and end (counts beyond
/// the visit tail's floor are dropped: that only weakens the test). Its log is the statistic; the
/// threshold that maximises the ε lower bound on min(trials, kMaxWalkCalibrationTrials) separate
/// calibration runs per input is then applied to the `trials` runs, so the bound stays valid.
/// Throws as audit_muffliato, unless steps >= 1 and start is a node.
AuditResult audit_random_walk(const gossip::GossipMatrix& w, const Attackers& observer, graph::NodeId target,
                              double sigma, double sensitivity, std::size_t steps,
                              std::optional<graph::NodeId> start, accounting::RandomWalkView view,
                              const AuditOptions& options);

}  // namespace netdp::audit
