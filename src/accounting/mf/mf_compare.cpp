// Figure 2 of the MF paper: Muffliato (Theorem 6, and the exact joint view) vs MF (Theorem 7) per
// distance.

#include "netdp/accounting/mf/mf_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "netdp/accounting/account/pairwise_summary.hpp"
#include "netdp/accounting/linear_system/pairwise_linear_system.hpp"
#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/accounting/muffliato/muffliato_gd.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {
std::vector<MfComparisonRow> compare_with_muffliato(const gossip::GossipMatrix& w, std::size_t rounds,
                                                    std::size_t gossip_steps, double alpha,
                                                    const MfOptions& options, MuffliatoVariant variant) {
  require(std::isfinite(alpha) && alpha > 1.0, "alpha (Rényi order) must be > 1, got {}", alpha);
  require(options.participation.kind == MfParticipation::Kind::every_round,
          "the Muffliato comparison is node-level: participation must be every round");
  require(graph::is_connected(w.graph()), "the Muffliato comparison needs a connected graph");
  require(gossip_steps >= 1, "gossip_steps (K) must be >= 1, got {}", gossip_steps);

  MfAlgorithmSpec spec;
  spec.algorithm = gossip_steps == 1 ? MfAlgorithm::dp_d_sgd : MfAlgorithm::muffliato_sgd;
  spec.gossip_steps = gossip_steps;
  const MfAccounting mf = account_mf_all_pairs(w, rounds, spec, MfTrust::pndp, options);

  // Muffliato's μ² for every pair, rows: observer, columns: target.
  const auto muffliato_mu2 = [&](MuffliatoBound bound) {
    MuffliatoOptions muffliato_options;
    muffliato_options.bound = bound;
    muffliato_options.sigma = options.noise_std;
    muffliato_options.sensitivity = 1.0;
    if (variant == MuffliatoVariant::per_step) {
      return muffliato_gd_all_pairs(w.matrix(), rounds, gossip_steps, muffliato_options).mu_squared(true);
    }
    // Step s's release is gossiped for the remaining K(T − s) rounds; compose the capped releases.
    const auto n = static_cast<Eigen::Index>(w.num_nodes());
    DenseMatrix sum = DenseMatrix::Zero(n, n);
    for (std::size_t s = 0; s < rounds; ++s) {
      const auto schedule = gossip::Schedule::fixed(w.matrix(), gossip_steps * (rounds - s));
      sum += muffliato_all_pairs(schedule, muffliato_options).mu_squared(true);
    }
    return sum;
  };
  const DenseMatrix paper_mu2 = muffliato_mu2(MuffliatoBound::paper);
  const DenseMatrix exact_mu2 = muffliato_mu2(MuffliatoBound::exact);

  const graph::DistanceMatrix distances(w.graph());
  RangesByDistance mf_rdp;
  RangesByDistance muffliato_rdp;
  RangesByDistance exact_rdp;
  for (const MfPairResult& pair : mf.pairs) {
    const graph::NodeId attacker = pair.privacy.observers.front();
    const graph::NodeId target = pair.privacy.target;
    const std::uint32_t distance = distances.at(attacker, target);
    mf_rdp.add(distance, dp::gaussian_rdp(alpha, pair.privacy.mu));
    muffliato_rdp.add(distance, dp::gaussian_rdp(alpha, std::sqrt(paper_mu2(attacker, target))));
    exact_rdp.add(distance, dp::gaussian_rdp(alpha, std::sqrt(exact_mu2(attacker, target))));
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

FigureTwo figure_two(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t gossip_steps,
                     double sigma, double alpha, MuffliatoVariant variant, bool with_secure_sum) {
  require(std::isfinite(sigma) && sigma > 0.0, "`sigma` must be a finite number > 0, got {}", sigma);
  MfOptions options;
  options.noise_std = sigma;
  FigureTwo out;
  out.rows = compare_with_muffliato(w, rounds, gossip_steps, alpha, options, variant);
  if (with_secure_sum && gossip_steps != 1) {
    out.secure_sum_omitted = fmt::format(
        "the secure-sum columns are omitted: Koskela-Kulkarni secure summation is defined for --gossip-steps "
        "1, "
        "not {}",
        gossip_steps);
  } else if (with_secure_sum) {
    // Theorem 8 with the observer's noise removed: every pair's μ-GDP as Rényi ε at α.
    Protocol protocol(w);
    protocol.rounds = rounds;
    PairQuery query;
    query.alpha = alpha;
    LinearSystemOptions secure;
    secure.view = LinearSystemView::secure_sum;
    const auto account = linear_system_account(protocol, query, secure);
    std::vector<PairRow> rows = account->rows(sigma, 0.5);
    fill_distances(rows, w.graph(), query);
    RangesByDistance by_distance;
    for (const PairRow& row : rows) by_distance.add(*row.distance, row.rdp_epsilon);
    out.secure_sum = by_distance.ranges();
  }
  const double local_mu2 = static_cast<double>(rounds) / (sigma * sigma);
  out.local_dp = dp::gaussian_rdp(alpha, std::sqrt(local_mu2));
  out.central_dp = dp::gaussian_rdp(alpha, std::sqrt(local_mu2 / static_cast<double>(w.num_nodes())));
  return out;
}

}  // namespace netdp::accounting
