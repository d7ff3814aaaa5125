// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Symmetry orbits of a gossip matrix (see symmetry.hpp).

#include "netdp/gossip/symmetry.hpp"

#include <algorithm>
#include <optional>

namespace netdp::gossip {

namespace {

/// The permutation `which` of the hints as an array, or none when it is not a bijection of 0..n−1.
std::optional<std::vector<graph::NodeId>> permutation(const graph::SymmetryHints& hints, std::size_t which,
                                                      std::size_t n) {
  std::vector<graph::NodeId> image(n);
  std::vector<bool> hit(n, false);
  for (std::size_t v = 0; v < n; ++v) {
    const graph::NodeId to = hints.image(which, static_cast<graph::NodeId>(v));
    if (to >= n || hit[to]) return std::nullopt;
    hit[to] = true;
    image[v] = to;
  }
  return image;
}

/// Whether W_{π(x)π(y)} = W_xy for every stored entry (x, y): row π(x) has as many entries as row x
/// and holds each moved entry with the same value, so the two rows are equal.
bool is_automorphism(const SparseMatrix& w, const std::vector<graph::NodeId>& pi) {
  const int* start = w.outerIndexPtr();
  const int* cols = w.innerIndexPtr();
  const double* values = w.valuePtr();
  for (int x = 0; x < w.outerSize(); ++x) {
    const int px = static_cast<int>(pi[static_cast<std::size_t>(x)]);
    if (start[x + 1] - start[x] != start[px + 1] - start[px]) return false;
    for (int k = start[x]; k < start[x + 1]; ++k) {
      const int py = static_cast<int>(pi[static_cast<std::size_t>(cols[k])]);
      const int* found = std::lower_bound(cols + start[px], cols + start[px + 1], py);
      if (found == cols + start[px + 1] || *found != py || values[found - cols] != values[k]) return false;
    }
  }
  return true;
}

}  // namespace

SymmetryOrbits symmetry_orbits(const SparseMatrix& w, const graph::SymmetryHints& hints) {
  const auto n = static_cast<std::size_t>(w.rows());
  SymmetryOrbits out;
  std::vector<std::size_t> kept;
  if (!hints.image) out.rejected = hints.count;  // hints without permutations: nothing to check
  const std::size_t count = hints.image ? hints.count : 0;
  for (std::size_t which = 0; which < count; ++which) {
    const std::optional<std::vector<graph::NodeId>> pi = permutation(hints, which, n);
    if (pi && is_automorphism(w, *pi)) {
      kept.push_back(which);
    } else {
      ++out.rejected;
    }
  }
  out.kept = kept.size();
  // Breadth first from each node not yet reached, in increasing order: the orbit of a finite
  // permutation group is what repeated images reach (each inverse is a power), so the node that
  // starts a search is its orbit's smallest.
  out.representative.assign(n, 0);
  out.parent.assign(n, 0);
  out.via.assign(n, 0);
  out.order.reserve(n);
  std::vector<bool> reached(n, false);
  for (std::size_t start = 0; start < n; ++start) {
    if (reached[start]) continue;
    const auto root = static_cast<graph::NodeId>(start);
    reached[start] = true;
    out.parent[start] = root;
    std::size_t head = out.order.size();
    out.order.push_back(root);
    for (; head < out.order.size(); ++head) {
      const graph::NodeId x = out.order[head];
      out.representative[x] = root;
      for (const std::size_t which : kept) {
        const graph::NodeId y = hints.image(which, x);
        if (reached[y]) continue;
        reached[y] = true;
        out.parent[y] = x;
        out.via[y] = which;
        out.order.push_back(y);
      }
    }
  }
  return out;
}

SymmetryOrbits symmetry_orbits(const GossipMatrix& w) {
  return symmetry_orbits(w.matrix(), w.graph().symmetry_hints());
}

}  // namespace netdp::gossip
