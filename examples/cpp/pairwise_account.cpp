// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The pairwise-account API as a user calls it (docs/reference/accounting.md, "The C++ API"): build an account
// once, query one pair, calibrate σ to a target ε, and stream every pair into a summary by distance.
#include <cstdio>
#include <span>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/account/pairwise_summary.hpp"
#include "netdp/accounting/muffliato/pairwise_muffliato.hpp"
#include "netdp/gossip/network_spec.hpp"

int main() {
  using namespace netdp;
  // The protocol: Zachary's karate club with Hamilton weights, 20 rounds of Muffliato gossip, Δ = 1.
  accounting::Protocol protocol(gossip::load_network({"karate", false, gossip::Weighting::hamilton}));
  protocol.rounds = 20;

  // Build once, at unit noise: every ordered (observer, target) pair.
  const auto account = accounting::muffliato_account(protocol, {}, accounting::MuffliatoOptions{});

  // One pair at σ = 1, δ = 1e-5.
  accounting::PairQuery one;
  one.observer = 0;
  one.target = 33;
  const accounting::PairRow row = accounting::muffliato_account(protocol, one, {})->rows(1.0, 1e-5).front();
  std::printf("pair (0, 33): mu = %.6f, epsilon = %.6f\n", *row.mu, row.epsilon);

  // The smallest σ whose mean ε over all pairs is at most 1.
  const accounting::Calibration c =
      accounting::calibrate_sigma(*account, accounting::Statistic::mean, 1.0, 1e-5);
  std::printf("sigma = %.6f gives mean epsilon %.6f\n", c.sigma, c.achieved_epsilon);

  // Every pair at that σ, in chunks of whole observer blocks, into a summary by hop distance.
  accounting::SummaryBuilder summary;
  std::vector<accounting::PairRow> rows;  // each chunk's rows, with their hop distances
  account->stream_rows(c.sigma, 1e-5, [&](std::span<const accounting::PairRow> block) {
    summary.add_with_distances(block, rows, &protocol.network.graph(), {});
  });
  const accounting::PairwiseSummary s = summary.finish();
  for (const accounting::DistanceSummary& d : s.by_distance) {
    std::printf("distance %u: %zu pairs, mean epsilon %.4f, max %.4f\n", *d.distance, d.epsilon.count,
                d.epsilon.mean, d.epsilon.max);
  }
  std::printf("pairs=%zu\n", s.pairs);
  return 0;
}
