// Symmetry orbits of a gossip matrix (see symmetry.hpp).

#include "netdp/gossip/symmetry.hpp"

#include <algorithm>
#include <numeric>
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

/// The root of x's set, halving the path on the way.
graph::NodeId find_root(std::vector<graph::NodeId>& parent, graph::NodeId x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

}  // namespace

SymmetryOrbits symmetry_orbits(const GossipMatrix& w) {
  const std::size_t n = w.num_nodes();
  const graph::SymmetryHints& hints = w.graph().symmetry_hints();
  SymmetryOrbits out;
  // Union–find; the root of each set is kept at its smallest node.
  std::vector<graph::NodeId> parent(n);
  std::iota(parent.begin(), parent.end(), graph::NodeId{0});
  const std::size_t count = hints.image ? hints.count : 0;
  for (std::size_t which = 0; which < count; ++which) {
    const std::optional<std::vector<graph::NodeId>> pi = permutation(hints, which, n);
    if (!pi || !is_automorphism(w.matrix(), *pi)) {
      ++out.rejected;
      continue;
    }
    ++out.kept;
    for (std::size_t v = 0; v < n; ++v) {
      const graph::NodeId a = find_root(parent, static_cast<graph::NodeId>(v));
      const graph::NodeId b = find_root(parent, (*pi)[v]);
      if (a < b) parent[b] = a;
      if (b < a) parent[a] = b;
    }
  }
  out.representative.resize(n);
  for (std::size_t v = 0; v < n; ++v)
    out.representative[v] = find_root(parent, static_cast<graph::NodeId>(v));
  return out;
}

}  // namespace netdp::gossip
