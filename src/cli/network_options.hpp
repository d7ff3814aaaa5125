#pragma once
// Private to the cli module: the options every network-level subcommand shares
// (--graph, --lcc, --weights, --schedule, --seed) and what they build.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/schedule.hpp"
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

/// A schedule SPEC: `fixed`, `pairwise`, `er-per-round:p=P`, `dropout:p=P`.
/// Throws std::invalid_argument naming the SPEC and listing the valid forms.
/// Time-varying schedules weight each round's graph with `weighting` (the --weights choice).
gossip::Schedule make_schedule(const gossip::GossipMatrix& w, gossip::Weighting weighting,
                               const std::string& spec, std::size_t rounds, std::uint64_t seed);

/// Whether the schedule SPEC keeps the base graph's edges (so distances in it are meaningful).
bool schedule_uses_base_graph(const std::string& spec);

}  // namespace netdp::cli
