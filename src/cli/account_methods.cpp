#include "account_methods.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "netdp/accounting/linear_system.hpp"
#include "netdp/accounting/mf_accountant.hpp"
#include "netdp/accounting/muffliato.hpp"
#include "netdp/accounting/muffliato_gd.hpp"
#include "netdp/accounting/random_walk.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/matrix_market.hpp"
#include "network_options.hpp"

namespace netdp::cli {
namespace {

using accounting::PairSensitivity;

double default_alpha(const AccountRequest& r) { return r.alpha.value_or(2.0); }

// ε(δ) of μ-GDP; μ = 0 leaks nothing.
double gdp_epsilon_or_zero(double mu, double delta) { return mu > 0.0 ? dp::gdp_epsilon(mu, delta) : 0.0; }

// A Gaussian guarantee at σ = Δ = 1: μ = unit_mu · Δ / σ for any σ.
struct UnitPair {
  graph::NodeId observer = 0;
  graph::NodeId target = 0;
  double unit_mu = 0.0;
  double uncapped_unit_mu = 0.0;
  std::optional<SensitivityFields> sensitivity;
};

// The μ-GDP accountants (muffliato, linear-system, mf) share their rows.
class GaussianAccountant : public Accountant {
 public:
  GaussianAccountant(std::vector<UnitPair> pairs, const AccountRequest& request, double releases,
                     std::vector<std::string> warnings)
      : pairs_(std::move(pairs)),
        alpha_(default_alpha(request)),
        delta_(request.delta),
        sensitivity_(request.sensitivity),
        releases_(releases),
        warnings_(std::move(warnings)) {}

  std::vector<AccountRow> rows(double sigma) const override {
    std::vector<AccountRow> out(pairs_.size());
    const double scale = sensitivity_ / sigma;
#pragma omp parallel for schedule(dynamic, 256)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(pairs_.size()); ++i) {
      const UnitPair& p = pairs_[static_cast<std::size_t>(i)];
      AccountRow& row = out[static_cast<std::size_t>(i)];
      row.observer = p.observer;
      row.target = p.target;
      row.alpha = alpha_;
      const double mu = p.unit_mu * scale;
      const double uncapped = p.uncapped_unit_mu * scale;
      row.mu = mu;
      row.rdp_epsilon = alpha_ * mu * mu / 2.0;  // Gaussian RDP (Mironov 2017, Prop. 7)
      row.uncapped_rdp_epsilon = alpha_ * uncapped * uncapped / 2.0;
      row.capped = uncapped > mu;
      row.epsilon = gdp_epsilon_or_zero(mu, delta_);
      row.sensitivity = p.sensitivity;
    }
    return out;
  }
  bool gaussian() const override { return true; }
  double releases() const override { return releases_; }
  std::vector<std::string> warnings() const override { return warnings_; }

  /// Muffliato: T_v, the messages each node receives, enables eq. 7's mean loss.
  void set_communications(std::vector<std::size_t> communications) {
    communications_ = std::move(communications);
  }

  std::map<graph::NodeId, nlohmann::ordered_json> observer_extras(double sigma) const override {
    std::map<graph::NodeId, nlohmann::ordered_json> extras;
    const std::size_t n = communications_.size();
    for (std::size_t v = 0; v < n; ++v) {
      extras[static_cast<graph::NodeId>(v)] = {
          {"communications", communications_[v]},
          {"mean_rdp_epsilon_eq7",
           accounting::mean_privacy_loss(communications_[v], n, alpha_, sensitivity_, sigma)}};
    }
    return extras;
  }

