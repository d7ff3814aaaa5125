// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The random walk's pairwise account (pairwise_random_walk.hpp): Theorem 3 of Cyffers, Bellet & Upadhyay
// (Appendix D for colluders) converted to (ε, δ) per pair and capped by the local GDP of the
// target's contributions. The series S_T(W) and the targets' visit tails are computed once; each
// (σ, δ) re-evaluates the pairs with each target's count bound N_u (random_walk_visits.hpp).

#include "netdp/accounting/random_walk/pairwise_random_walk.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>

#include "accounting/account/families.hpp"
#include "accounting/account/pairwise_detail.hpp"
#include "netdp/accounting/random_walk/random_walk_visits.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/dp/rdp_converter.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {

namespace {

/// The options of the RandomWalkLosses the account evaluates with: every pair passes its target's
/// count explicitly, so the object's own default (T/n, which needs a doubly stochastic W) is not
/// used and is replaced by a placeholder, except for ContributionCount::expected, which is T/n.
RandomWalkOptions series_options(RandomWalkOptions options) {
  if (options.count != ContributionCount::expected)
    options.contributions = options.contributions.value_or(1.0);
  return options;
}

/// Whether each target's count is its visit tail's quantile (no cap given, count `tail`).
bool uses_tail_count(const RandomWalkOptions& options) {
  return !options.contributions && options.count == ContributionCount::tail;
}

class RandomWalkAccount final : public PairwiseAccount {
 public:
  RandomWalkAccount(const Protocol& protocol, PairQuery query, RandomWalkOptions options,
                    std::shared_ptr<const RandomWalkSeries> series)
      : network_(protocol.network),
        query_(std::move(query)),
        options_(std::move(options)),
        series_(std::move(series)) {
    const std::size_t n = network_.num_nodes();
    const graph::NodeId coalition_head = query_.colluders.empty() ? 0 : query_.colluders.front();
    for (graph::NodeId v = 0; v < n; ++v) {
      if (!query_.colluders.empty() && v != coalition_head) continue;
      if (query_.colluders.empty() && !detail::asks_observer(query_, v)) continue;
      observers_.push_back(v);
    }
    for (graph::NodeId u = 0; u < n; ++u) {
      if (query_.target && u != *query_.target) continue;
      if (std::find(query_.colluders.begin(), query_.colluders.end(), u) != query_.colluders.end()) continue;
      targets_.push_back(u);
    }
    // A lone observer is no pair's target (with two or more, every target pairs with one of them;
    // a share of one observer keeps every target, as the account of all observers does).
    if (observers_.size() == 1 && query_.observers.empty()) std::erase(targets_, observers_.front());
    for (const graph::NodeId v : observers_) pair_count_ += observer_pair_count(v);
    if (!uses_tail_count(options_)) return;
    // Each target's visit tail, once (every σ and δ reads it).
    tails_.resize(n);
    std::vector<std::vector<double>> tails =
        series_->returns
            ? spectral_visit_tail_bounds(network_, *series_->returns, targets_, options_.steps,
                                         kVisitTailFloor, options_.progress)
            : visit_tail_bounds(network_, targets_, options_.steps, kVisitTailFloor, options_.progress);
    for (std::size_t k = 0; k < targets_.size(); ++k) tails_[targets_[k]] = std::move(tails[k]);
  }

  Guarantee guarantee() const override {
    return !options_.contributions && options_.count == ContributionCount::expected ? Guarantee::paper_formula
                                                                                    : Guarantee::upper_bound;
  }

  std::string_view method() const override { return "random-walk"; }
  bool gaussian() const override { return false; }
  double releases(double delta) const override {
    double most = 0.0;
    for (const Count& c : counts(delta)) most = std::max(most, c.visits);
    return most;
  }
  double sensitivity() const override { return options_.sensitivity; }

  dp::RdpCurve rdp_curve(graph::NodeId observer, graph::NodeId target, double sigma,
                         double delta) const override {
    require(observer != target && std::binary_search(observers_.begin(), observers_.end(), observer) &&
                std::binary_search(targets_.begin(), targets_.end(), target),
            "({}, {}) is not a pair of this account", observer, target);
    const RandomWalkLosses losses(network_, series_, options_at(sigma));
    const double visits = count(target, delta).visits;
    std::vector<double> orders = dp::default_rdp_orders();
    std::vector<double> values;
    const RandomWalkLosses::Driver d = driver(losses, observer, target);
    for (const double alpha : orders) values.push_back(losses.loss(d, alpha, visits).rdp_epsilon);
    return dp::RdpCurve(std::move(orders), std::move(values));
  }

