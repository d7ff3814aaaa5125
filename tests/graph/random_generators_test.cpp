// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Random generators: sizes, degrees, connectivity, statistics and determinism.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "graph/dense_reference.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::graph {
namespace {

using testing::is_simple_undirected;

// |observed - expected| within 5 standard deviations of a Binomial(trials, p).
void expect_binomial(double observed, double trials, double p, const std::string& what) {
  const double sd = std::sqrt(trials * p * (1 - p));
  EXPECT_NEAR(observed, trials * p, 5 * sd + 1e-9) << what;
}

TEST(ErdosRenyi, EdgeCountMatchesBinomialForDenseAndSparseP) {
  for (const auto& [n, p] : {std::pair{200.0, 0.1}, {3000.0, 0.001}, {50.0, 0.9}}) {
    const Graph g = erdos_renyi(static_cast<std::size_t>(n), p, 11);
    EXPECT_TRUE(is_simple_undirected(g));
    EXPECT_EQ(g.num_nodes(), static_cast<std::size_t>(n));
    expect_binomial(static_cast<double>(g.num_edges()), n * (n - 1) / 2, p, "n=" + std::to_string(n));
  }
}

TEST(ErdosRenyi, EveryPairHasProbabilityP) {
  // Literal definition: each pair independently with probability p. Over many
  // seeds each of the 10 pairs of 5 nodes appears with frequency ~ p.
  const int seeds = 4000;
  const double p = 0.3;
  testing::DenseAdjacency count(5, std::vector<int>(5, 0));
  std::vector<int> edge_count_histogram(11, 0);
  for (int s = 0; s < seeds; ++s) {
    const Graph g = erdos_renyi(5, p, static_cast<std::uint64_t>(s));
    ++edge_count_histogram[g.num_edges()];
    for (const Edge& e : g.edges()) ++count[e.u][e.v];
  }
  for (int u = 0; u < 5; ++u) {
    for (int v = u + 1; v < 5; ++v) expect_binomial(count[u][v], seeds, p, fmt::format("pair {} {}", u, v));
  }
  // Independence: P(no edge) = 0.7^10, P(all 10) = 0.3^10 ~ 0.
  expect_binomial(edge_count_histogram[0], seeds, std::pow(1 - p, 10), "empty graphs");
}

TEST(ErdosRenyi, ExtremeProbabilities) {
  EXPECT_EQ(erdos_renyi(30, 0.0, 1).num_edges(), 0u);
  EXPECT_EQ(erdos_renyi(30, 1.0, 1).num_edges(), 435u);
  EXPECT_EQ(erdos_renyi(1, 0.5, 1).num_edges(), 0u);
  EXPECT_THROW(erdos_renyi(10, 1.5, 1), std::invalid_argument);
  EXPECT_THROW(erdos_renyi(10, -0.1, 1), std::invalid_argument);
  EXPECT_THROW(erdos_renyi(10, std::nan(""), 1), std::invalid_argument);
  EXPECT_THROW(erdos_renyi(0, 0.5, 1), std::invalid_argument);
}

TEST(ErdosRenyi, SameSeedSameGraphDifferentSeedDifferentGraph) {
  EXPECT_EQ(erdos_renyi(300, 0.05, 9).edges(), erdos_renyi(300, 0.05, 9).edges());
  EXPECT_NE(erdos_renyi(300, 0.05, 9).edges(), erdos_renyi(300, 0.05, 10).edges());
}

TEST(ErdosRenyi, ConnectedOptionRedrawsOrGivesUp) {
  // p = 0.05 with n = 100 is just above the ln(n)/n ~ 0.046 threshold: often disconnected.
  const Graph g = erdos_renyi(100, 0.05, 1, {.connected = true, .max_attempts = 1000});
  EXPECT_TRUE(is_connected(g));
  try {
    erdos_renyi(100, 0.001, 1, {.connected = true, .max_attempts = 3});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("3 attempts"));
  }
}

