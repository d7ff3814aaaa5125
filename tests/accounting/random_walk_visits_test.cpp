// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Visit counts of a random walk against the literal distribution: every walk of T steps
// enumerated with its probability, N_u counted.

#include "netdp/accounting/random_walk/random_walk_visits.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <tuple>
#include <vector>

#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::accounting {
namespace {

gossip::GossipMatrix gossip(const char* spec, gossip::Weighting weighting) {
  return gossip::make_gossip_matrix(graph::from_spec(spec), weighting);
}

/// P(N_u >= k) for k = 0..T+1, by enumerating every walk from `start`.
std::vector<double> literal_tail(const gossip::GossipMatrix& w, graph::NodeId u, std::size_t steps,
                                 graph::NodeId start) {
  const DenseMatrix dense(w.matrix());
  std::vector<double> exactly(steps + 2, 0.0);
  const std::function<void(graph::NodeId, std::size_t, std::size_t, double)> walk =
      [&](graph::NodeId at, std::size_t t, std::size_t visits, double p) {
        visits += at == u ? 1 : 0;
        if (t + 1 == steps) {
          exactly[visits] += p;
          return;
        }
        for (Eigen::Index y = 0; y < dense.cols(); ++y) {
          if (dense(at, y) > 0.0) walk(static_cast<graph::NodeId>(y), t + 1, visits, p * dense(at, y));
        }
      };
  walk(start, 0, 0, 1.0);
  std::vector<double> at_least(steps + 2, 0.0);
  for (std::size_t k = steps + 2; k-- > 0;)
    at_least[k] = exactly[k] + (k + 1 < steps + 2 ? at_least[k + 1] : 0.0);
  return at_least;
}

TEST(RandomWalkVisits, TailEqualsTheEnumeratedWalksAndStartingAtTheTargetIsTheWorst) {
  for (const auto& [spec, weighting] : {std::pair{"path:n=4", gossip::Weighting::hamilton},
                                        std::pair{"star:n=5", gossip::Weighting::metropolis},
                                        std::pair{"ring:n=5", gossip::Weighting::lazy_uniform}}) {
    const gossip::GossipMatrix w = gossip(spec, weighting);
    for (graph::NodeId u = 0; u < 3; ++u) {
      const std::vector<double> tail = visit_tail(w, u, 8, 0.0);
      const std::vector<double> literal = literal_tail(w, u, 8, u);
      ASSERT_LE(tail.size(), literal.size());
      for (std::size_t k = 0; k < tail.size(); ++k)
        EXPECT_NEAR(tail[k], literal[k], 1e-14) << spec << " u=" << u << " k=" << k;
      for (std::size_t k = tail.size(); k < literal.size(); ++k) EXPECT_EQ(literal[k], 0.0);
      // Any other start visits u no more often (stochastically).
      for (graph::NodeId x = 0; x < static_cast<graph::NodeId>(w.num_nodes()); ++x) {
        const std::vector<double> other = literal_tail(w, u, 8, x);
        for (std::size_t k = 0; k < tail.size(); ++k) EXPECT_LE(other[k], tail[k] + 1e-14);
      }
    }
  }
}

TEST(RandomWalkVisits, BoundIsTheQuantileAndNeverBelowOneVisit) {
  const gossip::GossipMatrix w = gossip("karate", gossip::Weighting::hamilton);
  const std::vector<double> tail = visit_tail(w, 0, 340);
  for (double beta : {1e-2, 1e-6, 1e-12}) {
    const std::size_t k = visit_bound(tail, beta);
    EXPECT_GE(k, 1u);
    EXPECT_LE(tail[k + 1], beta);
    EXPECT_GT(tail[k], beta);  // the smallest such k
  }
  // The expected count T/n = 10 is exceeded with a probability no bound may ignore.
  EXPECT_GT(tail[11], 0.1);
  EXPECT_EQ(visit_bound(visit_tail(w, 0, 1), 0.5), 1u);
}

TEST(RandomWalkVisits, ChernoffBoundIsAboveTheExactTailAndClose) {
  for (const auto& [spec, weighting, steps] :
       {std::tuple{"karate", gossip::Weighting::hamilton, std::size_t{340}},
        std::tuple{"ring:n=8", gossip::Weighting::metropolis, std::size_t{200}},
        std::tuple{"star:n=6", gossip::Weighting::hamilton, std::size_t{60}},
        std::tuple{"path:n=4", gossip::Weighting::lazy_uniform, std::size_t{8}},
        // Long walks that settle into their quasi-stationary shape early (a bipartite one too): the
        // law past that step is a continued bound, which must stay above the exact tail.
        std::tuple{"hypercube:d=6", gossip::Weighting::hamilton, std::size_t{1500}},
        std::tuple{"er:n=50,p=0.1,seed=3,connected=1", gossip::Weighting::metropolis, std::size_t{1200}}}) {
    const gossip::GossipMatrix w = gossip(spec, weighting);
    for (graph::NodeId u : {0u, 2u}) {
      const std::vector<double> exact = visit_tail(w, u, steps, 1e-30);
      const std::vector<double> bound = visit_tail_bound(w, u, steps, 1e-30);
      for (std::size_t k = 0; k < bound.size(); ++k) {
        EXPECT_GE(bound[k], k < exact.size() ? exact[k] : 0.0) << spec << " u=" << u << " k=" << k;
      }
      for (double beta : {1e-3, 1e-9}) {
        const std::size_t tight = visit_bound(exact, beta);
        const std::size_t loose = visit_bound(bound, beta);
        EXPECT_GE(loose, tight) << spec;
        EXPECT_LE(loose, tight + tight / 4 + 3) << spec << " u=" << u << " beta=" << beta;
      }
    }
  }
}

TEST(RandomWalkVisits, ChernoffBoundHoldsForADeterministicWalk) {
  // A directed cycle of 30 nodes: the walk returns exactly every 30 steps, so N_u = ⌈T/30⌉ surely.
  // The moment generating function of the return time then underflows for large θ; the bound must
  // not drop below the truth because of it.
  SparseMatrix cycle(30, 30);
  for (int i = 0; i < 30; ++i) cycle.insert(i, (i + 1) % 30) = 1.0;
  cycle.makeCompressed();
  const gossip::GossipMatrix w = gossip::GossipMatrix::from_support(cycle);
  const std::vector<double> exact = visit_tail(w, 0, 3400);
  const std::vector<double> bound = visit_tail_bound(w, 0, 3400);
  EXPECT_EQ(exact[114], 1.0);  // ⌈3400/30⌉ = 114 visits, always
  for (std::size_t k = 0; k < exact.size(); ++k) {
    // Past its last entry the bound says P(N_u >= k) <= its floor (1e-30).
    EXPECT_GE(k < bound.size() ? bound[k] : 1e-30, exact[k]) << "k=" << k;
  }
  EXPECT_GE(visit_bound(bound, 1e-6), 114u);
}

TEST(RandomWalkVisits, WorstCaseCounts) {
  EXPECT_EQ(max_visits(gossip("ring:n=6", gossip::Weighting::hamilton), 0, 9), 5u);  // no self-loop: ⌈9/2⌉
  EXPECT_EQ(max_visits(gossip("ring:n=6", gossip::Weighting::lazy_uniform), 0, 9), 9u);
}

TEST(RandomWalkVisits, BadInputIsAClearError) {
  const gossip::GossipMatrix w = gossip("ring:n=6", gossip::Weighting::hamilton);
  EXPECT_THROW((void)visit_tail(w, 6, 3), std::invalid_argument);
  EXPECT_THROW((void)visit_tail(w, 0, 0), std::invalid_argument);
  EXPECT_THROW((void)visit_bound(visit_tail(w, 0, 5), 0.0), std::invalid_argument);
  EXPECT_THROW((void)visit_bound(visit_tail(w, 0, 300, 0.5), 1e-9), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting

namespace netdp::accounting {
namespace {

TEST(RandomWalkVisits, BatchedBoundsEqualOneTargetAtATime) {
  // 41 targets: one full batch of 32 lanes and a padded one; each lane's arithmetic is its own.
  const gossip::GossipMatrix w = gossip::make_gossip_matrix(
      graph::from_spec("er:n=40,p=0.15,seed=2,connected=1"), gossip::Weighting::hamilton);
  std::vector<graph::NodeId> targets;
  for (graph::NodeId u = 0; u < 40; ++u) targets.push_back(u);
  targets.push_back(3);
  const std::vector<std::vector<double>> batched = visit_tail_bounds(w, targets, 300);
  ASSERT_EQ(batched.size(), targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    EXPECT_EQ(batched[i], visit_tail_bound(w, targets[i], 300)) << targets[i];
    EXPECT_GE(batched[i][5], visit_tail(w, targets[i], 300)[5]) << targets[i];
  }
}

}  // namespace
}  // namespace netdp::accounting

namespace netdp::accounting {
namespace {

TEST(RandomWalkVisits, TargetsInOneOrbitShareTheirRepresentativesBoundEqualToTheirOwn) {
  // The hypercube's bit flips map every node onto node 0: every target gets node 0's tail. Without
  // the hints (the same W on the same graph, read as edges), each target's own law is propagated;
  // they differ from node 0's by rounding only, and each is above the exact tail.
  const gossip::GossipMatrix w = gossip("hypercube:d=5", gossip::Weighting::hamilton);
  const gossip::GossipMatrix plain(w.matrix(), graph::Graph::from_edges(32, w.graph().edges()));
  std::vector<graph::NodeId> targets(32);
  for (graph::NodeId u = 0; u < 32; ++u) targets[u] = u;
  const std::vector<std::vector<double>> shared = visit_tail_bounds(w, targets, 200);
  const std::vector<std::vector<double>> own = visit_tail_bounds(plain, targets, 200);
  const std::vector<double> exact = visit_tail(w, 0, 200);
  for (graph::NodeId u = 0; u < 32; ++u) {
    EXPECT_EQ(shared[u], shared[0]) << u;
    ASSERT_EQ(own[u].size(), shared[u].size()) << u;
    const std::vector<double> exact_u = visit_tail(w, u, 200);
    for (std::size_t k = 0; k < own[u].size(); ++k) {
      EXPECT_NEAR(shared[u][k], own[u][k], 1e-12 * own[u][k]) << u << ' ' << k;
      if (k < exact_u.size()) {
        EXPECT_GE(own[u][k], exact_u[k]) << u << ' ' << k;
      }
    }
  }
  EXPECT_EQ(shared[0], own[0]);  // node 0 is its own orbit's representative
  EXPECT_GT(shared[0][3], exact[3]);
}

}  // namespace
}  // namespace netdp::accounting

namespace netdp::accounting {
namespace {

/// The return spectrum of W from a fresh eigendecomposition.
ReturnSpectrum spectrum_of(const gossip::GossipMatrix& w) {
  return return_spectrum(w, linalg::symmetric_eigen(DenseMatrix(w.matrix())));
}

TEST(RandomWalkVisits, SpectralBoundIsAboveTheExactTailAndNoLooserThanTheTabooBound) {
  // The resolvent's diagonal gives the uncapped return-time law: never below the exact tail
  // (enumerated by visit_tail), and no looser than the law capped at T that the taboo propagation
  // gives (the same Chernoff bound on the same grid of θ).
  for (const auto& [spec, weighting, steps] :
       {std::tuple{"karate", gossip::Weighting::hamilton, std::size_t{340}},
        std::tuple{"ring:n=8", gossip::Weighting::metropolis, std::size_t{200}},
        std::tuple{"star:n=6", gossip::Weighting::hamilton, std::size_t{60}},
        std::tuple{"path:n=4", gossip::Weighting::metropolis, std::size_t{8}},
        std::tuple{"hypercube:d=6", gossip::Weighting::hamilton, std::size_t{1500}},
        std::tuple{"er:n=50,p=0.1,seed=3,connected=1", gossip::Weighting::metropolis, std::size_t{1200}}}) {
    const gossip::GossipMatrix w = gossip(spec, weighting);
    ASSERT_TRUE(has_return_spectrum(w)) << spec;
    const ReturnSpectrum spectrum = spectrum_of(w);
    // The computed decomposition is close to exact: its error terms are at the rounding level.
    EXPECT_LT(spectrum.residual, 1e-10) << spec;
    EXPECT_LT(spectrum.orthogonality, 1e-10) << spec;
    const std::vector<graph::NodeId> targets = {0, 2};
    const std::vector<std::vector<double>> spectral =
        spectral_visit_tail_bounds(w, spectrum, targets, steps, 1e-30);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const graph::NodeId u = targets[i];
      const std::vector<double> exact = visit_tail(w, u, steps, 1e-30);
      const std::vector<double> taboo = visit_tail_bound(w, u, steps, 1e-30);
      for (std::size_t k = 0; k < spectral[i].size(); ++k)
        EXPECT_GE(spectral[i][k], k < exact.size() ? exact[k] : 0.0) << spec << " u=" << u << " k=" << k;
      for (double beta : {1e-3, 1e-9}) {
        const std::size_t tight = visit_bound(exact, beta);
        const std::size_t fast = visit_bound(spectral[i], beta);
        EXPECT_GE(fast, tight) << spec;
        EXPECT_LE(fast, visit_bound(taboo, beta)) << spec << " u=" << u << " beta=" << beta;
      }
    }
  }
}

TEST(RandomWalkVisits, AWrongDecompositionWidensTheSpectralBoundInsteadOfLoweringIt) {
  // Perturbed eigenvectors and eigenvalues: the residual and orthogonality checks grow with the
  // error, and the bound stays above the exact tail.
  const gossip::GossipMatrix w = gossip("karate", gossip::Weighting::hamilton);
  linalg::SymmetricEigen eigen = linalg::symmetric_eigen(DenseMatrix(w.matrix()));
  for (Eigen::Index k = 0; k < eigen.vectors.cols(); ++k) {
    eigen.vectors(k % eigen.vectors.rows(), k) += 1e-3;
    eigen.values[k] -= 2e-3;
  }
  const ReturnSpectrum spectrum = return_spectrum(w, eigen);
  EXPECT_GT(spectrum.residual, 1e-4);
  EXPECT_GT(spectrum.orthogonality, 1e-4);
  const std::vector<graph::NodeId> targets = {0, 33};
  const std::vector<std::vector<double>> spectral =
      spectral_visit_tail_bounds(w, spectrum, targets, 340, 1e-30);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const std::vector<double> exact = visit_tail(w, targets[i], 340, 1e-30);
    for (std::size_t k = 0; k < spectral[i].size(); ++k)
      EXPECT_GE(spectral[i][k], k < exact.size() ? exact[k] : 0.0) << targets[i] << " k=" << k;
  }
}

TEST(RandomWalkVisits, TheSpectralRouteNeedsAnExactlySymmetricW) {
  // closed-row is reversible but not symmetric: its diagonal resolvent would need the similarity
  // to a symmetric matrix, which the stationary law computed in floating point does not give exactly.
  const gossip::GossipMatrix reversible = gossip("karate", gossip::Weighting::closed_row);
  EXPECT_FALSE(has_return_spectrum(reversible));
  EXPECT_THROW((void)return_spectrum(reversible, linalg::symmetric_eigen(DenseMatrix(reversible.matrix()))),
               std::invalid_argument);
  const gossip::GossipMatrix w = gossip("ring:n=6", gossip::Weighting::hamilton);
  const ReturnSpectrum spectrum = spectrum_of(w);
  linalg::SymmetricEigen broken = linalg::symmetric_eigen(DenseMatrix(w.matrix()));
  broken.vectors(2, 3) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW((void)return_spectrum(w, broken), std::invalid_argument);
  const std::vector<graph::NodeId> bad = {6};
  EXPECT_THROW((void)spectral_visit_tail_bounds(w, spectrum, bad, 10), std::invalid_argument);
  const std::vector<graph::NodeId> one = {0};
  EXPECT_THROW((void)spectral_visit_tail_bounds(w, spectrum, one, 0), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
