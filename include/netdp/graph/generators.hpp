#pragma once
// Graph generators. Every random generator takes a seed and is reproducible
// across runs and platforms (std::mt19937_64 with netdp's own distributions).

#include <cstddef>
#include <cstdint>

#include "netdp/graph/graph.hpp"

namespace netdp::graph {

/// The cycle C_n: i ~ i+1 mod n. Requires n >= 3.
Graph ring(std::size_t n);

}  // namespace netdp::graph
