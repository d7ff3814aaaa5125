// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Tests of the MAFALDA local Gram (MF paper, Lemma 10) against the definition written
// exactly as the paper does: A = (I_T ⊗ W) W_T K^{(T,n)}, A_i its i-th block of T columns.
#include "netdp/mf/local_gram.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "mf/mf_test_helpers.hpp"
#include "netdp/gossip/spectral.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/classic.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/metrics.hpp"

namespace netdp::mf {
namespace {

using gossip::GossipMatrix;
using gossip::Weighting;

/// W_T: block (t, s) = W^{t−s} for s ≤ t, time-major (Figure 1 of the paper).
DenseMatrix workload(const DenseMatrix& w, Eigen::Index t_count) {
  const Eigen::Index n = w.rows();
  DenseMatrix out = DenseMatrix::Zero(n * t_count, n * t_count);
  for (Eigen::Index t = 0; t < t_count; ++t) {
    DenseMatrix power = DenseMatrix::Identity(n, n);
    for (Eigen::Index s = t; s >= 0; --s) {
      out.block(t * n, s * n, n, n) = power;
      power = power * w;
    }
  }
  return out;
}

/// Van Loan's commutation matrix K^{(T,n)}: K vec(X) = vec(Xᵀ) for X ∈ R^{T×n}.
DenseMatrix commutation(Eigen::Index t_count, Eigen::Index n) {
  DenseMatrix k = DenseMatrix::Zero(t_count * n, t_count * n);
  for (Eigen::Index r = 0; r < t_count; ++r) {
    for (Eigen::Index j = 0; j < n; ++j) k(r * n + j, j * t_count + r) = 1.0;
  }
  return k;
}

/// I_T ⊗ W.
DenseMatrix kron_identity(Eigen::Index t_count, const DenseMatrix& w) {
  const Eigen::Index n = w.rows();
  DenseMatrix out = DenseMatrix::Zero(n * t_count, n * t_count);
  for (Eigen::Index t = 0; t < t_count; ++t) out.block(t * n, t * n, n, n) = w;
  return out;
}

/// H = Σ_i A_iᵀ A_i (eq. 10) from the dense nT × nT matrices.
DenseMatrix definition_gram(const GossipMatrix& gm, std::size_t rounds, std::size_t initial_power) {
  const DenseMatrix w(gm.matrix());
  const auto n = w.rows();
  const auto t_count = static_cast<Eigen::Index>(rounds);
  DenseMatrix a = workload(w, t_count) * commutation(t_count, n);
  if (initial_power == 1) a = kron_identity(t_count, w) * a;
  DenseMatrix h = DenseMatrix::Zero(t_count, t_count);
  for (Eigen::Index i = 0; i < n; ++i) {
    const DenseMatrix a_i = a.middleCols(i * t_count, t_count);
    h += a_i.transpose() * a_i;
  }
  return h;
}

using testing::relative_error;

/// A row-stochastic W on a ring that is neither symmetric nor reversible (the cycle
/// products 0.5^n forward and 0.2^n backward differ, Kolmogorov's criterion).
GossipMatrix drifting_ring(std::size_t n) {
  std::vector<Eigen::Triplet<double>> entries;
  const auto size = static_cast<int>(n);
  for (int u = 0; u < size; ++u) {
    entries.emplace_back(u, u, 0.3);
    entries.emplace_back(u, (u + 1) % size, 0.5);
    entries.emplace_back(u, (u + size - 1) % size, 0.2);
  }
  SparseMatrix w(size, size);
  w.setFromTriplets(entries.begin(), entries.end());
  return GossipMatrix::from_support(w);
}

struct Case {
  std::string name;
  GossipMatrix w;
};

std::vector<Case> small_cases() {
  std::vector<graph::NodeId> first(12);
  for (std::size_t u = 0; u < first.size(); ++u) first[u] = static_cast<graph::NodeId>(u);
  const graph::Graph karate =
      graph::largest_connected_component(graph::induced_subgraph(graph::karate_club(), first));
  return {
      {"ring6-metropolis", gossip::make_gossip_matrix(graph::ring(6), Weighting::metropolis)},
      {"star5-hamilton", gossip::make_gossip_matrix(graph::star(5), Weighting::hamilton)},
      {"karate12-metropolis", gossip::make_gossip_matrix(karate, Weighting::metropolis)},
      {"karate12-closed-row", gossip::make_gossip_matrix(karate, Weighting::closed_row)},
      {"er9-closed-row", gossip::make_gossip_matrix(graph::erdos_renyi(9, 0.4, 7), Weighting::closed_row)},
      {"star5-lazy-uniform", gossip::make_gossip_matrix(graph::star(5), Weighting::lazy_uniform)},
      {"drifting-ring5", drifting_ring(5)},
  };
}

TEST(LocalGram, MatchesPaperDefinitionOnSmallGraphs) {
  const std::size_t rounds = 6;
  for (const Case& c : small_cases()) {
    for (std::size_t p : {0U, 1U}) {
      SCOPED_TRACE(c.name + " initial power " + std::to_string(p));
      const DenseMatrix want = definition_gram(c.w, rounds, p);
      EXPECT_LT(relative_error(local_gram(c.w, rounds, p), want), 1e-10);
      EXPECT_LT(relative_error(local_gram(c.w, rounds, p, LocalGramMethod::dense_powers), want), 1e-10);
      EXPECT_LT(relative_error(local_gram_literal(c.w, rounds, p), want), 1e-10);
      if (gossip::symmetry_class(c.w) != gossip::SymmetryClass::general) {
        EXPECT_LT(relative_error(local_gram(c.w, rounds, p, LocalGramMethod::spectral), want), 1e-10);
      }
    }
  }
}

TEST(LocalGram, CoversEverySymmetryClass) {
  std::vector<gossip::SymmetryClass> seen;
  for (const Case& c : small_cases()) seen.push_back(gossip::symmetry_class(c.w));
  for (auto cls : {gossip::SymmetryClass::symmetric, gossip::SymmetryClass::reversible,
                   gossip::SymmetryClass::general}) {
    EXPECT_NE(std::find(seen.begin(), seen.end(), cls), seen.end());
  }
}

TEST(LocalGram, SpectralAgreesWithDensePowersOverLongHorizons) {
  // T = 320 as in the paper's experiments: the eigenvalue powers underflow, the sums must not drift.
  const std::size_t rounds = 320;
  const std::vector<GossipMatrix> cases = {
      gossip::make_gossip_matrix(graph::ring(8), Weighting::metropolis),
      gossip::make_gossip_matrix(graph::star(7), Weighting::closed_row),
      gossip::make_gossip_matrix(graph::karate_club(), Weighting::closed_row),
  };
  for (const GossipMatrix& w : cases) {
    const DenseMatrix want = local_gram(w, rounds, 1, LocalGramMethod::dense_powers);
    EXPECT_LT(relative_error(local_gram(w, rounds, 1, LocalGramMethod::spectral), want), 1e-10);
  }
}

TEST(LocalGram, IsSymmetricPositiveDefinite) {
  for (const Case& c : small_cases()) {
    SCOPED_TRACE(c.name);
    const DenseMatrix h = local_gram(c.w, 12, 1);
    EXPECT_EQ((h - h.transpose()).cwiseAbs().maxCoeff(), 0.0);
    const Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(h, Eigen::EigenvaluesOnly);
    EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
  }
}

TEST(LocalGram, SingleNodeIsThePrefixSumGram) {
  // n = 1: W = [1], A is the T × T lower-triangular all-ones matrix, (AᵀA)_{s,s'} = T − max(s, s').
  const GossipMatrix w = gossip::make_gossip_matrix(graph::path(1), Weighting::metropolis);
  const std::size_t rounds = 7;
  for (std::size_t p : {0U, 1U}) {
    const DenseMatrix h = local_gram(w, rounds, p);
    for (Eigen::Index s = 0; s < h.rows(); ++s) {
      for (Eigen::Index r = 0; r < h.cols(); ++r) {
        EXPECT_EQ(h(s, r), static_cast<double>(static_cast<Eigen::Index>(rounds) - std::max(s, r)));
      }
    }
  }
}

/// J X J with J the T × T reversal.
DenseMatrix flipped(const DenseMatrix& x) { return x.colwise().reverse().rowwise().reverse(); }

TEST(LocalGram, FlippedCholeskyFactorIsNotAFactorOfHWhenSeveralNodes) {
  // The trap: take L = chol(J H J) (lower, L Lᵀ = J H J) as "the lower-triangular L with LᵀL = H".
  // For one node H = AᵀA with A Toeplitz, so J H J = A Aᵀ and L = A works; for n > 1 it does not.
  const std::size_t rounds = 8;
  const GossipMatrix one = gossip::make_gossip_matrix(graph::path(1), Weighting::metropolis);
  const DenseMatrix h1 = local_gram(one, rounds, 1);
  const DenseMatrix l1 = Eigen::LLT<DenseMatrix>(flipped(h1)).matrixL();
  EXPECT_LT(relative_error(l1.transpose() * l1, h1), 1e-12);

  const GossipMatrix ring = gossip::make_gossip_matrix(graph::ring(6), Weighting::metropolis);
  const DenseMatrix h = local_gram(ring, rounds, 1);
  const DenseMatrix trap = Eigen::LLT<DenseMatrix>(flipped(h)).matrixL();
  EXPECT_GT(relative_error(trap.transpose() * trap, h), 1e-3);
  // The right factor flips back: L = J chol(J H J)ᵀ J is lower triangular and LᵀL = H.
  const DenseMatrix right = flipped(DenseMatrix(trap.transpose()));
  EXPECT_EQ(DenseMatrix(right.triangularView<Eigen::StrictlyUpper>()).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_LT(relative_error(right.transpose() * right, h), 1e-12);
}

TEST(LocalGram, RejectsBadArguments) {
  const GossipMatrix w = gossip::make_gossip_matrix(graph::ring(4), Weighting::metropolis);
  EXPECT_THROW(local_gram(w, 0, 1), std::invalid_argument);
  EXPECT_THROW(local_gram(w, 3, 2), std::invalid_argument);
  EXPECT_THROW(local_gram_literal(w, 0, 1), std::invalid_argument);
  EXPECT_THROW(local_gram(drifting_ring(4), 3, 1, LocalGramMethod::spectral), std::invalid_argument);
  EXPECT_THROW(local_gram_literal(w, 5000, 1), std::invalid_argument);
  EXPECT_THROW(local_gram(w, kLocalGramMaxRounds + 1, 1), std::invalid_argument);
  try {
    local_gram(w, 3, 2);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("initial_power"), std::string::npos);
  }
}

}  // namespace
}  // namespace netdp::mf
