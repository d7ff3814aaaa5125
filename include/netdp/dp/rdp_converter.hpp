// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The conversion of Rényi DP to (ε, δ) for many curves on one grid of orders at one δ: the grid's
// conversion terms are computed once, and the continuous refinement calls a plain callable. It is
// the one implementation of dp::rdp_to_dp (rdp.hpp), which gives the same bits.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "netdp/dp/rdp.hpp"

namespace netdp::dp {

namespace detail {

/// Golden-section search for the minimum of g on [a, b], to 1e-12 relative in the argument;
/// returns (argmin, min) of the last two points evaluated.
template <typename G>
std::pair<double, double> golden_minimum(G&& g, double a, double b) {
  const double inv_phi = (std::sqrt(5.0) - 1.0) / 2.0;
  double x1 = b - inv_phi * (b - a);
  double x2 = a + inv_phi * (b - a);
  double g1 = g(x1);
  double g2 = g(x2);
  for (int iteration = 0; iteration < 200 && b - a > 1e-12 * b; ++iteration) {
    if (g1 <= g2) {
      b = x2;
      x2 = x1;
      g2 = g1;
      x1 = b - inv_phi * (b - a);
      g1 = g(x1);
    } else {
      a = x1;
      x1 = x2;
      g1 = g2;
      x2 = a + inv_phi * (b - a);
      g2 = g(x2);
    }
  }
  return g1 <= g2 ? std::pair{x1, g1} : std::pair{x2, g2};
}

/// Throws std::invalid_argument: ε(α) is NaN or negative.
[[noreturn]] void throw_bad_rdp_epsilon(double alpha, double epsilon);

}  // namespace detail

class RdpConverter {
 public:
  /// Orders as RdpCurve requires them (strictly increasing, finite, > 1); δ in (0, 1), normal.
  RdpConverter(std::vector<double> orders, double delta,
               RdpConversionMethod method = RdpConversionMethod::improved);

  const std::vector<double>& orders() const { return orders_; }

  /// rdp_to_dp of the tabulated curve epsilons[i] = ε(orders[i]) (size checked; each >= 0, not NaN).
  RdpConversion operator()(std::span<const double> epsilons) const {
    return rounded(best_order(epsilons).conversion);
  }

  /// rdp_to_dp of the curve that also has the callable epsilon_of_alpha (valid on the grid's range):
  /// the best order refined by a golden-section search between its neighbours.
  template <typename F>
  RdpConversion operator()(std::span<const double> epsilons, F&& epsilon_of_alpha) const {
    Best best = best_order(epsilons);
    if (std::isfinite(best.conversion.epsilon) && orders_.size() > 1) {
      const double a = orders_[best.index == 0 ? 0 : best.index - 1];
      const double b = orders_[std::min(best.index + 1, orders_.size() - 1)];
      const auto [alpha, epsilon] = detail::golden_minimum(
          [&](double x) {
            const double rdp_epsilon = epsilon_of_alpha(x);
            if (std::isnan(rdp_epsilon) || rdp_epsilon < 0.0) detail::throw_bad_rdp_epsilon(x, rdp_epsilon);
            return convert(x, rdp_epsilon);
          },
          a, b);
      if (epsilon < best.conversion.epsilon) best.conversion = {epsilon, alpha};
    }
    return rounded(best.conversion);
  }

 private:
  struct Best {
    RdpConversion conversion;
    std::size_t index = 0;
  };
  Best best_order(std::span<const double> epsilons) const;
  static RdpConversion rounded(RdpConversion conversion);

  /// ε of (ε, δ)-DP implied by ε(α)-RDP at order α (see RdpConversionMethod), at least 0.
  double convert(double alpha, double rdp_epsilon) const {
    if (std::isinf(rdp_epsilon)) return rdp_epsilon;
    double epsilon = 0.0;
    switch (method_) {
      case RdpConversionMethod::mironov:  // Mironov 2017, Proposition 3
        epsilon = rdp_epsilon - log_delta_ / (alpha - 1.0);
        break;
      case RdpConversionMethod::improved:  // Canonne-Kamath-Steinke 2020, Proposition 12
        epsilon = rdp_epsilon + std::log1p(-1.0 / alpha) - (log_delta_ + std::log(alpha)) / (alpha - 1.0);
        break;
    }
    return std::max(epsilon, 0.0);
  }

  std::vector<double> orders_;
  double log_delta_ = 0.0;
  RdpConversionMethod method_;
  // convert(orders_[i], e) = max((e + plus_[i]) - minus_[i], 0) for finite e: the same operations.
  std::vector<double> plus_;
  std::vector<double> minus_;
};

}  // namespace netdp::dp
