// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Random generators: Erdős–Rényi, random geometric, Barabási–Albert, stochastic
// block model, random regular. All draw from util::Rng (util/rng.hpp) in a fixed,
// documented order, so a seed gives the same graph on every platform.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "edge_budget.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/rng.hpp"

namespace netdp::graph {

using util::Rng;
namespace {

constexpr std::uint64_t kNoMoreEdges = std::numeric_limits<std::uint64_t>::max();

void require_probability(double p, const char* name) {
  require(std::isfinite(p) && p >= 0.0 && p <= 1.0, "{} must be a probability in [0, 1], got {}", name, p);
}

void require_sampled_node_count(std::size_t n, const char* what) {
  require(n >= 1, "{} needs n >= 1 nodes, got n = {}", what, n);
  require(n <= std::numeric_limits<NodeId>::max(), "{}: {} nodes exceed the limit of {}", what, n,
          std::numeric_limits<NodeId>::max());
}

// Number of failures before the next success of independent Bernoulli(p)
// trials: floor(log(1 - U) / log(1 - p)) (Batagelj & Brandes 2005, eq. for
// G(n, p) skipping). Returns kNoMoreEdges for p = 0 or a gap beyond `limit`.
class GeometricSkip {
 public:
  explicit GeometricSkip(double p) : p_(p), log_q_(std::log1p(-p)) {}
  std::uint64_t next(Rng& rng, std::uint64_t limit) const {
    if (p_ <= 0.0) return kNoMoreEdges;
    if (p_ >= 1.0) return 0;
    const double gap = std::floor(std::log1p(-rng.uniform01()) / log_q_);
    return gap >= static_cast<double>(limit) ? kNoMoreEdges : static_cast<std::uint64_t>(gap);
  }

