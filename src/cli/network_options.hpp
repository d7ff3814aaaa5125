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
#include "output.hpp"

namespace netdp::cli {

struct NetworkOptions {
  std::string graph_spec = "karate";
  bool lcc = false;
  std::string weights = "hamilton";
};

/// Adds --graph, --lcc and --weights.
void add_network_options(CLI::App* command, NetworkOptions& options);

/// The graph of --graph (restricted to its largest component with --lcc, a random SPEC without
/// seed= drawn from --seed) and its gossip matrix under --weights; what the graph's reader changed
/// in the input is printed as warnings (warn_graph_notes) unless --quiet.
gossip::GossipMatrix load_gossip_matrix(const NetworkOptions& options, const OutputOptions& output);

}  // namespace netdp::cli
