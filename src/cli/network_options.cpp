// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "network_options.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "netdp/gossip/network_spec.hpp"
#include "netdp/report/report.hpp"
#include "netdp/util/check.hpp"

namespace netdp::cli {

void add_read_options(CLI::App* command, graph::ReadOptions& options) {
  command->add_option("--source-column", options.source_column,
                      "CSV/TSV graph: the header name of the column of an edge's first end");
  command->add_option("--target-column", options.target_column,
                      "CSV/TSV graph: the header name of the column of an edge's second end");
  command->add_option("--weight-column", options.weight_column,
                      "CSV/TSV graph: the header name of the edge weights' column (default: Weight, if any)");
  command->add_flag("--symmetrize", options.symmetrize,
                    "Read a directed graph file's arcs as undirected edges (refused without it)");
}

void add_network_options(CLI::App* command, NetworkOptions& options) {
  options.graph_option =
      command
          ->add_option("--graph", options.graph_spec,
                       "Graph SPEC, e.g. er:n=100,p=0.05,seed=1 (every form: `netdp help graphs`)")
          ->capture_default_str();
  command->add_flag("--lcc", options.lcc, "Restrict the graph to its largest connected component");
  options.weights_option =
      command
          ->add_option("--weights", options.weights,
                       "Gossip weighting: " + gossip::weighting_names() + " (`netdp help weightings`)")
          ->capture_default_str();
  command->add_option(
      "--matrix", options.matrix,
      "Your own gossip matrix W, a Matrix Market file (row-stochastic, non-negative), instead "
      "of --weights; with --graph, W's rows are the graph's nodes and its support the edges");
  add_read_options(command, options.read);
}

void add_node_option(CLI::App* command, NodeOption& option, const std::string& name,
                     const std::string& help) {
  auto* label = command->add_option("--" + name, option.label,
                                    help +
                                        ", by its label (the id in the graph's file; for a generated graph "
                                        "its index)");
  auto* index = command->add_option("--" + name + "-index", option.index, help + ", by its index 0..n-1");
  label->excludes(index);
}

namespace {

// What the nodes of g are called, for an error message.
std::string naming_rule(const graph::Graph& g, std::string_view name, bool has_index_form) {
  if (g.num_nodes() == 0) return "the graph has no nodes";
  if (!g.relabelled()) return fmt::format("the graph's nodes are 0..{}", g.num_nodes() - 1);
  return fmt::format(
      "the graph's {} nodes are named by their labels, e.g. '{}' (`netdp graph --labels` lists "
      "them){}",
      g.num_nodes(), g.label(0),
      has_index_form ? fmt::format("; for an index 0..{} use --{}-index", g.num_nodes() - 1, name)
                     : std::string());
}

// `what` is how the message starts: "--observer '40'" or "--colluders '1,x': 'x'".
graph::NodeId node_of_label(const graph::Graph& g, std::string_view label, std::string_view name,
                            const std::string& what, bool has_index_form) {
  const std::optional<graph::NodeId> v = g.find(label);
  require(v.has_value(), "{} names no node: {}", what, naming_rule(g, name, has_index_form));
  return *v;
}

}  // namespace

std::optional<graph::NodeId> resolve_node(const graph::Graph& g, const NodeOption& option,
                                          std::string_view name) {
  if (option.index) {
    require(*option.index < g.num_nodes(), "--{}-index {} is out of range: the graph has nodes 0..{}", name,
            *option.index, g.num_nodes() - 1);
    return static_cast<graph::NodeId>(*option.index);
  }
  if (option.label) {
    return node_of_label(g, *option.label, name, fmt::format("--{} '{}'", name, *option.label), true);
  }
  return std::nullopt;
}

std::vector<graph::NodeId> resolve_node_list(const graph::Graph& g, const std::string& list,
                                             std::string_view name) {
  std::vector<graph::NodeId> nodes;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    const std::size_t end = std::min(list.find(',', begin), list.size());
    const std::string_view label = std::string_view(list).substr(begin, end - begin);
    require(!label.empty(), "--{} '{}': an empty label (expected a comma-separated list like 1,5,7)", name,
            list);
    const graph::NodeId v =
        node_of_label(g, label, name, fmt::format("--{} '{}': '{}'", name, list, label), false);
    require(std::find(nodes.begin(), nodes.end(), v) == nodes.end(), "--{} '{}': node '{}' is repeated", name,
            list, label);
    nodes.push_back(v);
    begin = end + 1;
  }
  return nodes;
}

std::pair<graph::NodeId, graph::NodeId> resolve_pair(const graph::Graph& g, const NodeOption& observer,
                                                     const NodeOption& target) {
  require(g.num_nodes() >= 2, "the graph needs an observer and a target: it has {} node(s)", g.num_nodes());
  const graph::NodeId v = resolve_node(g, observer, "observer").value_or(0);
  const graph::NodeId u = resolve_node(g, target, "target").value_or(1);
  require(v != u, "--observer and --target are the same node '{}'", g.label(u));
  return {v, u};
}

accounting::Protocol make_protocol(const gossip::GossipMatrix& w, const NetworkOptions& network,
                                   const std::string& schedule, std::size_t rounds, std::uint64_t seed,
                                   double sensitivity) {
  accounting::Protocol protocol(w);
  protocol.weighting = gossip::schedule_weighting(network_spec(network, seed));
  protocol.schedule = gossip::parse_schedule_spec(schedule);
  protocol.rounds = rounds;
  protocol.seed = seed;
  protocol.sensitivity = sensitivity;
  return protocol;
}

gossip::NetworkSpec network_spec(const NetworkOptions& options, std::uint64_t seed) {
  gossip::NetworkSpec spec{options.graph_spec, options.lcc, gossip::parse_weighting(options.weights), seed};
  spec.read = options.read;
  if (options.matrix.empty()) return spec;
  require(options.weights_option == nullptr || options.weights_option->count() == 0,
          "--matrix {} gives W, and --weights {} would build another from the graph: give one or the other",
          options.matrix, options.weights);
  spec.matrix = options.matrix;
  if (options.graph_option != nullptr && options.graph_option->count() == 0) spec.graph.clear();
  return spec;
}

nlohmann::json run_json(const NetworkOptions& options, const OutputOptions& output) {
  return report::run_record(invoked_command(), network_spec(options, output.seed));
}

gossip::GossipMatrix load_gossip_matrix(const NetworkOptions& options, const OutputOptions& output) {
  gossip::GossipMatrix w = gossip::load_network(network_spec(options, output.seed));
  warn_graph_notes(w.graph(), output);
  return w;
}

}  // namespace netdp::cli
