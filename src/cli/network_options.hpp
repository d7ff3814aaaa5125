// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the cli module: the options every network-level subcommand shares
// (--graph, --lcc, --weights) and what they build.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/gossip/gossip_matrix.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/graph/io.hpp"
#include "output.hpp"

namespace netdp::cli {

struct NetworkOptions {
  std::string graph_spec = "karate";
  bool lcc = false;
  std::string weights = "hamilton";
  std::string matrix;  ///< --matrix: a user's W in Matrix Market format
  graph::ReadOptions read;
  const CLI::Option* graph_option = nullptr;
  const CLI::Option* weights_option = nullptr;
};

/// Adds --source-column, --target-column, --weight-column and --symmetrize: how a graph file is read.
void add_read_options(CLI::App* command, graph::ReadOptions& options);

/// Adds --graph, --lcc, --weights, --matrix and the read options.
void add_network_options(CLI::App* command, NetworkOptions& options);

/// A node named on the command line: `--NAME LABEL` (the node's label: the id in the graph's
/// file, or for a generated graph its index) or `--NAME-index I` (its index 0..n−1).
struct NodeOption {
  std::optional<std::string> label;
  std::optional<std::size_t> index;
  bool given() const { return label || index; }
};

/// Adds `--NAME` (a label) and `--NAME-index` (an index); `help` describes the node.
void add_node_option(CLI::App* command, NodeOption& option, const std::string& name, const std::string& help);

/// The node of `--NAME` / `--NAME-index` in g, or none when neither was given; throws naming the
/// option, the value and the graph's range when the label or index names no node.
std::optional<graph::NodeId> resolve_node(const graph::Graph& g, const NodeOption& option,
                                          std::string_view name);

/// The nodes of a comma-separated list of labels (`--colluders 1,5,7`), each once; throws naming
/// the option and the label that names no node or is repeated.
std::vector<graph::NodeId> resolve_node_list(const graph::Graph& g, const std::string& list,
                                             std::string_view name);

/// The one (observer, target) pair of `asymptotic` and `audit`: --observer / --target (or their
/// -index forms), defaulting to the nodes of index 0 and 1; throws when they are the same node.
std::pair<graph::NodeId, graph::NodeId> resolve_pair(const graph::Graph& g, const NodeOption& observer,
                                                     const NodeOption& target);

/// The protocol the accountants and the audit run: W, its weighting (--weights), the schedule
/// SPEC, T rounds, the seed of a random schedule and the sensitivity Δ.
accounting::Protocol make_protocol(const gossip::GossipMatrix& w, const NetworkOptions& network,
                                   const std::string& schedule, std::size_t rounds, std::uint64_t seed,
                                   double sensitivity);

/// The network the options describe: with --matrix, W from the file, on the --graph when one is
/// given (it names W's nodes); --matrix with --weights is refused, as W replaces the weighting.
gossip::NetworkSpec network_spec(const NetworkOptions& options, std::uint64_t seed);

/// The "run" record of a JSON output: version, this command line and the network of `options`.
nlohmann::json run_json(const NetworkOptions& options, const OutputOptions& output);

/// The graph of --graph (restricted to its largest component with --lcc, a random SPEC without
/// seed= drawn from --seed) and its gossip matrix under --weights; what the graph's reader changed
/// in the input is printed as warnings (warn_graph_notes) unless --quiet.
gossip::GossipMatrix load_gossip_matrix(const NetworkOptions& options, const OutputOptions& output);

}  // namespace netdp::cli
