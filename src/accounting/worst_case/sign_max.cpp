// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// maximize_over_signs: validation, the cheap bounds, and the order in which the expensive steps
// run (see sign_max.hpp and docs/reference/accounting-sensitivity.md).

#include "netdp/accounting/worst_case/sign_max.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "accounting/worst_case/sign_max_detail.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::accounting {

std::string_view to_string(SignMaxBound bound) {
  switch (bound) {
    case SignMaxBound::exact:
      return "exact";
    case SignMaxBound::sum_abs:
      return "sum_abs";
    case SignMaxBound::search:
      return "search";
    case SignMaxBound::spectral:
      return "spectral";
    case SignMaxBound::sdp:
      return "sdp";
  }
  return "unknown";
}

SignMaxOptions SignMaxOptions::cheap() {
  SignMaxOptions options;
  options.exact_max_dim = 0;
  options.spectral = false;
  options.sdp = false;
  options.random_starts = 0;
  options.two_flip = false;
  return options;
}

namespace {

void validate_options(const SignMaxOptions& o) {
  require(o.exact_max_dim >= 0, "SignMaxOptions::exact_max_dim must be >= 0, got {}", o.exact_max_dim);
  require(o.unbudgeted_max_dim >= 0 && o.unbudgeted_max_dim <= 32,
          "SignMaxOptions::unbudgeted_max_dim must be in [0, 32] (2^(m-1) leaves), got {}",
          o.unbudgeted_max_dim);
  require(o.node_budget >= 0, "SignMaxOptions::node_budget must be >= 0, got {}", o.node_budget);
  require(o.sdp_rank >= 0, "SignMaxOptions::sdp_rank must be >= 0 (0 = automatic), got {}", o.sdp_rank);
  require(o.sdp_max_sweeps >= 1, "SignMaxOptions::sdp_max_sweeps must be >= 1, got {}", o.sdp_max_sweeps);
  require(o.random_starts >= 0, "SignMaxOptions::random_starts must be >= 0, got {}", o.random_starts);
  require(std::isfinite(o.symmetry_tolerance) && o.symmetry_tolerance >= 0.0,
          "SignMaxOptions::symmetry_tolerance must be finite and >= 0, got {}", o.symmetry_tolerance);
  require(std::isfinite(o.psd_tolerance) && o.psd_tolerance >= 0.0,
          "SignMaxOptions::psd_tolerance must be finite and >= 0, got {}", o.psd_tolerance);
}

// Relative distance at which a lower bound and a proven upper bound count as equal: the verified
// SDP bound carries an eigen-solver margin of ~1e-13 relative, so exact equality never happens.
constexpr double kMeetTolerance = 1e-10;

// Candidates for `certified`: each value is a proven upper bound on the box maximum.
struct UpperBound {
  double value;
  SignMaxBound source;
};

}  // namespace

namespace sign_max_detail {

DenseMatrix validated_symmetric_part(const Eigen::Ref<const DenseMatrix>& k, double tolerance) {
  require(k.rows() == k.cols(), "K must be square, got {} x {}", k.rows(), k.cols());
  for (Eigen::Index j = 0; j < k.cols(); ++j) {
    for (Eigen::Index i = 0; i < k.rows(); ++i) {
      require(std::isfinite(k(i, j)), "K({}, {}) must be finite, got {}", i, j, k(i, j));
    }
  }
  const double max_abs = k.size() > 0 ? k.cwiseAbs().maxCoeff() : 0.0;
  Eigen::Index ai = 0, aj = 0;
  const double asymmetry = k.size() > 0 ? (k - k.transpose()).cwiseAbs().maxCoeff(&ai, &aj) : 0.0;
  if (ai > aj) std::swap(ai, aj);
  require(asymmetry <= tolerance * max_abs,
          "K must be symmetric: |K({0}, {1}) - K({1}, {0})| = {2:.3e} exceeds symmetry_tolerance {3:.1e} * "
          "max|K| ({4:.3e})",
          ai, aj, asymmetry, tolerance, max_abs);
  return 0.5 * (k + k.transpose());
}

ScaledK scaled_symmetric_part(const Eigen::Ref<const DenseMatrix>& k, double tolerance) {
  ScaledK out{validated_symmetric_part(k, tolerance)};
  const double sum_abs = out.k.cwiseAbs().sum();
  require(std::isfinite(sum_abs) && sum_abs <= 0.25 * std::numeric_limits<double>::max(),
          "sum of |K_ij| must be below 4.4e307, got {}; rescale K", sum_abs);
  const double max_abs = out.k.size() > 0 ? out.k.cwiseAbs().maxCoeff() : 0.0;
  out.exponent = max_abs > 0.0 ? std::ilogb(max_abs) : 0;
  out.k = out.k.unaryExpr([e = out.exponent](double x) { return std::ldexp(x, -e); });
  return out;
}

double evaluation_rounding(Eigen::Index m, double sum_abs) {
  return 4.0 * static_cast<double>((m + 2) * (m + 2)) * std::numeric_limits<double>::epsilon() * sum_abs;
}

}  // namespace sign_max_detail

