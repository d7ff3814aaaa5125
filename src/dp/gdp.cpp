// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/dp/gdp.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "gauss_legendre.hpp"
#include "netdp/dp/normal.hpp"
#include "netdp/util/check.hpp"
#include "tail.hpp"

namespace netdp::dp {

namespace {

// Notation: A = ε/μ - μ/2, B = ε/μ + μ/2, so δ(ε) = Φ(-A) - e^ε Φ(-B)
// (Dong-Roth-Su 2022, Corollary 2.13). Since ε - B²/2 = -A²/2,
//   e^ε Φ(-B) = ½ e^{-A²/2} erfcx(B/√2)   (never overflows),
//   Φ(-A)     = ½ e^{-A²/2} erfcx(A/√2)   for A >= 0.
// Both terms are written as e^{-scale} * (value): scale = A²/2 for A >= 0, else 0.
struct DeltaTerms {
  double scale_root = 0.0;  // the z in e^{-z²/2}: A when A >= 0, else 0
  double delta = 0.0;       // δ   = e^{-scale} * delta
  double second = 0.0;      // e^ε Φ(-B) = e^{-scale} * second, and -dδ/dε = e^ε Φ(-B)
  double complement = 0.0;  // if > 0: δ = 1 - complement (A < 0, closed form), for log1p
};

// When e^ε Φ(-B) > kCancellation · Φ(-A) the subtraction would lose > 2 digits, so δ is
// computed instead from the privacy-loss integral, which has no cancellation:
//   δ = E[(1 - e^{ε-L})_+], L ~ N(μ²/2, μ²)  =>  δ = ∫_0^∞ (1 - e^{-μ s}) φ(A + s) ds.
constexpr double kCancellation = 0.99;

double inv_sqrt_2pi() { return 1.0 / std::sqrt(2.0 * std::numbers::pi); }

// ∫_0^∞ (1 - e^{-μs}) φ(A+s) ds, scaled by e^{A²/2} when A >= 0 (φ(A+s) = φ(A) e^{-As - s²/2}).
double loss_integral(double mu, double a) {
  const auto weight = [mu](double s) { return -std::expm1(-mu * s); };
  if (a >= 0.0) {
    constexpr double kTail = 60.0;  // stop where As + s²/2 = 60: the rest is < e^{-60} of the total
    const double s_max = 2.0 * kTail / (a + std::sqrt(a * a + 2.0 * kTail));
    const double panel = 2.0 / (1.0 + a);  // the integrand varies on a scale 1/(1+A)
    const auto panels = static_cast<std::size_t>(std::ceil(s_max / panel));
    return inv_sqrt_2pi() *
           detail::integrate([&](double s) { return weight(s) * std::exp(-a * s - 0.5 * s * s); }, 0.0, s_max,
                             panels);
  }
  constexpr double kHalfWidth = 13.0;  // φ(13) ≈ 1e-37 relative to the bulk at s = -A
  const double s_lo = std::max(0.0, -a - kHalfWidth);
  const double s_hi = -a + kHalfWidth;
  const auto panels = static_cast<std::size_t>(std::ceil(0.5 * (s_hi - s_lo)));
  return inv_sqrt_2pi() *
         detail::integrate([&](double s) { return weight(s) * std::exp(-0.5 * (a + s) * (a + s)); }, s_lo,
                           s_hi, panels);
}

// The same integral for 1 <= A <= 1000 and μ <= 1/2 as a series: with 1 − e^{−μs} = Σ_{k>=1} (−1)^{k+1}
// (μs)^k / k! and ∫_0^∞ s^k φ(A+s) ds = k!·Hh_k(A) (the Hermite–Hh functions, Hh_k(x) = ∫_0^∞ t^k/k! φ(x+t)
// dt),
//   δ = Σ_{k>=1} (−1)^{k+1} μ^k Hh_k(A),
// scaled by e^{A²/2}. Hh_k obeys k·Hh_k = Hh_{k−2} − x·Hh_{k−1}; upward it cancels for x > 0, so
// the values come from Miller's backward recurrence, normalised by Hh_0 = Φ(−A) (erfcx). The terms
// alternate and fall by at least μ/A <= 1/2 each, so the first omitted one bounds the error; the
// sum stops below 1e-18 of the total (a few terms at μ = 0.01, A = 3, against ~20 quadrature
// panels; docs/reference/dp.md gives the measured cost of a root).
constexpr double kSeriesMaxMu = 0.5;
constexpr double kSeriesMinA = 1.0;
constexpr double kSeriesMaxA = 1e3;  // the recurrence's growth per step stays far inside the range

double loss_series(double mu, double a) {
  constexpr int kMaxTerms = 60;
  const int terms = std::min(kMaxTerms, static_cast<int>(std::ceil(std::log(1e-18) / std::log(mu / a))) + 2);
  // Miller's start: the dominant solution outgrows the minimal one by about e^{2A√n} over n steps,
  // so 1e-16 needs n ≈ (18/A)² steps above the last term used (30 steps were not enough at A ≈ 1).
  const int top = terms + 20 + static_cast<int>(std::ceil((20.0 / a) * (20.0 / a)));
  std::array<double, kMaxTerms + 2> h{};  // h[k] ∝ Hh_k(A), k = 0..terms
  double upper = 0.0;                     // ∝ Hh_{n}
  double current = 1e-300;                // ∝ Hh_{n−1}, starting at n − 1 = top
  for (int n = top + 1; n >= 2; --n) {
    // Hh_{n−2} = n·Hh_n + A·Hh_{n−1}
    const double lower = static_cast<double>(n) * upper + a * current;
    upper = current;
    current = lower;
    if (n - 2 <= terms) h[static_cast<std::size_t>(n - 2)] = current;
    if (n - 1 <= terms) h[static_cast<std::size_t>(n - 1)] = upper;
    if (current > 1e250) {  // rescale everything kept so far
      upper *= 1e-250;
      current *= 1e-250;
      for (double& x : h) x *= 1e-250;
    }
  }
  const double h0 = 0.5 * erfcx(a * std::numbers::sqrt2 / 2.0);  // Φ(−A)·e^{A²/2}
  const double scale = h0 / h[0];
  double sum = 0.0;
  double power = 1.0;
  for (int k = 1; k <= terms; ++k) {
    power *= mu;
    const double term = power * h[static_cast<std::size_t>(k)] * scale;
    sum += (k % 2 == 1) ? term : -term;
    if (term < 1e-18 * sum) break;
  }
  return sum;
}

// The same series for −1 <= A < 1 and μ <= 1/16, where Miller's start would need (18/A)² steps:
// upward from Hh_{−1} = φ(A) and Hh_0 = Φ(−A), scaled by e^{A²/2} for A >= 0 (1/√(2π) and
// erfcx(A/√2)/2), unscaled below. Upward, each step loses at most a factor ~2.5 for 0 <= A < 1 (none
// for A < 0, where nothing cancels), and term k carries μ^{k−1} <= 16^{1−k} relative to the first,
// so the sum keeps about full precision; the terms alternate and fall by at least 1/4 each, so the
// first omitted one bounds the error. Returns δ, scaled as delta_terms scales it.
constexpr double kUpwardMaxMu = 1.0 / 16.0;
constexpr double kUpwardMinA = -1.0;

double loss_series_upward(double mu, double a) {
  // Hh_{k−2} and Hh_{k−1}, from Hh_{−1} and Hh_0.
  double before = a >= 0.0 ? inv_sqrt_2pi() : inv_sqrt_2pi() * detail::exp_neg_half_square(a);
  double current = a >= 0.0 ? 0.5 * erfcx(a * std::numbers::sqrt2 / 2.0) : 1.0 - detail::lower_tail(-a);
  double sum = 0.0;
  double power = 1.0;
  for (int k = 1; k <= 40; ++k) {
    const double next = (before - a * current) / static_cast<double>(k);  // k·Hh_k = Hh_{k−2} − A·Hh_{k−1}
    before = current;
    current = next;
    power *= mu;
    const double term = power * current;
    sum += (k % 2 == 1) ? term : -term;
    if (term < 1e-18 * sum) break;
  }
  return sum;
}

DeltaTerms delta_terms(double mu, double epsilon) {
  require_positive(mu, "mu");
  require(std::isfinite(epsilon) && epsilon >= 0.0, "epsilon must be finite and >= 0, got {}", epsilon);
  const double ratio = epsilon / mu;
  if (std::isinf(ratio)) return {std::numeric_limits<double>::infinity(), 0.0, 0.0};
  const double a = ratio - 0.5 * mu;
  const double b = ratio + 0.5 * mu;
  const double second_unscaled = 0.5 * erfcx(b * std::numbers::sqrt2 / 2.0);
  DeltaTerms terms;
  double first = 0.0;
  if (a >= 0.0) {
    terms.scale_root = a;
    first = 0.5 * erfcx(a * std::numbers::sqrt2 / 2.0);
    terms.second = second_unscaled;
  } else {
    const double lower = detail::lower_tail(-a);
    first = 1.0 - lower;
    terms.second = second_unscaled * detail::exp_neg_half_square(a);
    if (terms.second <= kCancellation * first) terms.complement = lower + terms.second;
  }
  if (terms.second <= kCancellation * first) {
    terms.delta = first - terms.second;
  } else {
    if (a >= kSeriesMinA && a <= kSeriesMaxA && mu <= kSeriesMaxMu) {
      terms.delta = loss_series(mu, a);
    } else if (a >= kUpwardMinA && a < kSeriesMinA && mu <= kUpwardMaxMu) {
      terms.delta = loss_series_upward(mu, a);
    } else {
      terms.delta = loss_integral(mu, a);
    }
  }
  return terms;
}

double log_delta_of(const DeltaTerms& t) {
  if (t.complement > 0.0) return std::log1p(-t.complement);  // keeps log δ exact as δ -> 1 (large μ)
  return -0.5 * t.scale_root * t.scale_root + std::log(t.delta);
}

}  // namespace

double gdp_delta(double mu, double epsilon) {
  const DeltaTerms t = delta_terms(mu, epsilon);
  if (std::isinf(t.scale_root)) return 0.0;
  return detail::exp_neg_half_square(t.scale_root) * t.delta;
}

double gdp_log_delta(double mu, double epsilon) { return log_delta_of(delta_terms(mu, epsilon)); }

namespace {

constexpr double kRelativeTolerance = 1e-13;

}  // namespace

namespace {

// f(ε) = log δ(ε) − log δ_target is decreasing in ε; f'(ε) = −e^ε Φ(−B) / δ.
class EpsilonRoot {
 public:
  struct Point {
    double f;
    double slope;
  };
  EpsilonRoot(double mu, double delta) : mu_(mu), log_target_(std::log(delta)) {}
  Point eval(double epsilon) const {
    const DeltaTerms t = delta_terms(mu_, epsilon);
    return Point{log_delta_of(t) - log_target_, -t.second / t.delta};
  }
  // At ε = μ²/2 + μ√(2 log(1/δ)), A = √(2 log(1/δ)) and δ(ε) < Φ(−A) <= e^{−A²/2}/2 = δ/2.
  double upper_start() const { return 0.5 * mu_ * mu_ + mu_ * std::sqrt(-2.0 * log_target_); }

