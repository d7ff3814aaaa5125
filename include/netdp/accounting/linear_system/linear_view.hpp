// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The linear Gaussian view O = A G + B Z (../shared/DESIGN.md, "The unifying
// object") and the sensitivity engine on top of it.
//
// A change of target u's data moves G by c ⊗ e_u on u's participation rounds
// (|c_t| <= 1, scaled by the clipping bound Δ). When range(A_u) ⊆ range(B)
// the view is μ-GDP with μ = sens / ν, where
//     sens² = max_{c ∈ [-1,1]^T} cᵀ K_u c,   K_u = A_uᵀ (B Bᵀ)⁺ A_u
// (Bellet et al., MF paper, Definition 6 and Theorem 7 / eq. 8; Koskela & Kulkarni,
// Lemma 6 and Theorem 8). This header holds the literal dense path (for tests
// and tiny inputs) and the per-pair assessment shared by every accountant.
// Derivation from the paper to this code: src/accounting/linear_system/derivation.md.

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "netdp/accounting/account/certificate.hpp"
#include "netdp/accounting/account/diagnostic.hpp"
#include "netdp/accounting/worst_case/vector_max.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// O = A G + B Z. Columns of A are input coordinates indexed t * num_nodes + v
/// (time-major: round t, node v); columns of B are noise coordinates (any
/// order), Z ~ N(0, ν² I). Rows are the adversary's observations, after
/// removing what it already knows (MF paper Lemma 11; Koskela–Kulkarni Section 3.5).
struct LinearView {
  DenseMatrix A;
  DenseMatrix B;
  std::size_t num_nodes = 0;
  std::size_t rounds = 0;
};

/// Rank decisions. An eigenvalue λ of B Bᵀ (a squared singular value of B) at or
/// below rank_tolerance * λ_max is not resolved by the Gram: a singular value of
/// B below 1e-6 σ_max may still be a real direction of the view. Then the rank is
/// decided on B itself (SVD in the literal path, a deflated row space in the
/// structured ones), at the rounding floor of B, never at this tolerance.
struct RankOptions {
  double rank_tolerance = 1e-12;
};

/// K_u and the numerical diagnostics of the solve that produced it.
struct TargetGram {
  DenseMatrix K;                 ///< |rounds| x |rounds|, symmetric PSD
  std::size_t rank = 0;          ///< numerical rank of B Bᵀ
  std::size_t observations = 0;  ///< rows of B
  double range_residual = 0.0;   ///< ‖(I − Π_range(B)) A_u‖_F / ‖A_u‖_F (0 when A_u = 0)
  double condition = 1.0;        ///< λ_max / λ_min over the kept eigenvalues of B Bᵀ
  /// s >= 0 such that the exact cᵀK c is at most (sqrt(cᵀK c) + s‖c‖)² for the computed K: the
  /// perturbation margin of a row space whose rank was decided in floating point (row_space.hpp).
  /// assess_pair widens its bounds by it; 1 trusts nothing (the bound becomes |rounds|).
  double subspace_margin = 0.0;
  /// The chance that the exact rank behind a floating-point rank cut was misjudged (a union bound over
  /// random primes, docs/explanation/certificates.md); 0 when no cut was made.
  double certificate_failure_probability = 0.0;
  std::vector<Diagnostic> warnings;
};

/// Literal dense path: A_u = the columns t * num_nodes + target of A for t in
/// `participation_rounds` (all rounds when empty), K_u = A_uᵀ (B Bᵀ)⁺ A_u via a
/// symmetric eigendecomposition of B Bᵀ, or an SVD of B when B Bᵀ has an
/// eigenvalue at or below the tolerance (rank at max(m, N)·ε·σ_max). Warns when
/// the range residual exceeds 1e-8, B is rank deficient, or the condition
/// number exceeds 1e10. Throws on inconsistent sizes, target >= num_nodes, or
/// a round >= rounds.
TargetGram target_gram_literal(const LinearView& view, graph::NodeId target,
                               std::span<const std::size_t> participation_rounds = {},
                               const RankOptions& options = {});

/// Same as target_gram_literal for an explicit column block A_u (rows of B x |rounds|).
TargetGram target_gram_from_columns(const DenseMatrix& a_u, const DenseMatrix& b,
                                    const RankOptions& options = {});

