// Muffliato closed forms (Corollary 1, Corollary 3, Theorem 4/9) against literal
// dense formulas, and as upper bounds on the Theorem-1 / Theorem-12 sums.

#include "netdp/accounting/muffliato_bounds.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "accounting/muffliato_test_helpers.hpp"

namespace netdp::accounting {
namespace {

using namespace testing;  // NOLINT: the helpers of this test suite

std::vector<DenseMatrix> graphs() {
  return {metropolis(9, ring_edges(9)), metropolis(7, star_edges(7)),
          metropolis(12, random_connected_edges(12, 0.25, 7)), metropolis(16, hypercube_edges(4))};
}

/// max over w ∼ v (w != v, W_vw > 0) of W_vw^{-2}, for v in `from`, w outside `from`.
double max_inverse_square(const DenseMatrix& w, const std::vector<graph::NodeId>& from) {
  double worst = 0.0;
  for (graph::NodeId v : from)
    for (int x = 0; x < w.cols(); ++x)
      if (!contains(from, x) && w(v, x) > 0.0) worst = std::max(worst, 1.0 / (w(v, x) * w(v, x)));
  return worst;
}

TEST(MuffliatoCorollary1, MatchesLiteralFormulaAndBoundsTheorem1) {
  const std::size_t rounds = 6;
  for (const DenseMatrix& w : graphs()) {
    const auto n = static_cast<int>(w.rows());
    const DenseMatrix fast = corollary1_sums(to_sparse(w), rounds);
    // Literal: n max_{w∼v} W_vw^{-2} Σ_{t=1}^{T} P(X_t = v | X_0 = u)², P = (W^t)_{u,v}.
    DenseMatrix literal = DenseMatrix::Zero(n, n);
    DenseMatrix power = DenseMatrix::Identity(n, n);
    for (std::size_t t = 1; t <= rounds; ++t) {
      power = power * w;
      for (int v = 0; v < n; ++v)
        for (int u = 0; u < n; ++u) literal(v, u) += power(u, v) * power(u, v);
    }
    for (int v = 0; v < n; ++v) literal.row(v) *= n * max_inverse_square(w, {static_cast<graph::NodeId>(v)});
    literal.diagonal().setZero();
    // Theorem 1 in the corollary's setting (messages t = 0..T-1, observer noise counted).
    MuffliatoOptions options;
    options.bound = MuffliatoBound::paper;  // the paper's formula under test
    options.sigma = 1.0;
    options.observer_noise = ObserverNoise::counted;
    const MuffliatoLosses theorem1 =
        muffliato_all_pairs(gossip::Schedule::fixed(to_sparse(w), rounds), options);
    for (int v = 0; v < n; ++v) {
      for (int u = 0; u < n; ++u) {
        EXPECT_TRUE(close(fast(v, u), literal(v, u)))
            << v << "," << u << ": " << fast(v, u) << " vs " << literal(v, u);
        if (u != v) {
          EXPECT_LE(theorem1.sums()(v, u), fast(v, u) * (1 + 1e-12)) << v << "," << u;
        }
      }
    }
  }
}

TEST(MuffliatoCorollary3, MatchesLiteralFormulaAndBoundsTheorem12) {
  const std::size_t rounds = 5;
  for (const DenseMatrix& w : graphs()) {
    const auto n = static_cast<int>(w.rows());
    const std::vector<graph::NodeId> colluders = {1, 3};
    const Vector fast = corollary3_sums(to_sparse(w), rounds, colluders);
    Vector literal = Vector::Zero(n);
    DenseMatrix power = DenseMatrix::Identity(n, n);
    for (std::size_t t = 1; t <= rounds; ++t) {
      power = power * w;
      for (int u = 0; u < n; ++u) {
        const double p = power(u, 1) + power(u, 3);  // P(X_t ∈ V | X_0 = u)
        literal(u) += p * p;
      }
    }
    literal *= n * max_inverse_square(w, colluders);
    literal(1) = literal(3) = 0.0;
    MuffliatoOptions options;
    options.bound = MuffliatoBound::paper;  // the paper's formula under test
    options.sigma = 1.0;
    options.observer_noise = ObserverNoise::counted;
    const MuffliatoLosses theorem12 =
        muffliato_colluders(gossip::Schedule::fixed(to_sparse(w), rounds), colluders, options);
    for (int u = 0; u < n; ++u) {
      EXPECT_TRUE(close(fast(u), literal(u))) << u;
      EXPECT_LE(theorem12.sums()(0, u), fast(u) * (1 + 1e-12)) << u;
    }
  }
}

TEST(MuffliatoCorollaries, RejectBadInput) {
  DenseMatrix asymmetric = metropolis(5, ring_edges(5));
  asymmetric(0, 1) += 0.1;
  asymmetric(0, 0) -= 0.1;
  EXPECT_THROW((void)corollary1_sums(to_sparse(asymmetric), 3), std::invalid_argument);
  const SparseMatrix w = to_sparse(metropolis(5, ring_edges(5)));
  EXPECT_THROW((void)corollary1_sums(w, 0), std::invalid_argument);
  EXPECT_THROW((void)corollary3_sums(w, 2, {}), std::invalid_argument);
  EXPECT_THROW((void)corollary3_sums(w, 2, {7}), std::invalid_argument);
  EXPECT_THROW((void)corollary3_sums(w, 2, {0, 1, 2, 3, 4}), std::invalid_argument);
}

TEST(MuffliatoTheorem4, ErdosRenyiBoundFormula) {
  // n = 1000, d_v = 14, T = 10, α = 2, Δ = 1, σ = 3, q = 0.0138.
  const RandomGraphBound b = random_graph_bound(1000, 14, 10, 2.0, 1.0, 3.0, 0.0138);
  EXPECT_DOUBLE_EQ(b.neighbour_rdp_epsilon, 2.0 / (2.0 * 9.0));
  EXPECT_DOUBLE_EQ(b.uncapped_non_neighbour_rdp_epsilon, 2.0 * 10.0 * 14.0 / (9.0 * 986.0));
  EXPECT_DOUBLE_EQ(b.non_neighbour_rdp_epsilon, b.uncapped_non_neighbour_rdp_epsilon);
  EXPECT_FALSE(b.capped);
  EXPECT_DOUBLE_EQ(b.neighbour_probability, 0.0138);
  // Many rounds on a small graph: the bound exceeds local DP and is capped.
  const RandomGraphBound capped = random_graph_bound(50, 10, 30, 2.0, 1.0, 3.0, 0.2);
  EXPECT_TRUE(capped.capped);
  EXPECT_DOUBLE_EQ(capped.non_neighbour_rdp_epsilon, capped.neighbour_rdp_epsilon);
  EXPECT_GT(capped.uncapped_non_neighbour_rdp_epsilon, capped.neighbour_rdp_epsilon);
}

TEST(MuffliatoTheorem4, RejectsBadInputNamingTheRule) {
  try {
    (void)random_graph_bound(100, 5, 10, 4.0, 1.0, 2.0, 0.1);  // σ² = 4 < α(α-1)/2 = 6
    ADD_FAILURE() << "expected the weak-convexity condition to be enforced";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("sigma^2 >="));
  }
  EXPECT_THROW((void)random_graph_bound(100, 100, 10, 2.0, 1.0, 3.0, 0.1), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 0, 2.0, 1.0, 3.0, 0.1), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 10, 1.0, 1.0, 3.0, 0.1), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 10, 2.0, 1.0, 0.0, 0.1), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 10, 2.0, 1.0, 3.0, 0.0), std::invalid_argument);
  EXPECT_THROW((void)random_graph_bound(100, 5, 10, 2.0, 1.0, 3.0, 1.5), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
