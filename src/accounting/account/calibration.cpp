// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// σ calibration of a pairwise account (pairwise.hpp, calibrate_sigma): the smallest σ whose mean,
// max or single-pair ε meets a target.

#include <omp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "accounting/account/pairwise_detail.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/gdp_table.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::accounting {

// ---------------------------------------------------------------- calibration

namespace {

/// The mean over pairs of ε(u_i·Δ/σ, δ) bracketed cheaply: the unit μ binned on the geometric grid
/// g_b = r^b, r = 1 + 2⁻⁸; `upper(σ)` converts each bin's top g_b >= u_i, `lower(σ)` its bottom
/// g_{b−1} <= u_i, so lower <= the mean <= upper (ε increases with μ), at one conversion per grid
/// point next to an occupied bin instead of one per pair. The bins between the smallest and largest
/// u are counted in place (at most about 3.7·10⁵ over all doubles), without sorting the pairs.
class BinnedMean {
 public:
  BinnedMean(std::span<const double> unit_mus, double sensitivity)
      : sensitivity_(sensitivity), pairs_(static_cast<double>(unit_mus.size())) {
    double smallest = std::numeric_limits<double>::infinity();
    double largest = 0.0;
    for (const double u : unit_mus) {
      if (u > 0.0) {
        smallest = std::min(smallest, u);
        largest = std::max(largest, u);
      }
    }
    if (largest == 0.0) return;
    // Grid points from two below the smallest bin's estimate to two above the largest's.
    first_ = estimate(smallest) - 2;
    const long last = estimate(largest) + 2;
    for (long b = first_; b <= last; ++b) grid_.push_back(grid(b));
    std::vector<double> counts(grid_.size(), 0.0);
    std::vector<double> positions(grid_.size(), 0.0);
    for (const double u : unit_mus) {
      if (!(u > 0.0)) continue;
      const double scaled = std::log(u) / log_ratio();
      auto b = static_cast<long>(std::ceil(scaled));
      while (grid_at(b) < u) ++b;
      while (grid_at(b - 1) > u) --b;
      const auto slot =
          static_cast<std::size_t>(std::clamp(b - first_, 1L, static_cast<long>(grid_.size()) - 1));
      counts[slot] += 1.0;
      positions[slot] += std::clamp(scaled - static_cast<double>(b - 1), 0.0, 1.0);
    }
    // The occupied bins, and the grid points at their ends (increasing, each once).
    for (std::size_t slot = 1; slot < grid_.size(); ++slot) {
      if (counts[slot] == 0.0) continue;
      if (points_.empty() || points_.back() != slot - 1) points_.push_back(slot - 1);
      points_.push_back(slot);
      bins_.push_back({points_.size() - 2, counts[slot], positions[slot]});
    }
  }
  double upper(double sigma, double delta) const {
    const std::vector<double> e = point_epsilons(sigma, delta);
    return mean([&](const Bin& bin) { return bin.pairs * e[bin.bottom + 1]; });
  }
  double lower(double sigma, double delta) const {
    const std::vector<double> e = point_epsilons(sigma, delta);
    return mean([&](const Bin& bin) { return bin.pairs * e[bin.bottom]; });
  }
  /// Each pair's ε interpolated linearly in log μ between its bin's ends: not a bound, but within
  /// the bracket and second order in the bin width, where the bounds are first order.
  double interpolated(double sigma, double delta) const {
    const std::vector<double> e = point_epsilons(sigma, delta);
    return mean([&](const Bin& bin) {
      return bin.pairs * e[bin.bottom] + bin.positions * (e[bin.bottom + 1] - e[bin.bottom]);
    });
  }