 private:
  std::vector<UnitPair> pairs_;
  double alpha_;
  double delta_;
  double sensitivity_;
  double releases_;
  std::vector<std::string> warnings_;
  std::vector<std::size_t> communications_;
};

void require_node(std::optional<graph::NodeId> node, std::size_t n, const char* flag) {
  if (node) require(*node < n, "{} {} is out of range: the graph has nodes 0..{}", flag, *node, n - 1);
}

std::vector<graph::NodeId> all_nodes(std::size_t n) {
  std::vector<graph::NodeId> nodes(n);
  std::iota(nodes.begin(), nodes.end(), graph::NodeId{0});
  return nodes;
}

// ---------------------------------------------------------------- muffliato
// Muffliato's losses for the request: Theorem 1 (all pairs, one observer, one
// target), Theorem 12 (--colluders), Theorem 13 (--group), or Muffliato-GD
// (--gradient-steps G: Theorem 6 for a fixed W, Theorem 11 for a time-varying one,
// each of the G steps running --rounds gossip rounds).
accounting::MuffliatoLosses muffliato_losses_for(const gossip::GossipMatrix& w, const AccountRequest& r,
                                                 const accounting::MuffliatoOptions& options) {
  const gossip::Weighting weighting = gossip::parse_weighting(r.weights);
  if (r.gradient_steps > 0) {
    require(r.group.empty() && r.colluders.empty(),
            "--gradient-steps does not combine with --group or --colluders");
    if (r.schedule == "fixed")
      return accounting::muffliato_gd_all_pairs(w.matrix(), r.gradient_steps, r.rounds, options);
    // One matrix per gradient step, drawn from the schedule (e.g. a new Erdős–Rényi graph per step).
    const gossip::Schedule steps = make_schedule(w, weighting, r.schedule, r.gradient_steps, r.seed);
    std::vector<SparseMatrix> per_step;
    for (std::size_t t = 0; t < r.gradient_steps; ++t) per_step.push_back(steps.at(t));
    return accounting::muffliato_gd_all_pairs(per_step, r.rounds, options);
  }
  const gossip::Schedule schedule = make_schedule(w, weighting, r.schedule, r.rounds, r.seed);
  accounting::MuffliatoQuery query;
  if (!r.colluders.empty()) query.observers = {r.colluders};
  if (r.observer) query.observers = {{*r.observer}};
  if (!r.group.empty()) query.targets = {r.group};
  if (r.target) query.targets = {{*r.target}};
  return accounting::muffliato_losses(schedule, query, options);
}

std::unique_ptr<Accountant> make_muffliato(const gossip::GossipMatrix& w, const AccountRequest& r,
                                           const Progress& progress) {
  require(r.group.empty() || !r.target, "give either --target or --group, not both");
  accounting::MuffliatoOptions options;
  options.sigma = 1.0;
  options.sensitivity = 1.0;
  options.messages = r.authors_convention ? accounting::MessageConvention::authors_code
                                          : accounting::MessageConvention::paper;
  options.observer_noise =
      r.count_observer_noise ? accounting::ObserverNoise::counted : accounting::ObserverNoise::known;
  options.progress = progress;
  const accounting::MuffliatoLosses losses = muffliato_losses_for(w, r, options);
  std::vector<UnitPair> pairs;
  pairs.reserve(losses.num_observers() * losses.num_targets());
  for (std::size_t i = 0; i < losses.num_observers(); ++i) {
    const graph::NodeId observer = losses.observer_set(i).front();
    if (r.observer && observer != *r.observer) continue;
    for (std::size_t j = 0; j < losses.num_targets(); ++j) {
      const graph::NodeId target = losses.target_set(j).front();
      if (!losses.defined(i, j) || (r.target && target != *r.target)) continue;
      const accounting::PairLoss loss = losses.pair(i, j, default_alpha(r));
      pairs.push_back({observer, target, loss.mu, loss.uncapped_mu, {}});
    }
  }
  // Local-DP releases of the target: one per gradient step for Muffliato-GD, one per group member.
  double releases = r.gradient_steps > 0 ? static_cast<double>(r.gradient_steps) : 1.0;
  if (!r.group.empty()) releases = static_cast<double>(r.group.size());
  auto accountant =
      std::make_unique<GaussianAccountant>(std::move(pairs), r, releases, std::vector<std::string>{});
  if (r.gradient_steps == 0) {
    accountant->set_communications(accounting::communication_counts(
        make_schedule(w, gossip::parse_weighting(r.weights), r.schedule, r.rounds, r.seed)));
  }
  return accountant;
}

// ------------------------------------------------------- linear-view accountants
SensitivityFields sensitivity_fields(const PairSensitivity& p) {
  return {p.sensitivity_squared_ones,
          p.sensitivity_squared_sum_abs,
          p.sensitivity_squared_exact,
          p.sensitivity_squared_certified,
          p.sensitivity,
          p.exact};
}

UnitPair unit_pair(const PairSensitivity& p) {
  return {p.observers.empty() ? p.target : p.observers.front(), p.target, p.sensitivity, p.sensitivity,
          sensitivity_fields(p)};
}

void collect_warnings(const PairSensitivity& p, std::vector<std::string>& warnings) {
  for (const std::string& w : p.warnings) {
    if (warnings.size() >= 20) return;
    warnings.push_back(
        fmt::format("pair ({}, {}): {}", p.observers.empty() ? p.target : p.observers.front(), p.target, w));
  }
}

accounting::SignSearch parse_sign_search(const std::string& name) {
  if (name == "none") return accounting::SignSearch::none;
  if (name == "auto") return accounting::SignSearch::automatic;
  throw std::invalid_argument(fmt::format("--sign-search '{}' is not one of: none, auto", name));
}

std::unique_ptr<Accountant> make_linear_system(const gossip::GossipMatrix& w, const AccountRequest& r,
                                               const Progress& progress) {
  accounting::LinearSystemOptions options;
  options.view = accounting::parse_linear_system_view(r.view);
  options.rounds = r.rounds;
  options.first_power = r.first_power;
  options.gossip_steps = r.gossip_steps;
  options.keep_observer_noise = r.keep_observer_noise;
  const gossip::Schedule schedule =
      make_schedule(w, gossip::parse_weighting(r.weights), r.schedule, r.rounds * r.gossip_steps, r.seed);
  accounting::PairwiseOptions pairwise;
  pairwise.noise_std = 1.0;
  pairwise.delta = r.delta;
  pairwise.sign_search = parse_sign_search(r.sign_search);
  const std::size_t n = w.num_nodes();
  const std::vector<graph::NodeId> targets = r.target ? std::vector<graph::NodeId>{*r.target} : all_nodes(n);
  std::vector<UnitPair> pairs;
  std::vector<std::string> warnings;
  const auto keep = [&](std::span<const accounting::PairResult> results) {
    for (const accounting::PairResult& result : results) {
      pairs.push_back(unit_pair(result.pair));
      collect_warnings(result.pair, warnings);
    }
  };
  if (!r.colluders.empty()) {
    keep(accounting::account_coalition(schedule, r.colluders, targets, options, pairwise));
  } else {
    // Streamed observer by observer: only the compact per-pair fields are kept.
    const std::vector<graph::NodeId> observers =
        r.observer ? std::vector<graph::NodeId>{*r.observer} : all_nodes(n);
    accounting::account_pairs(schedule, observers, targets, options, pairwise, keep, progress);
  }
  return std::make_unique<GaussianAccountant>(std::move(pairs), r, static_cast<double>(r.rounds),
                                              std::move(warnings));
}

DenseMatrix read_dense_matrix(const std::string& path) {
  const util::MatrixMarketData data = util::read_matrix_market(path);
  DenseMatrix m = DenseMatrix::Zero(static_cast<Eigen::Index>(data.header.rows),
                                    static_cast<Eigen::Index>(data.header.cols));
  for (const util::MatrixMarketEntry& e : util::expand_symmetric(data)) {
    m(static_cast<Eigen::Index>(e.row), static_cast<Eigen::Index>(e.col)) += e.value;
  }
  return m;
}

std::unique_ptr<Accountant> make_mf(const gossip::GossipMatrix& w, const AccountRequest& r,
                                    const Progress& progress) {
  require(r.schedule == "fixed", "--method mf supports only --schedule fixed, got '{}'", r.schedule);
  accounting::MfAlgorithmSpec spec;
  spec.algorithm = accounting::parse_mf_algorithm(r.algorithm);
  spec.gossip_steps = r.gossip_steps;
  if (!r.correlation_path.empty()) spec.correlation = read_dense_matrix(r.correlation_path);
  require(spec.algorithm != accounting::MfAlgorithm::mf_d_sgd || !r.correlation_path.empty(),
          "--algorithm mf-d-sgd needs --correlation C.mtx");
  const accounting::MfTrust trust = accounting::parse_mf_trust(r.trust);
  accounting::MfOptions options;
  options.noise_std = 1.0;
  options.delta = r.delta;
  options.assess.sign_search = parse_sign_search(r.sign_search);
  if (r.participations > 0 || r.separation > 0) {
    options.participation = accounting::MfParticipation::cyclic(r.participations, r.separation);
  }
  options.progress = progress;
  const std::size_t n = w.num_nodes();
  accounting::MfAccounting accounting;
  const bool single_attackers = trust == accounting::MfTrust::pndp && r.colluders.empty() && !r.observer;
  if (single_attackers && !r.target) {
    accounting = accounting::account_mf_all_pairs(w, r.rounds, spec, trust, options);
  } else if (single_attackers) {
    // Every attacker against one target: one adversary at a time.
    for (graph::NodeId a = 0; a < n; ++a) {
      if (a == *r.target) continue;
      accounting::MfAccounting one = accounting::account_mf(w, r.rounds, spec, {trust, {a}},
                                                            std::vector<graph::NodeId>{*r.target}, options);
      accounting.pairs.insert(accounting.pairs.end(), one.pairs.begin(), one.pairs.end());
      accounting.theorem7.insert(accounting.theorem7.end(), one.theorem7.begin(), one.theorem7.end());
    }
  } else {
    accounting::MfAdversary adversary{trust, {}};
    if (!r.colluders.empty()) adversary.attackers = r.colluders;
    if (r.observer) adversary.attackers = {*r.observer};
    const std::vector<graph::NodeId> targets =
        r.target ? std::vector<graph::NodeId>{*r.target} : std::vector<graph::NodeId>{};
    accounting = accounting::account_mf(w, r.rounds, spec, adversary, targets, options);
  }
  std::vector<UnitPair> pairs;
  std::vector<std::string> warnings;
  for (const accounting::MfPairResult& result : accounting.pairs) {
    pairs.push_back(unit_pair(result.privacy));
    collect_warnings(result.privacy, warnings);
  }
  for (const accounting::Theorem7Check& check : accounting.theorem7) {
    if (!check.column_echelon)
      warnings.push_back("Theorem 7: A is not column-echelon (adaptive gradients not covered)");
    if (!check.factorization_holds) {
      warnings.push_back(
          fmt::format("Theorem 7: A = BC fails (range residual {:.3g})", check.range_residual));
    }
    for (const std::string& w7 : check.warnings) warnings.push_back("Theorem 7: " + w7);
    if (warnings.size() > 40) break;
  }
  const double releases =
      r.participations > 0 ? static_cast<double>(r.participations) : static_cast<double>(r.rounds);
  return std::make_unique<GaussianAccountant>(std::move(pairs), r, releases, std::move(warnings));
}

// -------------------------------------------------------------- random walk
class RandomWalkAccountant : public Accountant {
 public:
  RandomWalkAccountant(const gossip::GossipMatrix& w, const AccountRequest& r)
      : w_(w), request_(r), losses_(w, options_at(r.sigma)) {
    require(r.colluders.empty() || !r.observer, "--colluders and --observer cannot be combined");
  }

