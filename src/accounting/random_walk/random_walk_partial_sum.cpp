// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Stable evaluation of s_T(λ) = Σ_{i=1}^{T} λ^i / i and of H_T (random-walk
// accountant, Appendix B eq. 15 of Cyffers, Bellet & Upadhyay). See
// docs/reference/accounting-random-walk.md, "Evaluating the partial sums".

#include <cmath>
#include <cstddef>

#include "netdp/accounting/random_walk/random_walk_series.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/compensated_sum.hpp"

namespace netdp::accounting {
namespace {

/// Direct summation is used up to this many terms; longer sums close to ±1 use identities.
constexpr std::size_t kDirectTermLimit = std::size_t{1} << 17;
/// Relative size of the dropped tail at which direct summation stops.
constexpr double kTailTolerance = 1e-17;
constexpr double kEulerGamma = 0.57721566490153286060651209;

using util::CompensatedSum;

/// Direct sum of λ^i/i for i = 1..min(T, limit), stopping once the tail bound
/// |λ|^{i+1} / ((i+1)(1−|λ|)) drops below kTailTolerance of the sum. `complete`
/// tells whether the returned value is the whole s_T(λ) (to that tolerance).
double direct_partial_sum(double lambda, std::size_t steps, std::size_t limit, bool& complete) {
  const double r = std::abs(lambda);
  CompensatedSum sum;
  double power = 1.0;
  const std::size_t last = steps < limit ? steps : limit;
  for (std::size_t i = 1; i <= last; ++i) {
    power *= lambda;
    sum.add(power / static_cast<double>(i));
    if (r < 1.0) {
      const double tail = std::abs(power) * r / ((static_cast<double>(i) + 1.0) * (1.0 - r));
      if (tail <= kTailTolerance * std::abs(sum.value())) {
        complete = true;
        return sum.value();
      }
    }
  }
  complete = last == steps;
  return sum.value();
}

/// Σ_{i >= N} λ^i / i for λ in (0, 1) by Euler–Maclaurin on f(x) = e^{−sx}/x, s = −ln λ:
/// ∫_N^∞ f = E1(sN), plus f(N)/2 − f'(N)/12 + f'''(N)/720. Used only for N > kDirectTermLimit
/// and s < 40 / kDirectTermLimit, where the next correction is below 1e-17 · f(N).
double positive_tail(double lambda, double first) {
  const double s = -std::log(lambda);
  const double x = first;
  const double e = std::exp(-s * x);
  const double e1 = -std::expint(-s * x);  // E1(z) = −Ei(−z)
  const double f = e / x;
  const double f1 = -e * (s / x + 1.0 / (x * x));
  const double f3 =
      -e * (s * s * s / x + 3.0 * s * s / (x * x) + 6.0 * s / (x * x * x) + 6.0 / (x * x * x * x));
  return e1 + f / 2.0 - f1 / 12.0 + f3 / 720.0;
}

/// s_T(λ) for λ in [0, 1], T >= 0.
double nonnegative_partial_sum(double lambda, std::size_t steps) {
  if (steps == 0 || lambda == 0.0) return 0.0;
  if (lambda >= 1.0) return harmonic_number(steps);
  bool complete = false;
  const double direct = direct_partial_sum(lambda, steps, kDirectTermLimit, complete);
  if (complete) return direct;
  // Long sum with λ close to 1: s_T = −log(1−λ) − Σ_{i>T} λ^i/i.
  return -std::log1p(-lambda) - positive_tail(lambda, static_cast<double>(steps) + 1.0);
}

}  // namespace

double harmonic_number(std::size_t steps) {
  constexpr std::size_t kExactLimit = 1000000;
  if (steps <= kExactLimit) {
    CompensatedSum sum;
    for (std::size_t i = steps; i >= 1; --i) sum.add(1.0 / static_cast<double>(i));
    return sum.value();
  }
  // H_T = ln T + γ + 1/(2T) − 1/(12T²) + 1/(120T⁴) − …, next term < 1e-25 for T > 1e6.
  const double t = static_cast<double>(steps);
  return std::log(t) + kEulerGamma + 1.0 / (2.0 * t) - 1.0 / (12.0 * t * t) + 1.0 / (120.0 * t * t * t * t);
}

double partial_log_series(double lambda, std::size_t steps) {
  require(steps >= 1, "partial_log_series: steps T must be >= 1, got {}", steps);
  require(std::isfinite(lambda) && std::abs(lambda) <= 1.0 + 1e-12,
          "partial_log_series: eigenvalue lambda must lie in [-1, 1] (a stochastic matrix), got {}", lambda);
  lambda = std::fmax(-1.0, std::fmin(1.0, lambda));
  if (lambda >= 0.0) return nonnegative_partial_sum(lambda, steps);
  bool complete = false;
  const double direct = direct_partial_sum(lambda, steps, kDirectTermLimit, complete);
  if (complete) return direct;
  // Σ (−r)^i/i = (even terms) − (odd terms) = s_{⌊T/2⌋}(r²) − s_T(r).
  const double r = -lambda;
  return nonnegative_partial_sum(r * r, steps / 2) - nonnegative_partial_sum(r, steps);
}

}  // namespace netdp::accounting