/// How hard assess_pair works to maximise cᵀ K c over sign vectors.
enum class SignSearch {
  none,       ///< ones and sum_abs only; certified = sum_abs (= ones, exact, when K >= 0 entrywise)
  automatic,  ///< also maximize_over_signs (sign_max.hpp): exact when affordable, else SDP-certified bound
};

/// The names of SignSearch (`--sign-search none | auto`).
inline constexpr auto kSignSearchNames =
    std::to_array<util::EnumName<SignSearch>>({{SignSearch::none, "none"}, {SignSearch::automatic, "auto"}});
static_assert(util::is_valid_enum_table(kSignSearchNames));

struct AssessOptions {
  /// Scalar releases only (release_dimension == 1): how hard to maximise over sign vectors.
  SignSearch sign_search = SignSearch::automatic;
  /// p, the dimension of each round's release (vector_max.hpp): kAnyReleaseDimension (default:
  /// the SDP value, valid for every p), 1 (scalar: the sign maximum), or p >= 2.
  std::size_t release_dimension = kAnyReleaseDimension;
};

/// The privacy of one target against one observer (or coalition). All
/// sensitivities are for a clipping bound Δ = 1 (scale by Δ²); the MF paper
/// writes Σ|K| for the sensitivity where it means its square.
struct PairSensitivity {
  std::vector<graph::NodeId> observers;  ///< the observer, or the coalition
  graph::NodeId target = 0;
  double sensitivity_squared_ones = 0.0;            ///< 1ᵀ K 1: the papers' value (not always valid)
  double sensitivity_squared_sum_abs = 0.0;         ///< Σ |K_ij|: always a valid upper bound (MF eq. 8)
  std::optional<double> sensitivity_squared_exact;  ///< max over sign vectors, when computed
  /// Vector releases: tr(K G) of worst-case round directions found (attained) and a verified
  /// dual bound on max tr(K G) over G ⪰ 0, diag(G) <= 1 (vector_max.hpp); unset for scalar releases.
  std::optional<double> sensitivity_squared_vector_lower;
  std::optional<double> sensitivity_squared_vector_upper;
  double sensitivity_squared_certified = 0.0;  ///< tightest proven upper bound
  /// The certified value before a local-DP cap lowered it (MF's own-inputs cap); unset when no cap
  /// applied.
  std::optional<double> sensitivity_squared_uncapped;
  double sensitivity = 0.0;  ///< sqrt(certified)
  bool exact = false;        ///< certified is the true maximum
  double mu = 0.0;           ///< sensitivity / noise_std (μ-GDP)
  double epsilon = 0.0;      ///< ε(δ) of μ-GDP (dp::gdp_epsilon, rounded up)
  double delta = 0.0;
  std::size_t rank = 0;
  double range_residual = 0.0;
  double condition = 1.0;
  /// What `sensitivity_squared_certified` is: an upper bound, or the cap as a give-up where the view's
  /// subspace margin reached 1 (a rank cut that dropped a direction, or a view too large to resolve).
  Certificate certificate = Certificate::upper_bound;
  double certificate_failure_probability = 0.0;  ///< TargetGram::certificate_failure_probability
  std::vector<Diagnostic> warnings;
};

/// Sensitivity fields of K (ones, sum_abs, exact/certified per options), then
/// μ = sensitivity / noise_std and ε(δ). Copies the diagnostics of `gram`.
/// Throws unless K is square, finite and symmetric (1e-9 relative), noise_std > 0,
/// delta in (0, 1).
PairSensitivity assess_pair(const TargetGram& gram, double noise_std, double delta,
                            const AssessOptions& options = {});

/// The sensitivity fields of assess_pair alone (μ = sensitivity, at noise_std = 1; no ε): for
/// callers that convert to (ε, δ) later. Throws unless K is square, finite and symmetric.
PairSensitivity assess_sensitivity(const TargetGram& gram, const AssessOptions& options = {});

/// μ → (μ, ε(δ)) fields of an already filled PairSensitivity (sensitivity set).
void fill_privacy(PairSensitivity& pair, double noise_std, double delta);

}  // namespace netdp::accounting