 private:
  struct Bin {
    std::size_t bottom = 0;  ///< points_[bottom] is the bin's bottom g_{b−1}, points_[bottom + 1] its top
    double pairs = 0.0;
    double positions = 0.0;  ///< Σ (log u − log g_{b−1}) / log r over its pairs, each in [0, 1]
  };
  static double log_ratio() { return std::log1p(kStep); }
  static double grid(long b) { return std::exp(static_cast<double>(b) * log_ratio()); }
  static long estimate(double u) { return static_cast<long>(std::ceil(std::log(u) / log_ratio())); }
  /// grid(b), from the table where it has it.
  double grid_at(long b) const {
    const long slot = b - first_;
    return slot >= 0 && slot < static_cast<long>(grid_.size()) ? grid_[static_cast<std::size_t>(slot)]
                                                               : grid(b);
  }
  /// ε at every grid point next to an occupied bin (increasing μ: each root starts from its
  /// neighbours').
  std::vector<double> point_epsilons(double sigma, double delta) const {
    std::vector<double> mus(points_.size());
    bool finite = true;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      mus[i] = grid_[points_[i]] * sensitivity_ / sigma;
      finite = finite && std::isfinite(mus[i]) && mus[i] > 0.0;
    }
    if (finite) return detail::increasing_roots(mus, delta);
    std::vector<double> out(mus.size());
    for (std::size_t i = 0; i < mus.size(); ++i) out[i] = detail::gdp_epsilon_or_zero(mus[i], delta);
    return out;
  }
  /// Σ over bins of part(bin) / pairs, in bin order.
  template <class Part>
  double mean(const Part& part) const {
    double sum = 0.0;
    for (const Bin& bin : bins_) sum += part(bin);
    return sum / pairs_;
  }
  static constexpr double kStep = 0x1.0p-8;
  double sensitivity_;
  double pairs_;
  long first_ = 0;                   ///< the grid index of grid_[0]
  std::vector<double> grid_;         ///< g_b for b = first_, first_ + 1, ...
  std::vector<std::size_t> points_;  ///< slots of grid_ at the ends of occupied bins, increasing
  std::vector<Bin> bins_;
};

/// The smallest σ (to relative `tolerance`) at which `met(σ)` holds, for a statistic of ε that
/// decreases in σ: a bracket [lo, hi] with met(hi) and not met(lo) from `start` by halving / doubling
/// within the options' [sigma_min, sigma_max] (an error naming `what` and the bound outside it),
/// then bisection on log σ (the geometric midpoint halves the ratio hi/lo); the met end is returned.
template <class Met>
double smallest_sigma_meeting(const Met& met, double start, double tolerance,
                              const CalibrationOptions& options, double target_epsilon,
                              std::string_view what) {
  double hi = start;
  double lo = hi;
  if (met(hi)) {
    do {
      lo /= 2.0;
      require(lo >= options.sigma_min,
              "calibration to ε = {}: the {} ε stays at or below the target for every σ >= {}",
              target_epsilon, what, options.sigma_min);
      if (met(lo)) hi = lo;
    } while (hi == lo);
  } else {
    do {
      lo = hi;
      hi *= 2.0;
      require(hi <= options.sigma_max,
              "calibration to ε = {} is unreachable: the {} ε stays above it for every σ <= {}",
              target_epsilon, what, options.sigma_max);
    } while (!met(hi));
  }
  while (hi - lo > tolerance * hi) {
    const double mid = std::sqrt(lo * hi);
    (met(mid) ? hi : lo) = mid;
  }
  return hi;
}

/// One Newton step on the exact mean M(σ) from the root of the interpolated binned mean in
/// [lower_sigma, upper_sigma] (found on the bins alone): the error after it is about the square of
/// that root's (M is smooth, near c/σ), mostly within the calibration's tolerance.
struct NewtonStep {
  double sigma = 0.0;  ///< after the step
  double slope = 0.0;  ///< M' where the step was taken
};
NewtonStep newton_mean_step(const BinnedMean& binned, const PairwiseAccount& account, double target_epsilon,
                            double delta, double lower_sigma, double upper_sigma) {
  double lo = std::min(lower_sigma, upper_sigma);
  double hi = upper_sigma;
  for (int step = 0; step < 14 && hi > lo; ++step) {  // 0.4 % down to ~10⁻⁶
    const double mid = std::sqrt(lo * hi);
    (binned.interpolated(mid, delta) <= target_epsilon ? hi : lo) = mid;
  }
  const double sigma = std::sqrt(lo * hi);
  const PairwiseAccount::MeanAndSlope m = account.epsilon_mean_and_slope(sigma, delta);
  const double next = m.slope < 0.0 ? sigma - (m.mean - target_epsilon) / m.slope : sigma;
  return {std::isfinite(next) && next > 0.0 ? next : sigma, m.slope};
}

