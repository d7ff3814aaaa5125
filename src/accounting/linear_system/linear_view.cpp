// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/accounting/linear_system/linear_view.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>

#include "accounting/linear_system/noise_spectrum.hpp"
#include "accounting/linear_system/row_space.hpp"
#include "netdp/accounting/worst_case/sign_max.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {
namespace {

constexpr double kResidualWarning = 1e-8;
constexpr double kSymmetryTolerance = 1e-9;

bool all_finite(const DenseMatrix& m) { return m.allFinite(); }

}  // namespace

namespace detail {

NoiseSpectrum noise_spectrum(const DenseMatrix& gram, const RankOptions& options, bool eigenvectors) {
  NoiseSpectrum out;
  out.size = gram.rows();
  const Eigen::Index m = out.size;
  if (!eigenvectors) {
    // Full rank decides itself from the two ends of the spectrum: every eigenvalue is kept when
    // the smallest is above the cut (bisection for the ends, no full eigenvalue solve).
    const linalg::EigenvalueRange ends = linalg::extreme_eigenvalues(gram);
    const double lambda_max = std::max(ends.largest, 0.0);
    if (ends.smallest > options.rank_tolerance * lambda_max && ends.smallest > 0.0) {
      out.rank = m;
      out.condition = lambda_max / ends.smallest;
      return out;
    }
  }
  out.eig = linalg::symmetric_eigen(gram, eigenvectors);
  const Vector& lambda = out.eig.values;  // increasing
  const double lambda_max = std::max(lambda(m - 1), 0.0);
  const double cut = options.rank_tolerance * lambda_max;
  Eigen::Index first_kept = m;
  for (Eigen::Index k = 0; k < m; ++k) {
    if (lambda(k) > cut && lambda(k) > 0.0) {
      first_kept = k;
      break;
    }
  }
  out.rank = m - first_kept;
  if (out.rank > 0) out.condition = lambda_max / lambda(first_kept);
  return out;
}

void append_spectrum_warnings(const NoiseSpectrum& spectrum, const RankOptions& options,
                              std::vector<Diagnostic>& warnings) {
  constexpr double kConditionWarning = 1e10;
  if (spectrum.rank < spectrum.size) {
    warnings.push_back({DiagnosticKind::noise_rank_deficient,
                        fmt::format("B Bᵀ is rank deficient ({} of {} eigenvalues above {:.1e} λ_max)",
                                    spectrum.rank, spectrum.size, options.rank_tolerance)});
  }
  if (spectrum.condition > kConditionWarning) {
    warnings.push_back(
        {DiagnosticKind::ill_conditioned, fmt::format("B Bᵀ is ill-conditioned (condition {:.3e} > {:.0e})",
                                                      spectrum.condition, kConditionWarning)});
  }
}

}  // namespace detail

namespace {

struct NoiseSvd {
  DenseMatrix u;
  Vector singular;  ///< decreasing
};

/// B = U S Vᵀ (thin U): LAPACK's divide and conquer, then its QR iteration, then Eigen's Jacobi
/// (linalg::thin_svd). Not Eigen 3.4's own divide and conquer (BDCSVD): on some rank-deficient B it
/// reads past the end of an index array in perturbCol0 (an MF view under LDP that the accountant
/// fuzzer found; an assertion in a build with Eigen's checks, an out-of-bounds read without), and
/// it can return a non-finite U with Success. A non-finite result of any path falls back to Jacobi.
NoiseSvd noise_svd(const DenseMatrix& b) {
  linalg::ThinSvd fast = linalg::thin_svd(b);
  if (fast.left.allFinite() && fast.values.allFinite()) return {std::move(fast.left), std::move(fast.values)};
  const Eigen::JacobiSVD<DenseMatrix> robust(b, Eigen::ComputeThinU);
  require(robust.info() == Eigen::Success && robust.matrixU().allFinite(),
          "the SVD of the noise map B failed ({} x {})", b.rows(), b.cols());
  return {robust.matrixU(), robust.singularValues()};
}

}  // namespace

