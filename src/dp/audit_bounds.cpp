// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/dp/audit_bounds.hpp"

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>

#include "netdp/util/check.hpp"

namespace netdp::dp {
namespace {

// Errors are reported by the library's own checks (require), not by Boost's exceptions.
using Policy =
    boost::math::policies::policy<boost::math::policies::domain_error<boost::math::policies::ignore_error>,
                                  boost::math::policies::overflow_error<boost::math::policies::ignore_error>>;

}  // namespace

double clopper_pearson_upper(std::size_t errors, std::size_t trials, double level) {
  require(trials >= 1, "Clopper-Pearson needs at least one trial");
  require(errors <= trials, "Clopper-Pearson: {} errors in {} trials", errors, trials);
  require(level > 0.0 && level < 1.0, "Clopper-Pearson level must be in (0, 1), got {}", level);
  if (errors == trials) return 1.0;
  // Boost's find_upper_bound_on_p is the Clopper–Pearson bound (the inverse incomplete beta).
  return boost::math::binomial_distribution<double, Policy>::find_upper_bound_on_p(
      static_cast<double>(trials), static_cast<double>(errors), level,
      boost::math::binomial_distribution<double, Policy>::clopper_pearson_exact_interval);
}

double normal_quantile(double p) {
  require(p >= 0.0 && p <= 1.0, "the normal quantile needs p in [0, 1], got {}", p);
  if (p == 0.0) return -std::numeric_limits<double>::infinity();
  if (p == 1.0) return std::numeric_limits<double>::infinity();
  return boost::math::quantile(boost::math::normal_distribution<double, Policy>(), p);
}

PrivacyLowerBound privacy_lower_bound(std::size_t false_positives, std::size_t trials_without,
                                      std::size_t false_negatives, std::size_t trials_with, double confidence,
                                      double delta) {
  require(confidence > 0.0 && confidence < 1.0, "the confidence must be in (0, 1), got {}", confidence);
  require(delta >= 0.0 && delta < 1.0, "delta must be in [0, 1), got {}", delta);
  const double level = (1.0 - confidence) / 2.0;  // each rate's bound fails with at most this chance
  PrivacyLowerBound b;
  b.false_positive_upper = clopper_pearson_upper(false_positives, trials_without, level);
  b.false_negative_upper = clopper_pearson_upper(false_negatives, trials_with, level);
  const double a = b.false_positive_upper;
  const double f = b.false_negative_upper;
  // Φ⁻¹(1 − ᾱ) = −Φ⁻¹(ᾱ), exact in the tail where 1 − ᾱ would round.
  b.mu = std::max(0.0, -normal_quantile(a) - normal_quantile(f));
  const auto log_ratio = [delta](double numerator_rate, double denominator_rate) {
    const double numerator = 1.0 - delta - numerator_rate;
    if (numerator <= 0.0) return 0.0;
    return denominator_rate <= 0.0 ? std::numeric_limits<double>::infinity()
                                   : std::log(numerator / denominator_rate);
  };
  b.epsilon = std::max({0.0, log_ratio(a, f), log_ratio(f, a)});
  const double a_hat = static_cast<double>(false_positives) / static_cast<double>(trials_without);
  const double f_hat = static_cast<double>(false_negatives) / static_cast<double>(trials_with);
  b.mu_estimate = std::max(0.0, -normal_quantile(a_hat) - normal_quantile(f_hat));
  return b;
}

}  // namespace netdp::dp
