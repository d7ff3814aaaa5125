// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Deterministic generators, each against a literal dense definition.
#include "netdp/graph/generators.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <stdexcept>

#include "graph/dense_reference.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::graph {
namespace {

using testing::dense_adjacency;
using testing::DenseAdjacency;

// The dense adjacency of n nodes with i ~ j iff joined(i, j) (i != j).
DenseAdjacency literal(std::size_t n, const std::function<bool(std::size_t, std::size_t)>& joined) {
  DenseAdjacency a(n, std::vector<int>(n, 0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) a[i][j] = (i != j && joined(i, j)) ? 1 : 0;
  }
  return a;
}

TEST(Generators, CompleteIsKn) {
  const Graph g = complete(7);
  EXPECT_EQ(g.num_edges(), 21u);
  EXPECT_EQ(dense_adjacency(g), literal(7, [](auto, auto) { return true; }));
  EXPECT_EQ(complete(1).num_edges(), 0u);
  EXPECT_THROW(complete(0), std::invalid_argument);
}

TEST(Generators, PathRingStar) {
  EXPECT_EQ(dense_adjacency(path(6)), literal(6, [](auto i, auto j) { return i + 1 == j || j + 1 == i; }));
  EXPECT_EQ(dense_adjacency(ring(6)),
            literal(6, [](auto i, auto j) { return (i + 1) % 6 == j || (j + 1) % 6 == i; }));
  EXPECT_EQ(dense_adjacency(star(6)), literal(6, [](auto i, auto j) { return i == 0 || j == 0; }));
  EXPECT_EQ(path(1).num_nodes(), 1u);
  EXPECT_THROW(path(0), std::invalid_argument);
  EXPECT_THROW(ring(2), std::invalid_argument);
  EXPECT_THROW(star(1), std::invalid_argument);
}

TEST(Generators, GridAndTorus) {
  const std::size_t rows = 4;
  const std::size_t cols = 5;
  auto manhattan_one = [&](std::size_t i, std::size_t j, bool wrap) {
    const std::size_t ri = i / cols, ci = i % cols, rj = j / cols, cj = j % cols;
    auto step = [wrap](std::size_t a, std::size_t b, std::size_t size) {
      const std::size_t d = a > b ? a - b : b - a;
      return d == 1 || (wrap && d == size - 1);
    };
    return (ri == rj && step(ci, cj, cols)) || (ci == cj && step(ri, rj, rows));
  };
  const Graph g = grid(rows, cols);
  EXPECT_EQ(g.num_edges(), rows * (cols - 1) + cols * (rows - 1));
  EXPECT_EQ(dense_adjacency(g),
            literal(rows * cols, [&](auto i, auto j) { return manhattan_one(i, j, false); }));
  const Graph t = torus(rows, cols);
  EXPECT_EQ(t.num_edges(), 2 * rows * cols);
  EXPECT_EQ(dense_adjacency(t),
            literal(rows * cols, [&](auto i, auto j) { return manhattan_one(i, j, true); }));
  EXPECT_EQ(degree_stats(t).min, 4u);
  EXPECT_EQ(degree_stats(t).max, 4u);
  EXPECT_EQ(grid(1, 1).num_nodes(), 1u);
  EXPECT_THROW(grid(0, 3), std::invalid_argument);
  EXPECT_THROW(torus(2, 3), std::invalid_argument);
}

TEST(Generators, HypercubeJoinsIdsDifferingInOneBit) {
  const Graph g = hypercube(4);
  EXPECT_EQ(g.num_nodes(), 16u);
  EXPECT_EQ(g.num_edges(), 32u);
  EXPECT_EQ(dense_adjacency(g), literal(16, [](auto i, auto j) { return std::popcount(i ^ j) == 1; }));
  EXPECT_EQ(diameter(g), 4u);
  EXPECT_THROW(hypercube(0), std::invalid_argument);
  EXPECT_THROW(hypercube(25), std::invalid_argument);
}

TEST(Generators, RefuseGraphsOverTheMemoryLimitNamingIt) {
  util::set_memory_limit(1e9);  // as with --max-memory 1G
  try {
    (void)complete(30000);  // 4.5e8 edges, 7.2 GB
    ADD_FAILURE() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(),
                ::testing::HasSubstr("complete graph needs about 7.2 GB (3e+04 nodes and about 4.5e+08 "
                                     "edges"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("--max-memory limit of 1 GB; ask for a smaller graph"));
  }
  EXPECT_THROW(ring(100'000'000), std::invalid_argument);
  EXPECT_THROW(grid(10'000, 10'000), std::invalid_argument);
  EXPECT_THROW(hypercube(24), std::invalid_argument);
  EXPECT_EQ(ring(1000).num_nodes(), 1000u);
  util::set_memory_limit(0);
}

TEST(Generators, ExponentialJoinsPowerOfTwoOffsets) {
  for (const std::size_t n : {2u, 3u, 8u, 12u, 33u}) {
    const Graph g = exponential(n);
    const DenseAdjacency expected = literal(n, [n](auto i, auto j) {
      const std::size_t forward = (j + n - i) % n;
      const std::size_t backward = (i + n - j) % n;
      return std::has_single_bit(forward) || std::has_single_bit(backward);
    });
    EXPECT_EQ(dense_adjacency(g), expected) << "n = " << n;
  }
  // n = 2^k: every node has 2k - 1 neighbours (+2^{k-1} and -2^{k-1} coincide).
  EXPECT_EQ(degree_stats(exponential(16)).min, 7u);
  EXPECT_EQ(degree_stats(exponential(16)).max, 7u);
  EXPECT_THROW(exponential(1), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::graph
