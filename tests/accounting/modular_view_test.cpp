// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Exact arithmetic of the joint view's certificates (modular_view.hpp): primes, W read as
// rationals, ranks and memberships modulo p, leverages and their reconstruction.

#include "../../src/accounting/exact/modular_view.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "accounting/muffliato_test_helpers.hpp"

namespace netdp::accounting {
namespace {

using detail::ModularSchedule;
using detail::ModularView;
using detail::RationalSchedule;
using detail::TimedSender;
using namespace testing;

constexpr std::uint64_t kPrime = 4611686018427388039ULL;  // 2^62 + 135, prime

std::vector<TimedSender> all_rounds(const std::vector<graph::NodeId>& senders, std::size_t rounds) {
  std::vector<TimedSender> out;
  for (std::size_t t = 0; t < rounds; ++t)
    for (const graph::NodeId w : senders) out.push_back({t, w});
  return out;
}

TEST(ModularView, RandomPrimesHaveTheirBitsAndAreDrawnWithoutRepeats) {
  std::mt19937_64 rng(7);
  std::set<std::uint64_t> seen;
  for (int k = 0; k < 50; ++k) {
    const std::uint64_t p = detail::random_prime(62, rng);
    EXPECT_GE(p, std::uint64_t{1} << 61);
    EXPECT_LT(p, std::uint64_t{1} << 62);
    for (std::uint64_t d = 3; d < 2000; d += 2) ASSERT_NE(p % d, 0u) << p;
    seen.insert(p);
  }
  EXPECT_EQ(seen.size(), 50u);
  // Rosser–Schoenfeld's lower bound is below the prime number theorem's estimate 2^61 / ln 2^62.
  EXPECT_GT(detail::primes_in_range(62), 0.0);
  EXPECT_LT(detail::primes_in_range(62), std::ldexp(1.0, 61) / (62 * std::log(2.0)));
  EXPECT_THROW(detail::random_prime(64, rng), std::invalid_argument);
}

TEST(ModularView, HamiltonWeightsAreReadAsTheirFractions) {
  // A path of 4: W_01 = 1/2, W_00 = 1/2. A metropolis star of 5: the doubles of 1/5 and 4/5 are
  // read as those fractions.
  const gossip::Schedule path = gossip::Schedule::fixed(to_sparse(hamilton(4, path_edges(4))), 3);
  const RationalSchedule rational(path);
  EXPECT_EQ(rational.binary_entries(), 0u);
  EXPECT_NEAR(rational.bits_per_round(), 2.0, 1e-9);  // lcm 2 (2 bits), row and column sums 1
  const gossip::Schedule star = gossip::Schedule::fixed(to_sparse(metropolis(5, star_edges(5))), 3);
  const RationalSchedule third(star);
  EXPECT_EQ(third.binary_entries(), 0u);
  EXPECT_NEAR(third.bits_per_round(), 3.0, 1e-9);  // lcm 5 (3 bits), row and column sums 1
}

TEST(ModularView, EntriesWithoutASmallFractionAreReadAtTheirBinaryValue) {
  // 0.3 reads as 3/10; π/10 has no fraction with a denominator below 2^31 that rounds to it, so it is
  // read as the double itself (both copies); the diagonals are 1 minus their rows.
  DenseMatrix w(3, 3);
  const double pi_tenth = 0.31415926535897932;
  w << 1.0 - 0.3 - pi_tenth, 0.3, pi_tenth,  //
      0.3, 0.7, 0.0,                         //
      pi_tenth, 0.0, 1.0 - pi_tenth;
  const gossip::Schedule s = gossip::Schedule::fixed(to_sparse(w), 2);
  const RationalSchedule rational(s);
  EXPECT_EQ(rational.binary_entries(), 2u);
  const ModularSchedule mod(rational, s, kPrime);
  const ModularView view(mod, all_rounds({1}, 2), std::vector<graph::NodeId>{2});
  EXPECT_EQ(view.rank(), 2u);  // e_1 and e_1ᵀW = (0.3, 0.7, 0) span e_0 and e_1
  EXPECT_TRUE(view.in_span(0));
  EXPECT_TRUE(view.in_span(1));
}

TEST(ModularView, ATargetTheObserverCanSolveForIsInTheSpan) {
  // Path 0-1-2-3, observer 3, T = 3 (the paper's counterexample): y_0 is solvable.
  const gossip::Schedule s = gossip::Schedule::fixed(to_sparse(hamilton(4, path_edges(4))), 3);
  const ModularSchedule mod(RationalSchedule(s), s, kPrime);
  const ModularView view(mod, all_rounds({2}, 3), std::vector<graph::NodeId>{3});
  EXPECT_EQ(view.rank(), 3u);
  for (graph::NodeId u = 0; u < 3; ++u) EXPECT_TRUE(view.in_span(u)) << u;
  EXPECT_FALSE(view.in_span(3));
  EXPECT_FALSE(view.reached(3)) << "the observer's own column is not part of A′";
  const auto lev = view.leverages(std::vector<graph::NodeId>{0, 1, 2});
  ASSERT_TRUE(lev.has_value());
  for (const std::uint64_t l : *lev) EXPECT_EQ(l, 1u);
}

TEST(ModularView, TwinsHaveTheirExactShareAndAreReconstructed) {
  // Star with centre 0 and leaves 1..5; observer leaf 1 hears the centre only: the other four
  // leaves are seen summed, ℓ = 1/4 each.
  const gossip::Schedule s = gossip::Schedule::fixed(to_sparse(hamilton(6, star_edges(6))), 5);
  const ModularSchedule mod(RationalSchedule(s), s, kPrime);
  const ModularView view(mod, all_rounds({0}, 5), std::vector<graph::NodeId>{1});
  EXPECT_EQ(view.rank(), 2u);  // e_0 and the leaves' sum
  EXPECT_TRUE(view.in_span(0));
  const auto lev = view.leverages(std::vector<graph::NodeId>{2, 3, 4, 5});
  ASSERT_TRUE(lev.has_value());
  for (const std::uint64_t l : *lev) {
    const auto q = detail::reconstruct_rational(l, kPrime);
    ASSERT_TRUE(q.has_value());
    EXPECT_EQ(q->num, 1);
    EXPECT_EQ(q->den, 4);
    EXPECT_EQ(detail::reduce_rational(*q, kPrime), l);
  }
}

TEST(ModularView, NodesNoMessageDependsOnAreNotReached) {
  // Path of 6, observer 0, T = 2: messages e_1, e_1ᵀW reach nodes 0..2 only.
  const gossip::Schedule s = gossip::Schedule::fixed(to_sparse(hamilton(6, path_edges(6))), 2);
  const ModularSchedule mod(RationalSchedule(s), s, kPrime);
  const ModularView view(mod, all_rounds({1}, 2), std::vector<graph::NodeId>{0});
  EXPECT_TRUE(view.reached(1));
  EXPECT_TRUE(view.reached(2));
  for (graph::NodeId u = 3; u < 6; ++u) EXPECT_FALSE(view.reached(u)) << u;
  const ModularView structural(mod, all_rounds({1}, 2), std::vector<graph::NodeId>{0}, false);
  EXPECT_FALSE(structural.exact());
  EXPECT_TRUE(structural.reached(2));
  EXPECT_FALSE(structural.reached(3));
}

TEST(ModularView, SmallFractionsSurviveReductionAndReconstruction) {
  // Any residue has a small fraction about half the time (that is why a second prime confirms it),
  // but a small fraction is recovered from its own residue.
  for (const detail::SmallRational q : {detail::SmallRational{-7, 9}, {1, 4}, {12345, 65537}, {0, 1}}) {
    const auto back = detail::reconstruct_rational(detail::reduce_rational(q, kPrime), kPrime);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->num, q.num);
    EXPECT_EQ(back->den, q.den);
  }
  // The double nearest 1/3 lies below it: rounded up is the next double.
  EXPECT_EQ(detail::round_up({1, 3}), std::nextafter(1.0 / 3.0, 1.0));
  EXPECT_EQ(detail::round_up({1, 4}), 0.25);
  EXPECT_EQ(detail::reduce_rational({-1, 2}, 7), 3u);  // −1/2 ≡ 3 (mod 7): 2·3 = 6 ≡ −1
}

/// The swept view of `rows` in floating point, built literally: block s of a row holds
/// e_nodeᵀ W_{end−1} ⋯ W_{sK}, the known nodes' columns zero.
DenseMatrix swept_literal(const gossip::Schedule& schedule, const std::vector<detail::SweptRow>& rows,
                          std::size_t k, std::size_t blocks, const std::vector<graph::NodeId>& known) {
  const auto n = static_cast<Eigen::Index>(schedule.num_nodes());
  DenseMatrix a =
      DenseMatrix::Zero(static_cast<Eigen::Index>(rows.size()), n * static_cast<Eigen::Index>(blocks));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t s = 0; s <= rows[i].last_block; ++s) {
      DenseMatrix x = DenseMatrix::Zero(1, n);
      x(0, rows[i].node) = 1.0;
      for (std::size_t q = rows[i].end; q > s * k; --q) x = x * DenseMatrix(schedule.at(q - 1));
      a.block(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(s) * n, 1, n) = x;
    }
  }
  for (const graph::NodeId c : known)
    for (std::size_t s = 0; s < blocks; ++s) a.col(static_cast<Eigen::Index>(s) * n + c).setZero();
  return a;
}

