// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Partitioning a data set over the nodes of a graph (IID, Dirichlet label skew, k-shards, and
// position-dependent data as in the random-walk paper, Appendix C).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>

#include "netdp/learn/dataset.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::learn {
namespace {

using Parts = std::vector<std::vector<std::size_t>>;

// Cuts `items` into `parts` consecutive blocks whose sizes differ by at most 1.
Parts cut_evenly(const std::vector<std::size_t>& items, std::size_t parts) {
  Parts out(parts);
  const std::size_t base = items.size() / parts, extra = items.size() % parts;
  std::size_t start = 0;
  for (std::size_t p = 0; p < parts; ++p) {
    const std::size_t size = base + (p < extra ? 1 : 0);
    out[p].assign(items.begin() + static_cast<std::ptrdiff_t>(start),
                  items.begin() + static_cast<std::ptrdiff_t>(start + size));
    start += size;
  }
  return out;
}

std::vector<std::size_t> iota_vector(std::size_t n) {
  std::vector<std::size_t> v(n);
  std::iota(v.begin(), v.end(), std::size_t{0});
  return v;
}

// Examples ordered by target (class or value); ties keep their index order.
std::vector<std::size_t> sorted_by_target(const Dataset& data) {
  std::vector<std::size_t> order = iota_vector(data.size());
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return data.targets(static_cast<Eigen::Index>(a)) < data.targets(static_cast<Eigen::Index>(b));
  });
  return order;
}

Parts partition_iid(const Dataset& data, std::size_t nodes, util::Rng& rng) {
  std::vector<std::size_t> order = iota_vector(data.size());
  rng.shuffle(order.begin(), order.end());
  return cut_evenly(order, nodes);
}

// Per class c: shares p ~ Dirichlet(α) over the nodes (normalized Gamma(α, 1) draws), the class's
// shuffled examples cut at the rounded cumulative shares. A node left empty then takes one
// example from the currently largest node (lowest id on ties), so every node is non-empty.
Parts partition_dirichlet(const Dataset& data, std::size_t nodes, double alpha, util::Rng& rng) {
  require(data.task != Task::regression && data.num_classes > 0,
          "partition: Dirichlet label skew needs class labels (task binary or multiclass)");
  require_positive(alpha, "partition: Dirichlet alpha");
  Parts parts(nodes);
  std::vector<std::vector<std::size_t>> by_class(data.num_classes);
  for (std::size_t i = 0; i < data.size(); ++i) {
    const double c = data.targets(static_cast<Eigen::Index>(i));
    require(c >= 0.0 && c < static_cast<double>(data.num_classes) && c == std::floor(c),
            "partition: target {} of example {} is not a class in 0..{}", c, i, data.num_classes - 1);
    by_class[static_cast<std::size_t>(c)].push_back(i);
  }
  for (auto& members : by_class) {
    rng.shuffle(members.begin(), members.end());
    std::vector<double> shares(nodes);
    double total = 0.0;
    for (double& s : shares) total += (s = rng.gamma(alpha));
    if (!(total > 0.0)) {  // every draw underflowed (tiny α): give the class to one random node
      std::fill(shares.begin(), shares.end(), 0.0);
      shares[rng.uniform_below(nodes)] = 1.0;
      total = 1.0;
    }
    double cumulative = 0.0;
    std::size_t start = 0;
    for (std::size_t v = 0; v < nodes; ++v) {
      cumulative += shares[v];
      const std::size_t end =
          v + 1 == nodes
              ? members.size()
              : std::min(members.size(), static_cast<std::size_t>(std::llround(
                                             cumulative / total * static_cast<double>(members.size()))));
      for (std::size_t k = start; k < std::max(start, end); ++k) parts[v].push_back(members[k]);
      start = std::max(start, end);
    }
  }
  for (auto& part : parts) {
    if (!part.empty()) continue;
    auto largest = std::max_element(parts.begin(), parts.end(),
                                    [](const auto& a, const auto& b) { return a.size() < b.size(); });
    part.push_back(largest->back());
    largest->pop_back();
  }
  return parts;
}

