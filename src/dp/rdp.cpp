// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/dp/rdp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include "netdp/dp/rdp_converter.hpp"
#include "netdp/util/check.hpp"
#include "tail.hpp"

namespace netdp::dp {

std::vector<double> default_rdp_orders() {
  std::vector<double> orders;
  for (int k = 1; k <= 9; ++k) orders.push_back(1.0 + 0.01 * k);
  for (int k = 1; k <= 9; ++k) orders.push_back(1.0 + 0.1 * k);
  for (int k = 0; k <= 32; ++k) orders.push_back(2.0 + 0.25 * k);
  for (int k = 11; k <= 64; ++k) orders.push_back(k);
  for (const double a : {72.0, 80.0, 96.0, 128.0, 160.0, 192.0, 256.0, 320.0, 384.0, 512.0, 768.0, 1024.0}) {
    orders.push_back(a);
  }
  return orders;
}

namespace {

void validate_orders(const std::vector<double>& orders) {
  require(!orders.empty(), "RdpCurve: the grid of orders must not be empty");
  for (std::size_t i = 0; i < orders.size(); ++i) {
    require(std::isfinite(orders[i]) && orders[i] > 1.0,
            "RdpCurve: order alpha[{}] = {} must be finite and > 1", i, orders[i]);
    require(i == 0 || orders[i] > orders[i - 1],
            "RdpCurve: orders must increase strictly, alpha[{}] = {} <= {}", i, orders[i],
            i == 0 ? 0.0 : orders[i - 1]);
  }
}

void validate_epsilon(double alpha, double epsilon) {
  if (std::isnan(epsilon) || epsilon < 0.0) detail::throw_bad_rdp_epsilon(alpha, epsilon);
}

}  // namespace

RdpCurve::RdpCurve(std::vector<double> orders, std::vector<double> epsilons)
    : orders_(std::move(orders)), epsilons_(std::move(epsilons)) {
  validate_orders(orders_);
  require(epsilons_.size() == orders_.size(), "RdpCurve: {} epsilons given for {} orders", epsilons_.size(),
          orders_.size());
  for (std::size_t i = 0; i < orders_.size(); ++i) validate_epsilon(orders_[i], epsilons_[i]);
}

RdpCurve::RdpCurve(std::vector<double> orders, std::vector<double> epsilons, Function function)
    : RdpCurve(std::move(orders), std::move(epsilons)) {
  function_ = std::move(function);
}

RdpCurve RdpCurve::from_function(Function epsilon_of_alpha, std::vector<double> orders) {
  require(static_cast<bool>(epsilon_of_alpha), "RdpCurve::from_function: the callable is empty");
  validate_orders(orders);
  std::vector<double> epsilons;
  epsilons.reserve(orders.size());
  for (const double alpha : orders) epsilons.push_back(epsilon_of_alpha(alpha));
  return RdpCurve(std::move(orders), std::move(epsilons), std::move(epsilon_of_alpha));
}

double RdpCurve::operator()(double alpha) const {
  require(has_function(), "RdpCurve: this curve is tabulated only; no epsilon at alpha = {}", alpha);
  require(alpha >= orders_.front() && alpha <= orders_.back(),
          "RdpCurve: alpha = {} outside the grid [{}, {}]", alpha, orders_.front(), orders_.back());
  const double epsilon = function_(alpha);
  validate_epsilon(alpha, epsilon);
  return epsilon;
}

RdpCurve& RdpCurve::operator+=(const RdpCurve& other) {
  require(orders_ == other.orders_,
          "RdpCurve: composing curves needs the same orders ({} vs {} orders, or different values)",
          orders_.size(), other.orders_.size());
  for (std::size_t i = 0; i < epsilons_.size(); ++i) epsilons_[i] += other.epsilons_[i];
  if (function_ && other.function_) {
    function_ = [f = std::move(function_), g = other.function_](double alpha) { return f(alpha) + g(alpha); };
  } else {
    function_ = nullptr;
  }
  return *this;
}

RdpCurve RdpCurve::times(double k) const {
  require(std::isfinite(k) && k >= 0.0, "RdpCurve::times: k must be finite and >= 0, got {}", k);
  std::vector<double> epsilons = epsilons_;
  for (double& epsilon : epsilons)
    epsilon = k == 0.0 ? 0.0 : epsilon * k;  // 0 uses of a mechanism leak nothing
  Function function;
  if (function_) function = [f = function_, k](double alpha) { return k == 0.0 ? 0.0 : k * f(alpha); };
  return RdpCurve(orders_, std::move(epsilons), std::move(function));
}

RdpCurve zcdp_rdp(double rho, std::vector<double> orders) {
  require_positive(rho, "rho");
  return RdpCurve::from_function([rho](double alpha) { return rho * alpha; }, std::move(orders));
}

RdpCurve gaussian_rdp_curve(double mu, std::vector<double> orders) {
  require_positive(mu, "mu");
  return zcdp_rdp(0.5 * mu * mu, std::move(orders));
}

double gaussian_rdp(double alpha, double mu) {
  require(std::isfinite(alpha) && alpha > 1.0, "the Renyi order alpha must be a finite number > 1, got {}",
          alpha);
  require(mu >= 0.0, "mu must be >= 0 (+inf: no guarantee), got {}", mu);
  return gaussian_rdp_unchecked(alpha, mu);
}

RdpConversion rdp_to_dp(const RdpCurve& curve, double delta, RdpConversionMethod method) {
  const RdpConverter converter(curve.orders(), delta, method);
  if (!curve.has_function()) return converter(curve.epsilons());
  return converter(curve.epsilons(), [&](double alpha) { return curve(alpha); });
}

namespace detail {

void throw_bad_rdp_epsilon(double alpha, double epsilon) {
  require(false, "RdpCurve: epsilon({}) = {} must be >= 0 (not NaN)", alpha, epsilon);
  std::abort();
}

}  // namespace detail

RdpConverter::RdpConverter(std::vector<double> orders, double delta, RdpConversionMethod method)
    : orders_(std::move(orders)), method_(method) {
  validate_orders(orders_);
  detail::require_delta(delta);
  log_delta_ = std::log(delta);
  plus_.reserve(orders_.size());
  minus_.reserve(orders_.size());
  for (const double alpha : orders_) {
    switch (method_) {
      case RdpConversionMethod::mironov:
        plus_.push_back(0.0);
        minus_.push_back(log_delta_ / (alpha - 1.0));
        break;
      case RdpConversionMethod::improved:
        plus_.push_back(std::log1p(-1.0 / alpha));
        minus_.push_back((log_delta_ + std::log(alpha)) / (alpha - 1.0));
        break;
    }
  }
}

RdpConverter::Best RdpConverter::best_order(std::span<const double> epsilons) const {
  require(epsilons.size() == orders_.size(), "RdpConverter: {} epsilons given for {} orders", epsilons.size(),
          orders_.size());
  Best best{{std::numeric_limits<double>::infinity(), orders_.front()}, 0};
  for (std::size_t i = 0; i < orders_.size(); ++i) {
    const double rdp_epsilon = epsilons[i];
    validate_epsilon(orders_[i], rdp_epsilon);
    if (std::isinf(rdp_epsilon)) continue;
    const double epsilon = std::max((rdp_epsilon + plus_[i]) - minus_[i], 0.0);
    if (epsilon < best.conversion.epsilon) best = {{epsilon, orders_[i]}, i};
  }
  return best;
}

RdpConversion RdpConverter::rounded(RdpConversion conversion) {
  if (std::isfinite(conversion.epsilon)) conversion.epsilon = detail::round_up(conversion.epsilon);
  return conversion;
}

double rdp_sigma_for(const RdpCurve& unit_curve, double epsilon, double delta, double sensitivity,
                     RdpConversionMethod method) {
  require_positive(epsilon, "epsilon");
  detail::require_delta(delta);
  require_positive(sensitivity, "sensitivity");
  // With noise multiplier z = σ/sensitivity the curve is unit_curve / z²; its ε(δ) decreases in z.
  const auto meets = [&](double z) {
    return rdp_to_dp(unit_curve.times(1.0 / (z * z)), delta, method).epsilon <= epsilon;
  };
  const double floor = rdp_to_dp(unit_curve.times(0.0), delta, method).epsilon;
  require(floor < epsilon,
          "rdp_sigma_for: target epsilon {} is unreachable on this grid of orders (even infinite noise gives "
          "{}); "
          "extend the grid to larger orders",
          epsilon, floor);
  double lo = 1.0;
  double hi = 1.0;
  if (meets(1.0)) {
    while (lo > 1e-150 && meets(lo)) {
      hi = lo;
      lo *= 0.5;
    }
  } else {
    while (!meets(hi)) {
      lo = hi;
      hi *= 2.0;
      require(hi < 1e150, "rdp_sigma_for: no noise multiplier below 1e150 meets epsilon {}", epsilon);
    }
  }
  while (hi - lo > 1e-13 * hi) {
    const double mid = lo + 0.5 * (hi - lo);
    if (mid <= lo || mid >= hi) break;
    (meets(mid) ? hi : lo) = mid;
  }
  return detail::round_up(hi * sensitivity);
}

}  // namespace netdp::dp
