// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The Koskela–Kulkarni linear-system pairwise accounts (pairwise_linear_system.hpp): Theorems 8, 9
// and 10 through the linear-view engine, built once at σ = Δ = 1; and the family's registry entry.

#include "netdp/accounting/linear_system/pairwise_linear_system.hpp"

#include <limits>

#include "accounting/account/families.hpp"
#include "accounting/account/pairwise_detail.hpp"
#include "accounting/linear_system/linear_view_pairs.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {

using detail::all_nodes;
using detail::collect_warnings;
using detail::unit_pair;

std::unique_ptr<GaussianPairwiseAccount> linear_system_account(const Protocol& protocol, const PairQuery& q,
                                                               LinearSystemOptions options,
                                                               AssessOptions release,
                                                               const ProgressCallback& progress,
                                                               bool pair_fields) {
  detail::validate_query(protocol, q, Method::linear_system);
  options.rounds = protocol.rounds;
  const gossip::Schedule schedule = protocol_schedule(protocol, protocol.rounds * options.gossip_steps);
  PairwiseOptions pairwise;
  pairwise.noise_std = 1.0;
  pairwise.sign_search = release.sign_search;
  pairwise.release_dimension = release.release_dimension;
  pairwise.epsilon_mode = EpsilonMode::table;  // the engine's own ε is not used here
  const std::size_t n = protocol.network.num_nodes();
  const std::vector<graph::NodeId> targets = q.target ? std::vector<graph::NodeId>{*q.target} : all_nodes(n);
  const std::vector<graph::NodeId> observers =
      !q.colluders.empty() ? std::vector<graph::NodeId>{q.colluders.front()} : detail::asked_observers(q, n);
  // The unit μ go straight into the observers × targets grid as each observer's results arrive
  // (8 bytes a value, not a list of pairs): 16 M pairs of facebook_combined held 3.8 GB as a list.
  UnitMuGrid grid;
  grid.observers = observers;
  grid.targets = targets;
  const auto rows = static_cast<Eigen::Index>(targets.size());
  const auto cols = static_cast<Eigen::Index>(observers.size());
  // The two grids, and each pair's fields when kept (their struct and ~64 bytes on the heap).
  using KeptFields = decltype(grid.sensitivity)::value_type;
  pairwise.caller_bytes = (16.0 + (pair_fields ? static_cast<double>(sizeof(KeptFields)) + 64.0 : 0.0)) *
                          static_cast<double>(rows) * static_cast<double>(cols);
  std::vector<Eigen::Index> row_of(n, -1);
  for (Eigen::Index j = 0; j < rows; ++j) row_of[targets[static_cast<std::size_t>(j)]] = j;
  std::vector<Diagnostic> warnings;
  Eigen::Index column = -1;
  Eigen::Index last_row = -1;
  // The grids are allocated once the accountant has checked its memory (caller_bytes above).
  bool allocated = false;
  const auto allocate = [&] {
    if (allocated) return;
    grid.uncapped = DenseMatrix::Constant(rows, cols, std::numeric_limits<double>::quiet_NaN());
    grid.reported = DenseMatrix::Constant(rows, cols, std::numeric_limits<double>::quiet_NaN());
    allocated = true;
  };
  const auto keep = [&](std::span<const PairResult> results) {
    allocate();
    for (const PairResult& result : results) {
      const UnitPair p = unit_pair(result.pair, &protocol.network.graph());
      if (column < 0 || p.observer != observers[static_cast<std::size_t>(column)]) {
        ++column;
        last_row = -1;
        require(column < cols && p.observer == observers[static_cast<std::size_t>(column)],
                "linear-system account: observer {} out of order", p.observer);
      }
      const Eigen::Index row = row_of[p.target];
      require(row > last_row, "linear-system account: target {} of observer {} out of order", p.target,
              p.observer);
      last_row = row;
      grid.uncapped(row, column) = p.uncapped_unit_mu;
      (*grid.reported)(row, column) = p.unit_mu;
      if (pair_fields) grid.sensitivity.push_back(*p.sensitivity);
      collect_warnings(result.pair, &protocol.network.graph(), warnings);
    }
  };
  if (!q.colluders.empty()) {
    keep(account_coalition(schedule, q.colluders, targets, options, pairwise));
  } else {
    // Streamed observer by observer: only the compact per-pair fields are kept.
    account_pairs(schedule, observers, targets, options, pairwise, keep, progress);
  }
  allocate();
  GaussianPairwiseAccount::Info info;
  info.method = "linear-system";
  info.sensitivity = protocol.sensitivity;
  info.releases = static_cast<double>(protocol.rounds);
  info.alpha = q.alpha;
  info.diagnostics = std::move(warnings);
  return std::make_unique<GaussianPairwiseAccount>(std::move(grid), std::move(info));
}

// ------------------------------------------------------------------ the family (registry.hpp)

namespace {

std::optional<std::string> linear_system_family_refusal(const Protocol& /*protocol*/, const PairQuery& q,
                                                        const AccountRequest& /*request*/) {
  return detail::group_refusal(q);
}

std::unique_ptr<PairwiseAccount> build_linear_system(const Protocol& protocol, const PairQuery& q,
                                                     const AccountRequest& r,
                                                     const ProgressCallback& progress) {
  return linear_system_account(protocol, q, linear_system_options(r), release_options(r), progress,
                               r.pair_fields);
}

}  // namespace

const AccountantFamily& linear_system_family() {
  static constexpr AccountantFamily family{
      Method::linear_system,
      "gossip as a linear system with noise injected every round (Koskela & Kulkarni, Theorems 8, 9, 10)",
      linear_system_family_refusal, build_linear_system};
  return family;
}

}  // namespace netdp::accounting
