// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Worst-case sensitivity of a linear Gaussian view when each round releases a vector.
//
// In learning, round t's release is a gradient difference d_t ∈ ℝ^p with ‖d_t‖ <= Δ. For a view
// with target matrix K (sign_max.hpp), the loss is Σ_{s,t} K_st ⟨d_s, d_t⟩ = tr(K G) with
// G = Gram(d) ⪰ 0, diag(G) <= Δ², rank(G) <= p. For Δ = 1:
//
//     max { tr(K G) : G ⪰ 0, diag(G) <= 1, rank(G) <= p },
//
// which is the scalar sign maximum at p = 1 and the semidefinite program's value for p >= m
// (Burer & Monteiro: for p with p(p+1)/2 > m the rank constraint never binds). Between them it
// never exceeds the SDP value. This unit brackets the SDP value: `lower` is tr(K VVᵀ) of unit
// vectors v_i ∈ ℝ^r that are found (a release of dimension r attains it), `upper` is
// Σ y_i for a dual certificate Diag(y) − K ⪰ 0 that is verified (weak duality: tr(KG) <=
// tr(Diag(y) G) <= Σ max(y_i, 0)), capped by Σ|K_ij| (MF paper eq. 8). Scalar ≤ vector ≤ Σ|K|.
// Derivation from the paper to this code: src/accounting/worst_case/derivation.md.

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// release dimension meaning "any p" (the SDP value).
inline constexpr std::size_t kAnyReleaseDimension = 0;

/// The release dimension from its name: "vector" (kAnyReleaseDimension) or an integer p >= 1.
/// Throws std::invalid_argument naming `what` (e.g. "--release-dimension") and the rule otherwise.
std::size_t parse_release_dimension(std::string_view text, std::string_view what);
/// The name parse_release_dimension reads: "vector" or p.
std::string release_dimension_name(std::size_t dimension);

struct VectorMaxOptions {
  /// p, the dimension of each round's release: kAnyReleaseDimension (vector of any size) or >= 2.
  std::size_t dimension = kAnyReleaseDimension;
  /// Maximum interior-point iterations (each a few m × m factorisations; 20–40 are typical).
  int max_iterations = 100;
  /// Release dimension p below the optimum's rank: maximum coordinate-ascent sweeps of the rank-p factor.
  int max_sweeps = 3000;
  /// Release dimension p below the optimum's rank: sweeps between two checks of the primal.
  int check_every = 25;
  /// upper − lower <= tolerance · upper counts as the exact value.
  double exact_tolerance = 1e-9;
  /// Allowed |K_ij − K_ji|, relative to max|K_ij|. K is symmetrised before use.
  double symmetry_tolerance = 1e-9;
  /// Seed of the factor's random start (results are deterministic for a given seed).
  std::uint64_t seed = 0x5eed5eedULL;
};

struct VectorMaxResult {
  Eigen::Index dim = 0;  ///< m
  double ones = 0.0;     ///< 1ᵀK1 (all rounds the same direction)
  double sum_abs = 0.0;  ///< Σ|K_ij|, always an upper bound
  double lower = 0.0;    ///< tr(K VVᵀ) of the factor found: attained by a release of dimension `rank`
  double upper = 0.0;    ///< verified upper bound on the maximum over every release dimension
  bool exact = false;    ///< upper − lower <= exact_tolerance · upper: upper is the value for p >= rank
  int rank = 0;          ///< columns of the factor (the release dimension it needs)
  int iterations = 0;    ///< interior-point iterations run
  int sweeps = 0;        ///< coordinate-ascent sweeps run (release dimension below the optimum's rank)
  DenseMatrix factor;    ///< V (m × rank), unit rows v_i: the worst-case round directions
  std::vector<Diagnostic> warnings;
};

/// max tr(KG) over G ⪰ 0, diag(G) <= 1, rank(G) <= p, bracketed as above. Throws
/// std::invalid_argument when K is not square, has a non-finite entry or is asymmetric beyond
/// options.symmetry_tolerance, or when options.dimension is 1 (the scalar case is
/// maximize_over_signs) or an option is out of range.
VectorMaxResult maximize_over_vectors(const Eigen::Ref<const DenseMatrix>& K,
                                      const VectorMaxOptions& options = {});

}  // namespace netdp::accounting
