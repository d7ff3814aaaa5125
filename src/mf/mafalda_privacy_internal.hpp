#pragma once
// Private to the mf module: the engine steps shared by mafalda_privacy for one C_local and for
// one C per node (mafalda_privacy.cpp, mafalda_per_node_privacy.cpp).

#include <cstddef>

#include "netdp/accounting/mf_accountant.hpp"
#include "netdp/mf/mafalda_privacy.hpp"

namespace netdp::mf::detail {

/// The accountant's options for MafaldaPrivacyOptions (participation, ν/Δ, δ, assessment).
accounting::MfOptions engine_options(const MafaldaPrivacyOptions& options);

/// LDP through the engine: the node with the largest certified sensitivity.
accounting::MfPairResult worst_ldp_node(const gossip::GossipMatrix& w, std::size_t rounds,
                                        const accounting::MfAlgorithmSpec& spec,
                                        const accounting::MfOptions& engine);

/// PNDP over every ordered pair (attacker, target): count, mean and max of μ and ε, exactness, into out.
void account_pndp(const gossip::GossipMatrix& w, std::size_t rounds, const accounting::MfAlgorithmSpec& spec,
                  const accounting::MfOptions& engine, MafaldaPrivacy& out);

}  // namespace netdp::mf::detail