TEST(RandomGeometric, MatchesTheLiteralAllPairsDefinition) {
  // Points are drawn x then y per node from Rng(seed); u ~ v iff distance <= r.
  for (const auto& [n, radius] : {std::pair{300, 0.08}, {200, 0.3}, {50, 2.0}, {400, 0.001}}) {
    const std::uint64_t seed = 5;
    util::Rng rng(seed);
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = rng.uniform01();
      y[i] = rng.uniform01();
    }
    testing::DenseAdjacency expected(n, std::vector<int>(n, 0));
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const double dx = x[i] - x[j], dy = y[i] - y[j];
        expected[i][j] = (i != j && dx * dx + dy * dy <= radius * radius) ? 1 : 0;
      }
    }
    EXPECT_EQ(testing::dense_adjacency(random_geometric(n, radius, seed)), expected) << "r = " << radius;
  }
  EXPECT_THROW(random_geometric(10, 0.0, 1), std::invalid_argument);
  EXPECT_NE(random_geometric(200, 0.1, 1).edges(), random_geometric(200, 0.1, 2).edges());
}

TEST(BarabasiAlbert, SizesDegreesAndConnectivity) {
  const std::size_t n = 500, m = 3;
  const Graph g = barabasi_albert(n, m, 4);
  EXPECT_TRUE(is_simple_undirected(g));
  // Core K_{m+1} plus m edges per later node.
  EXPECT_EQ(g.num_edges(), (m + 1) * m / 2 + (n - m - 1) * m);
  EXPECT_TRUE(is_connected(g));
  EXPECT_GE(degree_stats(g).min, m);
  EXPECT_GT(degree_stats(g).max, 6 * m);  // hubs emerge (expected max degree ~ m sqrt(n))
  EXPECT_EQ(barabasi_albert(n, m, 4).edges(), g.edges());
  EXPECT_NE(barabasi_albert(n, m, 5).edges(), g.edges());
  // Custom core: m0 = 10 gives K_10 then m edges per node.
  EXPECT_EQ(barabasi_albert(50, 2, 1, 10).num_edges(), 45u + 40u * 2u);
  EXPECT_EQ(barabasi_albert(20, 1, 1, 1).num_edges(), 19u);  // a random tree
  EXPECT_TRUE(is_connected(barabasi_albert(20, 1, 1, 1)));
  EXPECT_THROW(barabasi_albert(10, 0, 1), std::invalid_argument);
  EXPECT_THROW(barabasi_albert(10, 4, 1, 3), std::invalid_argument);
  EXPECT_THROW(barabasi_albert(3, 3, 1), std::invalid_argument);
}

TEST(BarabasiAlbert, AttachmentIsProportionalToDegree) {
  // Core K_3 (m0 = 3, m = 1). Node 3 joins some x (degrees become x:3, others 2,
  // node 3: 1; total 8). Node 4 then joins node 3 with probability 1/8 and x with 3/8.
  const int seeds = 6000;
  int to_newcomer = 0, to_x = 0;
  for (int s = 0; s < seeds; ++s) {
    const Graph g = barabasi_albert(5, 1, static_cast<std::uint64_t>(s), 3);
    const NodeId x = g.neighbors(3)[0] == 4 ? g.neighbors(3)[1] : g.neighbors(3)[0];
    to_newcomer += g.has_edge(4, 3) ? 1 : 0;
    to_x += g.has_edge(4, x) ? 1 : 0;
  }
  expect_binomial(to_newcomer, seeds, 1.0 / 8, "to node 3");
  expect_binomial(to_x, seeds, 3.0 / 8, "to node 3's target");
}

