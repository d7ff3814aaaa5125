// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MAFALDA's local correlation against D-MF and independent noise on the dl workload
// (include/netdp/mf/factorize.hpp, MF paper Algorithm 2).
#include <gtest/gtest.h>

#include <string>

#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"
#include "netdp/mf/factorize.hpp"
#include "netdp/mf/local_gram.hpp"

namespace netdp::mf {
namespace {

TEST(Mafalda, BeatsDmfAndIdentityOnSmallGraphs) {
  for (const std::string spec : {"ring:n=8", "karate", "florentine", "er:n=12,p=0.3,seed=3,connected=1"}) {
    const auto w = gossip::make_gossip_matrix(graph::from_spec(spec), gossip::Weighting::hamilton);
    for (const auto& [k, b] : {std::pair<std::size_t, std::size_t>{1, 0}, {2, 4}}) {
      const std::size_t t = 8;
      const Participation p = make_participation(t, k, b);
      const DenseMatrix h = local_gram(w, t, 1);
      const Factorization mafalda = optimal_factorization(h, p);
      const Factorization dmf = dmf_factorization(h, p);
      const Factorization identity = evaluate_factorization(h, identity_correlation(t), p);
      EXPECT_TRUE(mafalda.converged) << spec << " k = " << k;
      EXPECT_LE(mafalda.loss, dmf.loss * (1.0 + 1e-12)) << spec << " k = " << k;
      EXPECT_LE(mafalda.loss, identity.loss * (1.0 + 1e-12)) << spec << " k = " << k;
      EXPECT_LE(mafalda.lower_bound, dmf.loss) << spec;
      // The public entry point returns the same C.
      const DenseMatrix c = mafalda_correlation(w, t, k, b);
      EXPECT_TRUE(c.isLowerTriangular(0.0));
      EXPECT_NEAR(evaluate_factorization(h, c, p).loss, mafalda.loss, 1e-9 * mafalda.loss) << spec;
    }
  }
}

TEST(Mafalda, LossIsTheLiteralWorkloadNorm) {
  // Dense literal workload A = (I_T ⊗ W) W_T (block (t, s) = W^{t−s+1}); loss = ‖A C⁻¹ ⊗ I‖²
  // = Σ_i ‖A_i C⁻¹‖²_F with A_i the columns of node i (K^{(T,n)} regroups them).
  const auto w = gossip::make_gossip_matrix(graph::from_spec("florentine"), gossip::Weighting::hamilton);
  const std::size_t t = 5;
  const auto n = static_cast<Eigen::Index>(w.num_nodes());
  const DenseMatrix wd = DenseMatrix(w.matrix());
  std::vector<DenseMatrix> powers{DenseMatrix::Identity(n, n)};
  for (std::size_t i = 1; i <= t; ++i) powers.push_back(powers.back() * wd);
  const DenseMatrix c = mafalda_correlation(w, t);
  const DenseMatrix c_inv = c.inverse();
  double literal = 0.0;
  for (Eigen::Index node = 0; node < n; ++node) {
    DenseMatrix a_i = DenseMatrix::Zero(static_cast<Eigen::Index>(t) * n, static_cast<Eigen::Index>(t));
    for (std::size_t row = 0; row < t; ++row) {
      for (std::size_t s = 0; s <= row; ++s) {
        a_i.block(static_cast<Eigen::Index>(row) * n, static_cast<Eigen::Index>(s), n, 1) =
            powers[row - s + 1].col(node);
      }
    }
    literal += (a_i * c_inv).squaredNorm();
  }
  const Factorization f = evaluate_factorization(local_gram(w, t, 1), c, make_participation(t));
  EXPECT_NEAR(f.trace, literal, 1e-9 * literal);
}

}  // namespace
}  // namespace netdp::mf
