// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Matrix-factorization noise correlation: the MF problem
// min_C sens_Π(C)² · ‖L C⁺‖²_F, solved as min tr(H X⁻¹) over X = CᵀC ≻ 0
// (H = LᵀL, the workload Gram) under the participation constraints of Π.
// See docs/reference/mf.md for the formulas, certificates and paper references.

#include <cstddef>
#include <string>
#include <vector>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/util/types.hpp"

namespace netdp::mf {

/// (k, b)-cyclic participation over T steps: participation class j = {t < T : t ≡ j mod b}
/// (j < b). k = 1 with b = T is single participation. b = 0 means ⌈T / k⌉.
/// Throws std::invalid_argument on T = 0, k = 0, or k · b > T.
struct Participation {
  std::size_t rounds = 0;
  std::size_t participations = 1;
  std::size_t separation = 0;  ///< resolved (never 0) by make_participation
  std::vector<std::vector<std::size_t>> classes;
  /// Class index of each step.
  std::vector<std::size_t> class_of;
};
Participation make_participation(std::size_t rounds, std::size_t participations = 1,
                                 std::size_t separation = 0);

/// sens_Π(C)² for X = CᵀC: the max over classes c and sign vectors s of Σ_{i,j∈c} s_i s_j X_ij.
/// Exact when every within-class entry is ≥ 0 (s = 1 is optimal) or accounting::maximize_over_signs
/// proves the maximum; otherwise its certified upper bound (`exact` = false). Never under-reports.
struct Sensitivity {
  double squared = 0.0;
  bool exact = true;
};
Sensitivity sensitivity_squared(const DenseMatrix& x, const Participation& p);

/// tr(H X⁻¹) = ‖L C⁻¹‖²_F for X = CᵀC (Cholesky). Throws unless X is positive definite.
double trace_h_xinv(const DenseMatrix& h, const DenseMatrix& x);

/// The lower-triangular C with CᵀC = X (flip-Cholesky: J X J = L Lᵀ, C = J Lᵀ J, J the
/// reversal), so C⁻¹ z is streamable. Throws unless X is symmetric positive definite.
DenseMatrix lower_factor(const DenseMatrix& x);

/// H = AᵀA for the prefix-sum workload A (T × T lower-triangular ones): H_ij = T − max(i, j).
DenseMatrix prefix_sum_gram(std::size_t rounds);

enum class CertificateKind { none, duality_gap, projected_gradient };
std::string to_string(CertificateKind kind);

/// A factorization C of the workload with Gram H, evaluated: loss = sens² · tr(H X⁻¹).
struct Factorization {
  DenseMatrix c;  ///< T × T lower triangular
  double loss = 0.0;
  double sensitivity = 0.0;  ///< sens_Π(C) (an upper bound when !sensitivity_exact)
  bool sensitivity_exact = true;
  double trace = 0.0;  ///< tr(H X⁻¹), X = CᵀC
  CertificateKind certificate_kind = CertificateKind::none;
  /// Relative duality gap (loss − dual bound) / loss, or the relative projected-gradient norm.
  double certificate = 0.0;
  double lower_bound = 0.0;  ///< the dual bound on the loss (0 unless kind = duality_gap)
  /// A lower bound on sens_Π(C)² · ‖L C⁻¹‖²_F over EVERY C (no constraint set), 0 when unknown:
  /// single participation and class_trace (docs/reference/mf.md, "Global lower bound": an arcsine test puts the
  /// class_trace multipliers in the cut cone; equal to lower_bound for the prefix sums).
  double global_lower_bound = 0.0;
  std::size_t iterations = 0;
  bool converged = true;
};

/// Evaluates a given lower-triangular C (a baseline) on H under p.
Factorization evaluate_factorization(const DenseMatrix& h, DenseMatrix c, const Participation& p);

/// The constraint set optimal_factorization uses for (k, b)-cyclic participation (docs/reference/mf.md,
/// "Multi-epoch"). Both zero the within-class off-diagonal entries of X, so every sign vector gives
/// sᵀX_c s = tr(X_c) and sens² = max_c tr(X_c) is exact.
enum class MultiEpochConstraints {
  class_trace,    ///< Σ_{i∈c} X_ii = 1 per class (the best: reaches the known k = 4 optima, docs/reference/mf.md)
  unit_diagonal,  ///< X_ii = 1 (equal column norms, Choquette-Choo et al. 2023; sens² = class size)
};
std::string to_string(MultiEpochConstraints constraints);

struct OptimizeOptions {
  double tolerance = 1e-10;  ///< stop when the relative duality gap (or gradient) is below this
  std::size_t max_iterations = 20000;
  MultiEpochConstraints constraints = MultiEpochConstraints::class_trace;
};

/// The optimal C for H under p (docs/reference/mf.md): single participation (b ≥ T) by the fixed point of
/// Denisov et al. with its explicit dual; (k, b)-cyclic by L-BFGS on X with zero within-class
/// off-diagonal entries and options.constraints on the diagonal, certified by the dual of those
/// constraints (class_trace also reports global_lower_bound, a bound over every C).
Factorization optimal_factorization(const DenseMatrix& h, const Participation& p,
                                    const OptimizeOptions& options = {});

/// The sign-pattern relaxation for (k, b)-cyclic participation (docs/reference/mf.md): min tr(H X⁻¹) s.t.
/// sᵀX_c s ≤ 1 for every class c and sign vector s (within-class entries free), by a multiplicative
/// update of the multipliers μ_{c,s} (a generalization of Denisov et al.'s fixed point) with the
/// dual bound 2 tr((Λ^½HΛ^½)^½) − Σμ, Λ = Σ μ_{c,s} s sᵀ. Lower loss than optimal_factorization.
/// Throws std::invalid_argument for a class of more than 13 steps (2^(m−1) multipliers per class).
Factorization sign_relaxed_factorization(const DenseMatrix& h, const Participation& p,
                                         const OptimizeOptions& options = {});

/// Baselines (docs/reference/mf.md), each a T × T lower-triangular C.
DenseMatrix identity_correlation(std::size_t rounds);     ///< independent noise
DenseMatrix antipgd_correlation(std::size_t rounds);      ///< C⁻¹ = first difference, C = ones
DenseMatrix prefix_sqrt_correlation(std::size_t rounds);  ///< A^½, Toeplitz binom(2k,k)/4^k
DenseMatrix banded_sqrt_correlation(std::size_t rounds, std::size_t bands);  ///< BSR: A^½ cut to `bands`
DenseMatrix gram_sqrt_correlation(const DenseMatrix& h);                     ///< lower_factor(H^½)

/// D-MF: the centralized optimal prefix-sum correlation (optimal_factorization on
/// prefix_sum_gram(T) under p) applied at every node, evaluated on the workload Gram h.
Factorization dmf_factorization(const DenseMatrix& h, const Participation& p,
                                const OptimizeOptions& options = {});

/// MAFALDA's local correlation C_local (T × T, lower triangular) for W over T gradient steps,
/// optimized for (k, b)-cyclic participation (k = 1: single participation; b = 0 means T / k).
/// The noise node v adds at step t is (C_local⁻¹ z_v)_t, i.e. the MF encoder C_local ⊗ I_n.
DenseMatrix mafalda_correlation(const gossip::GossipMatrix& w, std::size_t rounds,
                                std::size_t participations = 1, std::size_t separation = 0);

}  // namespace netdp::mf
