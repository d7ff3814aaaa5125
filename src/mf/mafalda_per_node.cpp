// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MAFALDA with one C per node: the per-node Grams H_v and the separated optimization
// (docs/reference/mf-mafalda.md, "One C per node"; MF paper Section 5, Lemma 10 and its proof, Appendix D).
#include "netdp/mf/mafalda_per_node.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "netdp/gossip/spectral.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parallel_errors.hpp"

namespace netdp::mf {
namespace {

void check_per_node_arguments(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t initial_power) {
  require(rounds >= 1, "local_gram_per_node: rounds must be >= 1, got {}", rounds);
  require(initial_power <= 1, "local_gram_per_node: initial_power must be 0 or 1, got {}", initial_power);
  require(rounds <= kLocalGramMaxRounds, "local_gram_per_node: rounds must be <= {}, got {}",
          kLocalGramMaxRounds, rounds);
  const std::size_t n = w.num_nodes();
  require(n >= 1, "local_gram_per_node: W must have at least one node, got {}", n);
  const std::size_t per_node = rounds * rounds;
  require(n <= kLocalGramPerNodeLimit / per_node,
          "local_gram_per_node: n T² = {} × {}² doubles is more than the limit {} (n = {}, T = {})", n,
          rounds, kLocalGramPerNodeLimit, n, rounds);
}

/// H_{s,s'} = Σ_{j=0}^{T−1−max(s,s')} g(j + |s−s'|, j) for g(a, b) = ⟨W^{a+p} e_v, W^{b+p} e_v⟩
/// (0 ≤ b ≤ a < T): a cumulative sum along each diagonal, from the last admissible start back.
template <typename GramEntry>
DenseMatrix diagonal_cumulative_sums(Eigen::Index t_count, const GramEntry& g) {
  DenseMatrix h(t_count, t_count);
  for (Eigen::Index delta = 0; delta < t_count; ++delta) {
    double running = 0.0;
    for (Eigen::Index s = t_count - 1 - delta; s >= 0; --s) {
      const Eigen::Index j = t_count - 1 - s - delta;
      running += g(j + delta, j);
      h(s, s + delta) = running;
      h(s + delta, s) = running;
    }
  }
  return h;
}

/// Runs body(v) for every node, in parallel; rethrows the lowest node's exception outside the region.
template <typename Body>
void for_each_node(Eigen::Index n, const Body& body) {
  util::ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
  for (Eigen::Index v = 0; v < n; ++v) errors.run(static_cast<std::int64_t>(v), [&] { body(v); });
  errors.rethrow();
}

/// Symmetric W = QΛQᵀ: ⟨W^a e_v, W^b e_v⟩ = (W^{a+b})_{vv} = Σ_k q_vk² λ_k^{a+b}, a Hankel sequence
/// d_v(m); D = (Q ∘ Q) V with V_{k,m} = λ_k^m gives every node's at once (O(n² T)).
std::vector<DenseMatrix> per_node_symmetric(const gossip::GossipMatrix& w, std::size_t rounds,
                                            std::size_t p) {
  const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig{DenseMatrix(w.matrix())};
  require(eig.info() == Eigen::Success, "local_gram_per_node: symmetric eigen-decomposition of W failed");
  const Vector& lambda = eig.eigenvalues();
  const auto n = lambda.size();
  const auto t_count = static_cast<Eigen::Index>(rounds);
  const auto offset = static_cast<Eigen::Index>(2 * p);
  const Eigen::Index powers = 2 * (t_count - 1) + offset + 1;
  DenseMatrix v(n, powers);
  v.col(0).setOnes();
  for (Eigen::Index m = 1; m < powers; ++m) v.col(m) = v.col(m - 1).cwiseProduct(lambda);
  const DenseMatrix d = eig.eigenvectors().cwiseAbs2() * v;  // d(v, m) = (W^m)_{vv}
  std::vector<DenseMatrix> h(static_cast<std::size_t>(n));
  for_each_node(n, [&](Eigen::Index node) {
    h[static_cast<std::size_t>(node)] = diagonal_cumulative_sums(
        t_count, [&](Eigen::Index a, Eigen::Index b) { return d(node, a + b + offset); });
  });
  return h;
}

/// Reversible W = Π^{-½} S Π^{½}, S = QΛQᵀ: W^a e_v = √π_v Π^{-½} Q Λ^a q_v (q_v = row v of Q), so
/// Y_v = [W^p e_v, …, W^{T−1+p} e_v] = √π_v Π^{-½} Q diag(q_v) V, V_{k,a} = λ_k^{a+p}.
std::vector<DenseMatrix> per_node_reversible(const gossip::GossipMatrix& w, std::size_t rounds,
                                             std::size_t p) {
  const Vector pi = gossip::stationary_distribution(w).pi;
  const auto n = pi.size();
  for (Eigen::Index u = 0; u < n; ++u) {
    require(pi(u) > 0.0, "local_gram_per_node: reversible W needs a positive stationary law, got pi[{}] = {}",
            u, pi(u));
  }
  const Vector sqrt_pi = pi.cwiseSqrt();
  const DenseMatrix s = sqrt_pi.asDiagonal() * DenseMatrix(w.matrix()) * sqrt_pi.cwiseInverse().asDiagonal();
  const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig{DenseMatrix(0.5 * (s + s.transpose()))};
  require(eig.info() == Eigen::Success,
          "local_gram_per_node: eigen-decomposition of the symmetrized W failed");
  const DenseMatrix& q = eig.eigenvectors();
  const DenseMatrix left = sqrt_pi.cwiseInverse().asDiagonal() * q;  // Π^{-½} Q
  const auto t_count = static_cast<Eigen::Index>(rounds);
  DenseMatrix v(n, t_count);
  v.col(0) = eig.eigenvalues().array().pow(static_cast<double>(p)).matrix();
  for (Eigen::Index a = 1; a < t_count; ++a) v.col(a) = v.col(a - 1).cwiseProduct(eig.eigenvalues());
  std::vector<DenseMatrix> h(static_cast<std::size_t>(n));
  for_each_node(n, [&](Eigen::Index node) {
    const DenseMatrix y = sqrt_pi(node) * (left * (q.row(node).transpose().asDiagonal() * v));
    const DenseMatrix g = y.transpose() * y;
    h[static_cast<std::size_t>(node)] =
        diagonal_cumulative_sums(t_count, [&](Eigen::Index a, Eigen::Index b) { return g(a, b); });
  });
  return h;
}

/// Any W: Y_v = [W^p e_v, …, W^{T−1+p} e_v] by T sparse products, G_v = Y_vᵀ Y_v (O(n T) memory
/// per thread, O(nnz T + n T²) work per node).
std::vector<DenseMatrix> per_node_dense_powers(const gossip::GossipMatrix& w, std::size_t rounds,
                                               std::size_t p) {
  const auto n = static_cast<Eigen::Index>(w.num_nodes());
  const auto t_count = static_cast<Eigen::Index>(rounds);
  std::vector<DenseMatrix> h(static_cast<std::size_t>(n));
  for_each_node(n, [&](Eigen::Index node) {
    DenseMatrix y(n, t_count);
    Vector column = Vector::Unit(n, node);
    if (p == 1) column = w.matrix() * column;
    for (Eigen::Index a = 0; a < t_count; ++a) {
      y.col(a) = column;
      if (a + 1 < t_count) column = w.matrix() * column;
    }
    const DenseMatrix g = y.transpose() * y;
    h[static_cast<std::size_t>(node)] =
        diagonal_cumulative_sums(t_count, [&](Eigen::Index a, Eigen::Index b) { return g(a, b); });
  });
  return h;
}

/// Fills the totals of a per-node result from its nodes: loss = max_v sens_v² · Σ_v tr_v.
PerNodeFactorization combine(std::vector<Factorization> nodes) {
  PerNodeFactorization out;
  double trace_sum = 0.0;
  double lower_sum = 0.0;
  double global_sum = 0.0;
  bool all_dual = true;
  bool all_global = true;
  for (const Factorization& f : nodes) {
    out.sensitivity = std::max(out.sensitivity, f.sensitivity);
    out.sensitivity_exact = out.sensitivity_exact && f.sensitivity_exact;
    out.converged = out.converged && f.converged;
    trace_sum += f.trace;
    lower_sum += f.lower_bound;
    global_sum += f.global_lower_bound;
    all_global = all_global && f.global_lower_bound > 0.0;
    all_dual = all_dual && f.certificate_kind == CertificateKind::duality_gap;
  }
  out.loss = out.sensitivity * out.sensitivity * trace_sum;
  out.lower_bound = all_dual ? lower_sum : 0.0;
  out.global_lower_bound = all_global ? global_sum : 0.0;
  out.nodes = std::move(nodes);
  return out;
}

void check_grams(const std::vector<DenseMatrix>& h_per_node, const Participation& p, const char* where) {
  require(!h_per_node.empty(), "{}: the list of per-node Grams H_v is empty", where);
  const auto t_count = static_cast<Eigen::Index>(p.rounds);
  for (std::size_t v = 0; v < h_per_node.size(); ++v) {
    require(h_per_node[v].rows() == t_count && h_per_node[v].cols() == t_count,
            "{}: H_{} is {} x {}, expected T x T = {} x {}", where, v, h_per_node[v].rows(),
            h_per_node[v].cols(), t_count, t_count);
    require(h_per_node[v].allFinite(), "{}: H_{} has a non-finite entry", where, v);
  }
}

}  // namespace

std::vector<DenseMatrix> local_gram_per_node(const gossip::GossipMatrix& w, std::size_t rounds,
                                             std::size_t initial_power, LocalGramMethod method) {
  check_per_node_arguments(w, rounds, initial_power);
  if (method == LocalGramMethod::dense_powers) return per_node_dense_powers(w, rounds, initial_power);
  const gossip::SymmetryClass cls = gossip::symmetry_class(w);
  const bool small = w.num_nodes() <= gossip::kDenseEigenLimit;
  if (method == LocalGramMethod::spectral) {
    require(cls != gossip::SymmetryClass::general,
            "local_gram_per_node: the spectral method needs a symmetric or reversible W; this W is neither");
    require(small, "local_gram_per_node: the spectral method needs n <= {}, got n = {}",
            gossip::kDenseEigenLimit, w.num_nodes());
    if (cls == gossip::SymmetryClass::reversible) return per_node_reversible(w, rounds, initial_power);
  }
  if (small && cls == gossip::SymmetryClass::symmetric) return per_node_symmetric(w, rounds, initial_power);
  // Reversible W under `automatic`: the sparse column powers (O(nnz T) per node) beat the spectral
  // Y_v (O(n² T) per node); both are tested against the literal workload.
  return per_node_dense_powers(w, rounds, initial_power);
}

PerNodeFactorization evaluate_per_node(const std::vector<DenseMatrix>& h_per_node,
                                       const std::vector<DenseMatrix>& cs, const Participation& p) {
  check_grams(h_per_node, p, "evaluate_per_node");
  require(cs.size() == h_per_node.size(), "evaluate_per_node: {} encoders C_v for {} Grams H_v", cs.size(),
          h_per_node.size());
  std::vector<Factorization> nodes(cs.size());
  for_each_node(static_cast<Eigen::Index>(cs.size()), [&](Eigen::Index v) {
    const auto i = static_cast<std::size_t>(v);
    nodes[i] = evaluate_factorization(h_per_node[i], cs[i], p);
  });
  return combine(std::move(nodes));
}

PerNodeFactorization per_node_factorization(const std::vector<DenseMatrix>& h_per_node,
                                            const Participation& p, const OptimizeOptions& options) {
  check_grams(h_per_node, p, "per_node_factorization");
  std::vector<Factorization> nodes(h_per_node.size());
  for_each_node(static_cast<Eigen::Index>(h_per_node.size()), [&](Eigen::Index v) {
    const auto i = static_cast<std::size_t>(v);
    // The minimizer of tr(H X⁻¹) does not change when H is scaled, but the L-BFGS stopping test is
    // not scale-free: on a far node's small H_v (Facebook ego 414, closed-row, T = 64, k = 4) it
    // stopped at a relative gap of 5e-9 > tolerance. So each H_v is normalized to trace T.
    const double trace = h_per_node[i].trace();
    require(std::isfinite(trace) && trace > 0.0, "per_node_factorization: H_{} has trace {}, expected > 0", i,
            trace);
    const double scale = static_cast<double>(p.rounds) / trace;
    const Factorization best = optimal_factorization(scale * h_per_node[i], p, options);
    require(std::isfinite(best.sensitivity) && best.sensitivity > 0.0,
            "per_node_factorization: node {}'s optimizer returned sensitivity {}", i, best.sensitivity);
    // Unit sensitivity for every node: then max_v sens_v² Σ_v tr_v = Σ_v loss_v, the separated optimum.
    Factorization f = evaluate_factorization(h_per_node[i], best.c / best.sensitivity, p);
    f.certificate_kind = best.certificate_kind;
    f.certificate = best.certificate;
    f.lower_bound = best.lower_bound / scale;
    f.global_lower_bound = best.global_lower_bound / scale;
    f.iterations = best.iterations;
    f.converged = best.converged;
    nodes[i] = std::move(f);
  });
  return combine(std::move(nodes));
}

PerNodeFactorization mafalda_per_node_correlation(const gossip::GossipMatrix& w, std::size_t rounds,
                                                  std::size_t participations, std::size_t separation,
                                                  const OptimizeOptions& options) {
  const Participation p = make_participation(rounds, participations, separation);
  return per_node_factorization(local_gram_per_node(w, rounds, 1), p, options);
}

}  // namespace netdp::mf
