// Closed-form Muffliato bounds: Corollary 1, Corollary 3, Theorem 4/9 (muffliato_bounds.hpp).

#include "netdp/accounting/muffliato_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "muffliato_propagation.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {

namespace {

/// Definition 1: square, non-negative, symmetric, rows summing to 1 (tolerance 1e-10).
void require_gossip_matrix(const SparseMatrix& w, const char* result) {
  require(w.rows() == w.cols() && w.rows() >= 2, "{} needs a square gossip matrix with n >= 2, got {} x {}",
          result, w.rows(), w.cols());
  const SparseMatrix transposed = w.transpose();
  for (int i = 0; i < w.outerSize(); ++i) {
    double row_sum = 0.0;
    for (SparseMatrix::InnerIterator it(w, i); it; ++it) {
      require(std::isfinite(it.value()) && it.value() >= 0.0,
              "{} needs W >= 0 (Definition 1), got W({}, {}) = {}", result, i, it.col(), it.value());
      require(std::abs(it.value() - transposed.coeff(i, it.col())) <= 1e-10,
              "{} needs a symmetric W (Definition 1), got W({}, {}) = {} but W({}, {}) = {}", result, i,
              it.col(), it.value(), it.col(), i, transposed.coeff(i, it.col()));
      row_sum += it.value();
    }
    require(std::abs(row_sum - 1.0) <= 1e-10, "{} needs a stochastic W (Definition 1), row {} sums to {}",
            result, i, row_sum);
  }
}

/// max over the edges {v, w}, w outside `excluded`... of W_vw^{-2}, for the nodes v in `from`.
double max_inverse_square_weight(const SparseMatrix& w, const std::vector<graph::NodeId>& from,
                                 const std::vector<char>& inside) {
  double worst = 0.0;
  for (graph::NodeId v : from) {
    for (SparseMatrix::InnerIterator it(w, static_cast<int>(v)); it; ++it) {
      if (it.value() <= 0.0 || inside[static_cast<std::size_t>(it.col())]) continue;
      worst = std::max(worst, 1.0 / (it.value() * it.value()));
    }
  }
  return worst;
}

}  // namespace

