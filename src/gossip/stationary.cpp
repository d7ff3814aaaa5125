// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <cmath>
#include <numeric>

#include "netdp/gossip/spectral.hpp"
#include "netdp/util/check.hpp"
#include "support.hpp"

namespace netdp::gossip {

namespace {

double stationarity_residual(const SparseMatrix& w, const Vector& pi) {
  const Vector moved = w.transpose() * pi;  // (πᵀ W)ᵀ
  return (moved - pi).lpNorm<1>();
}

}  // namespace

Stationary stationary_distribution(const GossipMatrix& w, double tol, std::size_t max_iterations) {
  require(std::isfinite(tol) && tol > 0.0, "stationary tolerance must be finite and > 0, got {}", tol);
  require(max_iterations >= 1, "stationary max_iterations must be >= 1, got {}", max_iterations);
  const auto n = static_cast<Eigen::Index>(w.num_nodes());
  const SparseMatrix& m = w.matrix();
  const auto scc = detail::strongly_connected_components(m);
  Stationary out;
  // Unique iff the chain has exactly one closed class.
  out.unique = scc.closed_count == 1;
  std::size_t components = 0;
  if (w.is_doubly_stochastic()) {
    out.method = StationaryMethod::uniform;
    out.pi = Vector::Constant(n, 1.0 / static_cast<double>(n));
  } else if (auto pi = detail::detailed_balance_weights(m, &components)) {
    out.method = StationaryMethod::detailed_balance;
    out.pi = std::move(*pi);
  } else {
    // Lazy power iteration πᵀ <- πᵀ (I + W) / 2: same fixed points as W, and aperiodic.
    out.method = StationaryMethod::power_iteration;
    out.pi = Vector::Constant(n, 1.0 / static_cast<double>(n));
    out.converged = false;
    const SparseMatrix transposed = m.transpose();
    for (out.iterations = 1; out.iterations <= max_iterations; ++out.iterations) {
      Vector next = 0.5 * (out.pi + transposed * out.pi);
      next /= next.sum();
      // ||πᵀW - πᵀ||_1 = 2 ||next - π||_1 before renormalisation; check the true residual below.
      const double step = (next - out.pi).lpNorm<1>();
      out.pi = std::move(next);
      if (2.0 * step <= tol) {
        out.converged = true;
        break;
      }
    }
    if (!out.converged) out.iterations = max_iterations;
  }
  out.residual = stationarity_residual(m, out.pi);
  return out;
}

Primitivity primitivity(const GossipMatrix& w) {
  const SparseMatrix& m = w.matrix();
  Primitivity out;
  out.irreducible = detail::strongly_connected_components(m).count == 1;
  if (!out.irreducible) return out;
  // Period of a strongly connected digraph: gcd over arcs u -> v of level(u) + 1 - level(v), with BFS
  // levels from any root (Denardo 1977; Jarvis & Shier 1996).
  const auto n = static_cast<std::size_t>(m.rows());
  constexpr std::size_t kUnset = static_cast<std::size_t>(-1);
  std::vector<std::size_t> level(n, kUnset);
  std::vector<std::size_t> queue{0};
  level[0] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const auto u = static_cast<Eigen::Index>(queue[head]);
    for (SparseMatrix::InnerIterator it(m, u); it; ++it) {
      const auto v = static_cast<std::size_t>(it.col());
      if (it.value() > 0.0 && level[v] == kUnset) {
        level[v] = level[static_cast<std::size_t>(u)] + 1;
        queue.push_back(v);
      }
    }
  }
  std::size_t period = 0;
  for (Eigen::Index u = 0; u < m.outerSize(); ++u) {
    for (SparseMatrix::InnerIterator it(m, u); it; ++it) {
      if (it.value() <= 0.0) continue;
      const auto lu = static_cast<long long>(level[static_cast<std::size_t>(u)]);
      const auto lv = static_cast<long long>(level[static_cast<std::size_t>(it.col())]);
      period = std::gcd(period, static_cast<std::size_t>(std::llabs(lu + 1 - lv)));
    }
  }
  out.period = period;
  return out;
}

std::optional<double> mixing_time_bound(double spectral_gap, double pi_min, double epsilon) {
  require(std::isfinite(spectral_gap) && spectral_gap >= 0.0 && spectral_gap <= 1.0,
          "spectral gap must be in [0, 1], got {}", spectral_gap);
  require(std::isfinite(pi_min) && pi_min > 0.0 && pi_min <= 1.0, "pi_min must be in (0, 1], got {}", pi_min);
  require(std::isfinite(epsilon) && epsilon > 0.0 && epsilon < 1.0,
          "mixing epsilon must be in (0, 1), got {}", epsilon);
  if (spectral_gap <= 0.0) return std::nullopt;
  // Levin, Peres & Wilmer (2nd ed.), Theorem 12.4: t_mix(ε) <= t_rel log(1/(ε π_min)), t_rel = 1/γ_*.
  return std::ceil(std::log(1.0 / (epsilon * pi_min)) / spectral_gap);
}

std::optional<double> mixing_time_bound(const GossipMatrix& w, double epsilon) {
  if (symmetry_class(w) == SymmetryClass::general || !primitivity(w).primitive()) return std::nullopt;
  const Stationary stationary = stationary_distribution(w);
  return mixing_time_bound(second_eigenvalue(w).spectral_gap, stationary.pi.minCoeff(), epsilon);
}

}  // namespace netdp::gossip
