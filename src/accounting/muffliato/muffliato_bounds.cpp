// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Closed-form Muffliato bounds: Corollary 1, Corollary 3, Theorem 4/9, and for colluders eq. (16),
// Corollary 5 and Proposition 1 (muffliato_bounds.hpp).

#include "netdp/accounting/muffliato/muffliato_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "accounting/muffliato/muffliato_propagation.hpp"
#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

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

/// α > 1, Δ, σ > 0 and the weak-convexity condition σ² >= Δ² α (α − 1) / 2 (Lemma 2) of Theorem 4,
/// Corollary 5 and Proposition 1.
void require_renyi_setting(double alpha, double sensitivity, double sigma, const char* result) {
  require(std::isfinite(alpha) && alpha > 1.0, "the Renyi order alpha must be a finite number > 1, got {}",
          alpha);
  require_positive(sensitivity, "sensitivity");
  require_positive(sigma, "sigma");
  const double min_variance = sensitivity * sensitivity * alpha * (alpha - 1.0) / 2.0;
  require(sigma * sigma >= min_variance,
          "{} needs sigma^2 >= Delta^2 alpha (alpha - 1) / 2 = {} (weak convexity, Lemma 2), got "
          "sigma^2 = {}",
          result, min_variance, sigma * sigma);
}

/// The colluder set, sorted; throws unless it is non-empty, of distinct nodes < n, and leaves a target.
std::vector<graph::NodeId> validated_colluders(const std::vector<graph::NodeId>& colluders, std::size_t n) {
  require(!colluders.empty(), "the set of colluders must not be empty");
  std::vector<graph::NodeId> sorted = detail::validated_node_sets({colluders}, n, "colluder").front();
  require(sorted.size() < n, "the colluders are all {} nodes: there is no target left", n);
  return sorted;
}

/// 1 − (1 − q)^k, the probability that a given node outside V is adjacent to one of k colluders.
double adjacency_probability(double edge_probability, std::size_t num_colluders) {
  return -std::expm1(static_cast<double>(num_colluders) * std::log1p(-edge_probability));
}

/// Theorem 4's two cases for an observer (Corollary 5: a colluder set) of degree d: a neighbour
/// of the target pays the local value α Δ²/(2σ²); a non-neighbour α Δ² T d / (σ² (n − d)), capped
/// at the local value.
struct NearFar {
  double near = 0.0;
  double uncapped_far = 0.0;
  double far = 0.0;
  bool capped = false;
};
NearFar near_far_rdp(std::size_t num_nodes, std::size_t degree, std::size_t rounds, double alpha,
                     double sensitivity, double sigma) {
  NearFar out;
  out.near = dp::gaussian_rdp(alpha, sensitivity / sigma);
  out.uncapped_far = alpha * sensitivity * sensitivity * static_cast<double>(rounds) *
                     static_cast<double>(degree) / (sigma * sigma * static_cast<double>(num_nodes - degree));
  out.far = std::min(out.uncapped_far, out.near);
  out.capped = out.far < out.uncapped_far;
  return out;
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
  util::ParallelErrors errors;
#pragma omp parallel
  {
    std::optional<detail::ColumnBlock> block;
    std::vector<double> acc;
    std::vector<graph::NodeId> columns;
    errors.run(-1, [&] {
      block.emplace(n, width);
      acc.resize(n * width);
    });
#pragma omp for schedule(dynamic, 1)
    for (std::size_t b = 0; b < blocks; ++b) {
      errors.run(static_cast<std::int64_t>(b), [&] {
        if (!block) return;
        columns.resize(std::min(n, (b + 1) * width) - b * width);
        std::iota(columns.begin(), columns.end(), static_cast<graph::NodeId>(b * width));
        block->reset(columns);
        std::fill(acc.begin(), acc.end(), 0.0);
        const std::size_t c = columns.size();
        for (std::size_t t = 1; t <= rounds; ++t) {
          block->apply(step);  // block = columns of W^t; (W^t)_{v,u} = P(X_t = u | X_0 = v)
          for (std::size_t v = 0; v < n; ++v)
            detail::accumulate_squares(block->row(v), acc.data() + v * c, c);
        }
        for (std::size_t j = 0; j < c; ++j) {
          const auto u = static_cast<Eigen::Index>(columns[j]);
          for (std::size_t v = 0; v < n; ++v)
            sums(static_cast<Eigen::Index>(v), u) = factor[v] * acc[v * c + j];
        }
      });
    }
  }
  errors.rethrow();
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
  require(std::isfinite(neighbour_probability) && neighbour_probability > 0.0 && neighbour_probability <= 1.0,
          "the edge probability q must be in (0, 1], got {}", neighbour_probability);
  require_renyi_setting(alpha, sensitivity, sigma, "Theorem 4");
  RandomGraphBound bound;
  bound.neighbour_probability = neighbour_probability;
  const NearFar rdp = near_far_rdp(num_nodes, observer_degree, rounds, alpha, sensitivity, sigma);
  bound.neighbour_rdp_epsilon = rdp.near;
  bound.uncapped_non_neighbour_rdp_epsilon = rdp.uncapped_far;
  bound.non_neighbour_rdp_epsilon = rdp.far;
  bound.capped = rdp.capped;
  return bound;
}

