// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One account across the processes of a run (docs/reference/mpi.md). The observers are split into shares
// of about equal cost, one per rank; each rank builds the account of its share
// (accounting::make_account with PairQuery::observers), the expensive part. Rank 0 then holds the
// account of every observer:
//
//   Gaussian accounts (Muffliato, linear-system, MF): each rank sends its unit-μ grid, and rank 0
//   joins them (accounting::join_gaussian_accounts) into the account a single process builds.
//   Random walk: its rows are computed at each (σ, δ); rank 0 asks every rank for its share's rows
//   and streams them in observer order after its own.
//
// Every output is computed by rank 0 from the same pairs in the same order as in one process:
// the same summaries, quantiles and calibration, to the bit.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/account/progress.hpp"

namespace netdp::mpi {

/// The relative cost of accounting each observer (index = node) of g by `method`: (deg + 1)³ for
/// `mf` (its Gram matrices grow with the observer's neighbourhood), deg + 1 for Muffliato and
/// linear-system (the deg·T messages an observer hears), 1 for the random walk (the same work per
/// pair).
std::vector<double> observer_costs(const graph::Graph& g, accounting::Method method);

/// Shares of the observers 0..n−1 (n = cost.size()) of about equal cost, `parts` of them: the
/// costliest observers first (ties: the lower node first), each to the share with the least cost
/// so far (ties: the lower share), the longest-processing-time rule. Each share is increasing. The
/// costs are estimates: the exact view's certificate can take a hundred times longer on one
/// observer than on another of the same degree, which a deal of many observers evens out where
/// consecutive blocks would not.
std::vector<std::vector<graph::NodeId>> balanced_shares(std::span<const double> cost, std::size_t parts);

/// Consecutive shares of the observers 0..n−1, `parts` of them, their sizes differing by at most
/// one (the first ones larger): rank order is then observer order, as a stream of rows needs.
std::vector<std::vector<graph::NodeId>> consecutive_shares(std::size_t n, std::size_t parts);

/// Whether a run of many processes splits this query's observers: not for one observer, a
/// coalition or a group of targets (one view, built by rank 0), nor for Muffliato's exact view
/// of a graph with known symmetries (which computes one observer per orbit and copies the rest).
bool splits_observers(const accounting::Protocol& protocol, const accounting::PairQuery& query,
                      const accounting::AccountRequest& request);

/// What one rank did: how many observers it accounted and how long its share's build took.
struct ShareReport {
  int rank = 0;
  std::size_t observers = 0;
  double seconds = 0.0;
};

/// accounting::make_account across the processes of mpi::world(). In a single process, exactly
/// make_account. Otherwise every rank calls it with the same arguments: rank 0 gets the account of
/// every observer; the other ranks get nullptr once rank 0 has what it needs from them (for the
/// random walk, when rank 0's account is destroyed). A build that fails on any rank throws on
/// every rank, with that rank's message. On rank 0, `shares` (when given) receives each rank's
/// report when the observers were split (empty otherwise).
std::unique_ptr<accounting::PairwiseAccount> make_distributed_account(
    const accounting::Protocol& protocol, const accounting::PairQuery& query,
    const accounting::AccountRequest& request, const accounting::ProgressCallback& progress = {},
    std::vector<ShareReport>* shares = nullptr);

}  // namespace netdp::mpi