TargetGram target_gram_from_columns(const DenseMatrix& a_u, const DenseMatrix& b,
                                    const RankOptions& options) {
  require(
      std::isfinite(options.rank_tolerance) && options.rank_tolerance > 0.0 && options.rank_tolerance < 1.0,
      "rank_tolerance must be in (0, 1), got {}", options.rank_tolerance);
  require(a_u.rows() == b.rows(), "A_u has {} rows but B has {}: both must have one row per observation",
          a_u.rows(), b.rows());
  require(all_finite(a_u) && all_finite(b), "A_u and B must have finite entries");

  TargetGram out;
  out.observations = static_cast<std::size_t>(b.rows());
  const Eigen::Index m = b.rows();
  const Eigen::Index t = a_u.cols();
  out.K = DenseMatrix::Zero(t, t);
  if (m == 0) return out;

  // B Bᵀ = Q Λ Qᵀ; (B Bᵀ)⁺ = Q_r Λ_r⁻¹ Q_rᵀ over eigenvalues above the tolerance.
  const detail::NoiseSpectrum spectrum = detail::noise_spectrum(b * b.transpose(), options);
  Eigen::Index rank = spectrum.rank;
  out.condition = spectrum.condition;
  DenseMatrix q = spectrum.eig.vectors.rightCols(rank);
  Vector inv_sqrt = spectrum.eig.values.tail(rank).cwiseSqrt().cwiseInverse();
  if (rank < m) {
    // B Bᵀ resolves singular values of B only down to about sqrt(ε) σ_max, and a dropped one can
    // carry any share of the loss: decide the rank on B itself, at numpy's matrix_rank floor.
    const NoiseSvd svd = noise_svd(b);
    const Vector& singular = svd.singular;  // decreasing
    const double floor = static_cast<double>(std::max(b.rows(), b.cols())) *
                         std::numeric_limits<double>::epsilon() * (singular.size() > 0 ? singular(0) : 0.0);
    rank = 0;
    while (rank < singular.size() && singular(rank) > floor) ++rank;
    q = svd.u.leftCols(rank);
    inv_sqrt = singular.head(rank).cwiseInverse();
    out.condition = rank > 0 ? std::pow(singular(0) / singular(rank - 1), 2) : 1.0;
    if (rank < m) {
      out.warnings.push_back({DiagnosticKind::noise_rank_deficient,
                              fmt::format("B is rank deficient: rank {} of {} observations, singular values "
                                          "at or below max(m, N)·eps·σ_max "
                                          "= {:.3e} taken as 0",
                                          rank, m, floor)});
    }
  }
  out.rank = static_cast<std::size_t>(rank);
  if (rank > 0) {
    const DenseMatrix x = inv_sqrt.asDiagonal() * (q.transpose() * a_u);  // rank x t
    out.K = x.transpose() * x;
  }

  const double a_norm = a_u.norm();
  if (a_norm > 0.0) {
    const DenseMatrix projected = q * (q.transpose() * a_u);
    out.range_residual = (a_u - projected).norm() / a_norm;
  }
  if (out.range_residual > kResidualWarning) {
    out.warnings.push_back(
        {DiagnosticKind::not_in_noise_range, fmt::format("the data change is not in range(B) (relative "
                                                         "residual {:.3e} > {:.0e}): the view is not private "
                                                         "and K_u understates the loss",
                                                         out.range_residual, kResidualWarning)});
  }
  if (spectrum.rank == m) detail::append_spectrum_warnings(spectrum, options, out.warnings);
  return out;
}

TargetGram target_gram_literal(const LinearView& view, graph::NodeId target,
                               std::span<const std::size_t> participation_rounds,
                               const RankOptions& options) {
  const auto n = view.num_nodes;
  require(n >= 1 && view.rounds >= 1, "a linear view needs num_nodes >= 1 and rounds >= 1, got {} and {}", n,
          view.rounds);
  require(static_cast<std::size_t>(view.A.cols()) == n * view.rounds,
          "A has {} columns, expected num_nodes * rounds = {} * {}", view.A.cols(), n, view.rounds);
  require(target < n, "target {} is not a node (num_nodes = {})", target, n);

  std::vector<std::size_t> rounds(participation_rounds.begin(), participation_rounds.end());
  if (rounds.empty()) {
    rounds.resize(view.rounds);
    for (std::size_t t = 0; t < view.rounds; ++t) rounds[t] = t;
  }
  DenseMatrix a_u(view.A.rows(), static_cast<Eigen::Index>(rounds.size()));
  for (std::size_t k = 0; k < rounds.size(); ++k) {
    require(rounds[k] < view.rounds, "participation round {} is not below rounds = {}", rounds[k],
            view.rounds);
    a_u.col(static_cast<Eigen::Index>(k)) = view.A.col(static_cast<Eigen::Index>(rounds[k] * n + target));
  }
  return target_gram_from_columns(a_u, view.B, options);
}

void fill_privacy(PairSensitivity& pair, double noise_std, double delta) {
  require_positive(noise_std, "noise_std");
  require(std::isfinite(delta) && delta > 0.0 && delta < 1.0, "delta must be in (0, 1), got {}", delta);
  pair.delta = delta;
  if (!std::isfinite(pair.sensitivity)) {
    pair.mu = std::numeric_limits<double>::infinity();
    pair.epsilon = std::numeric_limits<double>::infinity();
    return;
  }
  pair.mu = pair.sensitivity / noise_std;
  pair.epsilon = pair.mu > 0.0 ? dp::gdp_epsilon(pair.mu, delta) : 0.0;
}

