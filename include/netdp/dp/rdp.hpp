// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Rényi differential privacy (Mironov 2017) curves ε(α) over a grid of orders,
// zero-concentrated DP (Bun & Steinke 2016: ρ-zCDP is ε(α) = ρα), composition,
// conversion to (ε, δ) and noise calibration.

#include <cstddef>
#include <functional>
#include <vector>

namespace netdp::dp {

/// The default grid of Rényi orders (see docs/reference/dp.md): 1.01..1.09 (step 0.01),
/// 1.1..1.9 (0.1), 2..10 (0.25), 11..64 (1), then 72, 80, 96, 128, 160, 192,
/// 256, 320, 384, 512, 768, 1024. Fine near 1 for large μ, long for small μ.
std::vector<double> default_rdp_orders();

/// An RDP guarantee: ε(α) at each order α of a grid. Optionally also holds the
/// curve as a callable, which rdp_to_dp uses to refine the optimal order
/// continuously between grid points. Invariants (checked, std::invalid_argument):
/// orders strictly increasing, finite, > 1; ε(α) >= 0 and not NaN (+inf allowed:
/// "no guarantee at this order").
class RdpCurve {
 public:
  using Function = std::function<double(double alpha)>;

  /// Tabulated curve: epsilons[i] = ε(orders[i]).
  RdpCurve(std::vector<double> orders, std::vector<double> epsilons);

  /// Curve given as a callable (valid for every real α in [orders.front(), orders.back()]),
  /// tabulated on `orders` and kept for continuous refinement.
  static RdpCurve from_function(Function epsilon_of_alpha, std::vector<double> orders = default_rdp_orders());

  const std::vector<double>& orders() const { return orders_; }
  const std::vector<double>& epsilons() const { return epsilons_; }
  bool has_function() const { return static_cast<bool>(function_); }

  /// ε(α) from the callable; throws unless has_function() and α within the grid's range.
  double operator()(double alpha) const;

  /// Composition (Mironov 2017, Proposition 1): ε's add order by order. Both curves must
  /// share the same orders; the callable is kept only when both have one.
  RdpCurve& operator+=(const RdpCurve& other);
  friend RdpCurve operator+(RdpCurve a, const RdpCurve& b) { return a += b; }

  /// k-fold self-composition: ε(α) * k. Requires k >= 0 finite.
  RdpCurve times(double k) const;

 private:
  RdpCurve(std::vector<double> orders, std::vector<double> epsilons, Function function);
  std::vector<double> orders_;
  std::vector<double> epsilons_;
  Function function_;
};

/// ρ-zCDP as an RDP curve: ε(α) = ρα (Bun & Steinke 2016, Definition 1.1). Requires ρ > 0.
RdpCurve zcdp_rdp(double rho, std::vector<double> orders = default_rdp_orders());

/// μ-GDP Gaussian mechanism as RDP: ε(α) = αμ²/2 (Mironov 2017, Proposition 7), i.e. ρ = μ²/2.
RdpCurve gaussian_rdp_curve(double mu, std::vector<double> orders = default_rdp_orders());

/// The same at one order: ε(α) = αμ²/2 for the Gaussian mechanism with μ = sensitivity / σ
/// (Mironov 2017, Proposition 7).
/// Requires α > 1 finite and μ >= 0; μ = +inf (no guarantee) gives +inf, as an RdpCurve allows.
/// Throws std::invalid_argument otherwise (NaN included).
double gaussian_rdp(double alpha, double mu);

/// gaussian_rdp without its checks, for a caller that checked α and μ once and evaluates many orders.
constexpr double gaussian_rdp_unchecked(double alpha, double mu) { return alpha * mu * mu / 2.0; }

enum class RdpConversionMethod {
  /// ε = ε(α) + log(1/δ)/(α-1)  (Mironov 2017, Proposition 3).
  mironov,
  /// ε = ε(α) + log((α-1)/α) - (log δ + log α)/(α-1)  (Canonne, Kamath & Steinke
  /// 2020, Proposition 12; Balle et al. 2020, Theorem 21). Never worse than mironov.
  improved,
};

/// (ε, δ) from an RDP curve and the order α at which the bound is attained.
struct RdpConversion {
  double epsilon = 0.0;
  double alpha = 0.0;
};

/// The smallest ε over the grid (and, when the curve has a callable, refined by
/// a continuous minimisation in α around the best grid order), rounded up.
/// Every α gives a valid bound, so the result is an upper bound on the true ε.
/// Requires delta in (0, 1). If ε(α) is +inf at every order, epsilon is +inf.
RdpConversion rdp_to_dp(const RdpCurve& curve, double delta,
                        RdpConversionMethod method = RdpConversionMethod::improved);

/// Smallest noise σ meeting (epsilon, delta) for a mechanism whose RDP curve
/// scales as (sensitivity/σ)²: `unit_curve` is the curve at σ = sensitivity
/// (noise multiplier 1). Bisection on σ; returns the conservative (upper) end,
/// ~1e-12 relative. Throws if the target is unreachable on the curve's grid.
double rdp_sigma_for(const RdpCurve& unit_curve, double epsilon, double delta, double sensitivity = 1.0,
                     RdpConversionMethod method = RdpConversionMethod::improved);

}  // namespace netdp::dp
