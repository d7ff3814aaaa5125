// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Statistically valid lower bounds on a mechanism's privacy from an attack's error counts.
//
// An attack is a test with threshold fixed before the trials: it says "the target's data was
// x_u + d" when its statistic exceeds the threshold. Over n0 trials on x_u it errs fp times
// (false positives) and over n1 trials on x_u + d it errs fn times (false negatives). Clopper–
// Pearson gives upper confidence bounds ᾱ on the false-positive rate and β̄ on the false-negative
// rate, each at one-sided level (1 − confidence)/2, so both hold together with probability at
// least `confidence` (union bound). Any (ε, δ)-DP mechanism has α + e^ε β >= 1 − δ and
// e^ε α + β >= 1 − δ (Kairouz et al. 2015), and any μ-GDP mechanism has β >= Φ(Φ⁻¹(1 − α) − μ)
// (Dong, Roth & Su 2019, Definition 2.1); solving at (ᾱ, β̄) gives lower bounds on ε and μ that are
// valid with probability >= `confidence` (Jagielski et al. 2020, Nasr et al. 2021).

#include <cstddef>

namespace netdp::dp {

/// The Clopper–Pearson upper bound p̄ on a binomial proportion with `errors` of `trials`: the p
/// with P(Binomial(trials, p) <= errors) = level (1 when errors = trials). Throws unless
/// errors <= trials, trials >= 1 and level in (0, 1).
double clopper_pearson_upper(std::size_t errors, std::size_t trials, double level);

/// Φ⁻¹(p) for p in (0, 1); −∞ at 0, +∞ at 1. Throws for p outside [0, 1] or NaN.
double normal_quantile(double p);

struct PrivacyLowerBound {
  double false_positive_upper = 1.0;  ///< ᾱ
  double false_negative_upper = 1.0;  ///< β̄
  double mu = 0.0;           ///< max(0, Φ⁻¹(1 − ᾱ) − Φ⁻¹(β̄)): μ-GDP is violated below it
  double epsilon = 0.0;      ///< max(0, ln((1 − δ − ᾱ)/β̄), ln((1 − δ − β̄)/ᾱ)) at δ
  double mu_estimate = 0.0;  ///< the same from the observed rates (a point estimate, no guarantee)
};

/// The lower bounds from an attack's counts, valid with probability >= confidence. Throws unless
/// fp <= n0, fn <= n1, n0, n1 >= 1, confidence in (0, 1) and delta in [0, 1).
PrivacyLowerBound privacy_lower_bound(std::size_t false_positives, std::size_t trials_without,
                                      std::size_t false_negatives, std::size_t trials_with, double confidence,
                                      double delta);

}  // namespace netdp::dp
