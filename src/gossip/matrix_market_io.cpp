// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/matrix_market_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "netdp/util/check.hpp"
#include "netdp/util/matrix_market.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::gossip {

namespace {

/// The declared size against the memory limit, before any entry is stored: per node the sparse
/// offsets, its graph's adjacency and its label (64 bytes), per entry the entry read, its copy, its
/// triplet, the sparse entry and the graph's edge (96 bytes; twice for a symmetric file).
util::MatrixMarketHeaderCheck size_check(const std::string& source) {
  return [&source](const util::MatrixMarketHeader& header) {
    const double nodes = static_cast<double>(std::max(header.rows, header.cols));
    const double entries = static_cast<double>(header.nnz) *
                           (header.symmetry == util::MatrixMarketSymmetry::symmetric ? 2.0 : 1.0);
    util::require_memory(64.0 * nodes + 96.0 * entries,
                         fmt::format("{}: the gossip matrix of its size line, {} x {} with {} entries",
                                     source, header.rows, header.cols, header.nnz),
                         "64 bytes per node and 96 per entry",
                         "check the size line 'rows cols entries' of the file");
  };
}

GossipMatrix to_gossip_matrix(const util::MatrixMarketData& data, const std::string& source) {
  const util::MatrixMarketHeader& header = data.header;
  require(header.rows == header.cols, "{}: a gossip matrix must be square, got {} x {}", source, header.rows,
          header.cols);
  require(header.rows >= 1, "{}: a gossip matrix needs at least 1 node, got 0", source);
  require(header.rows <= static_cast<std::uint64_t>(std::numeric_limits<int>::max()),
          "{}: {} nodes exceed the sparse index limit {}", source, header.rows,
          std::numeric_limits<int>::max());
  std::vector<util::MatrixMarketEntry> entries = util::expand_symmetric(data);
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
  const auto repeat = std::adjacent_find(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a.row == b.row && a.col == b.col;
  });
  require(repeat == entries.end(), "{}: entry ({}, {}) (1-based) appears more than once", source,
          repeat == entries.end() ? 0 : repeat->row + 1, repeat == entries.end() ? 0 : repeat->col + 1);
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(entries.size());
  for (const auto& e : entries) {
    triplets.emplace_back(static_cast<int>(e.row), static_cast<int>(e.col), e.value);
  }
  const auto n = static_cast<Eigen::Index>(header.rows);
  SparseMatrix w(n, n);
  w.setFromTriplets(triplets.begin(), triplets.end());
  try {
    // Nodes are named by their 1-based indices in the file, as read_matrix_market_graph names them.
    GossipMatrix support = GossipMatrix::from_support(std::move(w));
    graph::Graph g = support.graph();
    std::vector<std::string> labels(g.num_nodes());
    for (std::size_t v = 0; v < labels.size(); ++v) labels[v] = std::to_string(v + 1);
    g.set_labels(std::move(labels));
    return GossipMatrix(support.matrix(), std::move(g));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("{}: {} (indices 0-based)", source, e.what()));
  }
}

util::MatrixMarketHeader real_general(std::size_t n) {
  util::MatrixMarketHeader header;
  header.field = util::MatrixMarketField::real;
  header.symmetry = util::MatrixMarketSymmetry::general;
  header.rows = header.cols = n;
  return header;
}

std::vector<util::MatrixMarketEntry> entries_of(const GossipMatrix& w) {
  std::vector<util::MatrixMarketEntry> entries;
  entries.reserve(static_cast<std::size_t>(w.matrix().nonZeros()));
  for (Eigen::Index u = 0; u < w.matrix().outerSize(); ++u) {
    for (SparseMatrix::InnerIterator it(w.matrix(), u); it; ++it) {
      entries.push_back({static_cast<std::uint64_t>(u), static_cast<std::uint64_t>(it.col()), it.value()});
    }
  }
  return entries;
}

}  // namespace

GossipMatrix parse_gossip_matrix_market(std::istream& in, const std::string& source) {
  return to_gossip_matrix(util::parse_matrix_market(in, source, size_check(source)), source);
}

GossipMatrix read_gossip_matrix_market(const std::string& path) {
  return to_gossip_matrix(util::read_matrix_market(path, size_check(path)), path);
}

void write_gossip_matrix_market(std::ostream& out, const GossipMatrix& w) {
  util::write_matrix_market(out, real_general(w.num_nodes()), entries_of(w));
}

void write_gossip_matrix_market(const std::string& path, const GossipMatrix& w) {
  util::write_matrix_market(path, real_general(w.num_nodes()), entries_of(w));
}

}  // namespace netdp::gossip
