#pragma once
// Private to the cli module: the options every network-level subcommand shares
// (--graph, --lcc, --weights) and what they build.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/graph.hpp"

namespace netdp::cli {

struct NetworkOptions {
  std::string graph_spec = "karate";
  bool lcc = false;
  std::string weights = "hamilton";
};

/// Adds --graph, --lcc and --weights.
void add_network_options(CLI::App* command, NetworkOptions& options);

/// The graph of --graph (restricted to its largest component with --lcc).
graph::Graph load_graph(const NetworkOptions& options);

/// The graph and its gossip matrix under --weights.
gossip::GossipMatrix load_gossip_matrix(const NetworkOptions& options);

/// The network of --graph, --lcc and --weights as the library's NetworkSpec.
gossip::NetworkSpec network_spec(const NetworkOptions& options);

}  // namespace netdp::cli