SignMaxResult maximize_over_signs(const Eigen::Ref<const DenseMatrix>& k_in, const SignMaxOptions& options) {
  validate_options(options);
  // Work with K / 2^e (max|K / 2^e| in [1, 2)); results are scaled back at the end.
  const sign_max_detail::ScaledK scaled =
      sign_max_detail::scaled_symmetric_part(k_in, options.symmetry_tolerance);
  const DenseMatrix& k = scaled.k;
  const Eigen::Index m = k.rows();
  const double eps = std::numeric_limits<double>::epsilon();
  auto unscale = [&scaled](double x) { return scaled.unscale(x); };

  SignMaxResult result;
  result.dim = m;
  result.ones = k.sum();
  result.sum_abs = k.cwiseAbs().sum();
  const double max_abs = m > 0 ? k.cwiseAbs().maxCoeff() : 0.0;
  const double rounding = sign_max_detail::evaluation_rounding(m, result.sum_abs);
  const double min_gain = 1e-13 * result.sum_abs;
  util::Rng rng(options.seed);
  std::vector<UpperBound> uppers{{result.sum_abs + rounding, SignMaxBound::sum_abs}};

  // Lower bound: local search from c = 1, the sign-graph colouring, and further starts below.
  auto try_start = [&](Vector s) {
    const double value = sign_max_detail::improve_locally(k, s, options.two_flip, min_gain);
    if (result.maximiser.size() == 0 || value > result.lower_bound) {
      result.lower_bound = value;
      result.maximiser = std::move(s);
    }
  };
  try_start(Vector::Ones(m));
  try_start(sign_max_detail::sign_graph_colouring(k));

  const bool want_search = m > 0 && m <= options.exact_max_dim;
  // Extra to the vertex maximum so that it bounds the box maximum: m·max(0, −λ_min) (cᵀ(K + θI)c
  // is convex for θ >= −λ_min, so its box maximum sits at a vertex).
  double indefinite_shift = 0.0;
  bool numerically_psd = false;
  if (m > 0 && (options.spectral || options.sdp || want_search)) {
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> eigen(k);
    const double margin = sign_max_detail::eigenvalue_margin(k);
    const double lambda_min = eigen.eigenvalues()(0);
    const double lambda_max = eigen.eigenvalues()(m - 1);
    result.min_eigenvalue = lambda_min;
    result.spectral_bound = static_cast<double>(m) * std::max(lambda_max + margin, 0.0) * (1.0 + 4.0 * eps);
    uppers.push_back({*result.spectral_bound, SignMaxBound::spectral});
    indefinite_shift = static_cast<double>(m) * std::max(0.0, margin - lambda_min) * (1.0 + 4.0 * eps);
    numerically_psd = lambda_min >= -options.psd_tolerance * max_abs;
    if (!numerically_psd) {
      result.warnings.push_back(
          {DiagnosticKind::sign_search_incomplete,
           fmt::format("K is indefinite: lambda_min = {:.3e} < -psd_tolerance * max|K| = {:.3e}; the maximum "
                       "over signs may "
                       "be below the maximum over [-1,1]^m, so no exact value is reported and search-based "
                       "bounds add m*|lambda_min|",
                       unscale(lambda_min), -options.psd_tolerance * unscale(max_abs))});
    }
    try_start(sign_max_detail::signs_of(eigen.eigenvectors().col(m - 1)));
  }
  for (int start = 0; start < options.random_starts; ++start) {
    Vector s(m);
    for (Eigen::Index i = 0; i < m; ++i) s(i) = rng.bernoulli(0.5) ? 1.0 : -1.0;
    try_start(std::move(s));
  }

  auto best_upper = [&] {
    return *std::min_element(uppers.begin(), uppers.end(),
                             [](const UpperBound& a, const UpperBound& b) { return a.value < b.value; });
  };
  // A sign vector's value is a lower bound on the box maximum; meeting a proven upper bound (to
  // kMeetTolerance relative, plus rounding) proves it. certified stays the rigorous upper bound.
  auto lower_meets_upper = [&] {
    const UpperBound upper = best_upper();
    return upper.value - result.lower_bound <= 2.0 * rounding + kMeetTolerance * upper.value;
  };
  bool proven = lower_meets_upper();

  auto run_search = [&](std::int64_t budget) {
    const sign_max_detail::SearchOutcome search =
        sign_max_detail::branch_and_bound(k, result.maximiser, result.lower_bound, budget);
    result.search_nodes += search.nodes;
    if (!search.completed) {
      result.warnings.push_back(
          {DiagnosticKind::sign_search_incomplete,
           fmt::format(
               "exact search stopped after its node budget ({} nodes) at m = {}; exact is not reported",
               search.nodes, m)});
      return;
    }
    result.search_completed = true;
    if (search.best_value > result.lower_bound) {
      result.lower_bound = search.best_value;
      result.maximiser = search.best_signs;
    }
    // The vertex maximum (up to rounding) plus the indefiniteness correction bounds the box maximum.
    uppers.push_back({result.lower_bound + rounding + indefinite_shift, SignMaxBound::search});
    if (numerically_psd) proven = true;
  };

  const bool unbudgeted = m <= options.unbudgeted_max_dim;
  if (!proven && want_search && unbudgeted) run_search(-1);
  if (!proven && options.sdp && m > 0) {
    const int rank = options.sdp_rank > 0
                         ? options.sdp_rank
                         : static_cast<int>(std::ceil(std::sqrt(2.0 * static_cast<double>(m)))) + 1;
    const sign_max_detail::SdpOutcome sdp =
        sign_max_detail::sdp_dual_bound(k, rank, options.sdp_max_sweeps, rng);
    result.sdp_bound = sdp.bound;
    uppers.push_back({sdp.bound, SignMaxBound::sdp});
    if (!sdp.converged) {
      result.warnings.push_back(
          {DiagnosticKind::optimization_not_closed,
           fmt::format("SDP primal did not converge in {} sweeps; its bound is valid but may be loose",
                       options.sdp_max_sweeps)});
    }
    // Goemans–Williamson hyperplane roundings of the SDP factor as further starts.
    for (int start = 0; start < std::max(options.random_starts, 1); ++start) {
      Vector direction(rank);
      for (int r = 0; r < rank; ++r) direction(r) = rng.standard_normal();
      try_start(sign_max_detail::signs_of(sdp.factor * direction));
    }
    proven = lower_meets_upper();
  }
  if (!proven && want_search && !unbudgeted) run_search(options.node_budget);

  const UpperBound best = best_upper();
  const bool met = lower_meets_upper();
  result.is_exact = proven || met;
  result.certified_by = result.is_exact ? SignMaxBound::exact : best.source;
  const double floor = std::max(result.lower_bound, 0.0);
  result.relative_gap = best.value > 0.0 ? std::max(0.0, (best.value - floor) / best.value) : 0.0;

  // Back to the units of K. Round certified up (a zero bound is exact: K = 0, or K negative
  // definite, where c = 0 is optimal).
  for (double* value : {&result.ones, &result.sum_abs, &result.lower_bound}) *value = unscale(*value);
  for (std::optional<double>* value : {&result.spectral_bound, &result.min_eigenvalue, &result.sdp_bound}) {
    if (value->has_value()) **value = unscale(**value);
  }
  result.certified =
      best.value > 0.0 ? std::nextafter(unscale(best.value), std::numeric_limits<double>::infinity()) : 0.0;
  if (result.is_exact) result.exact = result.lower_bound;
  return result;
}

}  // namespace netdp::accounting
