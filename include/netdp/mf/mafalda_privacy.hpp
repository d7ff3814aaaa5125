// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Privacy of MAFALDA-SGD = MF-D-SGD with the local correlation C = C_local ⊗ I_n (MF paper,
// Algorithm 2, Lemma 10), through the linear-view accounting engine (accounting/mf_accountant.hpp):
// the LDP guarantee the correlation is optimized for, with PNDP (every attacker against every
// other node) reported alongside. Node level (participation every_round) or (k, b)-cyclic record
// level. See docs/reference/mf-mafalda.md.

#include <cstddef>

#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/accounting/mf/mf_views.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/util/types.hpp"

namespace netdp::mf {

struct MafaldaPrivacyOptions {
  accounting::MfParticipation participation = accounting::MfParticipation::every_round();
  double noise_std = 1.0;  ///< ν/Δ (noise standard deviation per unit of clipping bound)
  double delta = 1e-6;
  /// LDP: `engine` builds the literal view (small n·T); `closed_form` uses K_u = C_localᵀ C_local
  /// for every node (valid when C_local has full column rank, see docs); `automatic` takes the
  /// engine when n·T ≤ kMafaldaEngineLimit, else the closed form.
  enum class LdpPath { automatic, engine, closed_form };
  LdpPath ldp_path = LdpPath::automatic;
  /// Also account PNDP over all (attacker, target) pairs (literal engine: small n·T only).
  bool pndp = true;
  accounting::AssessOptions assess{};
};

/// Largest n·T for which `automatic` builds the literal LDP view.
inline constexpr std::size_t kMafaldaEngineLimit = 1500;

struct MafaldaPrivacy {
  /// LDP: the node with the largest certified sensitivity (every node's under the closed form).
  accounting::MfPairResult ldp;
  bool ldp_closed_form = false;
  /// PNDP over every ordered pair (attacker a, target u ≠ a); zeros when not computed.
  std::size_t pndp_pairs = 0;
  double pndp_mu_mean = 0.0;
  double pndp_mu_max = 0.0;
  double pndp_epsilon_mean = 0.0;
  double pndp_epsilon_max = 0.0;
  bool pndp_exact = true;  ///< every PNDP pair's certified value is the exact maximum
};

/// Privacy of MAFALDA-SGD for the gossip matrix W over `rounds` steps with local encoder
/// C_local (m × T, m ≥ T). Throws std::invalid_argument when C_local has the wrong number of
/// columns, is not finite, or (closed form) is not of full column rank, and on the engine's errors.
MafaldaPrivacy mafalda_privacy(const gossip::GossipMatrix& w, std::size_t rounds, const DenseMatrix& c_local,
                               const MafaldaPrivacyOptions& options = {});

}  // namespace netdp::mf