  std::vector<AccountRow> rows(double sigma) const override {
    const accounting::RandomWalkLosses losses(w_, losses_.series(), options_at(sigma));
    std::vector<std::pair<graph::NodeId, graph::NodeId>> pairs;
    const std::size_t n = w_.num_nodes();
    const graph::NodeId coalition_head = request_.colluders.empty() ? 0 : request_.colluders.front();
    for (graph::NodeId v = 0; v < n; ++v) {
      if (!request_.colluders.empty() && v != coalition_head) continue;
      if (request_.observer && v != *request_.observer) continue;
      for (graph::NodeId u = 0; u < n; ++u) {
        if (request_.target && u != *request_.target) continue;
        if (u == v ||
            std::find(request_.colluders.begin(), request_.colluders.end(), u) != request_.colluders.end()) {
          continue;
        }
        pairs.emplace_back(v, u);
      }
    }
    std::vector<AccountRow> out(pairs.size());
#pragma omp parallel for schedule(dynamic, 256)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(pairs.size()); ++i) {
      const auto [v, u] = pairs[static_cast<std::size_t>(i)];
      out[static_cast<std::size_t>(i)] = row(losses, v, u);
    }
    return out;
  }
  bool gaussian() const override { return false; }
  double releases() const override { return losses_.contributions(); }

