// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The standard normal distribution, computed stably in the tails: Φ, log Φ and
// the scaled complementary error function erfcx(x) = exp(x²) erfc(x). Built on
// std::erfc plus an asymptotic series for large arguments (Abramowitz & Stegun 7.1.23),
// so that log Φ(x) keeps full relative accuracy for x down to about -1e150.

namespace netdp::dp {

/// Φ(x), the standard normal CDF. Relative accuracy in both tails (Φ(x) underflows to 0 below x ≈ -38.5).
double normal_cdf(double x);

/// log Φ(x), finite for every finite x (≈ -x²/2 - log(-x √(2π)) for x -> -∞).
double log_normal_cdf(double x);

/// erfcx(x) = exp(x²) erfc(x) for x >= 0 (no overflow; ≈ 1/(x√π) for large x). Throws for x < 0 or NaN.
double erfcx(double x);

/// φ(b)/Φ(−b) = √(2/π)/erfcx(b/√2), the inverse Mills ratio, for b >= 0: increasing in b (≈ b for
/// large b). Throws for b < 0 or NaN.
double inverse_mills_ratio(double b);

}  // namespace netdp::dp
