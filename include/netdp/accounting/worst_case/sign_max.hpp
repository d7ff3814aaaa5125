// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Worst-case sensitivity of a linear Gaussian view over the target's data change.
//
// For O = A G + B Z, a change c ⊗ e_u of target u's inputs (|c_t| <= 1 on its m participation
// rounds) gives sens² = max_{c ∈ [-1,1]^m} cᵀ K c with K = A_uᵀ (B Bᵀ)⁺ A_u (see
// ../shared/DESIGN.md, "linear Gaussian view"). For K ⪰ 0 the maximum of this convex quadratic
// sits at a vertex, so sens² = max_{s ∈ {-1,+1}^m} sᵀ K s (a MAX-CUT-like problem). The papers
// evaluate c = 1 (Koskela & Kulkarni) or bound by Σ|K_ij| (Bellet et al., MF paper eq. 8);
// c = 1 is not the maximum when K has negative entries. This unit reports both, a lower bound
// from local search, the exact maximum when it can be proven, and the tightest PROVEN upper
// bound (`certified`), which always bounds the maximum over the whole box [-1,1]^m, also for
// K with (rounding-sized or larger) negative eigenvalues. See docs/reference/accounting-sensitivity.md.
// Derivation from the paper to this code: src/accounting/worst_case/derivation.md.

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// Which proven upper bound produced SignMaxResult::certified.
enum class SignMaxBound {
  exact,     ///< the maximum itself, proven by exhaustive search or by a matching upper bound
  search,    ///< sign maximum from a completed search + m·max(0, −λ_min) (K clearly indefinite)
  sum_abs,   ///< Σ_ij |K_ij| (MF paper eq. 8)
  spectral,  ///< m · max(λ_max(K), 0)
  sdp,       ///< Σ_i y_i for a verified dual certificate Diag(y) − K ⪰ 0
};

std::string_view to_string(SignMaxBound bound);

struct SignMaxOptions {
  /// Exact search (depth-first branch and bound) runs when m <= exact_max_dim; 0 disables it.
  Eigen::Index exact_max_dim = 64;
  /// For m <= unbudgeted_max_dim the search always runs to completion (at most 2^(m-1) leaves).
  Eigen::Index unbudgeted_max_dim = 20;
  /// Search nodes allowed when m > unbudgeted_max_dim; when exhausted, `exact` is nullopt.
  std::int64_t node_budget = 2'000'000;
  /// Eigen-decomposition of K: the m·λ_max bound, a local-search start from the top eigenvector,
  /// and λ_min (the PSD check). Forced on when the exact search or the SDP bound runs.
  bool spectral = true;
  /// Semidefinite-relaxation bound with a verified dual certificate (skipped once optimality is
  /// already proven).
  bool sdp = true;
  /// Burer–Monteiro rank for the SDP primal; 0 = ceil(sqrt(2m)) + 1.
  int sdp_rank = 0;
  /// Maximum coordinate-ascent sweeps for the SDP primal (stops early on convergence).
  int sdp_max_sweeps = 300;
  /// Local-search starts drawn at random (in addition to c = 1, the sign-graph colouring, the top
  /// eigenvector's signs, and hyperplane roundings of the SDP solution).
  int random_starts = 4;
  /// Local search also tries flipping pairs (O(m²) per pass); otherwise single flips only.
  bool two_flip = true;
  /// Allowed |K_ij − K_ji|, relative to max|K_ij|. K is symmetrised before use.
  double symmetry_tolerance = 1e-9;
  /// Eigenvalues of K down to −psd_tolerance·max|K_ij| count as rounding: the sign maximum is
  /// then reported as exact (certified still adds m·|λ_min| so that it bounds the box maximum).
  double psd_tolerance = 1e-9;
  /// Seed of the random starts and roundings (results are deterministic for a given seed).
  std::uint64_t seed = 0x5eed5eedULL;

  /// Cheapest useful mode, for all (observer, target) pairs: 1ᵀK1, Σ|K|, local search from c = 1
  /// and the sign-graph colouring with single flips; no eigen-decomposition, no search, no SDP.
  /// certified is then Σ|K| unless local search attains it (then it is exact).
  static SignMaxOptions cheap();
};

struct SignMaxResult {
  Eigen::Index dim = 0;  ///< m
  double ones = 0.0;     ///< 1ᵀK1, the papers' value (not an upper bound in general)
  double sum_abs = 0.0;  ///< Σ|K_ij|, always an upper bound on the box maximum
  /// m·max(λ_max, 0) plus an eigen-solver error margin (when the spectral step ran).
  std::optional<double> spectral_bound;
  /// Smallest eigenvalue of (symmetrised) K (when the spectral step ran).
  std::optional<double> min_eigenvalue;
  /// Verified SDP dual bound Σ max(y_i, 0) (when the SDP step ran).
  std::optional<double> sdp_bound;
  /// The maximum, when proven (exhaustive search, or a sign vector whose value meets a proven upper
  /// bound to 1e-10 relative); else nullopt (search disabled, too large, budget exhausted, or K
  /// clearly indefinite).
  std::optional<double> exact;
  /// Value sᵀKs of the best sign vector found: a lower bound on the maximum.
  double lower_bound = 0.0;
  /// The sign vector (entries ±1) attaining lower_bound.
  Vector maximiser;
  /// Tightest proven upper bound on max_{c∈[-1,1]^m} cᵀKc, rounded up for floating-point error.
  double certified = 0.0;
  SignMaxBound certified_by = SignMaxBound::sum_abs;
  /// True when certified is the proven maximum (it then exceeds `exact` only by the documented
  /// rounding allowance and m·max(0, −λ_min)).
  bool is_exact = false;
  /// True when the branch-and-bound search ran to completion.
  bool search_completed = false;
  /// Branch-and-bound nodes visited.
  std::int64_t search_nodes = 0;
  /// (certified − max(lower_bound, 0)) / certified, in [0, 1]; 0 when certified is 0.
  double relative_gap = 0.0;
  /// Diagnostics (e.g. K clearly indefinite, SDP not converged, budget exhausted).
  std::vector<Diagnostic> warnings;
};

/// Worst case of cᵀKc over c ∈ [-1,1]^m for a symmetric m×m matrix K (m may be 0).
/// Throws std::invalid_argument when K is not square, has a non-finite entry, or is asymmetric
/// beyond options.symmetry_tolerance (the message names the largest asymmetry), or when an
/// option is out of range.
SignMaxResult maximize_over_signs(const Eigen::Ref<const DenseMatrix>& K, const SignMaxOptions& options = {});

}  // namespace netdp::accounting
