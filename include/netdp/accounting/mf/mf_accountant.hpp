// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Matrix-factorization accountant: pairwise privacy of decentralized learning
// algorithms under LDP / PNDP / SecLDP (MF paper, Theorem 7 with the exact
// K_u of the linear-view engine, and eq. 8's Σ|K| beside it).
//
// Two paths compute K_u = A_uᵀ (B Bᵀ)⁺ A_u:
//  - literal: build_mf_view + the engine's target_gram_literal (any trust × algorithm;
//    dense, for small inputs);
//  - structured (PNDP for DP-D-SGD and Muffliato-SGD(K)): no W powers beyond the rows of
//    the attacker's neighbours, the observation Gram by diagonal cumulative sums, one
//    Cholesky and one block-triangular solve per attacker for all of its targets, OpenMP
//    over attackers. See docs/reference/accounting-mf.md.
// Derivation from the paper to this code: src/accounting/mf/derivation.md.

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/accounting/linear_system/linear_view.hpp"
#include "netdp/accounting/mf/mf_views.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/graph/graph.hpp"

namespace netdp::accounting {

struct MfOptions {
  MfParticipation participation = MfParticipation::every_round();
  /// ν/Δ: noise standard deviation in units of the clipping bound (μ = sensitivity / noise_std).
  double noise_std = 1.0;
  double delta = 1e-6;
  AssessOptions assess{};
  RankOptions rank{};
  enum class Path {
    automatic,   ///< structured when supported (PNDP × DP-D-SGD / Muffliato-SGD), else literal
    literal,     ///< always the dense view + engine
    structured,  ///< structured only; throws when the pair is not supported
  };
  Path path = Path::automatic;
  /// progress(done, total) after each attacker, from one thread at a time.
  std::function<void(std::size_t done, std::size_t total)> progress;
  /// The input that set the rounds T, named with its value in a memory refusal.
  std::string rounds_option = "`rounds`";
};

/// One (attacker set, target) result: the engine's fields, the max over participation classes.
struct MfPairResult {
  PairSensitivity privacy;
  std::size_t worst_class =
      0;  ///< index (participation_classes) of the class with the largest certified sens²
};

/// Results of one adversary or of all single attackers.
struct MfAccounting {
  std::vector<MfPairResult> pairs;  ///< attacker-major, targets increasing
  /// One check per adversary (same order as the attackers of `pairs`).
  std::vector<Theorem7Check> theorem7;
  bool structured = false;  ///< the structured path produced the results
};

/// One adversary against `targets` (empty: every node outside the attacker set). LDP has one
/// adversary (all messages) and every node as target.
MfAccounting account_mf(const gossip::GossipMatrix& w, std::size_t rounds, const MfAlgorithmSpec& spec,
                        const MfAdversary& adversary, std::span<const graph::NodeId> targets,
                        const MfOptions& options = {});

/// Every single attacker a against every target u != a (PNDP, SecLDP), or the LDP adversary
/// against every node. Parallel over attackers (OpenMP); results do not depend on the thread count.
/// `attackers` (increasing; empty: every node) restricts the single attackers to a share, whose
/// results are those of the same attackers in the run over every node.
MfAccounting account_mf_all_pairs(const gossip::GossipMatrix& w, std::size_t rounds,
                                  const MfAlgorithmSpec& spec, MfTrust trust, const MfOptions& options = {},
                                  std::span<const graph::NodeId> attackers = {});

/// Whether the structured path supports (trust, algorithm): PNDP × {DP-D-SGD, Muffliato-SGD}.
bool mf_structured_supported(MfTrust trust, const MfAlgorithmSpec& spec);

/// K_u of every target for one PNDP attacker set under DP-D-SGD / Muffliato-SGD(K), structured.
struct StructuredGrams {
  std::vector<DenseMatrix> K;  ///< one T×T matrix per node (empty for the attackers)
  std::size_t observations = 0;
  double condition = 1.0;        ///< of the observation Gram (from the Cholesky diagonal: a lower estimate)
  double subspace_margin = 0.0;  ///< TargetGram::subspace_margin of every K_u (0 after a Cholesky)
  double certificate_failure_probability = 0.0;  ///< TargetGram::certificate_failure_probability
  std::vector<Diagnostic> warnings;
};
StructuredGrams mf_pndp_target_grams(const gossip::GossipMatrix& w, std::size_t rounds,
                                     std::size_t gossip_steps, std::span<const graph::NodeId> attackers);

/// Combines the per-class Grams of one target into the pair's result (max over classes of each
/// bound; exact when the worst class's value is). local_cap_per_round > 0 caps each class's
/// certified sens² at local_cap_per_round · |class|: valid when the view is post-processing of
/// the target's own noisy inputs G_u + Z_u with Z_u independent of everything else (DP-D-SGD,
/// Muffliato-SGD: K_u ⪯ I). A capped value is not marked exact.
MfPairResult assess_over_classes(const TargetGram& full, const std::vector<std::vector<std::size_t>>& classes,
                                 const MfOptions& options, double local_cap_per_round = 0.0);

/// 1 for algorithms whose view is post-processing of independent local noisy inputs
/// (DP-D-SGD, Muffliato-SGD), else 0 (no cap).
double mf_local_cap_per_round(const MfAlgorithmSpec& spec);

}  // namespace netdp::accounting
