#pragma once
// Private to the dp module: Gaussian tail pieces shared by normal.cpp and gdp.cpp,
// and the conservative rounding used by every ε the module reports.

#include <cmath>
#include <limits>

namespace netdp::dp::detail {

/// exp(-z²/2) with z² split exactly (fma), so large z lose no accuracy to the rounding of z².
double exp_neg_half_square(double z);

/// Φ(-z) = ½ exp(-z²/2) erfcx(z/√2) for z >= 0: relative accuracy in the far tail.
double lower_tail(double z);

/// log Φ(-z) for z >= 0.
double log_lower_tail(double z);

/// x moved up by a few ulps: an ε we report must not be below the computed bound.
inline double round_up(double x) {
  for (int i = 0; i < 4; ++i) x = std::nextafter(x, std::numeric_limits<double>::infinity());
  return x;
}

}  // namespace netdp::dp::detail