  // Safeguarded Newton (rtsafe) in the bracket f(lo) > 0 >= f(hi), from x (f(x) = at_x): a Newton
  // step from the latest point, bisection when it leaves (lo, hi) or every 8th step; once a step is
  // below the tolerance, a probe on the other side of the root closes the bracket. The answer is
  // the upper (conservative) end.
  double solve(double lo, double hi, double x, Point at_x) const {
    for (int iteration = 0; iteration < 400 && hi - lo > kRelativeTolerance * hi; ++iteration) {
      const double step = -at_x.f / at_x.slope;
      const double probe = 0.5 * kRelativeTolerance * hi;
      double next = x + step;
      if (std::abs(step) < probe) next = at_x.f <= 0.0 ? x - probe : x + probe;
      if (!(next > lo && next < hi) || iteration % 8 == 7) next = lo + 0.5 * (hi - lo);
      x = next;
      at_x = eval(x);
      (at_x.f <= 0.0 ? hi : lo) = x;
    }
    return hi;
  }

  // The bracket [0, upper_start()] (widened if ever needed) and the search from its upper end.
  double solve_cold() const {
    double hi = upper_start();
    Point at_hi = eval(hi);
    while (at_hi.f > 0.0) {  // safety net, not expected to run
      hi *= 2.0;
      at_hi = eval(hi);
    }
    return solve(0.0, hi, hi, at_hi);
  }

