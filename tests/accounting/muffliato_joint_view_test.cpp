// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The exact joint view of Muffliato gossip against a literal dense oracle: the observer's message
// matrix A′ (rows of W_{0:t}, its own columns removed) and ℓ_u = e_uᵀ A′ᵀ (A′A′ᵀ)⁺ A′ e_u with a
// pseudo-inverse, exactly as the formula is written.

#include "netdp/accounting/muffliato/muffliato_joint_view.hpp"

#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <cmath>
#include <random>
#include <string>

#include "accounting/muffliato_test_helpers.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"

namespace netdp::accounting {
namespace {

using namespace testing;  // NOLINT: the helpers of this test suite

/// Literal ℓ_u for every node u (0 on the observer set): dense rows, columns of the observer set
/// removed, P = A′ᵀ(A′A′ᵀ)⁺A′ = A′⁺A′ by an SVD of A′ in long double (singular values below
/// 1e-12 · the largest taken as zero: the test graphs' genuine singular values are far above it
/// and their zero ones far below), so the oracle is accurate well beyond the 1e-9 of the tests.
DenseMatrix reference_projector(const std::vector<DenseMatrix>& ws, MessageConvention convention,
                                const std::vector<graph::NodeId>& observers,
                                long double relative_cut = 1e-12L) {
  using LongMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
  const auto n = static_cast<int>(ws.front().rows());
  const std::vector<Vector> rows = observed_rows(ws, convention, observers);
  std::vector<int> kept;
  for (int j = 0; j < n; ++j)
    if (!contains(observers, j)) kept.push_back(j);
  LongMatrix a(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(kept.size()));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t k = 0; k < kept.size(); ++k)
      a(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) = rows[r](kept[k]);
  DenseMatrix out = DenseMatrix::Zero(n, n);
  if (a.rows() == 0) return out;
  Eigen::JacobiSVD<LongMatrix> svd(a, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const auto& s = svd.singularValues();
  Eigen::Index rank = 0;
  while (rank < s.size() && s(rank) > relative_cut * s(0)) ++rank;
  const LongMatrix v = svd.matrixV().leftCols(rank);
  const LongMatrix p = v * v.transpose();
  for (std::size_t i = 0; i < kept.size(); ++i)
    for (std::size_t k = 0; k < kept.size(); ++k)
      out(kept[i], kept[k]) =
          static_cast<double>(p(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)));
  return out;
}

/// The diagonal of reference_projector: ℓ_u for every node u (0 on the observer set).
Vector reference_leverage(const std::vector<DenseMatrix>& ws, MessageConvention convention,
                          const std::vector<graph::NodeId>& observers) {
  return reference_projector(ws, convention, observers).diagonal();
}

MuffliatoOptions unit_options(MessageConvention convention = MessageConvention::paper) {
  MuffliatoOptions options;
  options.sigma = 1.0;
  options.sensitivity = 1.0;
  options.messages = convention;
  return options;
}

TEST(MuffliatoJointView, PathOfFourRecoversTheTargetExactly) {
  // Observer 3 hears y_2, y_1/2 + y_3/2 and y_0/4 + y_2/2 + y_3/4; knowing y_3 it solves for y_0.
  const auto ws = repeat(hamilton(4, path_edges(4)), 3);
  const gossip::Schedule schedule = schedule_of(ws);
  const ObserverLeverage view = observer_leverage(schedule, {3});
  EXPECT_EQ(view.messages, 3u);
  EXPECT_NEAR(view.leverage(0), 1.0, 1e-12);
  const MuffliatoLosses exact = muffliato_joint_view_losses(schedule, {{{3}}, {{0}}}, unit_options());
  EXPECT_DOUBLE_EQ(exact.capped_sum(0, 0), 1.0);  // the local-DP value Δ²/σ²
  // Theorem 1 reports a fifth of it: it is not a bound on the joint view.
  const MuffliatoLosses paper = muffliato_theorem1_losses(schedule, {{{3}}, {{0}}}, unit_options());
  EXPECT_NEAR(paper.sums()(0, 0), 0.2, 1e-12);
}

TEST(MuffliatoJointView, PathOfFiveRecoversTheFarEnd) {
  const gossip::Schedule schedule = schedule_of(repeat(hamilton(5, path_edges(5)), 4));
  const MuffliatoLosses exact = muffliato_joint_view_losses(schedule, {{{0}}, {{4}}}, unit_options());
  EXPECT_DOUBLE_EQ(exact.capped_sum(0, 0), 1.0);
  const MuffliatoLosses paper = muffliato_theorem1_losses(schedule, {{{0}}, {{4}}}, unit_options());
  EXPECT_LT(paper.sums()(0, 0), 0.1);
}

struct OracleCase {
  std::string name;
  std::vector<DenseMatrix> ws;
};

std::vector<OracleCase> oracle_cases() {
  std::vector<OracleCase> out;
  out.push_back({"ring9", repeat(metropolis(9, ring_edges(9)), 6)});
  out.push_back({"star7", repeat(hamilton(7, star_edges(7)), 4)});
  out.push_back({"hypercube3", repeat(hamilton(8, hypercube_edges(3)), 5)});
  for (unsigned seed = 1; seed <= 4; ++seed)
    out.push_back({"er14_" + std::to_string(seed),
                   repeat(hamilton(14, random_connected_edges(14, 0.2, seed)), 3 + seed)});
  std::vector<DenseMatrix> varying;
  for (unsigned t = 0; t < 4; ++t)
    varying.push_back(metropolis(10, random_connected_edges(10, 0.2, 100 + t)));
  std::mt19937 rng(5);
  const Edges edges = random_connected_edges(10, 0.3, 11);
  for (int t = 0; t < 8; ++t) {
    const auto& [a, b] = edges[rng() % edges.size()];
    varying.push_back(pairwise_step(10, a, b));
  }
  out.push_back({"time_varying10", varying});
  return out;
}

gossip::Schedule as_schedule(const std::vector<DenseMatrix>& ws) {
  const bool fixed = std::all_of(ws.begin(), ws.end(), [&](const DenseMatrix& w) { return w == ws.front(); });
  if (fixed) return gossip::Schedule::fixed(to_sparse(ws.front()), ws.size());
  return schedule_of(ws);
}

TEST(MuffliatoJointView, LeveragesEqualTheLiteralPseudoInverse) {
  std::size_t column_gram_views = 0;  // views with more messages than nodes (the n × n path)
  for (const OracleCase& c : oracle_cases()) {
    const gossip::Schedule schedule = as_schedule(c.ws);
    const auto n = static_cast<int>(c.ws.front().rows());
    for (MessageConvention convention : {MessageConvention::paper, MessageConvention::authors_code}) {
      for (int v = 0; v < n; ++v) {
        const std::vector<graph::NodeId> observer{static_cast<graph::NodeId>(v)};
        const Vector reference = reference_leverage(c.ws, convention, observer);
        const ObserverLeverage fast = observer_leverage(schedule, observer, convention);
        column_gram_views += fast.messages > static_cast<std::size_t>(n) ? 1 : 0;
        for (int u = 0; u < n; ++u) {
          EXPECT_NEAR(fast.leverage(u), reference(u), 1e-9 * std::max(1.0, reference(u)))
              << c.name << " observer " << v << " target " << u;
        }
      }
    }
  }
  EXPECT_GT(column_gram_views, 20u);
}

// One round, an observer of high degree: the view's smallest eigenvalue is taken of a matrix with a
// repeated spectrum (LAPACK DSYEVR writes N eigenvalues there, not the one asked for).
TEST(MuffliatoJointView, OneRoundAtAHubOfManyLeavesMatchesTheLiteralPseudoInverse) {
  for (const int n : {20, 40}) {
    const auto ws = repeat(hamilton(n, star_edges(n)), 1);
    const gossip::Schedule schedule = as_schedule(ws);
    for (const int v : {0, 1}) {
      const std::vector<graph::NodeId> observer{static_cast<graph::NodeId>(v)};
      const Vector reference = reference_leverage(ws, MessageConvention::paper, observer);
      const ObserverLeverage fast = observer_leverage(schedule, observer);
      for (int u = 0; u < n; ++u)
        EXPECT_NEAR(fast.leverage(u), reference(u), 1e-9)
            << "star " << n << " observer " << v << " target " << u;
    }
    const MuffliatoLosses all = muffliato_all_pairs(schedule, unit_options());
    for (int v = 0; v < n; ++v)
      for (int u = 0; u < n; ++u) EXPECT_LE(all.capped_sum(v, u), 1.0);
  }
}

TEST(MuffliatoJointView, ReportedSumsBoundTheLiteralValueAndStayWithinTheMargin) {
  for (const OracleCase& c : oracle_cases()) {
    const gossip::Schedule schedule = as_schedule(c.ws);
    const auto n = static_cast<int>(c.ws.front().rows());
    JointViewReport report;
    const MuffliatoLosses exact = muffliato_joint_view_losses(schedule, {}, unit_options(), &report);
    EXPECT_EQ(report.observer_sets, static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) {
      const std::vector<graph::NodeId> observer{static_cast<graph::NodeId>(v)};
      const Vector reference = reference_leverage(c.ws, MessageConvention::paper, observer);
      const double margin = observer_leverage(schedule, observer).margin;
      EXPECT_EQ(exact.sums()(v, v), 0.0) << c.name << ": a node's loss towards itself is not defined";
      EXPECT_LE(margin, report.max_margin * (1.0 + 1e-6));
      for (int u = 0; u < n; ++u) {
        if (u == v) continue;
        const double reported = exact.capped_sum(static_cast<std::size_t>(v), static_cast<std::size_t>(u));
        const double widened = std::pow(std::sqrt(reference(u)) + margin, 2);
        EXPECT_GE(reported, std::min(1.0, reference(u)) - 1e-12) << c.name << " (" << v << ", " << u << ")";
        EXPECT_LE(reported, std::min(1.0, widened) + 1e-9) << c.name << " (" << v << ", " << u << ")";
      }
    }
  }
}

TEST(MuffliatoJointView, DirectionsBelowTheGramsResolutionAreFound) {
  // G(30, 0.15) with hamilton weights, T = 10: some observers' views have genuine singular values
  // far below sqrt(ε)·s_1, which an eigendecomposition of the message Gram cannot see; the
  // deflation pass finds them. Oracle: long-double SVD, singular values down to 1e-16·s_1 kept.
  for (unsigned seed : {1u, 2u}) {
    const auto ws = repeat(hamilton(30, random_connected_edges(30, 0.15, seed)), 10);
    const gossip::Schedule schedule = as_schedule(ws);
    for (graph::NodeId v = 0; v < 30; ++v) {
      const Vector reference = reference_projector(ws, MessageConvention::paper, {v}, 1e-16L).diagonal();
      const ObserverLeverage fast = observer_leverage(schedule, {v});
      for (int u = 0; u < 30; ++u) {
        if (u == static_cast<int>(v)) continue;
        const double reported = std::min(1.0, std::pow(std::sqrt(fast.leverage(u)) + fast.margin, 2));
        EXPECT_GE(reported, std::min(1.0, reference(u)) - 1e-9)
            << "seed " << seed << " (" << v << ", " << u << ")";
      }
    }
  }
}

/// ℓ_u for every node from an orthonormal basis of the block Krylov space itself, built in long
/// double by block Arnoldi (each new block W Q_t orthogonalised twice against all previous ones;
/// new directions of norm below 1e-15 dropped): the space span{W^t e_w : t < T, w ∈ senders} that
/// the powers span, without forming them. The observer's coordinate is then removed and the rest
/// re-orthonormalised by an SVD.
Vector krylov_reference_leverage(const DenseMatrix& w, const std::vector<graph::NodeId>& senders,
                                 std::size_t rounds, graph::NodeId observer) {
  using LongMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
  const Eigen::Index n = w.rows();
  const LongMatrix wl = w.cast<long double>();
  LongMatrix basis(n, 0);
  LongMatrix block = LongMatrix::Zero(n, static_cast<Eigen::Index>(senders.size()));
  for (std::size_t k = 0; k < senders.size(); ++k)
    block(static_cast<Eigen::Index>(senders[k]), static_cast<Eigen::Index>(k)) = 1.0L;
  for (std::size_t t = 0; t < rounds; ++t) {
    LongMatrix kept(n, 0);
    for (Eigen::Index j = 0; j < block.cols(); ++j) {
      Eigen::Matrix<long double, Eigen::Dynamic, 1> x = block.col(j);
      const long double scale = x.norm();
      for (int twice = 0; twice < 2; ++twice) {
        x -= basis * (basis.transpose() * x);
        x -= kept * (kept.transpose() * x);
      }
      if (x.norm() <= 1e-15L * scale) continue;
      kept.conservativeResize(n, kept.cols() + 1);
      kept.col(kept.cols() - 1) = x / x.norm();
    }
    basis.conservativeResize(n, basis.cols() + kept.cols());
    basis.rightCols(kept.cols()) = kept;
    block = wl * kept;
  }
  LongMatrix restricted = basis;
  restricted.row(static_cast<Eigen::Index>(observer)).setZero();
  Eigen::JacobiSVD<LongMatrix> svd(restricted, Eigen::ComputeThinU);
  Eigen::Index rank = 0;
  const auto& s = svd.singularValues();
  while (rank < s.size() && s(rank) > 1e-15L * s(0)) ++rank;
  const LongMatrix u = svd.matrixU().leftCols(rank);
  return u.rowwise().squaredNorm().cast<double>();
}

TEST(MuffliatoJointView, IllConditionedPowersAreResolvedInTheChebyshevBasis) {
  // Ring of 200, T = 60, observer 0: the powers W^t e_1, W^t e_199 are a Krylov basis whose singular
  // values fall smoothly to the rounding floor (no gap, every pair was at the local-DP cap). The
  // Chebyshev basis of the same space resolves it with a small certified margin.
  const int n = 200;
  const DenseMatrix w = hamilton(n, ring_edges(n));
  const gossip::Schedule schedule = gossip::Schedule::fixed(to_sparse(w), 60);
  const ObserverLeverage fast = observer_leverage(schedule, {0});
  EXPECT_TRUE(fast.chebyshev);
  EXPECT_LT(fast.margin, 1e-3);
  JointViewReport report;
  muffliato_joint_view_losses(schedule, {{{0}}, {}}, unit_options(), &report);
  EXPECT_EQ(report.chebyshev, 1u);
  EXPECT_EQ(report.no_gap, 0u);
  const Vector reference = krylov_reference_leverage(w, {1, static_cast<graph::NodeId>(n - 1)}, 60, 0);
  std::size_t below_one = 0;
  for (int u = 1; u < n; ++u) {
    const double reported = std::min(1.0, std::pow(std::sqrt(fast.leverage(u)) + fast.margin, 2));
    EXPECT_GE(reported, std::min(1.0, reference(u)) - 1e-9) << "target " << u;
    EXPECT_NEAR(fast.leverage(u), reference(u), 1e-6) << "target " << u;
    // Beyond ring distance T = 60 no message depends on the target: ℓ = 0 exactly, and the small
    // margin keeps it there (the power basis put these pairs at the cap).
    if (std::min(u, n - u) > 60) {
      EXPECT_LT(reported, 1e-12) << "target " << u;
      ++below_one;
    }
  }
  EXPECT_EQ(below_one, 79u);  // ring distances 61..100 on one side, 61..99 on the other
}

TEST(MuffliatoJointView, LargeViewsStartInTheChebyshevBasisWhereThePowersFailOnTheProbes) {
  // Ring of 300, T = 130: each of three observers hears m = 260 messages (at least 256), and the
  // power basis of a ring is ill-conditioned far below that depth. The probes fail, so large views
  // skip the powers; the values are those of the single-observer path, which tries the powers
  // first and then keeps the Chebyshev basis (up to rounding: BLAS runs single-threaded in the
  // all-pairs loop).
  const int n = 300;
  const gossip::Schedule ring = gossip::Schedule::fixed(to_sparse(hamilton(n, ring_edges(n))), 130);
  JointViewReport report;
  const std::vector<graph::NodeId> observers{0, 100, 150};
  const MuffliatoLosses losses =
      muffliato_joint_view_losses(ring, {{{0}, {100}, {150}}, {}}, unit_options(), &report);
  EXPECT_FALSE(report.powers_on_large_views);
  EXPECT_EQ(report.chebyshev, 3u);
  for (std::size_t row = 0; row < observers.size(); ++row) {
    const graph::NodeId observer = observers[row];
    const ObserverLeverage single = observer_leverage(ring, {observer});
    ASSERT_TRUE(single.chebyshev);
    for (int u = 0; u < n; ++u) {
      if (u == static_cast<int>(observer)) continue;
      const double root = std::sqrt(std::max(single.leverage(u), 0.0)) + single.margin;
      const double widened = std::min(1.0, root * root);
      EXPECT_NEAR(losses.capped_sum(row, static_cast<std::size_t>(u)), widened, 1e-12)
          << observer << " " << u;
    }
  }
  // A hypercube (d = 9, few distinct eigenvalues) keeps exact dependencies with a clean gap: the
  // powers resolve its probes (m = 9 · 30 = 270), and large views keep trying them first.
  const gossip::Schedule cube = gossip::Schedule::fixed(to_sparse(hamilton(512, hypercube_edges(9))), 30);
  muffliato_joint_view_losses(cube, {{{0}, {1}, {2}}, {{3}}}, unit_options(), &report);
  EXPECT_TRUE(report.powers_on_large_views);
  EXPECT_EQ(report.chebyshev, 0u);
}

TEST(MuffliatoJointView, ViewTooLargeToKeepIsReportedAtTheCapWhereItReaches) {
  // A star of 3000 nodes with a path of 5 nodes hanging off leaf 1. Over T = 2 rounds the centre
  // hears all 2999 leaves twice: m = 5998 messages > n, and m·n is above the entries kept, so no
  // Gram is formed. Every node it can reach gets ℓ = 1, here also the exact value: y_leaf is heard
  // at t = 0, and (W y)_1 at t = 1 then gives y of the path's first node. The path's other nodes
  // are out of reach (ℓ = 0, exactly).
  const int leaves = 3000;
  const int n = leaves + 5;
  Edges edges = star_edges(leaves);
  edges.emplace_back(1, leaves);
  for (int k = leaves; k + 1 < n; ++k) edges.emplace_back(k, k + 1);
  const gossip::Schedule schedule = gossip::Schedule::fixed(to_sparse(hamilton(n, edges)), 2);
  const ObserverLeverage view = observer_leverage(schedule, {0});
  EXPECT_TRUE(view.capped);
  EXPECT_EQ(view.messages, 2u * (leaves - 1));
  EXPECT_EQ(view.leverage(0), 0.0) << "the observer itself";
  for (int u = 1; u <= leaves; ++u) EXPECT_EQ(view.leverage(u), 1.0) << u;
  for (int u = leaves + 1; u < n; ++u) EXPECT_EQ(view.leverage(u), 0.0) << u;

  JointViewReport report;
  const MuffliatoLosses losses =
      muffliato_joint_view_losses(schedule, {{{0}}, {{leaves}, {leaves + 1}}}, unit_options(), &report);
  EXPECT_EQ(report.capped_views, 1u);
  EXPECT_EQ(losses.capped_sum(0, 0), 1.0);
  EXPECT_EQ(losses.capped_sum(0, 1), 0.0);
  ASSERT_FALSE(losses.warnings().empty());
  EXPECT_EQ(losses.warnings().front().kind, DiagnosticKind::effort_limit);
  EXPECT_EQ(diagnostic_count(losses.warnings(), DiagnosticKind::effort_limit), 2u)
      << ::testing::PrintToString(diagnostic_texts(losses.warnings()));
}

TEST(MuffliatoJointView, ColludersPoolTheirMessagesAndKnowTheirOwnValues) {
  for (const OracleCase& c : oracle_cases()) {
    const gossip::Schedule schedule = as_schedule(c.ws);
    const auto n = static_cast<int>(c.ws.front().rows());
    const std::vector<graph::NodeId> coalition{1, static_cast<graph::NodeId>(n - 2)};
    const Vector reference = reference_leverage(c.ws, MessageConvention::paper, coalition);
    const ObserverLeverage fast = observer_leverage(schedule, coalition);
    for (int u = 0; u < n; ++u)
      EXPECT_NEAR(fast.leverage(u), reference(u), 1e-9) << c.name << " target " << u;
    // A coalition learns at least what each member learns.
    const Vector alone = reference_leverage(c.ws, MessageConvention::paper, {1});
    for (int u = 0; u < n; ++u) {
      if (!contains(coalition, u)) {
        EXPECT_GE(reference(u), alone(u) - 1e-9) << c.name << " target " << u;
      }
    }
  }
}

TEST(MuffliatoJointView, GroupIsTheSignMaximumOfTheProjector) {
  const auto ws = repeat(hamilton(14, random_connected_edges(14, 0.2, 3)), 4);
  const gossip::Schedule schedule = as_schedule(ws);
  const std::vector<graph::NodeId> group{2, 5, 9};
  const MuffliatoLosses exact = muffliato_joint_view_losses(schedule, {{}, {group}}, unit_options());
  for (graph::NodeId v = 0; v < 14; ++v) {
    if (contains(group, static_cast<int>(v))) continue;
    // Literal: the projector block P_UU, maximised over the 2^3 sign vectors.
    const DenseMatrix p = reference_projector(ws, MessageConvention::paper, {v});
    double best = 0.0;
    for (int signs = 0; signs < 8; ++signs) {
      Vector d(3);
      for (int k = 0; k < 3; ++k) d(k) = (signs >> k) & 1 ? 1.0 : -1.0;
      double value = 0.0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          value += d(i) * d(j) * p(group[static_cast<std::size_t>(i)], group[static_cast<std::size_t>(j)]);
      best = std::max(best, value);
    }
    const double reported = exact.capped_sum(v, 0);
    EXPECT_GE(reported, best - 1e-12) << "observer " << v;
    EXPECT_LE(reported, std::min(3.0, best + 1e-6)) << "observer " << v;
  }
}

TEST(MuffliatoJointView, NeverBelowTheLiteralValueOnRandomCases) {
  // Property: random graphs (including symmetric ones whose views are rank-deficient), weights,
  // rounds and conventions; every reported pair bounds the literal joint-view value.
  std::mt19937 rng(2026);
  int cases = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 6 + static_cast<int>(rng() % 9);
    const int rounds = 1 + static_cast<int>(rng() % 7);
    const Edges edges =
        trial % 5 == 0 ? ring_edges(n) : random_connected_edges(n, 0.1 + 0.05 * (trial % 6), rng());
    const DenseMatrix w = trial % 2 == 0 ? hamilton(n, edges) : metropolis(n, edges);
    const auto ws = repeat(w, rounds);
    const MessageConvention convention =
        trial % 3 == 0 ? MessageConvention::authors_code : MessageConvention::paper;
    const MuffliatoLosses exact = muffliato_joint_view_losses(as_schedule(ws), {}, unit_options(convention));
    for (int v = 0; v < n; ++v) {
      const Vector reference = reference_leverage(ws, convention, {static_cast<graph::NodeId>(v)});
      for (int u = 0; u < n; ++u) {
        if (u == v) continue;
        ++cases;
        EXPECT_GE(exact.capped_sum(static_cast<std::size_t>(v), static_cast<std::size_t>(u)),
                  std::min(1.0, reference(u)) - 1e-12)
            << "trial " << trial << " (" << v << ", " << u << ")";
      }
    }
  }
  EXPECT_GT(cases, 3000);
}

