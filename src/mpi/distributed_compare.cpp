// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp compare` across the processes of a run (distributed_compare.hpp).

#include "netdp/mpi/distributed_compare.hpp"

#include <span>
#include <utility>
#include <vector>

#include "mpi/transfer.hpp"
#include "netdp/accounting/account/account_request.hpp"
#include "netdp/mpi/distributed_account.hpp"
#include "netdp/mpi/world.hpp"

namespace netdp::mpi {

namespace {
constexpr int kTagPairs = 4;
}  // namespace

std::optional<accounting::FigureTwo> distributed_figure_two(const gossip::GossipMatrix& w,
                                                            const accounting::FigureTwoSetting& setting) {
  const World world = mpi::world();
  if (!world.distributed())
    return accounting::figure_two_table(w, setting, accounting::figure_two_pairs(w, setting));
  // MF's attackers cost the most, (deg + 1)³ each.
  const std::vector<double> cost = observer_costs(w.graph(), accounting::Method::mf);
  const std::vector<std::vector<graph::NodeId>> shares =
      balanced_shares(cost, static_cast<std::size_t>(world.size));
  const std::vector<graph::NodeId>& share = shares[static_cast<std::size_t>(world.rank)];
  std::vector<accounting::ComparisonPair> mine = detail::agreed([&] {
    // An empty share computes nothing (an empty list of attackers would mean all of them).
    return share.empty() ? std::vector<accounting::ComparisonPair>{}
                         : accounting::figure_two_pairs(w, setting, share);
  });
  if (world.rank != 0) {
    detail::ByteWriter out;
    out.put_vector(std::span<const accounting::ComparisonPair>(mine));
    detail::send_bytes(out.bytes(), 0, kTagPairs);
    return std::nullopt;
  }
  std::vector<accounting::ComparisonPair> pairs = std::move(mine);
  for (int rank = 1; rank < world.size; ++rank) {
    const std::vector<char> bytes = detail::receive_bytes(rank, kTagPairs);
    detail::ByteReader in(bytes);
    const std::vector<accounting::ComparisonPair> theirs = in.get_vector<accounting::ComparisonPair>();
    pairs.insert(pairs.end(), theirs.begin(), theirs.end());
  }
  accounting::sort_comparison_pairs(pairs);  // the order of a single process
  return accounting::figure_two_table(w, setting, pairs);
}

}  // namespace netdp::mpi