 private:
  double p_;
  double log_q_;
};

// Appends each pair {offset + v, offset + w}, 0 <= w < v < n, independently with
// probability p, visiting pairs in the order (1,0), (2,0), (2,1), (3,0), ...
void sample_triangle(std::size_t n, std::size_t offset, double p, Rng& rng, std::vector<Edge>& edges) {
  if (n < 2) return;
  const GeometricSkip skip(p);
  const std::uint64_t pairs = static_cast<std::uint64_t>(n) * (n - 1) / 2;
  std::uint64_t v = 1;
  std::uint64_t w = 0;  // next candidate is (v, w)
  for (;;) {
    const std::uint64_t gap = skip.next(rng, pairs);
    if (gap == kNoMoreEdges) return;
    w += gap;
    while (w >= v && v < n) {
      w -= v;
      ++v;
    }
    if (v >= n) return;
    edges.push_back({static_cast<NodeId>(offset + v), static_cast<NodeId>(offset + w)});
    ++w;
  }
}

// Appends each pair {row_offset + r, col_offset + c}, r < rows, c < cols,
// independently with probability p, in row-major order.
void sample_rectangle(std::size_t rows, std::size_t row_offset, std::size_t cols, std::size_t col_offset,
                      double p, Rng& rng, std::vector<Edge>& edges) {
  const GeometricSkip skip(p);
  const std::uint64_t total = static_cast<std::uint64_t>(rows) * cols;
  std::uint64_t index = 0;  // next candidate
  for (;;) {
    const std::uint64_t gap = skip.next(rng, total);
    if (gap == kNoMoreEdges || gap >= total - index) return;
    index += gap;
    edges.push_back(
        {static_cast<NodeId>(row_offset + index / cols), static_cast<NodeId>(col_offset + index % cols)});
    ++index;
  }
}

}  // namespace

Graph erdos_renyi(std::size_t n, double p, std::uint64_t seed, const ErdosRenyiOptions& options) {
  require_sampled_node_count(n, "erdos_renyi");
  require_probability(p, "erdos_renyi: p");
  require(!options.connected || options.max_attempts >= 1, "erdos_renyi: max_attempts must be >= 1");
  const double pairs = static_cast<double>(n) * (static_cast<double>(n) - 1) / 2;
  detail::require_edge_budget(static_cast<double>(n), p * pairs, "erdos_renyi");
  Rng rng(seed);
  std::vector<Edge> edges;
  edges.reserve(static_cast<std::size_t>(std::min(1e8, 1.1 * p * static_cast<double>(n) * (n - 1) / 2 + 16)));
  for (std::size_t attempt = 1;; ++attempt) {
    edges.clear();
    sample_triangle(n, 0, p, rng, edges);
    Graph g = Graph::from_edges(n, edges);
    if (!options.connected || is_connected(g)) return g;
    require(attempt < options.max_attempts,
            "erdos_renyi: no connected G(n = {}, p = {}) in {} attempts (connectivity needs p above about "
            "ln(n)/n = {:.4g})",
            n, p, options.max_attempts, std::log(static_cast<double>(n)) / static_cast<double>(n));
  }
}

Graph random_geometric(std::size_t n, double radius, std::uint64_t seed) {
  require_sampled_node_count(n, "random_geometric");
  require(std::isfinite(radius) && radius > 0.0, "random_geometric: radius must be finite and > 0, got {}",
          radius);
  const double pairs = static_cast<double>(n) * (static_cast<double>(n) - 1) / 2;
  detail::require_edge_budget(static_cast<double>(n),
                              pairs * std::min(1.0, 3.14159265358979 * radius * radius), "random_geometric");
  Rng rng(seed);
  std::vector<double> x(n);
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = rng.uniform01();
    y[i] = rng.uniform01();
  }
  // Square cells of side 1/k >= radius: neighbours lie in the same or adjacent cells.
  const double max_cells_per_side = std::max(1.0, std::floor(std::sqrt(static_cast<double>(n))));
  const std::size_t k =
      static_cast<std::size_t>(std::clamp(std::floor(1.0 / radius), 1.0, max_cells_per_side));
  auto cell_of = [k](double coordinate) {
    return std::min(k - 1, static_cast<std::size_t>(coordinate * static_cast<double>(k)));
  };
  std::vector<std::size_t> cell_start(k * k + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++cell_start[cell_of(x[i]) * k + cell_of(y[i]) + 1];
  for (std::size_t c = 0; c < k * k; ++c) cell_start[c + 1] += cell_start[c];
  std::vector<NodeId> members(n);
  std::vector<std::size_t> cursor(cell_start.begin(), cell_start.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
    members[cursor[cell_of(x[i]) * k + cell_of(y[i])]++] = static_cast<NodeId>(i);

  const double r2 = radius * radius;
  std::vector<Edge> edges;
  auto close = [&](NodeId a, NodeId b) {
    const double dx = x[a] - x[b];
    const double dy = y[a] - y[b];
    return dx * dx + dy * dy <= r2;
  };
  // Each unordered pair of cells is visited once: the cell itself and 4 "forward" neighbours.
  constexpr int kForward[4][2] = {{0, 1}, {1, -1}, {1, 0}, {1, 1}};
  for (std::size_t cx = 0; cx < k; ++cx) {
    for (std::size_t cy = 0; cy < k; ++cy) {
      const std::size_t c = cx * k + cy;
      for (std::size_t i = cell_start[c]; i < cell_start[c + 1]; ++i) {
        for (std::size_t j = i + 1; j < cell_start[c + 1]; ++j) {
          if (close(members[i], members[j])) edges.push_back({members[i], members[j]});
        }
      }
      for (const auto& offset : kForward) {
        const auto nx = static_cast<std::ptrdiff_t>(cx) + offset[0];
        const auto ny = static_cast<std::ptrdiff_t>(cy) + offset[1];
        const auto side = static_cast<std::ptrdiff_t>(k);
        if (nx < 0 || ny < 0 || nx >= side || ny >= side) continue;
        const std::size_t d = static_cast<std::size_t>(nx) * k + static_cast<std::size_t>(ny);
        for (std::size_t i = cell_start[c]; i < cell_start[c + 1]; ++i) {
          for (std::size_t j = cell_start[d]; j < cell_start[d + 1]; ++j) {
            if (close(members[i], members[j])) edges.push_back({members[i], members[j]});
          }
        }
      }
    }
  }
  return Graph::from_edges(n, edges);
}

Graph barabasi_albert(std::size_t n, std::size_t m, std::uint64_t seed, std::size_t m0) {
  if (m0 == 0) m0 = m + 1;
  require(m >= 1, "barabasi_albert: m (links per new node) must be >= 1, got {}", m);
  require(m <= m0, "barabasi_albert: m = {} must not exceed the seed core size m0 = {}", m, m0);
  require(m0 <= n, "barabasi_albert: the seed core size m0 = {} must not exceed n = {}", m0, n);
  require_sampled_node_count(n, "barabasi_albert");
  detail::require_edge_budget(static_cast<double>(n),
                              static_cast<double>(m0) * (static_cast<double>(m0) - 1) / 2 +
                                  static_cast<double>(n - m0) * static_cast<double>(m),
                              "barabasi_albert");
  Rng rng(seed);
  std::vector<Edge> edges;
  edges.reserve(m0 * (m0 - 1) / 2 + (n - m0) * m);
  // endpoints lists every edge end: a uniform pick from it is a degree-proportional node.
  std::vector<NodeId> endpoints;
  endpoints.reserve(2 * edges.capacity());
  for (std::size_t u = 0; u < m0; ++u) {
    for (std::size_t v = u + 1; v < m0; ++v) {
      edges.push_back({static_cast<NodeId>(u), static_cast<NodeId>(v)});
      endpoints.push_back(static_cast<NodeId>(u));
      endpoints.push_back(static_cast<NodeId>(v));
    }
  }
  std::vector<std::size_t> chosen_by(n, std::numeric_limits<std::size_t>::max());
  std::vector<NodeId> targets;
  for (std::size_t v = m0; v < n; ++v) {
    targets.clear();
    while (targets.size() < m) {
      const NodeId t = endpoints.empty() ? static_cast<NodeId>(rng.uniform_below(v))
                                         : endpoints[rng.uniform_below(endpoints.size())];
      if (chosen_by[t] == v) continue;  // already a target of v: redraw
      chosen_by[t] = v;
      targets.push_back(t);
    }
    for (const NodeId t : targets) {
      edges.push_back({static_cast<NodeId>(v), t});
      endpoints.push_back(static_cast<NodeId>(v));
      endpoints.push_back(t);
    }
  }
  return Graph::from_edges(n, edges);
}

Graph stochastic_block_model(const std::vector<std::size_t>& sizes, const std::vector<double>& p_upper,
                             std::uint64_t seed) {
  const std::size_t k = sizes.size();
  require(k >= 1, "stochastic_block_model: needs at least one block");
  require(p_upper.size() == k * (k + 1) / 2,
          "stochastic_block_model: {} blocks need {} probabilities (upper triangle, row by row), got {}", k,
          k * (k + 1) / 2, p_upper.size());
  std::vector<std::size_t> offset(k + 1, 0);
  for (std::size_t b = 0; b < k; ++b) {
    require(sizes[b] >= 1, "stochastic_block_model: block {} has size 0; sizes must be >= 1", b);
    offset[b + 1] = offset[b] + sizes[b];
  }
  require_sampled_node_count(offset[k], "stochastic_block_model");
  for (const double p : p_upper) require_probability(p, "stochastic_block_model: p");
  double expected_edges = 0;
  for (std::size_t a = 0, index = 0; a < k; ++a) {
    for (std::size_t b = a; b < k; ++b, ++index) {
      const double sa = static_cast<double>(sizes[a]);
      expected_edges += p_upper[index] * (a == b ? sa * (sa - 1) / 2 : sa * static_cast<double>(sizes[b]));
    }
  }
  detail::require_edge_budget(static_cast<double>(offset[k]), expected_edges, "stochastic_block_model");
  Rng rng(seed);
  std::vector<Edge> edges;
  std::size_t index = 0;
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = a; b < k; ++b, ++index) {
      if (a == b) {
        sample_triangle(sizes[a], offset[a], p_upper[index], rng, edges);
      } else {
        sample_rectangle(sizes[a], offset[a], sizes[b], offset[b], p_upper[index], rng, edges);
      }
    }
  }
  return Graph::from_edges(offset[k], edges);
}