TEST(StochasticBlockModel, BlockDensitiesFollowTheUpperTriangle) {
  const std::vector<std::size_t> sizes{75, 75, 50};
  const std::vector<double> p{0.25, 0.05, 0.02, 0.35, 0.07, 0.40};
  const Graph g = stochastic_block_model(sizes, p, 2);
  EXPECT_EQ(g.num_nodes(), 200u);
  EXPECT_TRUE(is_simple_undirected(g));
  const std::vector<std::size_t> start{0, 75, 150, 200};
  auto block = [&](NodeId v) { return v < 75 ? 0 : (v < 150 ? 1 : 2); };
  std::vector<std::vector<double>> count(3, std::vector<double>(3, 0));
  for (const Edge& e : g.edges()) ++count[std::min(block(e.u), block(e.v))][std::max(block(e.u), block(e.v))];
  std::size_t index = 0;
  for (int a = 0; a < 3; ++a) {
    for (int b = a; b < 3; ++b, ++index) {
      const double pairs =
          a == b ? sizes[a] * (sizes[a] - 1) / 2.0 : static_cast<double>(sizes[a] * sizes[b]);
      expect_binomial(count[a][b], pairs, p[index], fmt::format("blocks {} {}", a, b));
    }
  }
  EXPECT_EQ(stochastic_block_model(sizes, p, 2).edges(), g.edges());
  EXPECT_NE(stochastic_block_model(sizes, p, 3).edges(), g.edges());
}

TEST(StochasticBlockModel, ZeroAndOneProbabilitiesAreExact) {
  // Two cliques, no edges between: the literal block structure.
  const Graph g = stochastic_block_model({3, 4}, {1.0, 0.0, 1.0}, 1);
  EXPECT_EQ(g.num_edges(), 3u + 6u);
  EXPECT_EQ(connected_components(g).count(), 2u);
  // Complete bipartite K_{3,4}.
  const Graph k34 = stochastic_block_model({3, 4}, {0.0, 1.0, 0.0}, 1);
  EXPECT_EQ(k34.num_edges(), 12u);
  EXPECT_FALSE(k34.has_edge(0, 1));
  EXPECT_TRUE(k34.has_edge(0, 6));
  EXPECT_THROW(stochastic_block_model({3, 4}, {0.5, 0.5}, 1), std::invalid_argument);
  EXPECT_THROW(stochastic_block_model({3, 0}, {0.5, 0.5, 0.5}, 1), std::invalid_argument);
  EXPECT_THROW(stochastic_block_model({}, {}, 1), std::invalid_argument);
  EXPECT_THROW(stochastic_block_model({3}, {1.2}, 1), std::invalid_argument);
}

TEST(RandomGenerators, RefuseRequestsBeyondTheEdgeBudget) {
  // Each would need > 2.5e8 edges (4 GB) under a 1 GB limit; they must throw, not exhaust memory.
  util::set_memory_limit(1e9);
  EXPECT_THROW(erdos_renyi(1000000, 0.5, 1), std::invalid_argument);
  EXPECT_THROW(random_geometric(1000000, 1.0, 1), std::invalid_argument);
  EXPECT_THROW(barabasi_albert(1000000, 500, 1), std::invalid_argument);
  EXPECT_THROW(stochastic_block_model({1000000}, {0.5}, 1), std::invalid_argument);
  EXPECT_THROW(random_regular(1000000, 500, 1), std::invalid_argument);
  util::set_memory_limit(0);
}

TEST(RandomRegular, EveryNodeHasDegreeD) {
  for (const auto& [n, d] : {std::pair{20, 3}, {100, 8}, {11, 10}, {1000, 4}, {7, 0}}) {
    const Graph g = random_regular(n, d, 1);
    EXPECT_TRUE(is_simple_undirected(g));
    EXPECT_EQ(g.num_edges(), static_cast<std::size_t>(n * d / 2));
    EXPECT_EQ(degree_stats(g).min, static_cast<std::size_t>(d)) << n << " " << d;
    EXPECT_EQ(degree_stats(g).max, static_cast<std::size_t>(d)) << n << " " << d;
  }
  EXPECT_EQ(random_regular(50, 3, 7).edges(), random_regular(50, 3, 7).edges());
  EXPECT_NE(random_regular(50, 3, 7).edges(), random_regular(50, 3, 8).edges());
  EXPECT_THROW(random_regular(5, 3, 1), std::invalid_argument);     // n d odd
  EXPECT_THROW(random_regular(4, 4, 1), std::invalid_argument);     // d >= n
  EXPECT_THROW(random_regular(4, 2, 1, 0), std::invalid_argument);  // no attempts
}

}  // namespace
}  // namespace netdp::graph
