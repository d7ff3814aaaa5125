// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Gossip matrices in Matrix Market coordinate format (real, general or symmetric),
// on top of netdp/util/matrix_market.hpp. The graph is derived from the support.

#include <iosfwd>
#include <string>

#include "netdp/gossip/gossip_matrix.hpp"

namespace netdp::gossip {

/// Parses W from a Matrix Market stream (`source` names it in errors) and
/// validates it as GossipMatrix::from_support does. Repeated entries throw.
GossipMatrix parse_gossip_matrix_market(std::istream& in, const std::string& source);

/// Reads W from a Matrix Market file.
GossipMatrix read_gossip_matrix_market(const std::string& path);

/// Writes W as `real general` with 17 significant digits (exact round trip).
void write_gossip_matrix_market(std::ostream& out, const GossipMatrix& w);
void write_gossip_matrix_market(const std::string& path, const GossipMatrix& w);

}  // namespace netdp::gossip
