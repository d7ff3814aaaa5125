// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the dp module: Gaussian tail pieces shared by normal.cpp and gdp.cpp,
// the conservative rounding used by every ε the module reports, and the check of every δ it takes.

#include <cmath>
#include <limits>

#include "netdp/util/check.hpp"
#include "netdp/util/next_up.hpp"

namespace netdp::dp::detail {

/// exp(-z²/2) with z² split exactly (fma), so large z lose no accuracy to the rounding of z².
double exp_neg_half_square(double z);

/// Φ(-z) = ½ exp(-z²/2) erfcx(z/√2) for z >= 0: relative accuracy in the far tail.
double lower_tail(double z);

/// log Φ(-z) for z >= 0.
double log_lower_tail(double z);

/// x moved up by a few ulps: an ε we report must not be below the computed bound.
inline double round_up(double x) {
  for (int i = 0; i < 4; ++i) x = util::next_up(x);
  return x;
}

/// Throws unless δ is in (0, 1) and a normal number (a subnormal δ loses the conversions' accuracy).
inline void require_delta(double delta) {
  require(delta > 0.0 && delta < 1.0, "delta must be in (0, 1), got {}", delta);
  require(delta >= std::numeric_limits<double>::min(),
          "delta {} is subnormal: it must be a normal number (>= {:g})", delta,
          std::numeric_limits<double>::min());
}

}  // namespace netdp::dp::detail
