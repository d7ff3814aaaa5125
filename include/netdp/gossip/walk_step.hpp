// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One step of a random walk on a gossip matrix: the token's next holder.

#include <cstddef>

#include "netdp/util/rng.hpp"
#include "netdp/util/types.hpp"

namespace netdp::gossip {

/// The random walk's next holder after `from`: node u with probability W_from,u, from one
/// rng.uniform01() draw against the cumulative positive entries of row `from` (the last positive
/// entry takes what rounding leaves of the row's sum).
std::size_t draw_next_holder(const SparseMatrix& w, std::size_t from, util::Rng& rng);

}  // namespace netdp::gossip