Eigen::Index float_rank(const DenseMatrix& a) {
  Eigen::FullPivLU<DenseMatrix> lu(a);
  lu.setThreshold(1e-10);
  return lu.rank();
}

TEST(SweptRank, EqualsTheRankOfTheLiteralViewOnSmallWellConditionedCases) {
  // Muffliato-GD-like rows (every message (r, w) of observer 0 at its last block r / K) on a
  // path and a star, fixed and time-varying, with and without the observer's columns.
  for (const std::size_t n : {4, 6}) {
    const SparseMatrix path = to_sparse(hamilton(n, path_edges(n)));
    const SparseMatrix star = to_sparse(metropolis(n, star_edges(n)));
    const std::size_t k = 2;
    const std::size_t blocks = 3;
    std::vector<detail::SweptRow> rows;
    for (std::size_t r = 0; r < k * blocks; ++r)
      for (const graph::NodeId w : {graph::NodeId{1}, static_cast<graph::NodeId>(n - 1)})
        rows.push_back({w, r, r / k});
    const std::vector<gossip::Schedule> schedules = {
        gossip::Schedule::fixed(path, k * blocks), gossip::Schedule::fixed(star, k * blocks),
        gossip::Schedule::sequence({path, star, path, path, star, star})};
    for (const gossip::Schedule& schedule : schedules) {
      const detail::SweptRankCertifier certifier(schedule, 11);
      for (const std::vector<graph::NodeId>& known :
           {std::vector<graph::NodeId>{}, std::vector<graph::NodeId>{0}}) {
        const detail::RankStatement exact = certifier.rank(rows, k, blocks, known);
        EXPECT_EQ(static_cast<Eigen::Index>(exact.rank),
                  float_rank(swept_literal(schedule, rows, k, blocks, known)))
            << "n = " << n << ", " << known.size() << " known";
        EXPECT_GT(exact.failure_probability, 0.0);
        EXPECT_LT(exact.failure_probability, 1e-12);
      }
    }
  }
}

TEST(SweptRank, TwinsSeenWithoutTheirOwnColumnsAreOneDirection) {
  // Leaves 1 and 2 of a star are twins: e_1ᵀW and e_2ᵀW differ only in their own columns.
  const gossip::Schedule star = gossip::Schedule::fixed(to_sparse(hamilton(5, star_edges(5))), 2);
  const detail::SweptRankCertifier certifier(star, 3);
  const std::vector<detail::SweptRow> rows = {{1, 1, 0}, {2, 1, 0}};
  EXPECT_EQ(certifier.rank(rows, 1, 1, std::vector<graph::NodeId>{}).rank, 2u);
  EXPECT_EQ(certifier.rank(rows, 1, 1, std::vector<graph::NodeId>{1, 2}).rank, 1u);
  // A row must fit its blocks and the schedule.
  const std::vector<detail::SweptRow> late = {{1, 0, 1}};
  EXPECT_THROW(certifier.rank(late, 1, 2, std::vector<graph::NodeId>{}), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::accounting
