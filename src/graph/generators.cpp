#include "netdp/graph/generators.hpp"

#include "netdp/util/check.hpp"

namespace netdp::graph {

Graph ring(std::size_t n) {
  require(n >= 3, "a ring needs n >= 3 nodes, got n = {}", n);
  std::vector<Edge> edges;
  edges.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    edges.push_back({static_cast<NodeId>(i), static_cast<NodeId>((i + 1) % n)});
  }
  return Graph::from_edges(n, edges);
}

}  // namespace netdp::graph
