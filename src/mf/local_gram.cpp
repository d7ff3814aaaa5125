// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MAFALDA's local Gram H (MF paper, Lemma 10) from the Frobenius Gram of the powers of W.
#include "netdp/mf/local_gram.hpp"

#include <Eigen/Eigenvalues>
#include <cstddef>
#include <stdexcept>

#include "netdp/gossip/spectral.hpp"
#include "netdp/util/check.hpp"

namespace netdp::mf {
namespace {

void check_local_gram_arguments(const gossip::GossipMatrix& w, std::size_t rounds,
                                std::size_t initial_power) {
  require(rounds >= 1, "local_gram: rounds must be >= 1, got {}", rounds);
  require(initial_power <= 1, "local_gram: initial_power must be 0 or 1, got {}", initial_power);
  require(w.num_nodes() >= 1, "local_gram: W must have at least one node, got {}", w.num_nodes());
  require(rounds <= kLocalGramMaxRounds, "local_gram: rounds must be <= {} (H is T × T dense), got {}",
          kLocalGramMaxRounds, rounds);
}

/// H_{s,s'} = Σ_{j=0}^{T−1−max(s,s')} G(j + |s'−s|, j), where G(a, b) = ⟨W^{a+p}, W^{b+p}⟩_F is
/// supplied by `gram(a, b)` for 0 ≤ b ≤ a < T: cumulative sums along each diagonal of G.
template <typename GramEntry>
DenseMatrix assemble_from_diagonals(std::size_t rounds, const GramEntry& gram) {
  const auto t_count = static_cast<Eigen::Index>(rounds);
  DenseMatrix h(t_count, t_count);
  for (Eigen::Index delta = 0; delta < t_count; ++delta) {
    // Walk s from the last admissible start backwards: H_{s, s+δ} adds the term j = T−1−s−δ.
    double running = 0.0;
    for (Eigen::Index s = t_count - 1 - delta; s >= 0; --s) {
      const Eigen::Index j = t_count - 1 - s - delta;
      running += gram(j + delta, j);  // every term is ≥ 0 for W ≥ 0, so plain summation is accurate
      h(s, s + delta) = running;
      h(s + delta, s) = running;
    }
  }
  return h;
}

/// Symmetric W = Q Λ Qᵀ: ⟨W^a, W^b⟩_F = tr(W^{a+b}) = Σ_k λ_k^{a+b}.
DenseMatrix gram_symmetric(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t p) {
  const DenseMatrix dense = DenseMatrix(w.matrix());
  const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(dense, Eigen::EigenvaluesOnly);
  require(eig.info() == Eigen::Success, "local_gram: symmetric eigen-decomposition of W failed");
  const Vector& lambda = eig.eigenvalues();
  const std::size_t max_power = 2 * (rounds - 1 + p);
  Vector trace_power = Vector::Zero(static_cast<Eigen::Index>(max_power + 1));  // tr(W^m)
  Vector power = Vector::Ones(lambda.size());
  for (std::size_t m = 0; m <= max_power; ++m) {
    trace_power(static_cast<Eigen::Index>(m)) = power.sum();
    power = power.cwiseProduct(lambda);
  }
  const auto offset = static_cast<Eigen::Index>(2 * p);
  return assemble_from_diagonals(rounds,
                                 [&](Eigen::Index a, Eigen::Index b) { return trace_power(a + b + offset); });
}

/// Reversible W = Π^{-1/2} S Π^{1/2}, S = Q Λ Qᵀ symmetric:
/// ⟨W^a, W^b⟩_F = tr(Λ^a (QᵀΠ⁻¹Q) Λ^b (QᵀΠQ)) = Σ_{k,l} λ_k^a M_kl λ_l^b with
/// M = (QᵀΠ⁻¹Q) ∘ (QᵀΠQ), i.e. G = Vᵀ M V, V_{k,a} = λ_k^{a+p}.
DenseMatrix gram_reversible(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t p) {
  const Vector pi = gossip::stationary_distribution(w).pi;
  const auto n = pi.size();
  for (Eigen::Index u = 0; u < n; ++u) {
    require(pi(u) > 0.0, "local_gram: reversible W needs a positive stationary law, got pi[{}] = {}", u,
            pi(u));
  }
  const Vector sqrt_pi = pi.cwiseSqrt();
  const DenseMatrix s = sqrt_pi.asDiagonal() * DenseMatrix(w.matrix()) * sqrt_pi.cwiseInverse().asDiagonal();
  const DenseMatrix s_sym = 0.5 * (s + s.transpose());
  const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(s_sym);
  require(eig.info() == Eigen::Success, "local_gram: eigen-decomposition of the symmetrized W failed");
  const DenseMatrix& q = eig.eigenvectors();
  const DenseMatrix q_pi_inv_q = q.transpose() * pi.cwiseInverse().asDiagonal() * q;
  const DenseMatrix q_pi_q = q.transpose() * pi.asDiagonal() * q;
  const DenseMatrix m = q_pi_inv_q.cwiseProduct(q_pi_q);
  const auto t_count = static_cast<Eigen::Index>(rounds);
  DenseMatrix v(n, t_count);
  Vector power = eig.eigenvalues().array().pow(static_cast<double>(p)).matrix();
  for (Eigen::Index a = 0; a < t_count; ++a) {
    v.col(a) = power;
    power = power.cwiseProduct(eig.eigenvalues());
  }
  const DenseMatrix g = v.transpose() * (m * v);
  return assemble_from_diagonals(rounds, [&](Eigen::Index a, Eigen::Index b) { return g(a, b); });
}

/// Any W: X = [vec W^p, …, vec W^{T−1+p}] (n² × T), G = XᵀX.
DenseMatrix gram_dense_powers(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t p) {
  const auto n = static_cast<Eigen::Index>(w.num_nodes());
  const std::size_t doubles = static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * rounds;
  require(static_cast<std::size_t>(n) <= kLocalGramDensePowersLimit && doubles <= kLocalGramDensePowersLimit,
          "local_gram: dense_powers needs n² T = {} doubles, more than the limit {} (n = {}, T = {})",
          doubles, kLocalGramDensePowersLimit, n, rounds);
  const auto t_count = static_cast<Eigen::Index>(rounds);
  DenseMatrix x(n * n, t_count);
  DenseMatrix power = DenseMatrix::Identity(n, n);
  if (p == 1) power = DenseMatrix(w.matrix());
  for (Eigen::Index a = 0; a < t_count; ++a) {
    x.col(a) = Eigen::Map<const Vector>(power.data(), n * n);
    if (a + 1 < t_count) power = w.matrix() * power;
  }
  DenseMatrix g = DenseMatrix::Zero(t_count, t_count);
  g.selfadjointView<Eigen::Lower>().rankUpdate(x.transpose());
  return assemble_from_diagonals(rounds, [&](Eigen::Index a, Eigen::Index b) { return g(a, b); });
}

}  // namespace

DenseMatrix local_gram(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t initial_power) {
  return local_gram(w, rounds, initial_power, LocalGramMethod::automatic);
}

DenseMatrix local_gram(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t initial_power,
                       LocalGramMethod method) {
  check_local_gram_arguments(w, rounds, initial_power);
  if (method == LocalGramMethod::dense_powers) return gram_dense_powers(w, rounds, initial_power);
  const gossip::SymmetryClass cls = gossip::symmetry_class(w);
  const bool small = w.num_nodes() <= gossip::kDenseEigenLimit;
  if (method == LocalGramMethod::spectral) {
    require(cls != gossip::SymmetryClass::general,
            "local_gram: the spectral method needs a symmetric or reversible W; this W is neither");
    require(small, "local_gram: the spectral method needs n <= {}, got n = {}", gossip::kDenseEigenLimit,
            w.num_nodes());
  }
  if (small && cls == gossip::SymmetryClass::symmetric) return gram_symmetric(w, rounds, initial_power);
  if (small && cls == gossip::SymmetryClass::reversible) return gram_reversible(w, rounds, initial_power);
  return gram_dense_powers(w, rounds, initial_power);
}

DenseMatrix local_gram_literal(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t initial_power) {
  check_local_gram_arguments(w, rounds, initial_power);
  const auto n = static_cast<Eigen::Index>(w.num_nodes());
  const auto t_count = static_cast<Eigen::Index>(rounds);
  const std::size_t side = static_cast<std::size_t>(n) * rounds;
  require(side <= kLocalGramLiteralLimit && side * side <= kLocalGramLiteralLimit,
          "local_gram_literal: the workload has (nT)² = {} entries, more than the limit {} (n = {}, T = {})",
          side * side, kLocalGramLiteralLimit, n, rounds);
  // A = (I_T ⊗ W)^p W_T: block (t, s) = W^{t−s+p} for s ≤ t (rows and columns time-major).
  DenseMatrix a = DenseMatrix::Zero(n * t_count, n * t_count);
  DenseMatrix power = DenseMatrix::Identity(n, n);
  if (initial_power == 1) power = DenseMatrix(w.matrix());
  for (Eigen::Index d = 0; d < t_count; ++d) {
    for (Eigen::Index s = 0; s + d < t_count; ++s) a.block((s + d) * n, s * n, n, n) = power;
    power = w.matrix() * power;
  }
  // K^{(T,n)} moves column s·n + i to i·T + s, so A_i = A[:, {s·n + i : s < T}].
  DenseMatrix h = DenseMatrix::Zero(t_count, t_count);
  DenseMatrix a_i(n * t_count, t_count);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index s = 0; s < t_count; ++s) a_i.col(s) = a.col(s * n + i);
    h.noalias() += a_i.transpose() * a_i;
  }
  return h;
}

}  // namespace netdp::mf