 private:
  accounting::RandomWalkOptions options_at(double sigma) const {
    accounting::RandomWalkOptions o;
    o.steps = request_.rounds;
    o.sigma = sigma;
    o.sensitivity = request_.sensitivity;
    o.contributions = request_.contributions;
    o.view = request_.sender_known ? accounting::RandomWalkView::sender_known
                                   : accounting::RandomWalkView::anonymous_sender;
    return o;
  }

  accounting::RandomWalkPairLoss loss(const accounting::RandomWalkLosses& losses, graph::NodeId v,
                                      graph::NodeId u, double alpha) const {
    if (!request_.colluders.empty()) return losses.colluders(request_.colluders, u, alpha);
    return losses.pair(v, u, alpha);
  }

  // ε(δ): at --alpha when given, else the best order of the default grid (every
  // order gives a valid bound, dp::rdp_to_dp rounds up).
  AccountRow row(const accounting::RandomWalkLosses& losses, graph::NodeId v, graph::NodeId u) const {
    double alpha = 0.0;
    double epsilon = 0.0;
    if (request_.alpha) {
      alpha = *request_.alpha;
      const double rdp = loss(losses, v, u, alpha).rdp_epsilon;
      epsilon = dp::rdp_to_dp(dp::RdpCurve({alpha}, {rdp}), request_.delta).epsilon;
    } else {
      std::vector<double> orders = dp::default_rdp_orders();
      std::vector<double> values(orders.size());
      for (std::size_t k = 0; k < orders.size(); ++k) values[k] = loss(losses, v, u, orders[k]).rdp_epsilon;
      const dp::RdpConversion conversion =
          dp::rdp_to_dp(dp::RdpCurve(std::move(orders), std::move(values)), request_.delta);
      alpha = conversion.alpha;
      epsilon = conversion.epsilon;
    }
    const accounting::RandomWalkPairLoss l = loss(losses, v, u, alpha);
    // The view is post-processing of the token right after u's N_u steps, each a
    // Gaussian mechanism of sensitivity Δ: √N_u Δ/σ-GDP, converted exactly. It
    // caps the RDP-converted ε, which is looser than GDP for the capped pairs.
    const double local_mu = std::sqrt(l.contributions) * request_.sensitivity / losses.options().sigma;
    const double local_epsilon = gdp_epsilon_or_zero(local_mu, request_.delta);
    const bool local_cap = local_epsilon < epsilon;
    epsilon = std::min(epsilon, local_epsilon);
    AccountRow row;
    row.observer = v;
    row.target = u;
    row.alpha = alpha;
    row.rdp_epsilon = l.rdp_epsilon;
    row.uncapped_rdp_epsilon = l.uncapped_rdp_epsilon;
    row.epsilon = epsilon;
    row.capped = l.capped || local_cap;
    row.contributions = l.contributions;
    row.condition_ok = l.condition_ok;
    return row;
  }