DenseMatrix corollary1_sums(const SparseMatrix& w, std::size_t rounds) {
  require_gossip_matrix(w, "Corollary 1");
  require(rounds >= 1, "the number of rounds T must be >= 1, got {}", rounds);
  const auto n = static_cast<std::size_t>(w.rows());
  const gossip::Schedule schedule = gossip::Schedule::fixed(w, rounds);
  detail::require_connected_support(schedule);
  const detail::StepPlan step = detail::plan_step(w);

  // n · max_{w ∼ v} W_vw^{-2} for each observer v (neighbours only: w != v).
  std::vector<double> factor(n);
  std::vector<char> inside(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    inside[v] = 1;
    factor[v] =
        static_cast<double>(n) * max_inverse_square_weight(w, {static_cast<graph::NodeId>(v)}, inside);
    inside[v] = 0;
  }

  const std::size_t width = std::min(n, detail::default_block_columns(n));
  DenseMatrix sums(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  const std::size_t blocks = (n + width - 1) / width;
#pragma omp parallel
  {
    detail::ColumnBlock block(n, width);
    std::vector<double> acc(n * width);
    std::vector<graph::NodeId> columns;
#pragma omp for schedule(dynamic, 1)
    for (std::size_t b = 0; b < blocks; ++b) {
      columns.resize(std::min(n, (b + 1) * width) - b * width);
      std::iota(columns.begin(), columns.end(), static_cast<graph::NodeId>(b * width));
      block.reset(columns);
      std::fill(acc.begin(), acc.end(), 0.0);
      const std::size_t c = columns.size();
      for (std::size_t t = 1; t <= rounds; ++t) {
        block.apply(step);  // block = columns of W^t; (W^t)_{v,u} = P(X_t = u | X_0 = v)
        for (std::size_t v = 0; v < n; ++v) detail::accumulate_squares(block.row(v), acc.data() + v * c, c);
      }
      for (std::size_t j = 0; j < c; ++j) {
        const auto u = static_cast<Eigen::Index>(columns[j]);
        for (std::size_t v = 0; v < n; ++v)
          sums(static_cast<Eigen::Index>(v), u) = factor[v] * acc[v * c + j];
      }
    }
  }
  sums.diagonal().setZero();
  return sums;
}

Vector corollary3_sums(const SparseMatrix& w, std::size_t rounds,
                       const std::vector<graph::NodeId>& colluders) {
  require_gossip_matrix(w, "Corollary 3");
  require(rounds >= 1, "the number of rounds T must be >= 1, got {}", rounds);
  const auto n = static_cast<std::size_t>(w.rows());
  require(!colluders.empty(), "the set of colluders must not be empty");
  std::vector<char> inside(n, 0);
  for (graph::NodeId v : colluders) {
    require(v < n, "colluder {} is out of range (the graph has {} nodes)", v, n);
    require(!inside[v], "colluder {} appears twice", v);
    inside[v] = 1;
  }
  require(colluders.size() < n, "the colluders are all {} nodes: there is no target left", n);
  detail::require_connected_support(gossip::Schedule::fixed(w, rounds));
  const double factor = static_cast<double>(n) * max_inverse_square_weight(w, colluders, inside);

  // p_t(u) = P(X_t ∈ V | X_0 = u) = (W^t 1_V)_u.
  Vector p = Vector::Zero(static_cast<Eigen::Index>(n));
  for (graph::NodeId v : colluders) p(v) = 1.0;
  Vector acc = Vector::Zero(static_cast<Eigen::Index>(n));
  for (std::size_t t = 1; t <= rounds; ++t) {
    p = w * p;
    acc += p.cwiseProduct(p);
  }
  acc *= factor;
  for (graph::NodeId v : colluders) acc(v) = 0.0;
  return acc;
}

RandomGraphBound random_graph_bound(std::size_t num_nodes, std::size_t observer_degree, std::size_t rounds,
                                    double alpha, double sensitivity, double sigma,
                                    double neighbour_probability) {
  require(num_nodes >= 2, "the number of nodes n must be >= 2, got {}", num_nodes);
  require(observer_degree < num_nodes, "the observer degree d_v must be < n = {}, got {}", num_nodes,
          observer_degree);
  require(rounds >= 1, "the number of rounds T must be >= 1, got {}", rounds);
  require(std::isfinite(alpha) && alpha > 1.0, "the Renyi order alpha must be a finite number > 1, got {}",
          alpha);
  require_positive(sensitivity, "sensitivity");
  require_positive(sigma, "sigma");
  require(std::isfinite(neighbour_probability) && neighbour_probability > 0.0 && neighbour_probability <= 1.0,
          "the edge probability q must be in (0, 1], got {}", neighbour_probability);
  const double min_variance = sensitivity * sensitivity * alpha * (alpha - 1.0) / 2.0;
  require(sigma * sigma >= min_variance,
          "Theorem 4 needs sigma^2 >= Delta^2 alpha (alpha - 1) / 2 = {} (weak convexity, Lemma 2), got "
          "sigma^2 = {}",
          min_variance, sigma * sigma);
  RandomGraphBound bound;
  bound.neighbour_probability = neighbour_probability;
  bound.neighbour_rdp_epsilon = dp::gaussian_rdp(alpha, sensitivity / sigma);
  bound.uncapped_non_neighbour_rdp_epsilon =
      alpha * sensitivity * sensitivity * static_cast<double>(rounds) * static_cast<double>(observer_degree) /
      (sigma * sigma * static_cast<double>(num_nodes - observer_degree));
  bound.non_neighbour_rdp_epsilon =
      std::min(bound.uncapped_non_neighbour_rdp_epsilon, bound.neighbour_rdp_epsilon);
  bound.capped = bound.non_neighbour_rdp_epsilon < bound.uncapped_non_neighbour_rdp_epsilon;
  return bound;
}

}  // namespace netdp::accounting
