// Pairwise accountants of dp-d-sgd, secure-gossip and antipgd (docs/learn.md, "Privacy"): the
// library's linear-view accountants run once before training, at round T, with σ = 1;
// μ scales as 1/σ, so every later evaluation (ε so far, calibration) is a rescaling.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "netdp/accounting/linear_system.hpp"
#include "netdp/accounting/mf_accountant.hpp"
#include "netdp/util/check.hpp"
#include "train_privacy.hpp"

namespace netdp::learn {

namespace {

// Work guards, measured on this (loaded) 2-core machine (docs/learn.md, "Privacy"):
// Koskela–Kulkarni, n(n−1)(r·T)³: 2.45e9 took 68 s (n = 50, T = 100);
// MF literal (antipgd), n·(n·T)²·(d·T): 4.1e9 took 28 s (n = 20, T = 40).
// The limit admits the KK Fig. 3 example (n = 100, T = 100: 9.9e9, a few minutes under load).
constexpr double kMaxPairwiseWork = 1.2e10;
constexpr double kMaxMfLiteralWork = 5e9;

// Squared sensitivities of every ordered pair (observer-major) at each checkpoint round.
using Checkpoints = std::map<std::size_t, std::vector<double>>;

// (b_max / b_u)² for the target u of each pair: node w's noise std is σC/b_w and a record of u
// moves its input by C/b_u. The view with every noise std lowered to σC/b_max is at least as
// informative (the real view is it plus independent Gaussian noise the observer could add), so
// sens_u · b_max/b_u / σ is a valid μ; exact when all batch sizes are equal.
std::vector<double> pair_ratios_squared(const TrainContext& ctx, const std::vector<std::size_t>& targets,
                                        bool& unequal) {
  const std::size_t n = ctx.num_nodes();
  double b_max = 0.0;
  double b_min = std::numeric_limits<double>::infinity();
  for (std::size_t v = 0; v < n; ++v) {
    b_max = std::max(b_max, ctx.batch_divisor(v));
    b_min = std::min(b_min, ctx.batch_divisor(v));
  }
  unequal = b_max > b_min;
  std::vector<double> ratios(targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const double r = b_max / ctx.batch_divisor(targets[i]);
    ratios[i] = r * r;
  }
  return ratios;
}

std::vector<graph::NodeId> all_nodes(std::size_t n) {
  std::vector<graph::NodeId> nodes(n);
  std::iota(nodes.begin(), nodes.end(), graph::NodeId{0});
  return nodes;
}

// Targets of the ordered pairs (observer-major, target != observer), the order of every all-pairs call.
std::vector<std::size_t> pair_targets(std::size_t n) {
  std::vector<std::size_t> targets;
  targets.reserve(n * (n - 1));
  for (std::size_t o = 0; o < n; ++o) {
    for (std::size_t t = 0; t < n; ++t) {
      if (t != o) targets.push_back(t);
    }
  }
  return targets;
}

// Throws unless the estimated work fits the guard (never a silent fallback to another accountant).
void require_affordable(const TrainContext& ctx, const std::string& what, double rows_per_round) {
  const AlgorithmParams& p = ctx.params();
  const auto n = static_cast<double>(ctx.num_nodes());
  double work = 0.0;
  for (const std::size_t t : checkpoint_rounds(p)) work += n * (n - 1.0) * std::pow(rows_per_round * t, 3.0);
  require(work <= kMaxPairwiseWork,
          "privacy.calibrate_on = {}: the {} accountant over {} nodes and T = {} rounds needs about {:.2g} "
          "units of work (n(n-1)(rT)^3), above the limit {:.2g}; use privacy.calibrate_on = local (a valid "
          "upper bound)",
          p.calibrate_on, what, ctx.num_nodes(), p.rounds, work, kMaxPairwiseWork);
}

// The account of checkpointed pairwise sens², each capped by the target's local view at t
// (everything the target sends: valid for every observer).
PrivacyAccount checkpointed_account(const std::string& name, bool average,
                                    std::shared_ptr<const Checkpoints> checkpoints,
                                    std::shared_ptr<const std::vector<double>> ratios2,
                                    SquaredSensitivity local) {
  PrivacyAccount account;
  account.accountant = name + (average ? "-mean-pairwise" : "-max-pairwise");
  account.average = average;
  account.mus = [checkpoints, ratios2, local](double sigma, std::size_t t) {
    const auto it = checkpoints->lower_bound(t);
    require(it != checkpoints->end(), "privacy: no checkpoint at or after round {} (last {})", t,
            checkpoints->rbegin()->first);
    const double cap = local(t);
    std::vector<double> mus(it->second.size());
    for (std::size_t i = 0; i < mus.size(); ++i)
      mus[i] = std::sqrt(std::min(it->second[i] * (*ratios2)[i], cap)) / sigma;
    return mus;
  };
  return account;
}

void add_common_notes(PrivacyAccount& account, bool all_exact, bool unequal_batches) {
  account.notes.push_back(
      all_exact ? "pairwise ε at T is exact for the view (every K_u >= 0 entrywise)"
                : "pairwise ε is an upper bound: certified sens² = min(Σ|K_u|, local cap) where K_u has "
                  "negative entries");
  account.notes.push_back("ε before round T uses min(sens²(T), local sens²(t)) per pair: an upper bound");
  if (unequal_batches) {
    account.notes.push_back("nodes have unequal batch sizes: μ scaled by b_max/b_target (an upper bound)");
  }
  account.notes.push_back("record-level, a record in every step (no subsampling amplification)");
}

struct KkResult {
  std::vector<double> sens2;
  bool all_exact = true;
};

KkResult kk_all_pairs(const TrainContext& ctx, accounting::LinearSystemView view, std::size_t rounds) {
  accounting::LinearSystemOptions options;
  options.view = view;
  options.rounds = rounds;
  accounting::PairwiseOptions pairwise;
  pairwise.delta = ctx.params().delta;
  pairwise.sign_search = accounting::SignSearch::none;
  pairwise.epsilon_mode = accounting::EpsilonMode::table;  // its ε is not used
  const auto nodes = all_nodes(ctx.num_nodes());
  const auto results = accounting::account_all_pairs(ctx.schedule(), nodes, nodes, options, pairwise);
  require(results.size() == nodes.size() * (nodes.size() - 1), "privacy: {} pairwise results for {} nodes",
          results.size(), nodes.size());
  KkResult out;
  out.sens2.reserve(results.size());
  for (const auto& r : results) {
    out.sens2.push_back(r.pair.sensitivity_squared_certified);
    out.all_exact = out.all_exact && r.pair.exact;
  }
  return out;
}

std::size_t max_closed_degree(const TrainContext& ctx) {
  std::size_t d = 0;
  for (std::size_t v = 0; v < ctx.num_nodes(); ++v)
    d = std::max(d, ctx.base().graph().degree(static_cast<graph::NodeId>(v)) + 1);
  return d;
}

}  // namespace

std::vector<std::size_t> checkpoint_rounds(const AlgorithmParams& params) {
  // One checkpoint at T: the view at t <= T is a prefix of the view at T, so sens²(t) <= sens²(T), and
  // each pair is also capped by the local sens²(t) (checkpointed_account). Checkpoints at every
  // evaluation would be tighter before T but cost Σ t³ ≈ (evaluations / 4) · T³ instead of T³.
  return {params.rounds};
}

namespace {

// Koskela–Kulkarni all-pairs accounting at T under each of `views` (every one a valid upper bound
// for the simulated algorithm): per pair the smallest certified sens², exact only if every view's is.
// `theorem` names the accountant in the cost guard's error; `rows_factor` is the rows per round of the
// largest view (for that guard).
PrivacyAccount kk_pairwise_account(const TrainContext& ctx, const std::string& name,
                                   const std::string& theorem,
                                   const std::vector<accounting::LinearSystemView>& views, double rows_factor,
                                   const std::string& note) {
  const AlgorithmParams& p = ctx.params();
  require(ctx.num_nodes() >= 2, "privacy.calibrate_on = {}: pairwise privacy needs >= 2 nodes",
          p.calibrate_on);
  require_affordable(ctx, theorem, rows_factor);
  auto checkpoints = std::make_shared<Checkpoints>();
  bool all_exact = true;
  for (const std::size_t t : checkpoint_rounds(p)) {
    std::vector<double> sens2;
    bool exact = true;
    for (const accounting::LinearSystemView view : views) {
      const KkResult r = kk_all_pairs(ctx, view, t);
      if (sens2.empty()) {
        sens2 = r.sens2;
      } else {
        for (std::size_t i = 0; i < sens2.size(); ++i) sens2[i] = std::min(sens2[i], r.sens2[i]);
      }
      exact = exact && r.all_exact;
    }
    if (t == p.rounds) all_exact = exact;
    (*checkpoints)[t] = std::move(sens2);
  }
  bool unequal = false;
  auto ratios = std::make_shared<const std::vector<double>>(
      pair_ratios_squared(ctx, pair_targets(ctx.num_nodes()), unequal));
  PrivacyAccount account = checkpointed_account(name, p.calibrate_on == "mean", checkpoints, ratios,
                                                identity_correlation_sensitivity());
  account.notes.push_back(note);
  add_common_notes(account, all_exact, unequal);
  return account;
}

}  // namespace

PrivacyAccount dp_d_sgd_pairwise_account(const TrainContext& ctx) {
  if (ctx.params().calibrate_on == "local") return local_gdp_account(ctx, identity_correlation_sensitivity());
  return kk_pairwise_account(
      ctx, "kk-thm10", "Koskela-Kulkarni Thm. 10", {accounting::LinearSystemView::plain}, 1.0,
      "Koskela-Kulkarni Thm. 10: no secure summation, adaptive, observer's own noise removed (Sec. 3.5): a "
      "bound for every observer, not only neighbours");
}

PrivacyAccount secure_gossip_pairwise_account(const TrainContext& ctx) {
  if (ctx.params().calibrate_on == "local") return local_gdp_account(ctx, identity_correlation_sensitivity());
  // Both views are valid upper bounds for secure gossip: per pair the smaller is reported.
  return kk_pairwise_account(
      ctx, "kk-secure", "Koskela-Kulkarni Thm. 9 + Thm. 10",
      {accounting::LinearSystemView::plain, accounting::LinearSystemView::secure_sum_adaptive},
      static_cast<double>(max_closed_degree(ctx)),
      "Koskela-Kulkarni Thm. 9 + Thm. 10: per pair min(secure-sum adaptive view, plain view), observer's "
      "own noise removed (Sec. 3.5)");
}

PrivacyAccount antipgd_pairwise_account(const TrainContext& ctx) {
  const AlgorithmParams& p = ctx.params();
  if (p.calibrate_on == "local") return local_gdp_account(ctx, prefix_sum_correlation_sensitivity());
  require(ctx.num_nodes() >= 2, "privacy.calibrate_on = {}: pairwise privacy needs >= 2 nodes",
          p.calibrate_on);
  require(ctx.schedule().is_fixed(),
          "privacy.calibrate_on = {}: the antipgd pairwise accountant (MF paper, PNDP) needs "
          "algorithm.schedule = fixed (got '{}'); use privacy.calibrate_on = local",
          p.calibrate_on, p.schedule);
  // The MF literal path builds a dense (d·T) × (n·T) view per attacker: work ~ n · (n·T)² · d·T.
  const auto n = static_cast<double>(ctx.num_nodes());
  const auto d = static_cast<double>(max_closed_degree(ctx));
  double work = 0.0;
  for (const std::size_t t : checkpoint_rounds(p)) work += n * (n * t) * (n * t) * (d * t);
  require(
      work <= kMaxMfLiteralWork,
      "privacy.calibrate_on = {}: the antipgd MF accountant (dense, PNDP) over {} nodes and T = {} rounds "
      "needs about {:.2g} units of work (n(nT)^2 dT), above the limit {:.2g}; use privacy.calibrate_on = "
      "local (a valid upper bound)",
      p.calibrate_on, ctx.num_nodes(), p.rounds, work, kMaxMfLiteralWork);
  accounting::MfAlgorithmSpec spec;
  spec.algorithm = accounting::MfAlgorithm::antipgd;
  accounting::MfOptions options;
  options.noise_std = 1.0;
  options.delta = p.delta;
  options.assess.sign_search = accounting::SignSearch::none;
  auto checkpoints = std::make_shared<Checkpoints>();
  bool all_exact = true;
  for (const std::size_t t : checkpoint_rounds(p)) {
    const auto result =
        accounting::account_mf_all_pairs(ctx.base(), t, spec, accounting::MfTrust::pndp, options);
    require(result.pairs.size() == ctx.num_nodes() * (ctx.num_nodes() - 1),
            "privacy: {} MF pairwise results for {} nodes", result.pairs.size(), ctx.num_nodes());
    std::vector<double> sens2;
    sens2.reserve(result.pairs.size());
    for (const auto& pair : result.pairs) {
      sens2.push_back(pair.privacy.sensitivity_squared_certified);
      if (t == p.rounds) all_exact = all_exact && pair.privacy.exact;
    }
    (*checkpoints)[t] = std::move(sens2);
  }
  bool unequal = false;
  auto ratios = std::make_shared<const std::vector<double>>(
      pair_ratios_squared(ctx, pair_targets(ctx.num_nodes()), unequal));
  PrivacyAccount account = checkpointed_account("mf-pndp", p.calibrate_on == "mean", checkpoints, ratios,
                                                prefix_sum_correlation_sensitivity());
  account.notes.push_back(
      "mf-pndp: MF paper Thm. 7 under PNDP (messages an attacker receives, its own inputs and noise known), "
      "AntiPGD view (A.3), capped by the local view");
  add_common_notes(account, all_exact, unequal);
  return account;
}

}  // namespace netdp::learn
