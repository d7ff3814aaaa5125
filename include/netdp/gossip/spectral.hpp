// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Spectral facts of a gossip matrix W: eigenvalues, second eigenvalue modulus and
// spectral gap, stationary law, primitivity, a mixing-time bound, and the
// Chebyshev acceleration of Muffliato Algorithm 1. See docs/reference/gossip.md.

#include <complex>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/util/types.hpp"

namespace netdp::gossip {

/// Largest n for which dense eigen-decompositions are allowed (O(n³) time, 8n² bytes).
inline constexpr std::size_t kDenseEigenLimit = 4000;

/// How W relates to a symmetric matrix.
enum class SymmetryClass {
  symmetric,   ///< W = Wᵀ
  reversible,  ///< π_u W_uv = π_v W_vu for some π > 0 (e.g. closed-row); Π^{1/2} W Π^{-1/2} is symmetric
  general,     ///< neither: eigenvalues may be complex
};

/// Detects the class (tolerance `tol`, relative for detailed balance).
SymmetryClass symmetry_class(const GossipMatrix& w, double tol = 1e-12);

/// All n eigenvalues by a dense solver (throws if n > kDenseEigenLimit), sorted
/// by decreasing modulus (ties: decreasing real part). Real (zero imaginary
/// part) for symmetric and reversible W.
std::vector<std::complex<double>> eigenvalues(const GossipMatrix& w);

enum class SpectralMethod {
  automatic,  ///< dense if n <= 1000, else Lanczos when W is symmetric/reversible, else dense
  dense,
  lanczos,  ///< Spectra SymEigsSolver on the deflated symmetric form; symmetric/reversible W only
};

struct SecondEigenvalue {
  double modulus = 1.0;                           ///< max_{i >= 2} |λ_i| (eigenvalues by decreasing modulus)
  double spectral_gap = 0.0;                      ///< 1 - modulus (Muffliato Definition 2 when 1 is simple)
  SpectralMethod method = SpectralMethod::dense;  ///< the method actually used
  bool converged = true;                          ///< false if Lanczos did not converge
  std::string diagnostic;                         ///< empty, or what went wrong
};

/// Second eigenvalue modulus and spectral gap. A reducible W (disconnected
/// support) has a repeated eigenvalue 1, hence modulus 1 and gap 0.
SecondEigenvalue second_eigenvalue(const GossipMatrix& w, SpectralMethod method = SpectralMethod::automatic);

enum class StationaryMethod {
  uniform,           ///< doubly stochastic: π = 1/n exactly
  detailed_balance,  ///< reversible: π from detailed balance along a BFS tree, exact
  power_iteration,   ///< general: lazy power iteration πᵀ <- πᵀ(I + W)/2
};

struct Stationary {
  Vector pi;           ///< πᵀ W = πᵀ, π >= 0, sum π = 1
  bool unique = true;  ///< false when W is reducible (then π is one of many)
  StationaryMethod method = StationaryMethod::uniform;
  bool converged = true;  ///< power iteration only
  std::size_t iterations = 0;
  double residual = 0.0;  ///< ||πᵀ W - πᵀ||_1
};

/// Stationary distribution. For a reducible reversible W, components are weighted by their total
/// detailed-balance mass (one of many stationary laws; unique = false).
Stationary stationary_distribution(const GossipMatrix& w, double tol = 1e-13,
                                   std::size_t max_iterations = 1000000);

struct Primitivity {
  bool irreducible = false;  ///< the directed support of W is strongly connected
  std::size_t period = 0;    ///< gcd of cycle lengths (0 when reducible)
  bool aperiodic() const { return period == 1; }
  bool primitive() const { return irreducible && period == 1; }
};

/// Irreducibility (strong connectivity of u -> v when W_uv > 0, u != v) and the
/// period (BFS levels: gcd over support arcs u -> v, self-loops included, of level(u) + 1 - level(v)).
Primitivity primitivity(const GossipMatrix& w);

/// Upper bound on the ε-mixing time in total variation of a reversible,
/// primitive chain: t_mix(ε) <= ceil( log(1/(ε π_min)) / gap ) (Levin, Peres &
/// Wilmer, Markov Chains and Mixing Times, 2nd ed., Theorem 12.4, with the
/// absolute spectral gap). nullopt if W is not reversible, not primitive, or gap = 0.
std::optional<double> mixing_time_bound(double spectral_gap, double pi_min, double epsilon = 0.25);
std::optional<double> mixing_time_bound(const GossipMatrix& w, double epsilon = 0.25);

/// Chebyshev scale parameter of Muffliato Algorithm 1 from the spectral gap λ in [0, 1]:
///   γ = 2 (1 - sqrt(λ (1 - λ/4))) / (1 - λ/2)²  =  2 / (1 + sqrt(1 - (1 - λ/2)²))  in [1, 2].
double muffliato_chebyshev_gamma(double spectral_gap);

/// Re-scaled Chebyshev gossip (Muffliato Definition 3, Algorithm 1):
///   x_0 given, x_1 = W x_0, x_{t+1} = γ W x_t + (1 - γ) x_{t-1},
/// i.e. x_t = P_t(W) x_0. Calls visit(t, x_t) for t = 0..steps (if visit is set)
/// and returns x_steps. x0 is n x D (one row per node). γ must be in [1, 2].
DenseMatrix chebyshev_gossip(const SparseMatrix& w, const DenseMatrix& x0, std::size_t steps, double gamma,
                             const std::function<void(std::size_t, const DenseMatrix&)>& visit = {});

/// The scalar polynomial P_t(x) of Definition 3 (same recursion), for tests and closed forms.
double chebyshev_polynomial(std::size_t t, double gamma, double x);

}  // namespace netdp::gossip