TEST(MuffliatoJointView, RefusesTheoremOneOnlySettings) {
  const gossip::Schedule schedule = schedule_of(repeat(hamilton(4, path_edges(4)), 3));
  MuffliatoOptions counted = unit_options();
  counted.observer_noise = ObserverNoise::counted;
  EXPECT_THROW(muffliato_joint_view_losses(schedule, {}, counted), std::invalid_argument);
  MuffliatoOptions printed = unit_options();
  printed.group_sensitivity = GroupSensitivity::paper_sum_of_squares;
  EXPECT_THROW(muffliato_joint_view_losses(schedule, {}, printed), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting

namespace netdp::accounting {
namespace {

using namespace testing;  // NOLINT: the helpers of this test suite

TEST(MuffliatoJointView, ObserversInOneSymmetryOrbitShareTheirRepresentativesViewRelabelled) {
  // Hypercube d = 4 (bit flips), ring and torus (rotations, shifts): with the graphs' hints only
  // node 0's view is computed; every other row is it moved by a symmetry. Each reported sum equals
  // the one computed for its own observer without hints to rounding, and is never below the
  // literal leverage; the report counts every observer.
  const std::vector<graph::Graph> graphs = {graph::hypercube(4), graph::ring(9), graph::torus(3, 4)};
  for (const graph::Graph& g : graphs) {
    const auto n = static_cast<int>(g.num_nodes());
    const gossip::GossipMatrix network = gossip::make_gossip_matrix(g, gossip::Weighting::hamilton);
    const gossip::Schedule schedule = gossip::Schedule::fixed(network.matrix(), 6);
    MuffliatoOptions with_hints = unit_options();
    with_hints.symmetries = g.symmetry_hints();
    std::size_t computed = 0;
    with_hints.progress = [&](std::size_t, std::size_t total) { computed = total; };
    JointViewReport shared_report;
    JointViewReport own_report;
    const MuffliatoLosses shared = muffliato_joint_view_losses(schedule, {}, with_hints, &shared_report);
    const MuffliatoLosses own = muffliato_joint_view_losses(schedule, {}, unit_options(), &own_report);
    EXPECT_EQ(computed, 1u) << n;
    EXPECT_EQ(shared_report.observer_sets, own_report.observer_sets);
    EXPECT_EQ(shared_report.rank_decisions, own_report.rank_decisions) << n;
    EXPECT_EQ(shared_report.no_gap, own_report.no_gap) << n;
    const std::vector<DenseMatrix> ws = repeat(DenseMatrix(network.matrix()), 6);
    for (int v = 0; v < n; ++v) {
      const Vector reference =
          reference_leverage(ws, MessageConvention::paper, {static_cast<graph::NodeId>(v)});
      for (int u = 0; u < n; ++u) {
        EXPECT_NEAR(shared.sums()(v, u), own.sums()(v, u), 1e-12 * std::max(1.0, own.sums()(v, u)))
            << n << " (" << v << ", " << u << ")";
        if (u != v) {
          EXPECT_GE(shared.capped_sum(static_cast<std::size_t>(v), static_cast<std::size_t>(u)),
                    std::min(1.0, reference(u)) - 1e-12)
              << n;
        }
      }
    }
  }
}

TEST(MuffliatoJointView, HintsThatAreNotSymmetriesOrPartialQueriesComputeEveryObserver) {
  const gossip::GossipMatrix network =
      gossip::make_gossip_matrix(graph::path(6), gossip::Weighting::hamilton);
  const gossip::Schedule schedule = gossip::Schedule::fixed(network.matrix(), 5);
  MuffliatoOptions with_hints = unit_options();
  with_hints.symmetries = graph::ring(6).symmetry_hints();  // a rotation: not a symmetry of a path
  std::size_t computed = 0;
  with_hints.progress = [&](std::size_t, std::size_t total) { computed = total; };
  const MuffliatoLosses hinted = muffliato_joint_view_losses(schedule, {}, with_hints);
  EXPECT_EQ(computed, 6u);
  EXPECT_EQ(hinted.sums(), muffliato_joint_view_losses(schedule, {}, unit_options()).sums());

  // One observer asked: its own view, whatever the hints.
  const gossip::GossipMatrix cube =
      gossip::make_gossip_matrix(graph::hypercube(3), gossip::Weighting::hamilton);
  const gossip::Schedule cube_schedule = gossip::Schedule::fixed(cube.matrix(), 4);
  with_hints.symmetries = graph::hypercube(3).symmetry_hints();
  const MuffliatoQuery one{{{5}}, {}};
  EXPECT_EQ(muffliato_joint_view_losses(cube_schedule, one, with_hints).sums(),
            muffliato_joint_view_losses(cube_schedule, one, unit_options()).sums());
}

}  // namespace
}  // namespace netdp::accounting
