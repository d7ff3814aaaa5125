// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Graph generators. Every random generator takes a seed and is reproducible
// across runs and platforms (std::mt19937_64 with netdp's own distributions,
// see util/rng.hpp; the only floating-point library call is std::log in the
// geometric skips of the Erdős–Rényi / SBM samplers). Algorithms and node
// orders are documented in docs/reference/graph.md.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "netdp/graph/graph.hpp"

namespace netdp::graph {

/// The cycle C_n: i ~ i+1 mod n. Requires n >= 3.
Graph ring(std::size_t n);

/// The complete graph K_n. Requires n >= 1.
Graph complete(std::size_t n);

/// The path P_n: i ~ i+1. Requires n >= 1.
Graph path(std::size_t n);

/// The star: node 0 is the centre, joined to 1..n-1. Requires n >= 2.
Graph star(std::size_t n);

/// rows x cols grid; node (r, c) is r*cols + c, joined to its 4 neighbours.
/// Requires rows, cols >= 1.
Graph grid(std::size_t rows, std::size_t cols);

/// rows x cols torus (grid with wrap-around, 4-regular). Requires rows, cols >= 3.
Graph torus(std::size_t rows, std::size_t cols);

/// The d-dimensional hypercube: 2^d nodes, u ~ u xor 2^k. Requires 1 <= d <= 24.
Graph hypercube(unsigned d);

/// The exponential graph: i ~ i ± 2^k mod n for 2^k < n (Ying et al. 2021).
/// Requires n >= 2.
Graph exponential(std::size_t n);

/// Options of erdos_renyi.
struct ErdosRenyiOptions {
  bool connected = false;           ///< redraw until the graph is connected
  std::size_t max_attempts = 1000;  ///< redraws allowed before throwing
};

/// G(n, p): each of the n(n-1)/2 pairs is an edge independently with probability
/// p, sampled with geometric skips (Batagelj & Brandes 2005), O(n + m).
/// Requires n >= 1, 0 <= p <= 1. With options.connected, draws again from the
/// same stream until connected; throws after max_attempts failures.
Graph erdos_renyi(std::size_t n, double p, std::uint64_t seed, const ErdosRenyiOptions& options = {});

/// Random geometric graph: n points uniform in [0,1)^2 (node i gets x then y from
/// the stream), u ~ v iff Euclidean distance <= radius; grid bucketing, O(n + m).
/// Requires n >= 1 and radius > 0.
Graph random_geometric(std::size_t n, double radius, std::uint64_t seed);

/// Barabási–Albert preferential attachment: a complete seed core on m0 nodes
/// (0..m0-1); each new node m0..n-1 attaches to m distinct earlier nodes chosen
/// with probability proportional to degree (uniformly while all degrees are 0).
/// m0 = 0 (default) means m0 = m + 1. Requires 1 <= m <= m0 <= n.
Graph barabasi_albert(std::size_t n, std::size_t m, std::uint64_t seed, std::size_t m0 = 0);

/// Stochastic block model: block b holds the next sizes[b] nodes (contiguous);
/// u in block a, v in block b are joined with probability p(a, b). `p_upper` is
/// the upper triangle of the symmetric k x k matrix, row by row:
/// p(0,0), p(0,1), ..., p(0,k-1), p(1,1), ..., p(k-1,k-1).
Graph stochastic_block_model(const std::vector<std::size_t>& sizes, const std::vector<double>& p_upper,
                             std::uint64_t seed);

/// A uniform-ish random d-regular graph by the pairing (configuration) model
/// with Steger–Wormald style repairs: stubs are shuffled and paired; loops and
/// repeated pairs go back to the pool; when no valid pair is left the attempt
/// restarts. Throws if n*d is odd, d >= n, or after max_attempts restarts.
Graph random_regular(std::size_t n, std::size_t d, std::uint64_t seed, std::size_t max_attempts = 1000);

}  // namespace netdp::graph