PairSensitivity assess_sensitivity(const TargetGram& gram, const AssessOptions& options) {
  const DenseMatrix& k = gram.K;
  require(k.rows() == k.cols(), "K must be square, got {} x {}", k.rows(), k.cols());
  PairSensitivity pair;
  pair.rank = gram.rank;
  pair.range_residual = gram.range_residual;
  pair.condition = gram.condition;
  pair.warnings = gram.warnings;
  pair.certificate = detail::margin_certificate(gram.subspace_margin);
  pair.certificate_failure_probability = gram.certificate_failure_probability;
  if (gram.range_residual > kResidualWarning) {
    // The target's change leaves range(B): it is read without noise, whatever K says.
    pair.sensitivity_squared_ones = pair.sensitivity_squared_sum_abs = pair.sensitivity_squared_certified =
        std::numeric_limits<double>::infinity();
    pair.sensitivity = pair.mu = std::numeric_limits<double>::infinity();
    return pair;
  }
  require(all_finite(k), "K must have finite entries");
  const double scale = k.cwiseAbs().maxCoeff();
  const double asym = (k - k.transpose()).cwiseAbs().maxCoeff();
  require(k.size() == 0 || asym <= kSymmetryTolerance * scale,
          "K must be symmetric: max |K_ij - K_ji| = {:.3e} exceeds {:.0e} * max|K_ij| = {:.3e}", asym,
          kSymmetryTolerance, kSymmetryTolerance * scale);
  pair.sensitivity_squared_ones = k.sum();
  pair.sensitivity_squared_sum_abs = k.cwiseAbs().sum();

  if (options.release_dimension != 1) {
    // A vector per round: the SDP value, bracketed by an attained factor and a verified dual.
    VectorMaxOptions vector_options;
    vector_options.dimension = options.release_dimension;
    const VectorMaxResult worst = maximize_over_vectors(k, vector_options);
    pair.sensitivity_squared_vector_lower = worst.lower;
    pair.sensitivity_squared_vector_upper = worst.upper;
    pair.sensitivity_squared_certified = worst.upper;
    pair.exact = worst.exact;
    if (worst.exact) pair.sensitivity_squared_exact = worst.upper;
    for (const auto& w : worst.warnings) pair.warnings.push_back(w);
  } else if (options.sign_search == SignSearch::automatic) {
    const SignMaxResult best = maximize_over_signs(k);
    pair.sensitivity_squared_exact = best.exact;
    pair.sensitivity_squared_certified = best.certified;
    pair.exact = best.is_exact;
    append_diagnostics(pair.warnings, best.warnings, "sign search: ");
  } else {
    // Σ|K_ij| bounds cᵀKc on the box; when K >= 0 entrywise c = 1 attains it.
    pair.sensitivity_squared_certified = pair.sensitivity_squared_sum_abs;
    pair.exact = k.size() == 0 || k.minCoeff() >= 0.0;
    if (pair.exact) {
      pair.sensitivity_squared_exact = pair.sensitivity_squared_ones;
    } else {
      // A scalar release is a vector release of dimension 1, so the verified SDP bound holds for it
      // too (scalar <= vector <= Σ|K|); a rank-1 optimum is a sign vector, the scalar maximum.
      const VectorMaxResult worst = maximize_over_vectors(k);
      pair.sensitivity_squared_certified = std::min(worst.upper, pair.sensitivity_squared_sum_abs);
      pair.exact = worst.exact && worst.rank == 1;
      if (pair.exact) pair.sensitivity_squared_exact = pair.sensitivity_squared_certified;
      for (const auto& w : worst.warnings) pair.warnings.push_back(w);
    }
  }
  if (gram.subspace_margin > 0.0) {
    // The exact K differs from the computed one by a block of P_exact − P (‖·‖₂ <= s): every entry
    // moves by at most s, and cᵀKc as widen_by_margin says.
    const auto size = static_cast<std::size_t>(k.rows());
    pair.sensitivity_squared_sum_abs =
        detail::widen_sum_abs(pair.sensitivity_squared_sum_abs, gram.subspace_margin, size);
    // For vectors, tr(K G) with G = Σ_k c_k c_kᵀ widens the same way (Minkowski over the c_k).
    pair.sensitivity_squared_certified =
        detail::widen_by_margin(pair.sensitivity_squared_certified, gram.subspace_margin, size);
    if (pair.sensitivity_squared_vector_upper) {
      pair.sensitivity_squared_vector_upper = pair.sensitivity_squared_certified;
      // ... and the attained value of the exact K is at least (sqrt(lower) − s·sqrt(size))².
      const double root = std::sqrt(std::max(*pair.sensitivity_squared_vector_lower, 0.0)) -
                          gram.subspace_margin * std::sqrt(static_cast<double>(size));
      pair.sensitivity_squared_vector_lower = root > 0.0 ? root * root : 0.0;
    }
    pair.exact = false;
  }
  pair.sensitivity = std::sqrt(std::max(pair.sensitivity_squared_certified, 0.0));
  pair.mu = pair.sensitivity;  // at noise_std = 1
  return pair;
}

PairSensitivity assess_pair(const TargetGram& gram, double noise_std, double delta,
                            const AssessOptions& options) {
  PairSensitivity pair = assess_sensitivity(gram, options);
  fill_privacy(pair, noise_std, delta);
  return pair;
}

}  // namespace netdp::accounting
