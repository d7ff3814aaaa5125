// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the dp module: composite Gauss-Legendre quadrature for smooth integrands.

#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>

namespace netdp::dp::detail {

/// Nodes and weights of the 20-point Gauss-Legendre rule on [-1, 1], computed once
/// by Newton's method on the Legendre polynomial P_20.
struct GaussLegendre20 {
  static constexpr std::size_t kPoints = 20;
  std::array<double, kPoints> nodes{};
  std::array<double, kPoints> weights{};

  GaussLegendre20() {
    for (std::size_t i = 0; i < kPoints; ++i) {
      double x = std::cos(std::numbers::pi * (static_cast<double>(i) + 0.75) / (kPoints + 0.5));
      double derivative = 1.0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        double p0 = 1.0;
        double p1 = x;
        for (std::size_t k = 2; k <= kPoints; ++k) {
          const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / static_cast<double>(k);
          p0 = p1;
          p1 = p2;
        }
        derivative = kPoints * (x * p1 - p0) / (x * x - 1.0);
        const double step = p1 / derivative;
        x -= step;
        if (std::abs(step) < 1e-16) break;
      }
      nodes[i] = x;
      weights[i] = 2.0 / ((1.0 - x * x) * derivative * derivative);
    }
  }
};

/// ∫_a^b f(s) ds with `panels` equal panels of the 20-point rule.
template <typename F>
double integrate(F&& f, double a, double b, std::size_t panels) {
  static const GaussLegendre20 rule;
  const double width = (b - a) / static_cast<double>(panels);
  double total = 0.0;
  for (std::size_t p = 0; p < panels; ++p) {
    const double mid = a + (static_cast<double>(p) + 0.5) * width;
    double panel = 0.0;
    for (std::size_t i = 0; i < GaussLegendre20::kPoints; ++i) {
      panel += rule.weights[i] * f(mid + 0.5 * width * rule.nodes[i]);
    }
    total += 0.5 * width * panel;
  }
  return total;
}

}  // namespace netdp::dp::detail
