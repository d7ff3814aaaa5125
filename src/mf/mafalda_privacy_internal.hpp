// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the mf module: the engine steps shared by mafalda_privacy for one C_local and for
// one C per node (mafalda_privacy.cpp, mafalda_per_node_privacy.cpp).

#include <cstddef>
#include <functional>

#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/mf/mafalda_privacy.hpp"

namespace netdp::mf::detail {

/// The accountant's options for MafaldaPrivacyOptions (participation, ν/Δ, δ, assessment).
accounting::MfOptions engine_options(const MafaldaPrivacyOptions& options);

/// Whether LDP takes the closed form: options.ldp_path, or `automatic` beyond kMafaldaEngineLimit.
bool ldp_closed_form_chosen(const gossip::GossipMatrix& w, std::size_t rounds,
                            const MafaldaPrivacyOptions& options);

/// The result for an encoder spec: LDP from `closed_ldp` (when ldp_closed_form_chosen; spec.correlation
/// may then be empty unless PNDP is asked) or from the engine's worst node, and PNDP over every ordered
/// pair when options.pndp and n > 1.
MafaldaPrivacy assemble_privacy(const gossip::GossipMatrix& w, std::size_t rounds,
                                const MafaldaPrivacyOptions& options, const accounting::MfAlgorithmSpec& spec,
                                const std::function<accounting::MfPairResult()>& closed_ldp);

}  // namespace netdp::mf::detail
