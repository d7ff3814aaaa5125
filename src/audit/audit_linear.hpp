// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The audits of the linear Gaussian views, inside (audit.hpp): a protocol linear in its inputs G
// and its noise Z ~ N(0, σ² I) reaches the attackers as messages A G + B Z. The audit identifies A
// and B by running the protocol on unit inputs and unit noise, removes the noise coordinates the
// attackers know (B′: the others), and tests a shift δ of the target's inputs with the
// Neyman–Pearson statistic s = cᵀ(view − known part), c = (B′ᵀ)⁺ h, h = B′⁺ A δ: N(0, σ²‖h‖²)
// without the shift and shifted by ‖h‖² with it (μ = ‖h‖/σ). When A δ leaves range(B′) the view
// is not private in that direction: c is the residual, and the test is exact.

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "netdp/audit/audit.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/util/types.hpp"

namespace netdp::audit::detail {

/// A row of the protocol state (one entry per run in the batch).
using StateRow = Eigen::Ref<const Eigen::RowVectorXd, 0, Eigen::InnerStride<>>;
/// Receives the k-th message of the attackers, for every run of the batch.
using Receive = std::function<void(std::size_t k, const StateRow& row)>;

/// A linear protocol as the audit runs it.
struct LinearProtocol {
  std::size_t inputs = 0;                 ///< coordinates of G per run
  std::size_t noises = 0;                 ///< coordinates of Z per run, i.i.d. N(0, σ²)
  std::vector<std::size_t> known_noises;  ///< the noise coordinates the attackers know
  double messages = 0.0;                  ///< messages per run (an upper bound), for the memory estimate
  std::size_t rounds = 0;                 ///< the rounds T they come from, named in a refusal
  /// Runs the protocol on the columns of G (inputs × B) and Z (noises × B) and calls receive per
  /// message, in order. (The attackers' own inputs are 0 in every run: known, and never shifted.)
  std::function<void(const DenseMatrix& g, const DenseMatrix& z, const Receive& receive)> run;
};

/// Checks the memory identify_view and attack take against the limit (util::require_memory), before
/// anything is built: the maps A (messages × inputs) and B (messages × noises), B′, its
/// pseudo-inverse and its decomposition, the unit inputs of the simulation, and the noise and input
/// blocks of each thread.
void require_audit_memory(double inputs, double noises, double messages, std::size_t rounds);

/// The attackers' view, identified by simulation: A, B and the pseudo-inverse of B′.
struct IdentifiedView {
  DenseMatrix inputs_map;            ///< A (messages × inputs)
  DenseMatrix noise_map;             ///< B (messages × noises)
  std::vector<Eigen::Index> hidden;  ///< the noise coordinates the attackers do not know
  DenseMatrix hidden_map;            ///< B′ (messages × hidden)
  DenseMatrix hidden_pinv;           ///< B′⁺ (hidden × messages)
  std::vector<Eigen::Index> known;   ///< the noise coordinates the attackers know

  /// The part `a` (messages × k) of the view that a change of the inputs moves, whitened:
  /// H = B′⁺ a, the residual R = a − B′ H, and whether R leaves range(B′) (then that part of the
  /// change is seen without noise).
  struct Whitened {
    DenseMatrix h;
    DenseMatrix residual;
    bool exposed = false;
  };
  Whitened whiten(const DenseMatrix& a) const;
};

IdentifiedView identify_view(const LinearProtocol& protocol);

/// The attacker's worst shift of the target's inputs: over the classes of steps the target may
/// change (one class for every-round participation), the direction D (rows of norm <= 1, r
/// columns) maximising tr(Dᵀ K D), K = HᵀH of the class's inputs (or RᵀR when the view is not
/// private there). Returns the shift (inputs × r), Δ·D on the class's coordinates.
DenseMatrix worst_shift(const IdentifiedView& view, const std::vector<std::vector<std::size_t>>& classes,
                        double sensitivity, std::size_t release_dimension);

/// Runs the test of `shift` on trials of both inputs.
AuditResult attack(const LinearProtocol& protocol, const IdentifiedView& view, const DenseMatrix& shift,
                   double sigma, const AuditOptions& options);

/// identify_view, worst_shift over the target's `classes` of inputs, then attack: the audit of a
/// protocol whose attacker chooses the target's change.
AuditResult attack_worst_shift(const LinearProtocol& protocol,
                               const std::vector<std::vector<std::size_t>>& classes, double sensitivity,
                               std::size_t release_dimension, double sigma, const AuditOptions& options);

/// Gossip with an injection every round (the Koskela–Kulkarni dynamics and the MF paper's
/// Algorithm 1): ψ += G_s + ζ_s at the start of round s (G_s: inputs s·n..s·n+n−1), then `steps`
/// gossip steps under the schedule; the state rows `rows` are observed before (first power 0) or
/// after (1) each step.
struct Injections {
  std::size_t rounds = 1;
  std::size_t steps = 1;
  int first_power = 0;
  /// The observed rows at gossip step q = s·steps + step: rows[q], or rows[0] at every step when it
  /// holds one entry.
  std::vector<std::vector<graph::NodeId>> rows;
  std::size_t noises = 0;                 ///< coordinates of Z
  std::vector<std::size_t> known_noises;  ///< those the attackers know
  /// Adds ζ_s, the noise injected at round s, to the state (n × B) from Z's columns (noises × B).
  std::function<void(std::size_t s, const DenseMatrix& z, DenseMatrix& state)> add_noise;
};

/// The protocol of an injection spec (checks rounds, steps >= 1, the first power and the schedule's length).
LinearProtocol injection_protocol(const gossip::Schedule& schedule, const Injections& spec);

/// Independent local noise: `count` blocks of n coordinates (j·n + v drawn, and known, by node v),
/// block s added at round s. Sets spec.noises, known_noises (the attackers') and add_noise.
void use_local_noise(Injections& spec, std::size_t n, std::size_t count, const Attackers& attackers);

/// The target's inputs s·n + target, s = 0..rounds−1.
std::vector<std::size_t> target_steps(std::size_t n, std::size_t rounds, graph::NodeId target);

}  // namespace netdp::audit::detail