  void stream_rows(double sigma, double delta, const RowSink& sink) const override {
    detail::require_evaluation(sigma, delta);
    const RandomWalkLosses losses(network_, series_, options_at(sigma));
    const Conversions conversions = conversions_at(losses, sigma, delta);
    std::vector<PairRow> rows;
    std::vector<std::pair<graph::NodeId, graph::NodeId>> pairs;  // (observer, target) of each row
    std::size_t next_observer = 0;
    while (next_observer < observers_.size()) {
      // Whole observers, at least kRowChunk pairs unless the observers run out.
      pairs.clear();
      while (next_observer < observers_.size() && pairs.size() < detail::kRowChunk) {
        const graph::NodeId v = observers_[next_observer++];
        for (const graph::NodeId u : targets_)
          if (u != v) pairs.emplace_back(v, u);
      }
      rows.resize(pairs.size());
      util::ParallelErrors errors;
#pragma omp parallel
      {
        std::optional<RowCache> cache;
        errors.run(-1, [&] { cache.emplace(conversions.steps.size()); });
#pragma omp for schedule(dynamic, 64)
        for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(rows.size()); ++i) {
          errors.run(i, [&] {
            if (!cache) return;
            const auto [v, u] = pairs[static_cast<std::size_t>(i)];
            PairRow& out = rows[static_cast<std::size_t>(i)];
            out = cache->row(losses, driver(losses, v, u), conversions, conversions.per_target[u], *this);
            out.observer = v;
            out.target = u;
          });
        }
      }
      errors.rethrow();
      if (!rows.empty()) sink(rows);
    }
  }

  std::size_t pair_count() const override { return pair_count_; }

 private:
  RandomWalkOptions options_at(double sigma) const {
    RandomWalkOptions o = series_options(options_);
    o.sigma = sigma;
    return o;
  }

  // A bound on the target's contributions and the probability β that it fails (spent from δ).
  struct Count {
    double visits = 0.0;
    double failure = 0.0;
  };

  // A target's count with the local-DP cap of its contributions at (σ, δ − failure): each is a
  // Gaussian mechanism of sensitivity Δ, so N_u of them are √N_u Δ/σ-GDP, converted exactly.
  struct TargetCap {
    Count count;
    double local_epsilon = 0.0;
    std::size_t converter = 0;  ///< Conversions::converters' entry for δ − count.failure
  };

  Count count(graph::NodeId u, double delta) const {
    if (options_.contributions) return {*options_.contributions, 0.0};
    switch (options_.count) {
      case ContributionCount::expected:
        return {static_cast<double>(options_.steps) / static_cast<double>(network_.num_nodes()), 0.0};
      case ContributionCount::worst_case:
        return {static_cast<double>(max_visits(network_, u, options_.steps)), 0.0};
      case ContributionCount::tail:
        break;
    }
    // The tail's quantile, unless it is no better than the worst case (which costs no δ).
    const double beta = options_.tail_share * delta;
    const std::size_t bound = visit_bound(tails_[u], beta);
    const std::size_t worst = max_visits(network_, u, options_.steps);
    if (bound >= worst) return {static_cast<double>(worst), 0.0};
    return {static_cast<double>(bound), beta};
  }

  // count(u, δ) for every target of the account (entries of other nodes are unused).
  std::vector<Count> counts(double delta) const {
    std::vector<Count> out(network_.num_nodes());
    for (const graph::NodeId u : targets_) out[u] = count(u, delta);
    return out;
  }

  // What every row of a stream at (σ, δ) shares: each target's count and local cap at σ (converted
  // once per target, not per pair; a node that is no target has the count 0 and the cap 0), the loss
  // of one step at each order of the grid, and a converter to (ε, δ) per distinct δ − failure.
  struct Conversions {
    std::vector<TargetCap> per_target;
    std::vector<RandomWalkLosses::StepLoss> steps;
    std::vector<dp::RdpConverter> converters;
  };