namespace {

std::uint64_t edge_key(NodeId u, NodeId v) {
  if (u > v) std::swap(u, v);
  return (static_cast<std::uint64_t>(u) << 32) | v;
}

// Whether some two distinct nodes among the leftover stubs are not yet joined.
bool has_valid_pair(std::vector<NodeId> stubs, const std::unordered_set<std::uint64_t>& present) {
  std::sort(stubs.begin(), stubs.end());
  stubs.erase(std::unique(stubs.begin(), stubs.end()), stubs.end());
  for (std::size_t i = 0; i < stubs.size(); ++i) {
    for (std::size_t j = i + 1; j < stubs.size(); ++j) {
      if (!present.contains(edge_key(stubs[i], stubs[j]))) return true;
    }
  }
  return false;
}

// One attempt of the pairing model with repairs; false when it got stuck.
bool try_random_regular(std::size_t n, std::size_t d, Rng& rng, std::vector<Edge>& edges) {
  edges.clear();
  std::unordered_set<std::uint64_t> present;
  present.reserve(n * d / 2);
  std::vector<NodeId> stubs;
  stubs.reserve(n * d);
  for (std::size_t v = 0; v < n; ++v) stubs.insert(stubs.end(), d, static_cast<NodeId>(v));
  std::vector<NodeId> leftover;
  std::size_t rounds_without_progress = 0;
  while (!stubs.empty()) {
    rng.shuffle(stubs.begin(), stubs.end());
    leftover.clear();
    for (std::size_t i = 0; i < stubs.size(); i += 2) {
      const NodeId u = stubs[i];
      const NodeId v = stubs[i + 1];
      if (u != v && present.insert(edge_key(u, v)).second) {
        edges.push_back({u, v});
      } else {
        leftover.push_back(u);
        leftover.push_back(v);
      }
    }
    rounds_without_progress = leftover.size() == stubs.size() ? rounds_without_progress + 1 : 0;
    if (!leftover.empty() && (rounds_without_progress > 100 || !has_valid_pair(leftover, present))) {
      return false;
    }
    stubs.swap(leftover);
  }
  return true;
}

}  // namespace

Graph random_regular(std::size_t n, std::size_t d, std::uint64_t seed, std::size_t max_attempts) {
  require_sampled_node_count(n, "random_regular");
  require(d < n, "random_regular: degree d = {} must be < n = {}", d, n);
  require((n * d) % 2 == 0, "random_regular: n * d = {} * {} must be even", n, d);
  require(max_attempts >= 1, "random_regular: max_attempts must be >= 1");
  detail::require_edge_budget(static_cast<double>(n), static_cast<double>(n) * static_cast<double>(d) / 2,
                              "random_regular");
  Rng rng(seed);
  std::vector<Edge> edges;
  for (std::size_t attempt = 0; attempt < max_attempts; ++attempt) {
    if (try_random_regular(n, d, rng, edges)) return Graph::from_edges(n, edges);
  }
  throw std::invalid_argument(fmt::format(
      "random_regular: no simple {}-regular graph on {} nodes found in {} attempts", d, n, max_attempts));
}

}  // namespace netdp::graph
