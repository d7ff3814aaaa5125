// Accountants of the training algorithms, ε at δ through exact μ-GDP conversion, σ calibration.

#include "train_privacy.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "netdp/accounting/muffliato.hpp"
#include "netdp/accounting/muffliato_gd.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/util/check.hpp"

namespace netdp::learn {

double account_epsilon(const PrivacyAccount& account, double sigma, std::size_t rounds, double delta) {
  if (!account.mus && !account.epsilons) return 0.0;
  if (rounds == 0) return 0.0;
  if (!(sigma > 0.0)) return std::numeric_limits<double>::infinity();
  std::vector<double> epsilons;
  if (account.epsilons) {
    epsilons = account.epsilons(sigma, rounds, delta);
  } else {
    for (const double mu : account.mus(sigma, rounds))
      epsilons.push_back(mu > 0.0 ? dp::gdp_epsilon(mu, delta) : 0.0);
  }
  double total = 0.0;
  double worst = 0.0;
  for (const double e : epsilons) {
    total += e;
    worst = std::max(worst, e);
  }
  double eps = account.average && !epsilons.empty() ? total / static_cast<double>(epsilons.size()) : worst;
  // Round up (never under-report): to the next multiple of 1e-9 above the computed value.
  eps = std::ceil(eps * 1e9 + 1e-6) / 1e9;
  return eps;
}

SquaredSensitivity identity_correlation_sensitivity() {
  return [](std::size_t t) { return static_cast<double>(t); };
}

SquaredSensitivity prefix_sum_correlation_sensitivity() {
  // ‖L g‖² = Σ_t ‖Σ_{s<=t} g_s‖² <= Σ_{k=1}^t k² for ‖g_s‖ <= 1, attained by aligned g.
  return [](std::size_t t) {
    const auto x = static_cast<double>(t);
    return x * (x + 1.0) * (2.0 * x + 1.0) / 6.0;
  };
}

PrivacyAccount local_gdp_account(const TrainContext& /*ctx*/, const SquaredSensitivity& sensitivity) {
  PrivacyAccount account;
  account.accountant = "local-gdp";
  account.mus = [sensitivity](double sigma, std::size_t rounds) {
    return std::vector<double>{std::sqrt(sensitivity(rounds)) / sigma};
  };
  account.notes.push_back(
      "local-gdp: record-level μ-GDP of everything a node sends (an upper bound on every pairwise view), no "
      "subsampling amplification");
  return account;
}

namespace {

// Capped sums of the defined pairs, in a fixed order.
std::vector<double> defined_capped_sums(const accounting::MuffliatoLosses& losses) {
  std::vector<double> sums;
  sums.reserve(losses.num_observers() * losses.num_targets());
  for (std::size_t o = 0; o < losses.num_observers(); ++o) {
    for (std::size_t t = 0; t < losses.num_targets(); ++t) {
      if (losses.defined(o, t)) sums.push_back(losses.capped_sum(o, t));
    }
  }
  return sums;
}

constexpr std::size_t kMaxPairwiseNodes = 2000;

accounting::MuffliatoOptions unit_muffliato_options() {
  accounting::MuffliatoOptions options;
  options.sigma = 1.0;
  options.sensitivity = 1.0;  // record-level: sensitivity C/b against noise σC/b, i.e. μ = sqrt(S)/σ
  return options;
}

PrivacyAccount muffliato_base_account(const AlgorithmParams& p, const std::string& prefix) {
  PrivacyAccount account;
  account.average = p.calibrate_on == "mean";
  account.accountant = prefix + (account.average ? "-mean-pairwise" : "-max-pairwise");
  account.notes.push_back(
      "muffliato: the paper's message-by-message sums (Thm. 6 / 11), each step capped at the local value; "
      "not proven to bound the joint view (docs/accounting-muffliato.md)");
  return account;
}

// Theorem 11 composition: step t's capped sums (from step_losses(t)) added up; cumulative sums are
// kept at the evaluation rounds and at T; ε at round t uses the next checkpoint >= t (an upper bound).
void compose_capped_steps(PrivacyAccount& account, const AlgorithmParams& p,
                          const std::function<accounting::MuffliatoLosses(std::size_t)>& step_losses) {
  auto checkpoints = std::make_shared<std::map<std::size_t, std::vector<double>>>();
  std::vector<double> cumulative;
  for (std::size_t t = 0; t < p.rounds; ++t) {
    const std::vector<double> sums = defined_capped_sums(step_losses(t));
    if (cumulative.empty()) cumulative.assign(sums.size(), 0.0);
    for (std::size_t i = 0; i < sums.size(); ++i) cumulative[i] += sums[i];
    const std::size_t done = t + 1;
    if (done == p.rounds || (p.eval_every > 0 && done % p.eval_every == 0)) (*checkpoints)[done] = cumulative;
  }
  account.mus = [checkpoints](double sigma, std::size_t t) {
    auto it = checkpoints->lower_bound(t);
    if (it == checkpoints->end()) it = std::prev(checkpoints->end());
    std::vector<double> mus(it->second.size());
    for (std::size_t i = 0; i < mus.size(); ++i) mus[i] = std::sqrt(it->second[i]) / sigma;
    return mus;
  };
  account.notes.push_back(
      "time-varying schedule: ε between checkpoints is the next checkpoint's (upper bound)");
}

}  // namespace

PrivacyAccount muffliato_account(const TrainContext& ctx) {
  const AlgorithmParams& p = ctx.params();
  if (p.calibrate_on == "local") return local_gdp_account(ctx, identity_correlation_sensitivity());
  const std::size_t n = ctx.num_nodes();
  require(n <= kMaxPairwiseNodes,
          "privacy.calibrate_on = {}: the Muffliato all-pairs accountant on {} nodes is too expensive here "
          "(limit {}); use privacy.calibrate_on = local (a valid upper bound)",
          p.calibrate_on, n, kMaxPairwiseNodes);
  accounting::MuffliatoOptions options = unit_muffliato_options();
  PrivacyAccount account = muffliato_base_account(p, "muffliato");
  if (ctx.schedule().is_fixed()) {
    // Theorem 6: T identical steps, each capped at the local value, so S(t) = t · S(1).
    const auto one = accounting::muffliato_gd_all_pairs(ctx.schedule().at(0), 1, p.gossip_steps, options);
    auto sums = std::make_shared<std::vector<double>>(defined_capped_sums(one));
    account.mus = [sums](double sigma, std::size_t t) {
      std::vector<double> mus(sums->size());
      for (std::size_t i = 0; i < mus.size(); ++i)
        mus[i] = std::sqrt(static_cast<double>(t) * (*sums)[i]) / sigma;
      return mus;
    };
    return account;
  }
  // Theorem 11: one matrix per step.
  options.require_connected = false;  // one step's graph may be disconnected; isolated targets leak nothing
  compose_capped_steps(account, p, [&](std::size_t t) {
    return accounting::muffliato_gd_all_pairs(std::vector<SparseMatrix>{ctx.schedule().at(t)}, p.gossip_steps,
                                              options);
  });
  return account;
}

PrivacyAccount randomized_gossip_account(const TrainContext& ctx, const std::vector<graph::Edge>& ticks) {
  const AlgorithmParams& p = ctx.params();
  if (p.calibrate_on == "local") return local_gdp_account(ctx, identity_correlation_sensitivity());
  const std::size_t n = ctx.num_nodes();
  const std::size_t k = p.gossip_steps;
  require(n <= kMaxPairwiseNodes,
          "privacy.calibrate_on = {}: the Muffliato all-pairs accountant on {} nodes is too expensive here "
          "(limit {}); use privacy.calibrate_on = local (a valid upper bound)",
          p.calibrate_on, n, kMaxPairwiseNodes);
  require(k >= 1 && ticks.size() == p.rounds * k, "randomized_gossip_account: {} ticks for T = {}, K = {}",
          ticks.size(), p.rounds, k);
  PrivacyAccount account = muffliato_base_account(p, "randomized-gossip");
  accounting::MuffliatoOptions options = unit_muffliato_options();
  options.require_connected = false;  // K ticks touch few nodes; untouched targets leak nothing
  compose_capped_steps(account, p, [&](std::size_t t) {
    // Muffliato Algorithm 2's tick on edge {a, b}: W = I − (e_a − e_b)(e_a − e_b)ᵀ / 2.
    std::vector<SparseMatrix> matrices;
    matrices.reserve(k);
    for (std::size_t i = 0; i < k; ++i) {
      const graph::Edge& e = ticks[t * k + i];
      std::vector<Eigen::Triplet<double>> entries;
      entries.reserve(n + 2);
      for (std::size_t v = 0; v < n; ++v) {
        if (v != e.u && v != e.v)
          entries.emplace_back(static_cast<Eigen::Index>(v), static_cast<Eigen::Index>(v), 1.0);
      }
      for (const auto row : {e.u, e.v}) {
        for (const auto col : {e.u, e.v})
          entries.emplace_back(static_cast<Eigen::Index>(row), static_cast<Eigen::Index>(col), 0.5);
      }
      SparseMatrix w(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
      w.setFromTriplets(entries.begin(), entries.end());
      matrices.push_back(std::move(w));
    }
    return accounting::muffliato_all_pairs(gossip::Schedule::sequence(std::move(matrices)), options);
  });
  account.notes.push_back(
      "randomized-gossip: the edges are drawn from the run's seed before training (public to the accountant "
      "and to every observer, as in Muffliato Thm. 1 with a known schedule)");
  return account;
}

double calibrate_sigma(const PrivacyAccount& account, std::size_t rounds, double delta, double target) {
  require(std::isfinite(target) && target > 0.0, "privacy.target_epsilon must be finite and > 0, got {}",
          target);
  require(account.mus || account.epsilons, "privacy.target_epsilon = {}: the algorithm is not private",
          target);
  double hi = 1.0;
  while (account_epsilon(account, hi, rounds, delta) > target) {
    hi *= 2.0;
    require(hi <= 1e9, "privacy.target_epsilon = {} is not reachable with σ <= 1e9 under {}", target,
            account.accountant);
  }
  double lo = hi / 2.0;
  while (lo > 1e-6 && account_epsilon(account, lo, rounds, delta) <= target) {
    hi = lo;
    lo /= 2.0;
  }
  // Invariant: ε(hi) <= target < ε(lo) (or lo at the floor).
  while ((hi - lo) > 1e-9 * hi) {
    const double mid = 0.5 * (lo + hi);
    if (account_epsilon(account, mid, rounds, delta) <= target) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

}  // namespace netdp::learn