  const gossip::GossipMatrix& w_;
  AccountRequest request_;
  accounting::RandomWalkLosses losses_;
};

}  // namespace

std::unique_ptr<Accountant> make_accountant(const gossip::GossipMatrix& w, const AccountRequest& r,
                                            const Progress& progress) {
  const std::size_t n = w.num_nodes();
  require(n >= 2, "accounting needs at least 2 nodes, got {}", n);
  require_positive(r.sigma, "--sigma");
  require_positive(r.sensitivity, "--sensitivity");
  require(r.rounds >= 1, "--rounds must be >= 1, got {}", r.rounds);
  require(r.delta > 0.0 && r.delta < 1.0, "--delta must be in (0, 1), got {}", r.delta);
  if (r.alpha) require(std::isfinite(*r.alpha) && *r.alpha > 1.0, "--alpha must be > 1, got {}", *r.alpha);
  require_node(r.observer, n, "--observer");
  require_node(r.target, n, "--target");
  for (graph::NodeId c : r.colluders) require(c < n, "--colluders: node {} is out of range 0..{}", c, n - 1);
  for (graph::NodeId g : r.group) require(g < n, "--group: node {} is out of range 0..{}", g, n - 1);
  require(r.method == "muffliato" || (r.group.empty() && r.gradient_steps == 0),
          "--group and --gradient-steps apply to --method muffliato only");
  require(!(r.observer && !r.colluders.empty()), "give either --observer or --colluders, not both");
  require(!(r.observer && r.target && *r.observer == *r.target),
          "--observer and --target are the same node {}", *r.target);
  if (r.method == "muffliato") return make_muffliato(w, r, progress);
  if (r.method == "random-walk") {
    require(r.schedule == "fixed", "--method random-walk needs --schedule fixed, got '{}'", r.schedule);
    return std::make_unique<RandomWalkAccountant>(w, r);
  }
  if (r.method == "linear-system") return make_linear_system(w, r, progress);
  if (r.method == "mf") return make_mf(w, r, progress);
  throw std::invalid_argument(
      fmt::format("--method '{}' is not one of: muffliato, random-walk, linear-system, mf", r.method));
}

}  // namespace netdp::cli
