// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/graph/layout.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <queue>

#include "netdp/graph/metrics.hpp"

namespace netdp::graph {
namespace {

/// The nodes of v's component in breadth-first order from v, neighbours by increasing degree.
std::vector<NodeId> cuthill_mckee_from(const Graph& g, NodeId v, std::vector<bool>& seen) {
  std::vector<NodeId> order{v};
  seen[v] = true;
  std::vector<NodeId> next;
  for (std::size_t head = 0; head < order.size(); ++head) {
    next.clear();
    for (const NodeId w : g.neighbors(order[head]))
      if (!seen[w]) {
        seen[w] = true;
        next.push_back(w);
      }
    std::stable_sort(next.begin(), next.end(), [&](NodeId a, NodeId b) { return g.degree(a) < g.degree(b); });
    order.insert(order.end(), next.begin(), next.end());
  }
  return order;
}

/// A pseudo-peripheral node of v's component: the farthest node from v, then the farthest from it.
NodeId peripheral_node(const Graph& g, NodeId v) {
  for (int sweep = 0; sweep < 2; ++sweep) {
    const std::vector<std::uint32_t> distance = bfs_distances(g, v);
    NodeId farthest = v;
    for (NodeId w = 0; w < distance.size(); ++w)
      if (distance[w] != kUnreachable && distance[w] > distance[farthest]) farthest = w;
    v = farthest;
  }
  return v;
}

}  // namespace

std::vector<NodeId> bandwidth_order(const Graph& g) {
  const std::size_t n = g.num_nodes();
  std::vector<bool> seen(n, false), placed(n, false);
  std::vector<NodeId> order;
  order.reserve(n);
  for (NodeId v = 0; v < n; ++v) {
    if (placed[v]) continue;
    std::vector<bool> scratch(n, false);
    const std::vector<NodeId> component = cuthill_mckee_from(g, peripheral_node(g, v), seen);
    for (const NodeId w : component) placed[w] = true;
    order.insert(order.end(), component.rbegin(), component.rend());
  }
  return order;
}

Layout force_layout(const Graph& g, int iterations) {
  const std::size_t n = g.num_nodes();
  Layout layout{std::vector<double>(n, 0.5), std::vector<double>(n, 0.5)};
  if (n < 2) return layout;
  const std::vector<NodeId> order = bandwidth_order(g);
  for (std::size_t i = 0; i < n; ++i) {
    const double angle = 2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n);
    layout.x[order[i]] = 0.5 + 0.5 * std::cos(angle);
    layout.y[order[i]] = 0.5 + 0.5 * std::sin(angle);
  }
  const double k = 1.0 / std::sqrt(static_cast<double>(n));  // the ideal edge length in the unit square
  std::vector<double> dx(n), dy(n);
  for (int step = 0; step < iterations; ++step) {
    const double temperature = 0.1 * (1.0 - static_cast<double>(step) / iterations);
    std::fill(dx.begin(), dx.end(), 0.0);
    std::fill(dy.begin(), dy.end(), 0.0);
#pragma omp parallel for schedule(static)
    for (std::size_t u = 0; u < n; ++u) {
      for (std::size_t v = 0; v < n; ++v) {  // repulsion k²/d
        if (u == v) continue;
        const double ex = layout.x[u] - layout.x[v], ey = layout.y[u] - layout.y[v];
        const double d2 = std::max(ex * ex + ey * ey, 1e-12);
        dx[u] += ex * k * k / d2;
        dy[u] += ey * k * k / d2;
      }
      for (const NodeId v : g.neighbors(static_cast<NodeId>(u))) {  // attraction d²/k
        const double ex = layout.x[u] - layout.x[v], ey = layout.y[u] - layout.y[v];
        const double d = std::sqrt(ex * ex + ey * ey);
        dx[u] -= ex * d / k;
        dy[u] -= ey * d / k;
      }
    }
    for (std::size_t u = 0; u < n; ++u) {
      const double length = std::sqrt(dx[u] * dx[u] + dy[u] * dy[u]);
      if (length == 0) continue;
      const double move = std::min(length, temperature);
      layout.x[u] += dx[u] / length * move;
      layout.y[u] += dy[u] / length * move;
    }
  }
  // Rescaled into [0, 1]² with the aspect kept.
  const auto [xmin, xmax] = std::minmax_element(layout.x.begin(), layout.x.end());
  const auto [ymin, ymax] = std::minmax_element(layout.y.begin(), layout.y.end());
  const double x0 = *xmin, y0 = *ymin;
  const double span = std::max({*xmax - x0, *ymax - y0, 1e-12});
  for (std::size_t u = 0; u < n; ++u) {
    layout.x[u] = (layout.x[u] - x0) / span;
    layout.y[u] = (layout.y[u] - y0) / span;
  }
  return layout;
}

}  // namespace netdp::graph