  Conversions conversions_at(const RandomWalkLosses& losses, double sigma, double delta) const {
    Conversions out;
    const std::vector<double> orders =
        query_.alpha ? std::vector<double>{*query_.alpha} : dp::default_rdp_orders();
    for (const double alpha : orders) out.steps.push_back(losses.step_loss(alpha));
    const std::vector<Count> per_target = counts(delta);
    out.per_target.resize(per_target.size());
    std::vector<double> conversion_deltas;
    for (std::size_t u = 0; u < per_target.size(); ++u) {
      const double local_mu = std::sqrt(per_target[u].visits) * options_.sensitivity / sigma;
      const double conversion_delta = delta - per_target[u].failure;
      auto known = std::find(conversion_deltas.begin(), conversion_deltas.end(), conversion_delta);
      if (known == conversion_deltas.end()) {
        out.converters.emplace_back(orders, conversion_delta);
        known = conversion_deltas.insert(conversion_deltas.end(), conversion_delta);
      }
      out.per_target[u] = {per_target[u], detail::gdp_epsilon_or_zero(local_mu, conversion_delta),
                           static_cast<std::size_t>(known - conversion_deltas.begin())};
    }
    return out;
  }

  RandomWalkLosses::Driver driver(const RandomWalkLosses& losses, graph::NodeId v, graph::NodeId u) const {
    if (!query_.colluders.empty()) return losses.coalition_driver(query_.colluders, u);
    return losses.driver(v, u);
  }

  // The rows of a thread, remembered by what they depend on (the driver and the target's count; the
  // cap follows from the count at the stream's σ and δ): a symmetric graph has few distinct drivers,
  // and a cached row equals a recomputed one.
  class RowCache {
   public:
    explicit RowCache(std::size_t orders) : epsilons_(orders) {}

    PairRow row(const RandomWalkLosses& losses, const RandomWalkLosses::Driver& d,
                const Conversions& conversions, const TargetCap& cap, const RandomWalkAccount& account) {
      const Key key{std::bit_cast<std::uint64_t>(d.series_value), d.direct,
                    std::bit_cast<std::uint64_t>(cap.count.visits),
                    std::bit_cast<std::uint64_t>(cap.count.failure)};
      Slot& slot = slots_[key.hash() % slots_.size()];
      if (!slot.filled || !(slot.key == key)) {
        slot = {key, account.row(losses, d, conversions, cap, epsilons_), true};
      }
      return slot.row;
    }

   private:
    struct Key {
      std::uint64_t series = 0;
      bool direct = false;
      std::uint64_t visits = 0;
      std::uint64_t failure = 0;
      bool operator==(const Key&) const = default;
      std::size_t hash() const {
        std::uint64_t h = series * 0x9E3779B97F4A7C15ull;
        h ^= (visits + (direct ? 1 : 0)) * 0xC2B2AE3D27D4EB4Full + (h >> 29);
        h ^= failure * 0x165667B19E3779F9ull + (h >> 32);
        return static_cast<std::size_t>(h ^ (h >> 31));
      }
    };
    struct Slot {
      Key key;
      PairRow row;
      bool filled = false;
    };
    std::vector<Slot> slots_ = std::vector<Slot>(1024);
    std::vector<double> epsilons_;  // the grid's ε(α) of the row being computed
  };

  // ε(δ) at the query's α when given, else the best order of the default grid refined continuously
  // (every order gives a valid bound; the conversion rounds up): dp::rdp_to_dp of the pair's curve,
  // bit for bit, with the orders' shared parts computed once per stream. The view is also
  // post-processing of the token right after u's N_u steps, so the target's local cap (TargetCap)
  // caps the Rényi-converted ε (looser than GDP for the capped pairs).
  // N_u <= n_u.visits except with probability n_u.failure: the (ε, δ) is converted at δ − failure.
  PairRow row(const RandomWalkLosses& losses, const RandomWalkLosses::Driver& d,
              const Conversions& conversions, const TargetCap& cap, std::span<double> epsilons) const {
    const Count& n_u = cap.count;
    for (std::size_t i = 0; i < conversions.steps.size(); ++i)
      epsilons[i] = RandomWalkLosses::rdp_epsilon_of(conversions.steps[i], d, n_u.visits);
    const dp::RdpConverter& converter = conversions.converters[cap.converter];
    const dp::RdpConversion conversion =
        query_.alpha ? converter(epsilons) : converter(epsilons, [&](double alpha) {
          return RandomWalkLosses::rdp_epsilon_of(losses.step_loss(alpha), d, n_u.visits);
        });
    const RandomWalkPairLoss l = losses.loss(d, conversion.alpha, n_u.visits);
    PairRow row;
    row.alpha = conversion.alpha;
    row.rdp_epsilon = l.rdp_epsilon;
    row.uncapped_rdp_epsilon = l.uncapped_rdp_epsilon;
    row.epsilon = std::min(conversion.epsilon, cap.local_epsilon);
    row.capped = l.capped || cap.local_epsilon < conversion.epsilon;
    row.contributions = l.contributions;
    row.condition_ok = l.condition_ok;
    row.certificate = valid_bound() ? Certificate::upper_bound : Certificate::paper_formula;
    return row;
  }

