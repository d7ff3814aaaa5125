// Figure 2 of the MF paper: Muffliato (Theorem 6) vs MF (Theorem 7) per distance.

#include "netdp/accounting/mf_compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "netdp/accounting/muffliato.hpp"
#include "netdp/accounting/muffliato_gd.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {
namespace {

struct Accumulator {
  std::size_t pairs = 0;
  double mf_sum = 0.0, mf_min = std::numeric_limits<double>::infinity(), mf_max = 0.0;
  double mu_sum = 0.0, mu_min = std::numeric_limits<double>::infinity(), mu_max = 0.0;
  void add(double mf, double muffliato) {
    ++pairs;
    mf_sum += mf;
    mf_min = std::min(mf_min, mf);
    mf_max = std::max(mf_max, mf);
    mu_sum += muffliato;
    mu_min = std::min(mu_min, muffliato);
    mu_max = std::max(mu_max, muffliato);
  }
};

}  // namespace

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

  MuffliatoOptions muffliato_options;
  muffliato_options.sigma = options.noise_std;
  muffliato_options.sensitivity = 1.0;
  DenseMatrix muffliato_mu2;  // rows: observer, columns: target
  if (variant == MuffliatoVariant::per_step) {
    muffliato_mu2 =
        muffliato_gd_all_pairs(w.matrix(), rounds, gossip_steps, muffliato_options).mu_squared(true);
  } else {
    // Step s's release is gossiped for the remaining K(T − s) rounds; compose the capped releases.
    const auto n = static_cast<Eigen::Index>(w.num_nodes());
    muffliato_mu2 = DenseMatrix::Zero(n, n);
    for (std::size_t s = 0; s < rounds; ++s) {
      const auto schedule = gossip::Schedule::fixed(w.matrix(), gossip_steps * (rounds - s));
      muffliato_mu2 += muffliato_all_pairs(schedule, muffliato_options).mu_squared(true);
    }
  }

  const graph::DistanceMatrix distances(w.graph());
  std::map<std::uint32_t, Accumulator> by_distance;
  for (const MfPairResult& pair : mf.pairs) {
    const graph::NodeId attacker = pair.privacy.observers.front();
    const graph::NodeId target = pair.privacy.target;
    const double mf_rdp = dp::gaussian_rdp(alpha, pair.privacy.mu);
    const double muffliato_rdp = dp::gaussian_rdp(alpha, std::sqrt(muffliato_mu2(attacker, target)));
    by_distance[distances.at(attacker, target)].add(mf_rdp, muffliato_rdp);
  }
  std::vector<MfComparisonRow> rows;
  for (const auto& [distance, acc] : by_distance) {
    const auto count = static_cast<double>(acc.pairs);
    rows.push_back({distance, acc.pairs, acc.mf_min, acc.mf_sum / count, acc.mf_max, acc.mu_min,
                    acc.mu_sum / count, acc.mu_max});
  }
  return rows;
}

}  // namespace netdp::accounting