/// calibrate_sigma's σ and achieved ε (into `result`) for the mean of a Gaussian account. The binned
/// bounds locate σ* within a factor 1 + 2⁻⁸ cheaply (lower <= mean <= upper); a Newton step on the
/// exact mean then lands within the tolerance, and two exact evaluations (`stat`) just inside it on
/// either side prove the bracket (a probe on the wrong side moves the guess by the same slope).
/// Should they not, secant steps close the bracket, keeping the statistic at hi <= the target.
template <class Stat>
void calibrate_gaussian_mean(const PairwiseAccount& account, double target_epsilon, double delta,
                             const CalibrationOptions& options, const Stat& stat, Calibration& result) {
  const std::string name(statistic_name(Statistic::mean));
  const BinnedMean binned(account.unit_mus(), account.sensitivity());
  const double start = account.sensitivity() * account.max_unit_mu() / dp::gdp_mu_for(target_epsilon, delta);
  require(start > 0.0, "calibration to ε = {}: no pair leaks (every μ is 0), so every σ meets it",
          target_epsilon);
  const double fine = 1e-4;  // the bracket only starts the exact search
  double upper_sigma =
      smallest_sigma_meeting([&](double s) { return binned.upper(s, delta) <= target_epsilon; }, start, fine,
                             options, target_epsilon, name);
  const double lower_sigma =
      smallest_sigma_meeting([&](double s) { return binned.lower(s, delta) <= target_epsilon; }, upper_sigma,
                             fine, options, target_epsilon, name);
  const NewtonStep newton =
      newton_mean_step(binned, account, target_epsilon, delta, lower_sigma, upper_sigma);
  ++result.evaluations;
  if (options.progress) options.progress(result.evaluations);
  const double half_width = 0.45 * options.relative_tolerance;
  double guess = newton.sigma;
  for (int attempt = 0; attempt < 3 && newton.slope < 0.0; ++attempt) {
    const double probe_hi = guess * (1.0 + half_width);
    const double stat_probe_hi = stat(probe_hi);
    if (stat_probe_hi > target_epsilon) {
      guess = probe_hi - (stat_probe_hi - target_epsilon) / newton.slope;
      continue;
    }
    const double probe_lo = guess * (1.0 - half_width);
    const double stat_probe_lo = stat(probe_lo);
    if (stat_probe_lo > target_epsilon) {
      result.sigma = probe_hi;
      result.achieved_epsilon = stat_probe_hi;
      return;
    }
    guess = probe_lo - (stat_probe_lo - target_epsilon) / newton.slope;
  }
  double stat_hi = stat(upper_sigma);
  for (int step = 0; stat_hi > target_epsilon; ++step) {  // rounding may leave the mean a hair above
    require(step < 48, "calibration to ε = {}: σ = {} does not meet it", target_epsilon, upper_sigma);
    upper_sigma *= 1.0 + std::ldexp(1.0, step - 40);
    stat_hi = stat(upper_sigma);
  }
  double hi = upper_sigma;
  double f_hi = stat_hi - target_epsilon;
  double lo = std::min(lower_sigma, hi);
  double f_lo = lo < hi ? stat(lo) - target_epsilon : f_hi;
  // Secant steps from the two latest points (superlinear: the mean is smooth in σ), kept inside
  // the bracket f(lo) > 0 >= f(hi), with a bisection when a step leaves it or the last step did
  // not halve |f|; once a step is below the tolerance, a probe a sixteenth of the tolerance away on
  // the other side of the root closes the bracket (the mean's own rounding is ~1e-13 relative).
  double x_previous = lo;
  double f_previous = f_lo;
  double x = hi;
  double f_x = f_hi;
  bool stalled = false;
  while (hi - lo > options.relative_tolerance * hi && f_lo > 0.0) {
    const double probe = options.relative_tolerance / 16.0 * hi;
    double next = x - f_x * (x - x_previous) / (f_x - f_previous);
    if (std::abs(next - x) < probe) next = f_x <= 0.0 ? x - probe : x + probe;
    if (!(next > lo && next < hi) || stalled) next = std::sqrt(lo * hi);
    const double stat_next = stat(next);
    const double f_next = stat_next - target_epsilon;
    stalled = std::abs(f_next) > 0.5 * std::abs(f_x);
    if (stat_next <= target_epsilon) {
      hi = next;
      f_hi = f_next;
      stat_hi = stat_next;
    } else {
      lo = next;
      f_lo = f_next;
    }
    x_previous = std::exchange(x, next);
    f_previous = std::exchange(f_x, f_next);
  }
  result.sigma = hi;
  result.achieved_epsilon = stat_hi;
}

}  // namespace

