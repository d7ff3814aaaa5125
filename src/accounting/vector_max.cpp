// maximize_over_vectors (vector_max.hpp): the Burer–Monteiro factor of the SDP
// max tr(KG), G ⪰ 0, diag(G) = 1, found by the mixing method (Wang, Chang & Kolter 2017), and a
// verified dual bound read from it (sign_max_detail.hpp). For K ⪰ 0 the optimum has diag(G) = 1,
// so diag(G) <= 1 gives the same value; for any K the dual bound Σ max(y_i, 0) covers both.

#include "netdp/accounting/vector_max.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"
#include "sign_max_detail.hpp"

namespace netdp::accounting {

namespace {

namespace detail = sign_max_detail;

void validate_options(const VectorMaxOptions& o) {
  require(o.dimension != 1,
          "a release dimension of 1 is a scalar release: use maximize_over_signs (the sign maximum)");
  require(o.max_sweeps >= 1, "VectorMaxOptions::max_sweeps must be >= 1, got {}", o.max_sweeps);
  require(o.check_every >= 1, "VectorMaxOptions::check_every must be >= 1, got {}", o.check_every);
  require(std::isfinite(o.exact_tolerance) && o.exact_tolerance >= 0.0 && o.exact_tolerance < 1.0,
          "VectorMaxOptions::exact_tolerance must be in [0, 1), got {}", o.exact_tolerance);
  require(std::isfinite(o.symmetry_tolerance) && o.symmetry_tolerance >= 0.0,
          "VectorMaxOptions::symmetry_tolerance must be finite and >= 0, got {}", o.symmetry_tolerance);
}

/// The factor rank: ceil(sqrt(2m)) + 1 is enough for the global optimum of the SDP (Barvinok,
/// Pataki: some optimum has rank r with r(r+1)/2 <= m), unless the release dimension is smaller.
int factor_rank(Eigen::Index m, std::size_t dimension) {
  const int enough = static_cast<int>(std::ceil(std::sqrt(2.0 * static_cast<double>(m)))) + 1;
  if (dimension == kAnyReleaseDimension) return enough;
  return static_cast<int>(std::min<std::size_t>(dimension, static_cast<std::size_t>(enough)));
}

}  // namespace

VectorMaxResult maximize_over_vectors(const Eigen::Ref<const DenseMatrix>& k_in, const VectorMaxOptions& options) {
  validate_options(options);
  DenseMatrix k = detail::validated_symmetric_part(k_in, options.symmetry_tolerance);
  const Eigen::Index m = k.rows();
  const double eps = std::numeric_limits<double>::epsilon();
  VectorMaxResult result;
  result.dim = m;
  if (m == 0) {
    result.exact = true;
    return result;
  }
  const double max_abs = k.cwiseAbs().maxCoeff();
  require(std::isfinite(k.cwiseAbs().sum()) && k.cwiseAbs().sum() <= 0.25 * std::numeric_limits<double>::max(),
          "sum of |K_ij| must be below 4.4e307; rescale K");
  // Work with K / 2^e, max|K / 2^e| in [1, 2): an exact scaling, undone at the end.
  const int exponent = max_abs > 0.0 ? std::ilogb(max_abs) : 0;
  k = k.unaryExpr([exponent](double x) { return std::ldexp(x, -exponent); });
  auto unscale = [exponent](double x) { return std::ldexp(x, exponent); };

  const double ones = k.sum();
  const double sum_abs = k.cwiseAbs().sum();
  // Rounding allowance of any evaluation of Σ|K| or a quadratic form (m² products and sums).
  const double rounding = 4.0 * static_cast<double>((m + 2) * (m + 2)) * eps * sum_abs;
  double upper = sum_abs + rounding;

  // Rank one first: all rounds along one direction, with the signs of a balanced sign graph.
  const Vector signs = detail::sign_graph_colouring(k);
  const double coloured = detail::quadratic_form(k, signs);
  double lower = std::max(ones, coloured);
  DenseMatrix factor = coloured >= ones ? DenseMatrix(signs) : DenseMatrix(Vector::Ones(m));
  const auto meets = [&](double low, double up) { return up - low <= options.exact_tolerance * up; };

  if (!meets(lower, upper)) {
    util::Rng rng(options.seed);
    DenseMatrix v = detail::random_unit_rows(m, factor_rank(m, options.dimension), rng);
    double checked = -std::numeric_limits<double>::infinity();
    for (result.sweeps = 1; result.sweeps <= options.max_sweeps; ++result.sweeps) {
      detail::mixing_sweep(k, v);
      if (result.sweeps % options.check_every != 0 && result.sweeps != options.max_sweeps) continue;
      const double primal = detail::primal_objective(k, v);
      upper = std::min(upper, detail::verified_dual(k, v).bound);
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
  result.ones = unscale(ones);
  result.sum_abs = unscale(sum_abs);
  result.lower = unscale(std::max(lower, 0.0));
  result.upper = unscale(std::max(upper, 0.0));
  result.exact = meets(result.lower, result.upper);
  result.rank = static_cast<int>(factor.cols());
  result.factor = std::move(factor);
  if (!result.exact) {
    result.warnings.push_back(fmt::format(
        "vector worst case not closed after {} sweeps: {:.10g} <= max <= {:.10g} (relative gap {:.2e}); "
        "the upper bound is reported",
        result.sweeps, result.lower, result.upper, (result.upper - result.lower) / result.upper));
  }
  return result;
}

}  // namespace netdp::accounting
