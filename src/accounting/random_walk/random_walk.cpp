// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Random-walk accountant (Cyffers, Bellet & Upadhyay, ICML 2024): Lemma 2 with
// amplification by iteration, composition over N_u contributions (eq. 16,
// Remark 5), sender-known view (Appendix B.1), collusion (Appendix D).
// See docs/reference/accounting-random-walk.md.

#include "netdp/accounting/random_walk/random_walk.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/next_up.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {
namespace {

/// Smallest double >= x (results are rounded up: never under-report).
double round_up(double x) { return util::next_up(x); }

void check_options(const gossip::GossipMatrix& w, const RandomWalkOptions& options) {
  require(options.steps >= 1, "random-walk accountant: the number of steps T must be >= 1, got {}",
          options.steps);
  require_positive(options.sigma, "random-walk accountant: sigma (noise standard deviation)");
  require_positive(options.sensitivity, "random-walk accountant: sensitivity (Delta)");
  if (options.contributions) {
    require(std::isfinite(*options.contributions) && *options.contributions >= 0.0,
            "random-walk accountant: contributions N_u must be finite and >= 0, got {}",
            *options.contributions);
  } else {
    require(w.is_doubly_stochastic(),
            "random-walk accountant: the default number of contributions T/n assumes a doubly stochastic W "
            "(uniform stationary law); set contributions explicitly for this W");
  }
}

void check_alpha(double alpha) {
  require(std::isfinite(alpha) && alpha > 1.0,
          "random-walk accountant: the Renyi order alpha must be > 1, got {}", alpha);
}

/// (σ/Δ)² >= 2α(α−1) with the arguments already checked.
bool condition_holds(double alpha, double sigma, double sensitivity) {
  const double multiplier = sigma / sensitivity;
  return multiplier * multiplier >= 2.0 * alpha * (alpha - 1.0);
}

/// The parts of eq. 13 at order α that do not depend on the pair (options checked, α > 1).
RandomWalkLosses::StepLoss step_loss_at(const RandomWalkOptions& options, double alpha) {
  const double ratio = options.sensitivity / options.sigma;
  RandomWalkLosses::StepLoss step;
  step.alpha = alpha;
  step.local = dp::gaussian_rdp_unchecked(alpha, ratio);  // one Gaussian step (options checked)
  // Lemma 1 factor (1 + c): c = 1 in the paper, c = (α−1)·local in the tight variant.
  const double factor =
      options.weak_convexity == WeakConvexity::paper ? 2.0 : 1.0 + (alpha - 1.0) * step.local;
  step.amplifier = factor * step.local;
  step.condition_ok = condition_holds(alpha, options.sigma, options.sensitivity);
  return step;
}

/// The guarantee for one series value (eq. 13 with β(i) = α Δ²/(2σ² i), Lemma 1 factor, local cap,
/// N_u-fold composition). direct_from_target: the observer may get the token straight from the
/// target with the sender known (Appendix B.1), so only the local loss applies.
RandomWalkPairLoss evaluate_loss(const RandomWalkLosses::StepLoss& step, double contributions,
                                 double series_value, bool direct_from_target) {
  RandomWalkPairLoss loss;
  loss.alpha = step.alpha;
  loss.contributions = contributions;
  loss.condition_ok = step.condition_ok;
  const auto [amplified, single] = RandomWalkLosses::single_loss(step, {series_value, direct_from_target});
  loss.capped = !loss.condition_ok || amplified > step.local;
  loss.single_rdp_epsilon = round_up(single);
  loss.rdp_epsilon = round_up(contributions * single);
  loss.uncapped_rdp_epsilon = round_up(contributions * amplified);
  return loss;
}

RandomWalkPairLoss evaluate_loss(const RandomWalkOptions& options, double contributions, double series_value,
                                 bool direct_from_target, double alpha) {
  check_alpha(alpha);
  return evaluate_loss(step_loss_at(options, alpha), contributions, series_value, direct_from_target);
}

}  // namespace

bool random_walk_condition_holds(double alpha, double sigma, double sensitivity) {
  check_alpha(alpha);
  require_positive(sigma, "sigma");
  require_positive(sensitivity, "sensitivity");
  return condition_holds(alpha, sigma, sensitivity);
}

