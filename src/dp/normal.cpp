// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/dp/normal.hpp"

#include <cmath>
#include <numbers>

#include "netdp/util/check.hpp"
#include "tail.hpp"

namespace netdp::dp {

namespace {

// Beyond this argument erfc(x) approaches the double underflow threshold; use
// the asymptotic series instead (A&S 7.1.23), which there converges to far below 1 ulp.
constexpr double kAsymptoticFrom = 26.0;

double erfcx_asymptotic(double x) {
  // erfcx(x) ~ 1/(x√π) Σ_n (-1)^n (2n-1)!! / (2x²)^n; |term ratio| = (2n+1)/(2x²) < 0.05 for x >= 26.
  const double inv_two_x2 = 1.0 / (2.0 * x * x);
  double term = 1.0;
  double sum = 1.0;
  for (int n = 1; n <= 16; ++n) {
    term *= -(2.0 * n - 1.0) * inv_two_x2;
    sum += term;
  }
  return sum / (x * std::sqrt(std::numbers::pi));
}

}  // namespace

double erfcx(double x) {
  require(x >= 0.0, "erfcx: x must be >= 0 (not NaN), got {}", x);
  if (std::isinf(x)) return 0.0;
  if (x >= kAsymptoticFrom) return erfcx_asymptotic(x);
  // exp(x²) with x² split exactly into hi + lo, so the factor carries no rounding of x².
  const double hi = x * x;
  const double lo = std::fma(x, x, -hi);
  return std::exp(hi) * (1.0 + lo) * std::erfc(x);
}

double inverse_mills_ratio(double b) {
  require(b >= 0.0, "inverse_mills_ratio: b must be >= 0 (not NaN), got {}", b);
  return std::sqrt(2.0 / std::numbers::pi) / erfcx(b / std::numbers::sqrt2);
}

namespace detail {

double exp_neg_half_square(double z) {
  const double hi = z * z;
  if (hi > 1600.0) return 0.0;  // below the smallest subnormal; also keeps fma away from inf
  const double lo = std::fma(z, z, -hi);
  return std::exp(-0.5 * hi) * (1.0 - 0.5 * lo);
}

double lower_tail(double z) { return 0.5 * exp_neg_half_square(z) * erfcx(z * std::numbers::sqrt2 / 2.0); }

double log_lower_tail(double z) {
  return -0.5 * z * z + std::log(0.5 * erfcx(z * std::numbers::sqrt2 / 2.0));
}

}  // namespace detail

double normal_cdf(double x) {
  require(!std::isnan(x), "normal_cdf: x must not be NaN");
  return x < 0.0 ? detail::lower_tail(-x) : 1.0 - detail::lower_tail(x);
}

double log_normal_cdf(double x) {
  require(!std::isnan(x), "log_normal_cdf: x must not be NaN");
  return x < 0.0 ? detail::log_lower_tail(-x) : std::log1p(-detail::lower_tail(x));
}

}  // namespace netdp::dp
