// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MuffliatoLosses: the result of the Muffliato accountant (muffliato.hpp).

#include <algorithm>
#include <cmath>

#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {

namespace {

bool sorted_sets_intersect(const std::vector<graph::NodeId>& a, const std::vector<graph::NodeId>& b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    if (*i < *j) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

}  // namespace

MuffliatoLosses::MuffliatoLosses(DenseMatrix sums, std::optional<DenseMatrix> capped_sums,
                                 std::vector<double> sum_caps,
                                 std::vector<std::vector<graph::NodeId>> observers,
                                 std::vector<std::vector<graph::NodeId>> targets, double sensitivity,
                                 double sigma)
    : sums_(std::move(sums)),
      capped_sums_(std::move(capped_sums)),
      sum_caps_(std::move(sum_caps)),
      observers_(std::move(observers)),
      targets_(std::move(targets)),
      sensitivity_(sensitivity),
      sigma_(sigma) {
  require_positive(sensitivity_, "sensitivity");
  require_positive(sigma_, "sigma");
  require(static_cast<std::size_t>(sums_.rows()) == observers_.size() &&
              static_cast<std::size_t>(sums_.cols()) == targets_.size() &&
              sum_caps_.size() == targets_.size(),
          "MuffliatoLosses: sums are {} x {} but there are {} observer sets, {} target sets and {} caps",
          sums_.rows(), sums_.cols(), observers_.size(), targets_.size(), sum_caps_.size());
  require(!capped_sums_ || (capped_sums_->rows() == sums_.rows() && capped_sums_->cols() == sums_.cols()),
          "MuffliatoLosses: capped sums must have the shape of the sums");
  for (auto& set : observers_) std::sort(set.begin(), set.end());
  for (auto& set : targets_) std::sort(set.begin(), set.end());
}

void MuffliatoLosses::set_certificates(CertificateMatrix kinds, DenseMatrix lower,
                                       double failure_probability) {
  require(kinds.rows() == sums_.rows() && kinds.cols() == sums_.cols() && lower.rows() == sums_.rows() &&
              lower.cols() == sums_.cols(),
          "MuffliatoLosses: certificates must have the shape of the sums");
  certificates_ = std::move(kinds);
  lower_sums_ = std::move(lower);
  failure_probability_ = failure_probability;
}

bool MuffliatoLosses::defined(std::size_t observer, std::size_t target) const {
  require(observer < num_observers(), "observer index {} is out of range (there are {} observer sets)",
          observer, num_observers());
  require(target < num_targets(), "target index {} is out of range (there are {} target sets)", target,
          num_targets());
  return !sorted_sets_intersect(observers_[observer], targets_[target]);
}

double MuffliatoLosses::capped_sum(std::size_t observer, std::size_t target) const {
  if (!defined(observer, target)) return 0.0;
  const auto i = static_cast<Eigen::Index>(observer);
  const auto j = static_cast<Eigen::Index>(target);
  if (capped_sums_) return (*capped_sums_)(i, j);
  return std::min(sums_(i, j), sum_caps_[target]);
}

DenseMatrix MuffliatoLosses::mu_squared(bool capped) const {
  const double scale = (sensitivity_ / sigma_) * (sensitivity_ / sigma_);
  DenseMatrix out(sums_.rows(), sums_.cols());
  for (std::size_t j = 0; j < num_targets(); ++j) {
    for (std::size_t i = 0; i < num_observers(); ++i) {
      const double s =
          capped ? capped_sum(i, j) : sums_(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
      out(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = scale * s;
    }
  }
  return out;
}

PairLoss MuffliatoLosses::pair(std::size_t observer, std::size_t target, double alpha) const {
  require(std::isfinite(alpha) && alpha > 1.0, "the Renyi order alpha must be a finite number > 1, got {}",
          alpha);
  require(defined(observer, target),
          "target set {} meets observer set {}: a node's loss towards itself is not defined", target,
          observer);
  const double ratio = sensitivity_ / sigma_;
  const double uncapped = sums_(static_cast<Eigen::Index>(observer), static_cast<Eigen::Index>(target));
  const double capped = capped_sum(observer, target);
  PairLoss loss;
  loss.observer = observer;
  loss.target = target;
  loss.alpha = alpha;
  loss.uncapped_mu = ratio * std::sqrt(uncapped);
  loss.mu = ratio * std::sqrt(capped);
  loss.uncapped_rdp_epsilon = dp::gaussian_rdp(alpha, loss.uncapped_mu);
  loss.rdp_epsilon = dp::gaussian_rdp(alpha, loss.mu);
  // The cap also sets the value when exact arithmetic put the pair there (in span, or given up).
  const auto kind =
      certificates_ ? (*certificates_)(static_cast<Eigen::Index>(observer), static_cast<Eigen::Index>(target))
                    : Certificate::upper_bound;
  loss.capped =
      capped < uncapped || kind == Certificate::cap_in_span || kind == Certificate::cap_undetermined;
  return loss;
}

double gdp_epsilon(const PairLoss& loss, double delta) {
  require(std::isfinite(delta) && delta > 0.0 && delta < 1.0, "delta must be in (0, 1), got {}", delta);
  if (!(loss.mu > 0.0)) return 0.0;
  return dp::gdp_epsilon(loss.mu, delta);
}

double mean_privacy_loss(std::size_t communications, std::size_t num_nodes, double alpha, double sensitivity,
                         double sigma) {
  require(num_nodes >= 1, "the number of nodes must be >= 1, got {}", num_nodes);
  require(std::isfinite(alpha) && alpha > 1.0, "the Renyi order alpha must be a finite number > 1, got {}",
          alpha);
  require_positive(sensitivity, "sensitivity");
  require_positive(sigma, "sigma");
  // A Gaussian mechanism with μ² = Δ² T_v / (n σ²).
  return dp::gaussian_rdp(
      alpha,
      sensitivity / sigma * std::sqrt(static_cast<double>(communications) / static_cast<double>(num_nodes)));
}

}  // namespace netdp::accounting
