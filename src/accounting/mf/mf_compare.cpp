// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Figure 2 of the MF paper: Muffliato (Theorem 6, and the exact joint view) vs MF (Theorem 7) per
// distance.

#include "netdp/accounting/mf/mf_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "netdp/accounting/account/pairwise_summary.hpp"
#include "netdp/accounting/linear_system/pairwise_linear_system.hpp"
#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/accounting/muffliato/muffliato_gd.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {
namespace {

/// The attackers of a share, every node when empty.
std::vector<graph::NodeId> share_or_all(std::span<const graph::NodeId> attackers, std::size_t n) {
  std::vector<graph::NodeId> share(attackers.begin(), attackers.end());
  if (share.empty()) {
    share.resize(n);
    std::iota(share.begin(), share.end(), graph::NodeId{0});
  }
  return share;
}

/// Muffliato's μ² of every attacker of `share` (rows, in share order) against every node (columns).
DenseMatrix muffliato_mu2(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t gossip_steps,
                          const std::vector<graph::NodeId>& share, double sigma, MuffliatoBound bound,
                          MuffliatoVariant variant) {
  MuffliatoOptions options;
  options.bound = bound;
  options.sigma = sigma;
  options.sensitivity = 1.0;
  MuffliatoQuery query;
  for (const graph::NodeId a : share) query.observers.push_back({a});
  // A share's exact views are those of the whole run only when chosen on every observer.
  for (graph::NodeId v = 0; v < w.num_nodes(); ++v) query.population.push_back({v});
  if (variant == MuffliatoVariant::per_step) {
    // Theorem 6's accounting: each step's release over its own K rounds (with `bound`'s sums).
    return muffliato_gd_repeat(
               muffliato_losses(gossip::Schedule::fixed(w.matrix(), gossip_steps), query, options), rounds)
        .mu_squared(true);
  }
  // Step s's release is gossiped for the remaining K(T − s) rounds; compose the capped releases.
  DenseMatrix sum =
      DenseMatrix::Zero(static_cast<Eigen::Index>(share.size()), static_cast<Eigen::Index>(w.num_nodes()));
  for (std::size_t s = 0; s < rounds; ++s) {
    const auto schedule = gossip::Schedule::fixed(w.matrix(), gossip_steps * (rounds - s));
    sum += muffliato_losses(schedule, query, options).mu_squared(true);
  }
  return sum;
}

}  // namespace

std::vector<ComparisonPair> comparison_pairs(const gossip::GossipMatrix& w, std::size_t rounds,
                                             std::size_t gossip_steps, double alpha, const MfOptions& options,
                                             MuffliatoVariant variant,
                                             std::span<const graph::NodeId> attackers) {
  require(std::isfinite(alpha) && alpha > 1.0, "alpha (Rényi order) must be > 1, got {}", alpha);
  require(options.participation.kind == MfParticipation::Kind::every_round,
          "the Muffliato comparison is node-level: participation must be every round");
  require(graph::is_connected(w.graph()), "the Muffliato comparison needs a connected graph");
  require(gossip_steps >= 1, "gossip_steps (K) must be >= 1, got {}", gossip_steps);
  const std::vector<graph::NodeId> share = share_or_all(attackers, w.num_nodes());

  MfAlgorithmSpec spec;
  spec.algorithm = gossip_steps == 1 ? MfAlgorithm::dp_d_sgd : MfAlgorithm::muffliato_sgd;
  spec.gossip_steps = gossip_steps;
  const MfAccounting mf = account_mf_all_pairs(w, rounds, spec, MfTrust::pndp, options, share);
  const DenseMatrix paper_mu2 =
      muffliato_mu2(w, rounds, gossip_steps, share, options.noise_std, MuffliatoBound::paper, variant);
  const DenseMatrix exact_mu2 =
      muffliato_mu2(w, rounds, gossip_steps, share, options.noise_std, MuffliatoBound::exact, variant);

  std::vector<ComparisonPair> pairs;
  pairs.reserve(mf.pairs.size());
  std::size_t row = 0;  // the attacker's row in the μ² matrices: pairs come attacker by attacker
  for (const MfPairResult& pair : mf.pairs) {
    const graph::NodeId attacker = pair.privacy.observers.front();
    const graph::NodeId target = pair.privacy.target;
    while (row < share.size() && share[row] != attacker) ++row;
    require(row < share.size(), "the MF account's attacker {} is not in the share, in its order", attacker);
    const auto r = static_cast<Eigen::Index>(row);
    const auto c = static_cast<Eigen::Index>(target);
    pairs.push_back({attacker, target, dp::gaussian_rdp(alpha, pair.privacy.mu),
                     dp::gaussian_rdp(alpha, std::sqrt(paper_mu2(r, c))),
                     dp::gaussian_rdp(alpha, std::sqrt(exact_mu2(r, c)))});
  }
  return pairs;
}

void sort_comparison_pairs(std::vector<ComparisonPair>& pairs) {
  std::sort(pairs.begin(), pairs.end(), [](const ComparisonPair& a, const ComparisonPair& b) {
    return std::pair(a.attacker, a.target) < std::pair(b.attacker, b.target);
  });
}

