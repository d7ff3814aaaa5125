// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <cmath>

#include "netdp/gossip/spectral.hpp"
#include "netdp/util/check.hpp"

namespace netdp::gossip {

namespace {

void require_gamma(double gamma) {
  require(std::isfinite(gamma) && gamma >= 1.0 && gamma <= 2.0,
          "Chebyshev scale parameter gamma must be in [1, 2] (Muffliato Definition 3), got {}", gamma);
}

}  // namespace

double muffliato_chebyshev_gamma(double spectral_gap) {
  require(std::isfinite(spectral_gap) && spectral_gap >= 0.0 && spectral_gap <= 1.0,
          "spectral gap must be in [0, 1], got {}", spectral_gap);
  // Muffliato Algorithm 1: γ = 2(1 - sqrt(λ(1 - λ/4))) / (1 - λ/2)². Multiplying by (1 + sqrt(λ(1 - λ/4)))
  // and using 1 - λ(1 - λ/4) = (1 - λ/2)² gives the cancellation-free form 2 / (1 + sqrt(λ(1 - λ/4))).
  return 2.0 / (1.0 + std::sqrt(spectral_gap * (1.0 - spectral_gap / 4.0)));
}

DenseMatrix chebyshev_gossip(const SparseMatrix& w, const DenseMatrix& x0, std::size_t steps, double gamma,
                             const std::function<void(std::size_t, const DenseMatrix&)>& visit) {
  require_gamma(gamma);
  require(w.rows() == w.cols(), "gossip matrix must be square, got {} x {}", w.rows(), w.cols());
  require(x0.rows() == w.rows(), "x0 has {} rows but W is {} x {} (one row per node)", x0.rows(), w.rows(),
          w.cols());
  DenseMatrix previous = x0;
  if (visit) visit(0, previous);
  if (steps == 0) return previous;
  DenseMatrix current = w * x0;  // P_1(W) = W
  if (visit) visit(1, current);
  for (std::size_t t = 1; t < steps; ++t) {
    // P_{t+1}(W) = γ W P_t(W) + (1 - γ) P_{t-1}(W)
    DenseMatrix next = gamma * (w * current) + (1.0 - gamma) * previous;
    previous = std::move(current);
    current = std::move(next);
    if (visit) visit(t + 1, current);
  }
  return current;
}

double chebyshev_polynomial(std::size_t t, double gamma, double x) {
  require_gamma(gamma);
  require_finite(x, "x");
  if (t == 0) return 1.0;
  double previous = 1.0;
  double current = x;
  for (std::size_t k = 1; k < t; ++k) {
    const double next = gamma * x * current + (1.0 - gamma) * previous;
    previous = current;
    current = next;
  }
  return current;
}

}  // namespace netdp::gossip
