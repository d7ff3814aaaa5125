// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// maximize_over_vectors (vector_max.hpp): the SDP max tr(KG), G ⪰ 0, diag(G) = 1, and its dual
// min Σy, Diag(y) − K ⪰ 0, solved together by the primal-dual interior-point method of Helmberg,
// Rendl, Vanderbei & Wolkowicz (1996) for this constraint set; the dual y is then verified
// (sign_max_detail.hpp) and the primal G factored into unit round directions. For K ⪰ 0 the
// optimum has diag(G) = 1, so diag(G) <= 1 gives the same value; for any K the verified bound
// Σ max(y_i, 0) covers both. A release dimension p below the optimum's rank is bracketed by a
// rank-p Burer–Monteiro factor (the mixing method of Wang, Chang & Kolter 2017) from below.

#include "netdp/accounting/worst_case/vector_max.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "accounting/worst_case/sign_max_detail.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::accounting {

namespace {

void validate_options(const VectorMaxOptions& o) {
  require(o.dimension != 1,
          "a release dimension of 1 is a scalar release: use maximize_over_signs (the sign maximum)");
  require(o.max_iterations >= 1, "VectorMaxOptions::max_iterations must be >= 1, got {}", o.max_iterations);
  require(o.max_sweeps >= 1, "VectorMaxOptions::max_sweeps must be >= 1, got {}", o.max_sweeps);
  require(o.check_every >= 1, "VectorMaxOptions::check_every must be >= 1, got {}", o.check_every);
  require(std::isfinite(o.exact_tolerance) && o.exact_tolerance >= 0.0 && o.exact_tolerance < 1.0,
          "VectorMaxOptions::exact_tolerance must be in [0, 1), got {}", o.exact_tolerance);
  require(std::isfinite(o.symmetry_tolerance) && o.symmetry_tolerance >= 0.0,
          "VectorMaxOptions::symmetry_tolerance must be finite and >= 0, got {}", o.symmetry_tolerance);
}

/// From this order on, the interior point's GEMM goes through BLAS (faster from about m = 20 with
/// single-threaded BLAS); below it Eigen's coefficient-wise product (BLAS threads cost more than small
/// matrices, and contend with the caller's threads). The factorisations and the inverse are
/// dense_kernels' at every order.
constexpr Eigen::Index kBlasFromOrder = 32;

template <class Scalar>
using MatrixOf = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
template <class Scalar>
using VectorOf = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

/// The interior point's m × m matrices, allocated once per precision of a solve (the iterations only
/// overwrite).
template <class Scalar>
struct Workspace {
  explicit Workspace(Eigen::Index m)
      : z_inv(m, m), schur(m, m), dx(m, m), trial(m, m), rhs(m), dy(m), blas(m >= kBlasFromOrder) {}
  MatrixOf<Scalar> z_inv, schur, dx, trial;
  VectorOf<Scalar> rhs, dy;
  bool blas;
  bool trial_factors_z = false;  ///< trial holds the Cholesky factor of the current Z (a full dual step)
};

/// z_inv <- Z⁻¹ (both triangles); false when Z is not numerically positive definite.
template <class Scalar>
bool invert(const MatrixOf<Scalar>& z, Workspace<Scalar>& w) {
  if (!w.trial_factors_z) {
    w.trial = z;
    if (!linalg::cholesky_in_place(w.trial)) return false;
  }
  w.trial_factors_z = false;
  w.z_inv = w.trial;
  return linalg::spd_invert_from_cholesky(w.z_inv);
}

/// dx <- (dx + dxᵀ) / 2 in place.
template <class Scalar>
void symmetrise(MatrixOf<Scalar>& dx) {
  for (Eigen::Index j = 0; j < dx.cols(); ++j) {
    for (Eigen::Index i = j + 1; i < dx.rows(); ++i) {
      const Scalar mean = Scalar{0.5} * (dx(i, j) + dx(j, i));
      dx(i, j) = mean;
      dx(j, i) = mean;
    }
  }
}

/// Largest α in (0, 1] (shrunk by 0.8, then by 0.95 when below 1) for which the matrix that
/// `fill(α, w.trial)` writes is positive definite; w.trial is left holding the Cholesky factor of
/// the last matrix tested.
template <class Scalar, class Fill>
double step_to_boundary(const Fill& fill, Workspace<Scalar>& w) {
  double alpha = 1.0;
  for (int tries = 0; tries < 100; ++tries, alpha *= 0.8) {
    fill(static_cast<Scalar>(alpha), w.trial);
    if (linalg::cholesky_in_place(w.trial)) return alpha < 1.0 ? 0.95 * alpha : alpha;
  }
  return 0.0;
}

struct InteriorPoint {
  DenseMatrix x;  ///< primal G ≻ 0 with diag(G) = 1 (up to rounding)
  Vector y;       ///< dual with Diag(y) − K ≻ 0
  int iterations = 0;
};

/// Primal-dual path following on the central path X·Z = μI (X primal, Z = Diag(y) − K dual slack)
/// in precision Scalar, from (x, y) until the duality gap Σy − tr(KX) is at most tolerance·|Σy| or
/// the steps stop (x, y and iterations are updated in place): the Newton step for diag(X) = 1
/// reduces to (Z⁻¹ ∘ X) dy = μ·diag(Z⁻¹) − 1 (a positive definite m × m system by the Schur product
/// theorem), then dX = μZ⁻¹ − X − Z⁻¹ Diag(dy) X, symmetrised. μ starts at tr(ZX)/2m.
template <class Scalar>
bool follow_central_path(const MatrixOf<Scalar>& k, MatrixOf<Scalar>& x, VectorOf<Scalar>& y,
                         double tolerance, int& iterations, int max_iterations) {
  const Eigen::Index m = k.rows();
  Workspace<Scalar> w(m);
  MatrixOf<Scalar> z = -k;
  z.diagonal() += y;
  Scalar mu = z.cwiseProduct(x).sum() / static_cast<Scalar>(2 * m);
  for (; iterations < max_iterations; ++iterations) {
    const Scalar dual = y.sum();
    if (dual - k.cwiseProduct(x).sum() <= static_cast<Scalar>(tolerance) * std::abs(dual)) return true;
    if (!invert(z, w)) return false;
    w.schur = w.z_inv.cwiseProduct(x);
    if (!linalg::cholesky_in_place(w.schur)) return false;
    w.rhs = mu * w.z_inv.diagonal() - VectorOf<Scalar>::Ones(m);
    w.schur.template triangularView<Eigen::Lower>().solveInPlace(w.rhs);
    w.schur.template triangularView<Eigen::Lower>().transpose().solveInPlace(w.rhs);
    w.dy = w.rhs;
    // dx = μZ⁻¹ − X − (Z⁻¹ Diag(dy)) X, then symmetrised.
    w.dx = mu * w.z_inv - x;
    w.trial = w.z_inv * w.dy.asDiagonal();
    if (w.blas) {
      linalg::add_product(w.dx, Scalar{-1}, w.trial, x);
    } else {
      // A coefficient-wise product: Eigen's GEMM would spread a product of this size over OpenMP
      // threads, which stall when the caller's threads hold the cores.
      w.dx -= w.trial.lazyProduct(x);
    }
    symmetrise(w.dx);
    const double primal_step =
        step_to_boundary([&](Scalar alpha, MatrixOf<Scalar>& trial) { trial = x + alpha * w.dx; }, w);
    const double dual_step = step_to_boundary(
        [&](Scalar alpha, MatrixOf<Scalar>& trial) {
          trial = z;
          trial.diagonal() += alpha * w.dy;
        },
        w);
    // A full dual step lands on the matrix tested last: its factor serves the next inversion.
    w.trial_factors_z = dual_step == 1.0;
    if (primal_step == 0.0 && dual_step == 0.0) return false;
    x += static_cast<Scalar>(primal_step) * w.dx;
    y += static_cast<Scalar>(dual_step) * w.dy;
    z.diagonal() += static_cast<Scalar>(dual_step) * w.dy;
    mu = z.cwiseProduct(x).sum() / static_cast<Scalar>(2 * m);
    if (primal_step + dual_step > 1.6) mu *= Scalar{0.5};
    if (primal_step + dual_step > 1.9) mu *= Scalar{0.2};
  }
  return false;
}

/// D^{-1/2} X D^{-1/2} with D = diag X (diagonal entries below the smallest normal double taken as
/// that): X rescaled to a unit diagonal.
DenseMatrix unit_diagonal(const DenseMatrix& x) {
  const Vector scale = x.diagonal().cwiseMax(std::numeric_limits<double>::min()).cwiseSqrt().cwiseInverse();
  return scale.asDiagonal() * x * scale.asDiagonal();
}

/// Relative duality gap at which the interior point moves from single to double precision: single
/// precision (2^−24) still steers the iterates reliably down to it, at about half the cost of an
/// iteration. The gap and the verified bounds are always computed in double precision afterwards.
constexpr double kSinglePrecisionGap = 1e-5;

/// The interior point for max tr(KX), diag(X) = 1, X ⪰ 0, from X = I and y_i above the row sums of
/// |K| (Diag(y) − K strictly diagonally dominant, so positive definite): first in single precision
/// to a relative gap of kSinglePrecisionGap, then in double to `tolerance`. Where the double
/// iterations do not reach it from the single-precision point (a point near a low-rank optimum
/// that single precision rounded off the central path), they start over from the start point.
InteriorPoint interior_point(const DenseMatrix& k, double tolerance, int max_iterations) {
  const Eigen::Index m = k.rows();
  const Vector start = 1.1 * k.cwiseAbs().rowwise().sum() + Vector::Ones(m);
  InteriorPoint ip;
  MatrixOf<float> x_single = MatrixOf<float>::Identity(m, m);
  VectorOf<float> y_single = start.cast<float>();
  follow_central_path(MatrixOf<float>(k.cast<float>()), x_single, y_single,
                      std::max(tolerance, kSinglePrecisionGap), ip.iterations, max_iterations);
  // X back on diag(X) = 1 exactly (single precision rounded it; the Newton steps keep the
  // diagonal only from a feasible point, and the gap Σy − tr(KX) is the duality gap only there).
  ip.x = unit_diagonal(x_single.cast<double>());
  ip.y = y_single.cast<double>();
  if (follow_central_path(k, ip.x, ip.y, tolerance, ip.iterations, max_iterations)) return ip;
  ip.x = DenseMatrix::Identity(m, m);
  ip.y = start;
  follow_central_path(k, ip.x, ip.y, tolerance, ip.iterations, max_iterations);
  return ip;
}

/// Unit rows V with V Vᵀ = D^{-1/2} X D^{-1/2} (D = diag X): X rescaled to an exact unit diagonal,
/// then factored (Cholesky; an eigendecomposition when X is singular in floating point).
DenseMatrix unit_factor(const DenseMatrix& x) {
  const DenseMatrix normalised = unit_diagonal(x);
  DenseMatrix v = normalised;
  if (linalg::cholesky_in_place(v)) {
    v.triangularView<Eigen::StrictlyUpper>().setZero();
  } else {
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(normalised);
    v = eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal();
  }
  for (Eigen::Index i = 0; i < v.rows(); ++i) {
    const double norm = v.row(i).norm();
    if (norm > 0.0) v.row(i) /= norm;
  }
  return v;
}

/// The factor rank: ceil(sqrt(2m)) + 1 is enough for the global optimum of the SDP (Barvinok,
/// Pataki: some optimum has rank r with r(r+1)/2 <= m), unless the release dimension is smaller.
int factor_rank(Eigen::Index m, std::size_t dimension) {
  const int enough = static_cast<int>(std::ceil(std::sqrt(2.0 * static_cast<double>(m)))) + 1;
  if (dimension == kAnyReleaseDimension) return enough;
  return static_cast<int>(std::min<std::size_t>(dimension, static_cast<std::size_t>(enough)));
}

}  // namespace