Calibration calibrate_sigma(const PairwiseAccount& account, Statistic statistic, double target_epsilon,
                            double delta, const CalibrationOptions& options) {
  require(std::isfinite(target_epsilon) && target_epsilon > 0.0,
          "the target ε must be a finite number > 0, got {}", target_epsilon);
  require(delta > 0.0 && delta < 1.0, "δ must be in (0, 1), got {}", delta);
  require(
      options.sigma_min > 0.0 && options.sigma_min < options.sigma_max && std::isfinite(options.sigma_max),
      "calibration bounds must satisfy 0 < sigma_min < sigma_max < inf, got [{}, {}]", options.sigma_min,
      options.sigma_max);
  require(std::isfinite(options.sigma_start) && options.sigma_start > 0.0,
          "the calibration's starting σ must be a finite number > 0, got {}", options.sigma_start);
  require(options.relative_tolerance > 0.0 && options.relative_tolerance < 1.0,
          "the calibration tolerance must be in (0, 1), got {}", options.relative_tolerance);
  Calibration result;
  const auto stat = [&](double sigma) {
    const double value = epsilon_statistic(account, statistic, sigma, delta);
    ++result.evaluations;
    if (options.progress) options.progress(result.evaluations);
    return value;
  };
  const auto met = [&](double sigma) { return stat(sigma) <= target_epsilon; };
  const std::string name(statistic_name(statistic));

  double hi = 0.0;
  if (account.gaussian() && statistic == Statistic::mean) {
    calibrate_gaussian_mean(account, target_epsilon, delta, options, stat, result);
    return result;
  }
  if (account.gaussian()) {
    const double max_mu = account.max_unit_mu();
    require(max_mu > 0.0, "calibration to ε = {}: no pair leaks (every μ is 0), so every σ meets it",
            target_epsilon);
    // μ = unit μ · Δ/σ, and ε(δ) grows with μ: the worst pair meets the target exactly at
    // σ = Δ · max unit μ / μ(target); gdp_mu_for returns the conservative (lower) μ.
    // Each ε is up to 1e-10 relative above the root at μ (gdp_epsilons_rounded_up). ε is convex and 0
    // at μ = 0, so ε/μ increases and lowering μ by a factor 1 − x lowers ε by at least x·ε: the factor
    // 1 + 2⁻³² (2.3e-10) on σ leaves room for that, so the first σ meets the target unless
    // gdp_mu_for's root is off.
    hi = account.sensitivity() * max_mu / dp::gdp_mu_for(target_epsilon, delta) * (1.0 + 0x1.0p-32);
    if (statistic != Statistic::mean) {
      // Floating point may still leave ε a hair above the target: step σ up by doubling relative
      // amounts until it is met.
      for (int step = 0; !met(hi); ++step) {
        require(step < 48, "calibration to ε = {}: the closed form σ = {} does not meet it", target_epsilon,
                hi);
        hi = std::nextafter(hi, std::numeric_limits<double>::infinity()) * (1.0 + std::ldexp(1.0, step - 52));
      }
      result.sigma = hi;
      result.achieved_epsilon = stat(hi);
      result.closed_form = true;
      return result;
    }
  } else {
    hi = options.sigma_start;
  }
  hi = smallest_sigma_meeting(met, hi, options.relative_tolerance, options, target_epsilon, name);
  result.sigma = hi;
  result.achieved_epsilon = stat(hi);
  require(result.achieved_epsilon <= target_epsilon, "calibration: ε({}) = {} exceeds the target {}", hi,
          result.achieved_epsilon, target_epsilon);
  return result;
}

}  // namespace netdp::accounting
