// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Partitioners: every example exactly once, every node non-empty, same seed → same parts, and the
// skew each one is meant to produce.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "netdp/graph/generators.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/learn/dataset.hpp"

namespace netdp::learn {
namespace {

using Parts = std::vector<std::vector<std::size_t>>;

// n examples, class i % classes, one feature equal to i.
Dataset labelled(std::size_t n, std::size_t classes) {
  Dataset d;
  d.features.resize(static_cast<Eigen::Index>(n), 1);
  d.targets.resize(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < d.features.rows(); ++i) {
    d.features(i, 0) = static_cast<double>(i);
    d.targets(i) = static_cast<double>(static_cast<std::size_t>(i) % classes);
  }
  d.task = classes == 2 ? Task::binary : Task::multiclass;
  d.num_classes = classes;
  return d;
}

void expect_exact_cover(const Parts& parts, std::size_t examples, std::size_t nodes) {
  ASSERT_EQ(parts.size(), nodes);
  std::vector<int> seen(examples, 0);
  for (const auto& part : parts) {
    EXPECT_FALSE(part.empty());
    for (std::size_t i : part) ++seen.at(i);
  }
  for (std::size_t i = 0; i < examples; ++i) EXPECT_EQ(seen[i], 1) << "example " << i;
}

std::size_t distinct_labels(const Dataset& d, const std::vector<std::size_t>& part) {
  std::set<double> labels;
  for (std::size_t i : part) labels.insert(d.targets(static_cast<Eigen::Index>(i)));
  return labels.size();
}

TEST(Partition, EveryKindCoversExactlyOnceAndIsSeeded) {
  const Dataset d = labelled(203, 10);
  const graph::Graph g = graph::grid(4, 5);
  for (const auto kind : {PartitionSpec::Kind::iid, PartitionSpec::Kind::dirichlet,
                          PartitionSpec::Kind::shards, PartitionSpec::Kind::position}) {
    PartitionSpec spec;
    spec.kind = kind;
    spec.seed = 9;
    const Parts a = partition(d, 20, spec, &g);
    expect_exact_cover(a, 203, 20);
    EXPECT_EQ(a, partition(d, 20, spec, &g)) << static_cast<int>(kind);
  }
}

TEST(Partition, IidSharesDifferByAtMostOne) {
  PartitionSpec spec;
  const Parts parts = partition(labelled(23, 2), 5, spec);
  for (const auto& part : parts) EXPECT_TRUE(part.size() == 4 || part.size() == 5);
  spec.seed = 2;
  EXPECT_NE(parts, partition(labelled(23, 2), 5, spec));
}

TEST(Partition, SmallAlphaSkewsLabelsLargeAlphaDoesNot) {
  const Dataset d = labelled(2000, 10);
  PartitionSpec spec;
  spec.kind = PartitionSpec::Kind::dirichlet;
  const auto mean_distinct = [&](double alpha) {
    spec.alpha = alpha;
    const Parts parts = partition(d, 10, spec);
    expect_exact_cover(parts, 2000, 10);
    double total = 0;
    for (const auto& part : parts) total += static_cast<double>(distinct_labels(d, part));
    return total / 10.0;
  };
  EXPECT_LT(mean_distinct(0.01), 3.0);
  EXPECT_GT(mean_distinct(100.0), 9.5);
}

TEST(Partition, DirichletNeedsClassesAndPositiveAlpha) {
  Dataset d = labelled(20, 2);
  PartitionSpec spec;
  spec.kind = PartitionSpec::Kind::dirichlet;
  spec.alpha = 0.0;
  EXPECT_THROW(partition(d, 4, spec), std::invalid_argument);
  spec.alpha = 1.0;
  d.task = Task::regression;
  d.num_classes = 0;
  EXPECT_THROW(partition(d, 4, spec), std::invalid_argument);
}

TEST(Partition, ShardsGiveEachNodeFewLabels) {
  const Dataset d = labelled(1000, 10);
  PartitionSpec spec;
  spec.kind = PartitionSpec::Kind::shards;
  spec.shards_per_node = 2;
  const Parts parts = partition(d, 10, spec);
  for (const auto& part : parts) {
    EXPECT_EQ(part.size(), 100u);
    EXPECT_LE(distinct_labels(d, part), 2u);
  }
  EXPECT_THROW(partition(labelled(15, 2), 10, spec), std::invalid_argument);  // 15 < 20 shards
}

TEST(Partition, PositionMakesLabelsGrowWithHopDistanceFromTheRoot) {
  // 20 classes × 10 examples on a 4 × 5 grid: each node holds one class, and a node farther (in
  // hops) from the root — the node holding class 0 — never holds a smaller class.
  const Dataset d = labelled(200, 20);
  const graph::Graph g = graph::grid(4, 5);
  PartitionSpec spec;
  spec.kind = PartitionSpec::Kind::position;
  for (std::uint64_t seed : {1, 2, 3}) {
    spec.seed = seed;
    const Parts parts = partition(d, 20, spec, &g);
    expect_exact_cover(parts, 200, 20);
    std::vector<double> label(20);
    graph::NodeId root = 0;
    for (std::size_t v = 0; v < 20; ++v) {
      ASSERT_EQ(distinct_labels(d, parts[v]), 1u);
      label[v] = d.targets(static_cast<Eigen::Index>(parts[v][0]));
      if (label[v] == 0.0) root = static_cast<graph::NodeId>(v);
    }
    const auto hops = graph::bfs_distances(g, root);
    for (std::size_t u = 0; u < 20; ++u)
      for (std::size_t v = 0; v < 20; ++v)
        if (hops[u] < hops[v]) {
          EXPECT_LT(label[u], label[v]) << "seed " << seed;
        }
  }
  // Iid on the same data mixes classes within nodes.
  spec.kind = PartitionSpec::Kind::iid;
  std::size_t mixed = 0;
  for (const auto& part : partition(d, 20, spec, &g)) mixed += distinct_labels(d, part) > 1 ? 1 : 0;
  EXPECT_GT(mixed, 10u);
}

TEST(Partition, PositionNeedsAMatchingGraph) {
  const Dataset d = labelled(30, 3);
  PartitionSpec spec;
  spec.kind = PartitionSpec::Kind::position;
  EXPECT_THROW(partition(d, 5, spec), std::invalid_argument);
  const graph::Graph g = graph::ring(6);
  EXPECT_THROW(partition(d, 5, spec, &g), std::invalid_argument);
}

TEST(Partition, FewerExamplesThanNodesIsAnError) {
  PartitionSpec spec;
  const std::string expected = "3 examples cannot give each of 5 nodes";
  try {
    partition(labelled(3, 2), 5, spec);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
  EXPECT_THROW(partition(labelled(3, 2), 0, spec), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::learn
