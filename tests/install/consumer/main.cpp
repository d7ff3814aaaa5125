// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// A program outside the netdp tree that uses the installed library.
#include <iostream>

#include "netdp/graph/generators.hpp"

int main() {
  const netdp::graph::Graph ring = netdp::graph::ring(10);
  std::cout << "nodes=" << ring.num_nodes() << " edges=" << ring.num_edges() << "\n";
  return 0;
}