std::string release_dimension_name(std::size_t dimension) {
  return dimension == kAnyReleaseDimension ? std::string("vector") : std::to_string(dimension);
}

std::size_t parse_release_dimension(std::string_view text, std::string_view what) {
  if (text == "vector") return kAnyReleaseDimension;
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  require(error == std::errc() && end == text.data() + text.size() && value >= 1,
          "{} '{}' must be 'vector' (a release of any dimension) or an integer p >= 1 (the coordinates of "
          "each round's release; 1 = scalar)",
          what, text);
  return value;
}

VectorMaxResult maximize_over_vectors(const Eigen::Ref<const DenseMatrix>& k_in,
                                      const VectorMaxOptions& options) {
  validate_options(options);
  // Work with K / 2^e (max|K / 2^e| in [1, 2)); results are scaled back at the end.
  const sign_max_detail::ScaledK scaled =
      sign_max_detail::scaled_symmetric_part(k_in, options.symmetry_tolerance);
  const DenseMatrix& k = scaled.k;
  const Eigen::Index m = k.rows();
  const double eps = std::numeric_limits<double>::epsilon();
  VectorMaxResult result;
  result.dim = m;
  if (m == 0) {
    result.exact = true;
    return result;
  }
  auto unscale = [&scaled](double x) { return scaled.unscale(x); };

  const double ones = k.sum();
  const double sum_abs = k.cwiseAbs().sum();
  double upper = sum_abs + sign_max_detail::evaluation_rounding(m, sum_abs);

  // Rank one first: all rounds along one direction, with the signs of a balanced sign graph.
  const Vector signs = sign_max_detail::sign_graph_colouring(k);
  const double coloured = sign_max_detail::quadratic_form(k, signs);
  double lower = std::max(ones, coloured);
  DenseMatrix factor = coloured >= ones ? DenseMatrix(signs) : DenseMatrix(Vector::Ones(m));
  const auto meets = [&](double low, double up) { return up - low <= options.exact_tolerance * up; };

  if (!meets(lower, upper)) {
    const InteriorPoint ip = interior_point(k, 0.5 * options.exact_tolerance, options.max_iterations);
    result.iterations = ip.iterations;
    upper = std::min(upper, sign_max_detail::verified_bound(k, ip.y).bound);
    const int rank = factor_rank(m, options.dimension);
    if (options.dimension == kAnyReleaseDimension || static_cast<Eigen::Index>(rank) >= m) {
      DenseMatrix v = unit_factor(ip.x);
      const double primal = sign_max_detail::primal_objective(k, v);
      if (primal > lower) {
        lower = primal;
        factor = std::move(v);
      }
    } else {
      // p below the optimum's possible rank: a rank-p factor by coordinate ascent, from below.
      util::Rng rng(options.seed);
      DenseMatrix v = sign_max_detail::random_unit_rows(m, rank, rng);
      double checked = -std::numeric_limits<double>::infinity();
      for (result.sweeps = 1; result.sweeps <= options.max_sweeps; ++result.sweeps) {
        sign_max_detail::mixing_sweep(k, v);
        if (result.sweeps % options.check_every != 0 && result.sweeps != options.max_sweeps) continue;
        const double primal = sign_max_detail::primal_objective(k, v);
        if (primal > lower) {
          lower = primal;
          factor = v;
        }
        // Stop when the bracket closes, or when the ascent no longer moves the primal.
        if (meets(lower, upper) || primal - checked <= 4.0 * eps * std::abs(primal)) break;
        checked = primal;
      }
      result.sweeps = std::min(result.sweeps, options.max_sweeps);
    }
  }
  result.ones = unscale(ones);
  result.sum_abs = unscale(sum_abs);
  result.lower = unscale(std::max(lower, 0.0));
  result.upper = unscale(std::max(upper, 0.0));
  result.exact = meets(result.lower, result.upper);
  result.rank = static_cast<int>(factor.cols());
  result.factor = std::move(factor);
  if (!result.exact) {
    result.warnings.push_back({DiagnosticKind::optimization_not_closed,
                               fmt::format("vector worst case not closed ({} interior-point iterations, {} "
                                           "sweeps): {:.10g} <= max <= {:.10g} "
                                           "(relative gap {:.2e}); the upper bound is reported",
                                           result.iterations, result.sweeps, result.lower, result.upper,
                                           (result.upper - result.lower) / result.upper)});
  }
  return result;
}

}  // namespace netdp::accounting
