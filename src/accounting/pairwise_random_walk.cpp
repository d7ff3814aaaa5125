// The random walk's pairwise account (pairwise.hpp): Theorem 3 of Cyffers, Bellet & Upadhyay
// (Appendix D for colluders) converted to (ε, δ) per pair and capped by the local GDP of the
// target's contributions. The series S_T(W) is computed once; each σ re-evaluates the pairs.

#include <algorithm>
#include <cmath>

#include "netdp/accounting/pairwise.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "pairwise_detail.hpp"

namespace netdp::accounting {

namespace {

class RandomWalkAccount final : public PairwiseAccount {
 public:
  RandomWalkAccount(const Protocol& protocol, PairQuery query, RandomWalkOptions options,
                    std::shared_ptr<const RandomWalkSeries> series)
      : network_(protocol.network),
        query_(std::move(query)),
        options_(std::move(options)),
        series_(std::move(series)),
        releases_(RandomWalkLosses(network_, *series_, options_at(1.0)).contributions()) {
    const std::size_t n = network_.num_nodes();
    const graph::NodeId coalition_head = query_.colluders.empty() ? 0 : query_.colluders.front();
    for (graph::NodeId v = 0; v < n; ++v) {
      if (!query_.colluders.empty() && v != coalition_head) continue;
      if (query_.observer && v != *query_.observer) continue;
      for (graph::NodeId u = 0; u < n; ++u) {
        if (query_.target && u != *query_.target) continue;
        if (u == v ||
            std::find(query_.colluders.begin(), query_.colluders.end(), u) != query_.colluders.end()) {
          continue;
        }
        pairs_.emplace_back(v, u);
      }
    }
  }

  std::string_view method() const override { return "random-walk"; }
  bool gaussian() const override { return false; }
  double releases() const override { return releases_; }
  double sensitivity() const override { return options_.sensitivity; }

  dp::RdpCurve rdp_curve(graph::NodeId observer, graph::NodeId target, double sigma) const override {
    require(std::find(pairs_.begin(), pairs_.end(), std::pair{observer, target}) != pairs_.end(),
            "({}, {}) is not a pair of this account", observer, target);
    const RandomWalkLosses losses(network_, *series_, options_at(sigma));
    std::vector<double> orders = dp::default_rdp_orders();
    std::vector<double> values;
    for (const double alpha : orders) values.push_back(loss(losses, observer, target, alpha).rdp_epsilon);
    return dp::RdpCurve(std::move(orders), std::move(values));
  }

  void stream_rows(double sigma, double delta, const RowSink& sink) const override {
    detail::require_evaluation(sigma, delta);
    const RandomWalkLosses losses(network_, *series_, options_at(sigma));
    std::vector<PairRow> rows(pairs_.size());
#pragma omp parallel for schedule(dynamic, 64)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(pairs_.size()); ++i) {
      const auto [v, u] = pairs_[static_cast<std::size_t>(i)];
      rows[static_cast<std::size_t>(i)] = row(losses, v, u, delta);
    }
    detail::emit_observer_blocks(rows, sink);
  }

 private:
  RandomWalkOptions options_at(double sigma) const {
    RandomWalkOptions o = options_;
    o.sigma = sigma;
    return o;
  }

  RandomWalkPairLoss loss(const RandomWalkLosses& losses, graph::NodeId v, graph::NodeId u,
                          double alpha) const {
    if (!query_.colluders.empty()) return losses.colluders(query_.colluders, u, alpha);
    return losses.pair(v, u, alpha);
  }

  // ε(δ) at the query's α when given, else the best order of the default grid refined continuously
  // (every order gives a valid bound; dp::rdp_to_dp rounds up). The view is also post-processing
  // of the token right after u's N_u steps, each a Gaussian mechanism of sensitivity Δ: √N_u Δ/σ-GDP,
  // converted exactly, caps the Rényi-converted ε (looser than GDP for the capped pairs).
  PairRow row(const RandomWalkLosses& losses, graph::NodeId v, graph::NodeId u, double delta) const {
    const dp::RdpCurve curve =
        query_.alpha ? dp::RdpCurve({*query_.alpha}, {loss(losses, v, u, *query_.alpha).rdp_epsilon})
                     : dp::RdpCurve::from_function(
                           [&](double alpha) { return loss(losses, v, u, alpha).rdp_epsilon; });
    const dp::RdpConversion conversion = dp::rdp_to_dp(curve, delta);
    const RandomWalkPairLoss l = loss(losses, v, u, conversion.alpha);
    const double local_mu = std::sqrt(l.contributions) * options_.sensitivity / losses.options().sigma;
    const double local_epsilon = detail::gdp_epsilon_or_zero(local_mu, delta);
    PairRow row;
    row.observer = v;
    row.target = u;
    row.alpha = conversion.alpha;
    row.rdp_epsilon = l.rdp_epsilon;
    row.uncapped_rdp_epsilon = l.uncapped_rdp_epsilon;
    row.epsilon = std::min(conversion.epsilon, local_epsilon);
    row.capped = l.capped || local_epsilon < conversion.epsilon;
    row.contributions = l.contributions;
    row.condition_ok = l.condition_ok;
    return row;
  }

  gossip::GossipMatrix network_;
  PairQuery query_;
  RandomWalkOptions options_;
  std::shared_ptr<const RandomWalkSeries> series_;
  double releases_ = 0.0;
  std::vector<std::pair<graph::NodeId, graph::NodeId>> pairs_;
};

}  // namespace

std::unique_ptr<PairwiseAccount> random_walk_account(const Protocol& protocol, const PairQuery& query,
                                                     RandomWalkOptions options,
                                                     std::shared_ptr<const RandomWalkSeries> series) {
  detail::validate_query(protocol, query, "random-walk");
  require(protocol.schedule.kind == gossip::ScheduleSpec::Kind::fixed,
          "the random-walk method needs the fixed schedule, got '{}'",
          gossip::schedule_spec_string(protocol.schedule));
  options.steps = protocol.rounds;
  options.sensitivity = protocol.sensitivity;
  options.sigma = 1.0;
  if (!series) {
    series = std::make_shared<const RandomWalkSeries>(RandomWalkLosses(protocol.network, options).series());
  }
  require(series->steps == protocol.rounds &&
              static_cast<std::size_t>(series->matrix.rows()) == protocol.network.num_nodes(),
          "the random-walk series has {} steps on {} nodes, the protocol {} rounds on {} nodes",
          series->steps, series->matrix.rows(), protocol.rounds, protocol.network.num_nodes());
  return std::make_unique<RandomWalkAccount>(protocol, query, std::move(options), std::move(series));
}

}  // namespace netdp::accounting
