// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// μ-Gaussian differential privacy (Dong, Roth & Su 2022, "Gaussian differential
// privacy", JRSS-B): the exact (ε, δ) curve of a μ-GDP mechanism, its inverse,
// composition and noise calibration. All functions throw std::invalid_argument
// naming the offending value on bad input (μ <= 0, ε < 0, δ outside (0, 1), NaN, inf).

#include <span>

namespace netdp::dp {

/// δ(ε) = Φ(-ε/μ + μ/2) - e^ε Φ(-ε/μ - μ/2)  (Dong-Roth-Su 2022, Corollary 2.13;
/// Balle & Wang 2018, Theorem 8). Evaluated without cancellation or overflow;
/// relative accuracy ~1e-13 down to δ = 1e-300 (smaller δ underflow towards 0; use gdp_log_delta).
/// Requires μ > 0 finite, ε >= 0 finite.
double gdp_delta(double mu, double epsilon);

/// log δ(ε), finite far beyond double underflow of δ (e.g. μ = 1, ε = 1e4 gives ≈ -5e7).
double gdp_log_delta(double mu, double epsilon);

/// The smallest ε >= 0 with δ(ε) <= delta for a μ-GDP mechanism: a safeguarded
/// root-finder on log δ that returns the CONSERVATIVE end of its final bracket
/// (δ(returned ε) <= delta), within ~1e-12 relative of the exact root.
/// Returns 0 when δ(0) <= delta. Requires μ > 0, delta in (0, 1).
double gdp_epsilon(double mu, double delta);

/// gdp_epsilon from a guess of the root (the root at a nearby μ): δ(returned ε) <= delta, within
/// ~1e-13 of the root by the Newton step there; one or two evaluations of δ instead of about ten
/// when the guess is close. Any guess is accepted: after three Newton points that do not settle
/// (or with none: NaN) it is the search from scratch.
double gdp_epsilon(double mu, double delta, double guess);

/// gdp_epsilon(mus[i], delta) into out[i] for increasing μ > 0 (equal neighbours allowed): each root
/// after the third starts from the previous three extrapolated by their quadratic, so a close run of
/// values costs about one δ evaluation each instead of about ten. Serial.
void gdp_epsilons_increasing(std::span<const double> mus, double delta, std::span<double> out);
/// dε/dμ along δ(ε, μ) = delta, at a point (mu, epsilon) of that curve (epsilon = gdp_epsilon(mu,
/// delta) > 0): the implicit derivative −(∂δ/∂μ)/(∂δ/∂ε) = φ(a) / (e^ε Φ(−b)) with a = ε/μ − μ/2,
/// b = ε/μ + μ/2, which is the inverse Mills ratio φ(b)/Φ(−b) since e^ε φ(b) = φ(a); evaluated as
/// √(2/π) / erfcx(b/√2), without underflow. 0 at epsilon = 0 (where δ(0) <= delta, ε stays 0).
/// Requires μ > 0 finite, epsilon >= 0 finite.
double gdp_epsilon_slope(double mu, double epsilon);

/// The largest μ with δ_μ(epsilon) <= delta (inverse of gdp_delta in μ; δ is
/// increasing in μ). Returns the conservative (lower) end of the final
/// bracket. Requires epsilon >= 0 finite, delta in (0, 1).
double gdp_mu_for(double epsilon, double delta);

/// The smallest Gaussian noise σ meeting (epsilon, delta) for an L2 sensitivity
/// `sensitivity`: σ = sensitivity / gdp_mu_for(epsilon, delta), rounded up.
/// Exact for the Gaussian mechanism (Balle & Wang 2018 analytic Gaussian).
double gdp_sigma_for(double epsilon, double delta, double sensitivity);

/// Composition of Gaussian mechanisms (Dong-Roth-Su 2022, Corollary 3.3):
/// μ = sqrt(Σ μ_i²). Entries must be finite and >= 0 (0 = a release that leaks
/// nothing); an empty list gives 0. Overflow-safe.
double compose_gdp(std::span<const double> mus);

}  // namespace netdp::dp
