// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MAFALDA's local correlation and the D-MF variant (MF paper, Algorithm 2 and Lemma 10).
#include "netdp/mf/factorize.hpp"
#include "netdp/mf/local_gram.hpp"

namespace netdp::mf {

Factorization dmf_factorization(const DenseMatrix& h, const Participation& p,
                                const OptimizeOptions& options) {
  return evaluate_factorization(h, optimal_factorization(prefix_sum_gram(p.rounds), p, options).c, p);
}

// Optimized on H = Σ_i A_iᵀA_i itself (Lemma 10), never on a Cholesky factor of a flipped H.
DenseMatrix mafalda_correlation(const gossip::GossipMatrix& w, std::size_t rounds, std::size_t participations,
                                std::size_t separation) {
  const Participation p = make_participation(rounds, participations, separation);
  return optimal_factorization(local_gram(w, rounds, 1), p).c;
}

}  // namespace netdp::mf
