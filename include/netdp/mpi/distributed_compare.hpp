// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// `netdp compare` across the processes of a run (docs/reference/mpi.md): the attackers are split into shares
// of about equal cost (mf's (deg + 1)³, which dominates), each rank computes its share's pairs
// (accounting::figure_two_pairs), and rank 0 puts every pair in the order of a single process
// before it summarises them, so that the table is the same to the bit.

#include <optional>

#include "netdp/accounting/mf/mf_compare.hpp"
#include "netdp/gossip/gossip_matrix.hpp"

namespace netdp::mpi {

/// accounting::figure_two across the processes of mpi::world(): the table on rank 0, nullopt on
/// the other ranks. In a single process, exactly figure_two_table(w, setting, figure_two_pairs(w,
/// setting)). A failure on any rank throws on every rank, with that rank's message.
std::optional<accounting::FigureTwo> distributed_figure_two(const gossip::GossipMatrix& w,
                                                            const accounting::FigureTwoSetting& setting);

}  // namespace netdp::mpi