double random_walk_max_alpha(double sigma, double sensitivity) {
  require_positive(sigma, "sigma");
  require_positive(sensitivity, "sensitivity");
  const double m2 = (sigma / sensitivity) * (sigma / sensitivity);
  // Largest root of 2α² − 2α − m² = 0; step down until the condition holds in floating point.
  double alpha = (1.0 + std::sqrt(1.0 + 2.0 * m2)) / 2.0;
  while (m2 < 2.0 * alpha * (alpha - 1.0)) alpha = std::nextafter(alpha, 0.0);
  return alpha;
}

RandomWalkLosses::RandomWalkLosses(const gossip::GossipMatrix& w, const RandomWalkOptions& options,
                                   bool with_returns)
    : w_(w), options_(options) {
  check_options(w, options);
  series_ = std::make_shared<const RandomWalkSeries>(
      random_walk_series(w, options.steps, options.method, with_returns));
  contributions_ =
      options.contributions.value_or(static_cast<double>(options.steps) / static_cast<double>(w.num_nodes()));
}

RandomWalkLosses::RandomWalkLosses(const gossip::GossipMatrix& w, RandomWalkSeries series,
                                   const RandomWalkOptions& options)
    : RandomWalkLosses(w, std::make_shared<const RandomWalkSeries>(std::move(series)), options) {}

RandomWalkLosses::RandomWalkLosses(const gossip::GossipMatrix& w,
                                   std::shared_ptr<const RandomWalkSeries> series,
                                   const RandomWalkOptions& options)
    : w_(w), options_(options), series_(std::move(series)) {
  require(series_ != nullptr, "random-walk accountant: no series given");
  check_options(w, options);
  const auto n = static_cast<Eigen::Index>(w.num_nodes());
  require(series_->matrix.rows() == n && series_->matrix.cols() == n,
          "random-walk accountant: the series matrix is {} x {} but W has {} nodes", series_->matrix.rows(),
          series_->matrix.cols(), n);
  require(series_->steps == options.steps,
          "random-walk accountant: the series was computed for T = {}, options say {}", series_->steps,
          options.steps);
  contributions_ =
      options.contributions.value_or(static_cast<double>(options.steps) / static_cast<double>(n));
}

/// The series value that drives v's loss about u, and whether v may receive the
/// token straight from u with the sender known (then only the local cap applies).
double RandomWalkLosses::single_series(graph::NodeId observer, graph::NodeId target) const {
  if (options_.view == RandomWalkView::anonymous_sender) return series_->matrix(target, observer);
  // Appendix B.1: the last hop is post-processing of the walk reaching a neighbour w of v.
  double worst = 0.0;
  for (const graph::NodeId w : w_.graph().neighbors(observer)) {
    if (w == target) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, series_->matrix(target, w));
  }
  return worst;
}

RandomWalkLosses::Driver RandomWalkLosses::driver(graph::NodeId observer, graph::NodeId target) const {
  const std::size_t n = num_nodes();
  require(observer < n, "random-walk accountant: observer {} is out of range (n = {})", observer, n);
  require(target < n, "random-walk accountant: target {} is out of range (n = {})", target, n);
  require(observer != target, "random-walk accountant: observer and target must differ, both are {}", target);
  const double s = single_series(observer, target);
  return {std::isinf(s) ? 0.0 : s, std::isinf(s)};
}

RandomWalkLosses::Driver RandomWalkLosses::coalition_driver(std::span<const graph::NodeId> coalition,
                                                            graph::NodeId target) const {
  const std::size_t n = num_nodes();
  require(!coalition.empty(), "random-walk accountant: the coalition of colluders is empty");
  require(target < n, "random-walk accountant: target {} is out of range (n = {})", target, n);
  std::vector<bool> seen(n, false);
  double sum = 0.0;
  bool direct = false;
  for (const graph::NodeId v : coalition) {
    require(v < n, "random-walk accountant: colluder {} is out of range (n = {})", v, n);
    require(v != target, "random-walk accountant: the target {} cannot be one of the colluders", target);
    require(!seen[v], "random-walk accountant: colluder {} is listed twice", v);
    seen[v] = true;
    // eq. 17: P(reach F in i steps) <= Σ_{v∈F} (W^i)_{uv}; sender-known: each member's worst neighbour.
    const double s = single_series(v, target);
    direct = direct || std::isinf(s);
    if (!std::isinf(s)) sum += s;
  }
  return {direct ? 0.0 : sum, direct};
}

