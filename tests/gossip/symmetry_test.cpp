// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/gossip/symmetry.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::gossip {
namespace {

/// The reflection v -> n − 1 − v as the graph's only hint.
graph::Graph with_reflection(graph::Graph g) {
  const auto n = static_cast<graph::NodeId>(g.num_nodes());
  g.set_symmetry_hints({1, [n](std::size_t, graph::NodeId v) { return n - 1 - v; }});
  return g;
}

/// Each node is reached from its parent by its hint, and comes after it in `order`; a
/// representative is its own parent.
void expect_spanning_trees(const SymmetryOrbits& orbits, const graph::SymmetryHints& hints) {
  const std::size_t n = orbits.representative.size();
  ASSERT_EQ(orbits.order.size(), n);
  std::vector<bool> seen(n, false);
  for (const graph::NodeId v : orbits.order) {
    const graph::NodeId p = orbits.parent[v];
    if (p == v) {
      EXPECT_EQ(orbits.representative[v], v);
    } else {
      EXPECT_TRUE(seen[p]) << v;
      EXPECT_EQ(hints.image(orbits.via[v], p), v);
      EXPECT_EQ(orbits.representative[v], orbits.representative[p]);
    }
    seen[v] = true;
  }
}

TEST(SymmetryOrbits, TheBuiltInVertexTransitiveGraphsAreOneOrbitUnderEveryWeighting) {
  for (const char* spec :
       {"ring:n=7", "complete:n=5", "torus:rows=3,cols=4", "hypercube:d=4", "exponential:n=10"}) {
    for (const Weighting weighting : kDegreeWeightings) {
      const GossipMatrix w = make_gossip_matrix(graph::from_spec(spec), weighting);
      const SymmetryOrbits orbits = symmetry_orbits(w);
      EXPECT_EQ(orbits.rejected, 0u) << spec << ' ' << weighting_name(weighting);
      EXPECT_EQ(orbits.kept, w.graph().symmetry_hints().count) << spec;
      EXPECT_EQ(orbits.representative, std::vector<graph::NodeId>(w.num_nodes(), 0)) << spec;
      expect_spanning_trees(orbits, w.graph().symmetry_hints());
    }
  }
}

TEST(SymmetryOrbits, EachHintIsAnAutomorphismOfItsGraph) {
  for (const char* spec :
       {"ring:n=7", "complete:n=5", "torus:rows=3,cols=4", "hypercube:d=4", "exponential:n=10"}) {
    const graph::Graph g = graph::from_spec(spec);
    const graph::SymmetryHints& hints = g.symmetry_hints();
    ASSERT_GE(hints.count, 1u) << spec;
    for (std::size_t which = 0; which < hints.count; ++which) {
      for (const graph::Edge& e : g.edges())
        EXPECT_TRUE(g.has_edge(hints.image(which, e.u), hints.image(which, e.v))) << spec << ' ' << which;
    }
  }
}

TEST(SymmetryOrbits, AReflectionOfAPathPairsItsEnds) {
  const GossipMatrix w = make_gossip_matrix(with_reflection(graph::path(5)), Weighting::hamilton);
  const SymmetryOrbits orbits = symmetry_orbits(w);
  EXPECT_EQ(orbits.kept, 1u);
  EXPECT_EQ(orbits.representative, (std::vector<graph::NodeId>{0, 1, 2, 1, 0}));
  expect_spanning_trees(orbits, w.graph().symmetry_hints());
}

TEST(SymmetryOrbits, AHintThatIsNotASymmetryOfWIsRejected) {
  // A rotation is not a symmetry of a path.
  graph::Graph path = graph::path(5);
  path.set_symmetry_hints({1, [](std::size_t, graph::NodeId v) { return (v + 1) % 5; }});
  SymmetryOrbits orbits = symmetry_orbits(make_gossip_matrix(path, Weighting::hamilton));
  EXPECT_EQ(orbits.rejected, 1u);
  EXPECT_EQ(orbits.representative, (std::vector<graph::NodeId>{0, 1, 2, 3, 4}));

  // Not a permutation: two nodes onto one, and a node out of range.
  graph::Graph ring = graph::ring(6);
  ring.set_symmetry_hints({2, [](std::size_t which, graph::NodeId v) {
                             return which == 0 ? v / 2 : static_cast<graph::NodeId>(v + 6);
                           }});
  orbits = symmetry_orbits(make_gossip_matrix(ring, Weighting::hamilton));
  EXPECT_EQ(orbits.rejected, 2u);
  EXPECT_EQ(orbits.kept, 0u);

  // A count without permutations.
  ring.set_symmetry_hints({3, nullptr});
  orbits = symmetry_orbits(make_gossip_matrix(ring, Weighting::hamilton));
  EXPECT_EQ(orbits.rejected, 3u);
  EXPECT_EQ(orbits.kept, 0u);
  EXPECT_EQ(orbits.representative, (std::vector<graph::NodeId>{0, 1, 2, 3, 4, 5}));

  // The ring's rotation, but W weighs one edge differently: W is not invariant.
  const graph::Graph g = graph::ring(6);
  SparseMatrix weights = make_gossip_matrix(graph::ring(6), Weighting::hamilton).matrix();
  weights.coeffRef(0, 1) = 0.25;  // from 1/2, the rest of row 0 on its diagonal
  weights.coeffRef(0, 0) = 0.25;
  weights.coeffRef(1, 0) = 0.25;
  weights.coeffRef(1, 1) = 0.25;
  orbits = symmetry_orbits(GossipMatrix(weights, g));
  EXPECT_EQ(orbits.rejected, 1u);
  EXPECT_EQ(orbits.representative, (std::vector<graph::NodeId>{0, 1, 2, 3, 4, 5}));
}

TEST(SymmetryOrbits, GraphsReadOrDerivedHaveNoHints) {
  EXPECT_EQ(graph::from_spec("er:n=20,p=0.3,seed=1").symmetry_hints().count, 0u);
  EXPECT_EQ(graph::largest_connected_component(graph::ring(6)).symmetry_hints().count, 0u);
}

}  // namespace
}  // namespace netdp::gossip