// McMahan et al.'s pathological non-IID split: sort by label, cut into nodes·k shards, deal k
// random shards to each node.
Parts partition_shards(const Dataset& data, std::size_t nodes, std::size_t per_node, util::Rng& rng) {
  require(per_node >= 1, "partition: shards_per_node must be ≥ 1, got 0");
  const std::size_t shards = nodes * per_node;
  require(data.size() >= shards,
          "partition: {} examples cannot fill {} shards ({} nodes × {} shards per node)", data.size(), shards,
          nodes, per_node);
  const Parts pieces = cut_evenly(sorted_by_target(data), shards);
  std::vector<std::size_t> deal = iota_vector(shards);
  rng.shuffle(deal.begin(), deal.end());
  Parts parts(nodes);
  for (std::size_t s = 0; s < shards; ++s) {
    auto& part = parts[s / per_node];
    const auto& piece = pieces[deal[s]];
    part.insert(part.end(), piece.begin(), piece.end());
  }
  return parts;
}

// Breadth-first order of the nodes from a seeded random root (neighbours in increasing id; other
// components follow, each from its lowest id): nodes close in this order are close in the graph.
std::vector<std::size_t> bfs_order(const graph::Graph& g, util::Rng& rng) {
  const std::size_t n = g.num_nodes();
  std::vector<bool> seen(n, false);
  std::vector<std::size_t> order;
  order.reserve(n);
  const auto root = static_cast<std::size_t>(rng.uniform_below(n));
  for (std::size_t k = 0; k <= n; ++k) {
    const std::size_t start = k == 0 ? root : k - 1;
    if (seen[start]) continue;
    std::queue<std::size_t> queue;
    queue.push(start);
    seen[start] = true;
    while (!queue.empty()) {
      const std::size_t v = queue.front();
      queue.pop();
      order.push_back(v);
      std::vector<std::size_t> next(g.neighbors(static_cast<graph::NodeId>(v)).begin(),
                                    g.neighbors(static_cast<graph::NodeId>(v)).end());
      std::sort(next.begin(), next.end());
      for (std::size_t u : next)
        if (!seen[u]) seen[u] = true, queue.push(u);
    }
  }
  return order;
}

// Random-walk paper, Appendix C: "the data is position-dependent, which generate heterogeneity as
// close nodes also have close datapoint". The appendix gives no construction; ours: sort the
// examples by target, ties by their projection on a seeded random direction, cut the sorted list
// into equal blocks, and hand the blocks out to the nodes in BFS order.
Parts partition_position(const Dataset& data, std::size_t nodes, const graph::Graph* graph, util::Rng& rng) {
  require(graph != nullptr, "partition: the position-dependent partition needs the graph (got null)");
  require(graph->num_nodes() == nodes, "partition: the graph has {} nodes but {} were asked for",
          graph->num_nodes(), nodes);
  const std::vector<std::size_t> node_order = bfs_order(*graph, rng);
  Vector direction(data.features.cols());
  for (Eigen::Index j = 0; j < direction.size(); ++j) direction(j) = rng.standard_normal();
  const Vector projection = data.features * direction;
  std::vector<std::size_t> order = iota_vector(data.size());
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto ia = static_cast<Eigen::Index>(a), ib = static_cast<Eigen::Index>(b);
    if (data.targets(ia) != data.targets(ib)) return data.targets(ia) < data.targets(ib);
    return projection(ia) < projection(ib);
  });
  const Parts blocks = cut_evenly(order, nodes);
  Parts parts(nodes);
  for (std::size_t k = 0; k < nodes; ++k) parts[node_order[k]] = blocks[k];
  return parts;
}

}  // namespace

Parts partition(const Dataset& data, std::size_t nodes, const PartitionSpec& spec,
                const graph::Graph* graph) {
  require(nodes >= 1, "partition: nodes must be ≥ 1, got 0");
  require(data.size() >= nodes, "partition: {} examples cannot give each of {} nodes at least one",
          data.size(), nodes);
  for (Eigen::Index i = 0; i < data.targets.size(); ++i)
    require(std::isfinite(data.targets(i)), "partition: target of example {} is {}", i, data.targets(i));
  util::Rng rng(spec.seed);
  switch (spec.kind) {
    case PartitionSpec::Kind::iid:
      return partition_iid(data, nodes, rng);
    case PartitionSpec::Kind::dirichlet:
      return partition_dirichlet(data, nodes, spec.alpha, rng);
    case PartitionSpec::Kind::shards:
      return partition_shards(data, nodes, spec.shards_per_node, rng);
    case PartitionSpec::Kind::position:
      return partition_position(data, nodes, graph, rng);
  }
  require(false, "partition: unknown PartitionSpec::Kind {}", static_cast<int>(spec.kind));
  return {};
}

}  // namespace netdp::learn