std::vector<MfComparisonRow> comparison_rows(const graph::Graph& graph,
                                             std::span<const ComparisonPair> pairs) {
  const graph::DistanceMatrix distances(graph);
  RangesByDistance mf_rdp;
  RangesByDistance muffliato_rdp;
  RangesByDistance exact_rdp;
  for (const ComparisonPair& pair : pairs) {
    const std::uint32_t distance = distances.at(pair.attacker, pair.target);
    mf_rdp.add(distance, pair.mf);
    muffliato_rdp.add(distance, pair.muffliato);
    exact_rdp.add(distance, pair.muffliato_exact);
  }
  std::vector<MfComparisonRow> rows;
  const auto muffliato_ranges = muffliato_rdp.ranges();
  const auto mf_ranges = mf_rdp.ranges();
  const auto exact_ranges = exact_rdp.ranges();
  for (std::size_t i = 0; i < mf_ranges.size(); ++i) {
    const auto& [distance, mf] = mf_ranges[i];
    const Range& mu = muffliato_ranges[i].second;  // the same pairs, so the same distances
    const Range& exact = exact_ranges[i].second;
    rows.push_back({distance, mf.count, mf.min, mf.mean, mf.max, mu.min, mu.mean, mu.max, exact.min,
                    exact.mean, exact.max});
  }
  return rows;
}

std::vector<MfComparisonRow> compare_with_muffliato(const gossip::GossipMatrix& w, std::size_t rounds,
                                                    std::size_t gossip_steps, double alpha,
                                                    const MfOptions& options, MuffliatoVariant variant) {
  return comparison_rows(w.graph(), comparison_pairs(w, rounds, gossip_steps, alpha, options, variant));
}

namespace {

/// Why the secure-summation columns are left out, or empty when they are computed.
std::string secure_sum_omission(const FigureTwoSetting& setting) {
  if (!setting.with_secure_sum || setting.gossip_steps == 1) return {};
  return fmt::format(
      "the secure-sum columns are omitted: Koskela-Kulkarni secure summation is defined for --gossip-steps "
      "1, "
      "not {}",
      setting.gossip_steps);
}

bool computes_secure_sum(const FigureTwoSetting& setting) {
  return setting.with_secure_sum && setting.gossip_steps == 1;
}

}  // namespace

std::vector<ComparisonPair> figure_two_pairs(const gossip::GossipMatrix& w, const FigureTwoSetting& setting,
                                             std::span<const graph::NodeId> attackers) {
  require(std::isfinite(setting.sigma) && setting.sigma > 0.0, "`sigma` must be a finite number > 0, got {}",
          setting.sigma);
  MfOptions options;
  options.noise_std = setting.sigma;
  std::vector<ComparisonPair> pairs = comparison_pairs(w, setting.rounds, setting.gossip_steps, setting.alpha,
                                                       options, setting.variant, attackers);
  if (!computes_secure_sum(setting)) return pairs;
  // Theorem 8 with the observer's noise removed: every pair's μ-GDP as Rényi ε at α.
  Protocol protocol(w);
  protocol.rounds = setting.rounds;
  PairQuery query;
  query.alpha = setting.alpha;
  query.observers.assign(attackers.begin(), attackers.end());
  LinearSystemOptions secure;
  secure.view = LinearSystemView::secure_sum;
  const auto account = linear_system_account(protocol, query, secure);
  std::vector<PairRow> rows = account->rows(setting.sigma, 0.5);
  std::sort(rows.begin(), rows.end(), [](const PairRow& a, const PairRow& b) {
    return std::pair(a.observer, a.target) < std::pair(b.observer, b.target);
  });
  require(rows.size() == pairs.size(), "the secure-sum account has {} pairs, the comparison {}", rows.size(),
          pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    require(rows[i].observer == pairs[i].attacker && rows[i].target == pairs[i].target,
            "the secure-sum account's pair {} is ({}, {}), the comparison's ({}, {})", i, rows[i].observer,
            rows[i].target, pairs[i].attacker, pairs[i].target);
    pairs[i].secure_sum = rows[i].rdp_epsilon;
  }
  return pairs;
}

FigureTwo figure_two_table(const gossip::GossipMatrix& w, const FigureTwoSetting& setting,
                           std::span<const ComparisonPair> pairs) {
  FigureTwo out;
  out.rows = comparison_rows(w.graph(), pairs);
  out.secure_sum_omitted = secure_sum_omission(setting);
  if (computes_secure_sum(setting)) {
    const graph::DistanceMatrix distances(w.graph());
    RangesByDistance by_distance;
    for (const ComparisonPair& pair : pairs)
      by_distance.add(distances.at(pair.attacker, pair.target), pair.secure_sum);
    out.secure_sum = by_distance.ranges();
  }
  const double local_mu2 = static_cast<double>(setting.rounds) / (setting.sigma * setting.sigma);
  out.local_dp = dp::gaussian_rdp(setting.alpha, std::sqrt(local_mu2));
  out.central_dp = dp::gaussian_rdp(setting.alpha, std::sqrt(local_mu2 / static_cast<double>(w.num_nodes())));
  return out;
}

FigureTwo figure_two(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t gossip_steps,
                     double sigma, double alpha, MuffliatoVariant variant, bool with_secure_sum) {
  const FigureTwoSetting setting{rounds, gossip_steps, sigma, alpha, variant, with_secure_sum};
  return figure_two_table(w, setting, figure_two_pairs(w, setting));
}

}  // namespace netdp::accounting