 private:
  double mu_;
  double log_target_;
};

}  // namespace

double gdp_epsilon(double mu, double delta) {
  require_positive(mu, "mu");
  detail::require_delta(delta);
  const EpsilonRoot root(mu, delta);
  if (root.eval(0.0).f <= 0.0) return 0.0;
  return root.solve_cold();
}

void gdp_epsilons_increasing(std::span<const double> mus, double delta, std::span<double> out) {
  require(out.size() == mus.size(), "gdp_epsilons_increasing: {} outputs for {} values", out.size(),
          mus.size());
  std::array<double, 3> mu_before{};  // the last three values and roots, oldest first
  std::array<double, 3> epsilon_before{};
  for (std::size_t d = 0; d < mus.size(); ++d) {
    const double mu = mus[d];
    if (d > 0) require(mu >= mus[d - 1], "gdp_epsilons_increasing: μ = {} after {}", mu, mus[d - 1]);
    double guess = std::numeric_limits<double>::quiet_NaN();
    if (d >= 3 && mu_before[0] < mu_before[1] && mu_before[1] < mu_before[2]) {
      // Newton's divided differences through the three previous (μ, ε).
      const auto& [m0, m1, m2] = mu_before;
      const auto& [e0, e1, e2] = epsilon_before;
      const double slope = (e2 - e1) / (m2 - m1);
      const double curvature = (slope - (e1 - e0) / (m1 - m0)) / (m2 - m0);
      guess = e2 + (mu - m2) * (slope + curvature * (mu - m1));
    }
    out[d] = d > 0 && mu == mus[d - 1] ? out[d - 1] : gdp_epsilon(mu, delta, guess);
    if (d == 0 || mu != mus[d - 1]) {
      mu_before = {mu_before[1], mu_before[2], mu};
      epsilon_before = {epsilon_before[1], epsilon_before[2], out[d]};
    }
  }
}

double gdp_epsilon_slope(double mu, double epsilon) {
  require(std::isfinite(mu) && mu > 0.0, "μ must be a finite number > 0, got {}", mu);
  require(std::isfinite(epsilon) && epsilon >= 0.0, "ε must be a finite number >= 0, got {}", epsilon);
  if (epsilon == 0.0) return 0.0;
  return inverse_mills_ratio(epsilon / mu + mu / 2.0);
}

double gdp_epsilon(double mu, double delta, double guess) {
  require_positive(mu, "mu");
  detail::require_delta(delta);
  const EpsilonRoot root(mu, delta);
  // Newton from the guess, each point nudged a quarter tolerance up: a point with f <= 0 whose
  // Newton step back to the root is below the tolerance is the answer (valid since f <= 0 there,
  // within the tolerance since f is smooth on that scale).
  double x = guess;
  for (int attempt = 0; attempt < 3 && std::isfinite(x) && x > 0.0 && x < root.upper_start(); ++attempt) {
    const double hi = x + 0.25 * kRelativeTolerance * x;
    const EpsilonRoot::Point at_hi = root.eval(hi);
    const double step = -at_hi.f / at_hi.slope;
    if (at_hi.f <= 0.0 && -step <= 0.5 * kRelativeTolerance * hi) return hi;
    x = hi + step;
  }
  return gdp_epsilon(mu, delta);
}

double gdp_mu_for(double epsilon, double delta) {
  require(std::isfinite(epsilon) && epsilon >= 0.0, "epsilon must be finite and >= 0, got {}", epsilon);
  detail::require_delta(delta);
  const double log_target = std::log(delta);
  const auto meets = [&](double mu) { return gdp_log_delta(mu, epsilon) <= log_target; };
  // δ_μ(ε) increases in μ (from 0 as μ -> 0 to 1 as μ -> ∞): bracket, then bisect.
  double lo = 1.0;
  double hi = 1.0;
  if (meets(1.0)) {
    while (meets(hi)) {
      lo = hi;
      hi *= 2.0;
      require(std::isfinite(hi), "gdp_mu_for: no finite mu bracket for epsilon {}, delta {}", epsilon, delta);
    }
  } else {
    while (!meets(lo)) {
      hi = lo;
      lo *= 0.5;
      require(lo > 0.0, "gdp_mu_for: no positive mu meets epsilon {}, delta {}", epsilon, delta);
    }
  }
  while (hi - lo > kRelativeTolerance * lo) {
    const double mid = lo + 0.5 * (hi - lo);
    if (mid <= lo || mid >= hi) break;
    (meets(mid) ? lo : hi) = mid;
  }
  return lo;
}

double gdp_sigma_for(double epsilon, double delta, double sensitivity) {
  require_positive(sensitivity, "sensitivity");
  return detail::round_up(sensitivity / gdp_mu_for(epsilon, delta));
}

double compose_gdp(std::span<const double> mus) {
  double largest = 0.0;
  for (const double mu : mus) {
    require(std::isfinite(mu) && mu >= 0.0, "compose_gdp: every mu must be finite and >= 0, got {}", mu);
    largest = std::max(largest, mu);
  }
  if (largest == 0.0) return 0.0;
  double sum = 0.0;
  for (const double mu : mus) sum += (mu / largest) * (mu / largest);
  return largest * std::sqrt(sum);
}

}  // namespace netdp::dp