  gossip::GossipMatrix network_;
  PairQuery query_;
  RandomWalkOptions options_;
  std::shared_ptr<const RandomWalkSeries> series_;
  // The pairs: every observer with every target but itself, observers then targets increasing.
  std::size_t observer_pair_count(graph::NodeId v) const {
    return targets_.size() - (std::binary_search(targets_.begin(), targets_.end(), v) ? 1 : 0);
  }
  std::vector<graph::NodeId> observers_;  ///< increasing (one, the coalition's first, with colluders)
  std::vector<graph::NodeId> targets_;    ///< increasing, no colluder: each the target of some pair
  std::size_t pair_count_ = 0;
  std::vector<std::vector<double>> tails_;  ///< P(N_u >= k) per target (ContributionCount::tail)
};

}  // namespace

std::unique_ptr<PairwiseAccount> random_walk_account(const Protocol& protocol, const PairQuery& query,
                                                     RandomWalkOptions options,
                                                     std::shared_ptr<const RandomWalkSeries> series) {
  detail::validate_query(protocol, query, Method::random_walk);
  if (const auto why = detail::fixed_schedule_refusal(protocol, Method::random_walk))
    throw std::invalid_argument(*why);
  options.steps = protocol.rounds;
  options.sensitivity = protocol.sensitivity;
  options.sigma = 1.0;
  require(std::isfinite(options.tail_share) && options.tail_share > 0.0 && options.tail_share < 1.0,
          "the share of δ spent on the contribution count must be in (0, 1), got {}", options.tail_share);
  if (!series) {
    // The tail count reads every target's return time from the series' eigendecomposition.
    series =
        RandomWalkLosses(protocol.network, series_options(options), uses_tail_count(options)).shared_series();
  }
  require(series->steps == protocol.rounds &&
              static_cast<std::size_t>(series->matrix.rows()) == protocol.network.num_nodes(),
          "the random-walk series has {} steps on {} nodes, the protocol {} rounds on {} nodes",
          series->steps, series->matrix.rows(), protocol.rounds, protocol.network.num_nodes());
  return std::make_unique<RandomWalkAccount>(protocol, query, std::move(options), std::move(series));
}

// ------------------------------------------------------------------ the family (registry.hpp)

namespace {

std::optional<std::string> random_walk_family_refusal(const Protocol& protocol, const PairQuery& q,
                                                      const AccountRequest& /*request*/) {
  if (auto why = detail::group_refusal(q)) return why;
  return detail::fixed_schedule_refusal(protocol, Method::random_walk);
}

std::unique_ptr<PairwiseAccount> build_random_walk(const Protocol& protocol, const PairQuery& q,
                                                   const AccountRequest& r,
                                                   const ProgressCallback& progress) {
  RandomWalkOptions options;
  const Contributions contributions = r.contributions_or_default();
  if (contributions.cap > 0) {
    options.contributions = static_cast<double>(contributions.cap);
  } else {
    options.count = contributions.count;
  }
  options.tail_share = r.tail_share_or_default();
  options.view = random_walk_view(r);
  options.progress = progress;
  return random_walk_account(protocol, q, options);
}

}  // namespace

const AccountantFamily& random_walk_family() {
  static constexpr AccountantFamily family{
      Method::random_walk,
      "random-walk DP-SGD: the token's visits, Rényi DP per pair (Cyffers, Bellet & Upadhyay, Theorem 3, "
      "Appendix B.1)",
      random_walk_family_refusal, build_random_walk};
  return family;
}

}  // namespace netdp::accounting