RandomWalkPairLoss RandomWalkLosses::loss(const Driver& driver, double alpha, double contributions) const {
  require(std::isfinite(contributions) && contributions >= 0.0,
          "random-walk accountant: contributions N_u must be finite and >= 0, got {}", contributions);
  return evaluate_loss(options_, contributions, driver.series_value, driver.direct, alpha);
}

RandomWalkLosses::StepLoss RandomWalkLosses::step_loss(double alpha) const {
  check_alpha(alpha);
  return step_loss_at(options_, alpha);
}

RandomWalkPairLoss RandomWalkLosses::pair(graph::NodeId observer, graph::NodeId target, double alpha) const {
  return pair(observer, target, alpha, contributions_);
}

RandomWalkPairLoss RandomWalkLosses::pair(graph::NodeId observer, graph::NodeId target, double alpha,
                                          double contributions) const {
  check_alpha(alpha);
  RandomWalkPairLoss result = loss(driver(observer, target), alpha, contributions);
  result.observer = observer;
  result.target = target;
  return result;
}

double RandomWalkLosses::rdp_epsilon_at(graph::NodeId observer, graph::NodeId target, double alpha) const {
  return pair(observer, target, alpha).rdp_epsilon;
}

dp::RdpCurve RandomWalkLosses::rdp_curve(graph::NodeId observer, graph::NodeId target,
                                         std::vector<double> orders) const {
  // Validates the pair and builds a self-contained copy of what ε(α) needs.
  const Driver d = driver(observer, target);
  const RandomWalkOptions options = options_;
  const double contributions = contributions_;
  return dp::RdpCurve::from_function(
      [options, contributions, d](double alpha) {
        return evaluate_loss(options, contributions, d.series_value, d.direct, alpha).rdp_epsilon;
      },
      std::move(orders));
}

dp::RdpConversion RandomWalkLosses::to_dp(graph::NodeId observer, graph::NodeId target, double delta,
                                          dp::RdpConversionMethod method) const {
  return dp::rdp_to_dp(rdp_curve(observer, target), delta, method);
}

DenseMatrix RandomWalkLosses::loss_matrix(double alpha, double RandomWalkPairLoss::*field) const {
  check_alpha(alpha);
  const auto n = static_cast<Eigen::Index>(num_nodes());
  DenseMatrix result = DenseMatrix::Zero(n, n);
  util::ParallelErrors errors;
#pragma omp parallel for schedule(static)
  for (Eigen::Index v = 0; v < n; ++v) {
    errors.run(static_cast<std::int64_t>(v), [&] {
      for (Eigen::Index u = 0; u < n; ++u) {
        if (u == v) continue;
        const Driver d = driver(static_cast<graph::NodeId>(v), static_cast<graph::NodeId>(u));
        result(v, u) = evaluate_loss(options_, contributions_, d.series_value, d.direct, alpha).*field;
      }
    });
  }
  errors.rethrow();
  return result;
}

DenseMatrix RandomWalkLosses::rdp_epsilon(double alpha) const {
  return loss_matrix(alpha, &RandomWalkPairLoss::rdp_epsilon);
}

DenseMatrix RandomWalkLosses::uncapped_rdp_epsilon(double alpha) const {
  return loss_matrix(alpha, &RandomWalkPairLoss::uncapped_rdp_epsilon);
}

RandomWalkPairLoss RandomWalkLosses::colluders(std::span<const graph::NodeId> coalition, graph::NodeId target,
                                               double alpha) const {
  return colluders(coalition, target, alpha, contributions_);
}

RandomWalkPairLoss RandomWalkLosses::colluders(std::span<const graph::NodeId> coalition, graph::NodeId target,
                                               double alpha, double contributions) const {
  check_alpha(alpha);
  RandomWalkPairLoss result = loss(coalition_driver(coalition, target), alpha, contributions);
  result.observer = coalition.front();
  result.target = target;
  return result;
}

}  // namespace netdp::accounting