std::vector<std::vector<graph::NodeId>> colluder_neighbourhoods(const gossip::Schedule& schedule,
                                                                const std::vector<graph::NodeId>& colluders) {
  const std::size_t n = schedule.num_nodes();
  const std::vector<graph::NodeId> set = validated_colluders(colluders, n);
  detail::require_finite_entries(schedule);
  std::vector<char> inside(n, 0);
  for (graph::NodeId v : set) inside[v] = 1;
  const auto neighbourhood = [&](const SparseMatrix& w) {
    const std::vector<std::vector<graph::NodeId>> neighbours = detail::step_neighbours(w);
    std::vector<char> seen(n, 0);
    std::vector<graph::NodeId> out;
    for (graph::NodeId v : set) {
      for (graph::NodeId x : neighbours[v]) {
        if (inside[x] || seen[x]) continue;
        seen[x] = 1;
        out.push_back(x);
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  if (schedule.is_fixed()) {
    return std::vector<std::vector<graph::NodeId>>(schedule.rounds(), neighbourhood(schedule.at(0)));
  }
  std::vector<std::vector<graph::NodeId>> rounds;
  rounds.reserve(schedule.rounds());
  for (std::size_t t = 0; t < schedule.rounds(); ++t) rounds.push_back(neighbourhood(schedule.at(t)));
  return rounds;
}

std::size_t colluder_communications(const gossip::Schedule& schedule,
                                    const std::vector<graph::NodeId>& colluders) {
  std::size_t total = 0;
  for (const auto& round : colluder_neighbourhoods(schedule, colluders)) total += round.size();
  return total;
}

double colluder_mean_privacy_loss(const gossip::Schedule& schedule,
                                  const std::vector<graph::NodeId>& colluders, double alpha,
                                  double sensitivity, double sigma) {
  // eq. (16) is eq. 7 with T_v replaced by the colluders' communications.
  return mean_privacy_loss(colluder_communications(schedule, colluders), schedule.num_nodes(), alpha,
                           sensitivity, sigma);
}

ColluderRandomGraphBound colluder_random_graph_bound(std::size_t num_nodes, std::size_t num_colluders,
                                                     std::size_t colluder_degree, std::size_t rounds,
                                                     double alpha, double sensitivity, double sigma,
                                                     double edge_probability) {
  require(num_nodes >= 2, "the number of nodes n must be >= 2, got {}", num_nodes);
  require(
      num_colluders >= 1 && num_colluders < num_nodes,
      "the number of colluders |V| must be in [1, n) with n = {} (a target u outside V must exist), got {}",
      num_nodes, num_colluders);
  require(colluder_degree < num_nodes, "the colluders' degree d_V must be < n = {}, got {}", num_nodes,
          colluder_degree);
  require(colluder_degree <= num_nodes - num_colluders,
          "the colluders' degree d_V counts nodes outside V, so it must be <= n - |V| = {}, got {}",
          num_nodes - num_colluders, colluder_degree);
  require(rounds >= 1, "the number of rounds T must be >= 1, got {}", rounds);
  require(std::isfinite(edge_probability) && edge_probability > 0.0 && edge_probability <= 1.0,
          "the edge probability q must be in (0, 1], got {}", edge_probability);
  require_renyi_setting(alpha, sensitivity, sigma, "Corollary 5");
  ColluderRandomGraphBound bound;
  bound.adjacent_probability = adjacency_probability(edge_probability, num_colluders);
  bound.non_adjacent_probability =
      std::exp(static_cast<double>(num_colluders) * std::log1p(-edge_probability));
  const NearFar rdp = near_far_rdp(num_nodes, colluder_degree, rounds, alpha, sensitivity, sigma);
  bound.adjacent_rdp_epsilon = rdp.near;
  bound.uncapped_non_adjacent_rdp_epsilon = rdp.uncapped_far;
  bound.non_adjacent_rdp_epsilon = rdp.far;
  bound.capped = rdp.capped;
  return bound;
}

std::vector<Proposition1Step> proposition1_steps(const gossip::Schedule& steps,
                                                 const std::vector<graph::NodeId>& colluders,
                                                 graph::NodeId target) {
  const std::size_t n = steps.num_nodes();
  const std::vector<std::vector<graph::NodeId>> neighbourhoods = colluder_neighbourhoods(steps, colluders);
  require(target < n, "target {} is out of range (the graph has {} nodes)", target, n);
  require(std::find(colluders.begin(), colluders.end(), target) == colluders.end(),
          "target {} is one of the colluders: a node's loss towards itself is not defined", target);
  std::vector<Proposition1Step> out;
  out.reserve(neighbourhoods.size());
  for (const auto& round : neighbourhoods) {
    out.push_back({std::binary_search(round.begin(), round.end(), target), round.size()});
  }
  return out;
}

double proposition1_bound(const std::vector<Proposition1Step>& steps, std::size_t num_nodes,
                          std::size_t communication_rounds, double alpha, double sensitivity, double sigma) {
  require(num_nodes >= 2, "the number of nodes n must be >= 2, got {}", num_nodes);
  require(communication_rounds >= 1, "the number of communication rounds K must be >= 1, got {}",
          communication_rounds);
  require(!steps.empty(), "Proposition 1 needs at least one gradient step (T_stop >= 0)");
  require_renyi_setting(alpha, sensitivity, sigma, "Proposition 1");
  double sum = 0.0;
  for (std::size_t t = 0; t < steps.size(); ++t) {
    const std::size_t d = steps[t].colluder_neighbours;
    require(d < num_nodes, "|N_t(V)| at step t = {} must be < n = {}, got {}", t, num_nodes, d);
    require(!steps[t].adjacent || d >= 1,
            "step t = {} has beta_t = 1 (u adjacent to V) but |N_t(V)| = 0, which does not contain u", t);
    sum += steps[t].adjacent ? 1.0
                             : static_cast<double>(communication_rounds) * static_cast<double>(d) /
                                   static_cast<double>(num_nodes - d);
  }
  return sensitivity * sensitivity * alpha / (sigma * sigma) * sum;
}

double proposition1_expected_bound(std::size_t num_nodes, std::size_t num_colluders, std::size_t num_steps,
                                   std::size_t communication_rounds, double alpha, double sensitivity,
                                   double sigma, double edge_probability) {
  require(num_nodes >= 2, "the number of nodes n must be >= 2, got {}", num_nodes);
  require(
      num_colluders >= 1 && num_colluders < num_nodes,
      "the number of colluders |V| must be in [1, n) with n = {} (a target u outside V must exist), got {}",
      num_nodes, num_colluders);
  require(num_steps >= 1, "Proposition 1 needs at least one gradient step (T_stop + 1 >= 1), got {}",
          num_steps);
  require(communication_rounds >= 1, "the number of communication rounds K must be >= 1, got {}",
          communication_rounds);
  require(std::isfinite(edge_probability) && edge_probability > 0.0 && edge_probability <= 1.0,
          "the edge probability q must be in (0, 1], got {}", edge_probability);
  require_renyi_setting(alpha, sensitivity, sigma, "Proposition 1");
  const double p = adjacency_probability(edge_probability, num_colluders);
  // E[(1 − β) K |N| / (n − |N|)]: given β = 0, |N(V)| ~ Binomial(m, p) over the m = n − |V| − 1 other
  // nodes outside V (their edges to V are independent of u's).
  double non_adjacent = 0.0;
  if (p < 1.0) {
    const std::size_t m = num_nodes - num_colluders - 1;
    const double log_p = std::log(p);
    const double log_not_p = std::log1p(-p);
    const double log_m_factorial = std::lgamma(static_cast<double>(m) + 1.0);
    for (std::size_t k = 1; k <= m; ++k) {
      const auto kd = static_cast<double>(k);
      const double log_pmf = log_m_factorial - std::lgamma(kd + 1.0) -
                             std::lgamma(static_cast<double>(m - k) + 1.0) + kd * log_p +
                             static_cast<double>(m - k) * log_not_p;
      non_adjacent += std::exp(log_pmf) * kd / static_cast<double>(num_nodes - k);
    }
    non_adjacent *= (1.0 - p) * static_cast<double>(communication_rounds);
  }
  return sensitivity * sensitivity * alpha / (sigma * sigma) * static_cast<double>(num_steps) *
         (p + non_adjacent);
}

}  // namespace netdp::accounting
