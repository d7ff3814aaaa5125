// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp graph --graph SPEC [--lcc] [--json] [--out FILE] [--labels]`:
// summary of a graph (docs/reference/graph.md, docs/reference/cli.md).
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "netdp/graph/io.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/graph/spec.hpp"
#include "network_options.hpp"
#include "output.hpp"

namespace netdp::cli {
namespace {

struct GraphOptions {
  std::string spec = "karate";
  bool lcc = false;
  bool labels = false;
  graph::ReadOptions read;
  std::string out;
  OutputOptions output;
};

nlohmann::json summarize(const graph::Graph& g, bool with_labels) {
  const graph::Components components = graph::connected_components(g);
  const graph::DegreeStats degrees = graph::degree_stats(g);
  nlohmann::json result;
  result["nodes"] = g.num_nodes();
  result["edges"] = g.num_edges();
  result["connected"] = components.count() == 1;
  result["components"] = components.count();
  result["degree_min"] = degrees.min;
  result["degree_mean"] = degrees.mean;
  result["degree_max"] = degrees.max;
  const bool affordable = g.num_nodes() <= graph::kDiameterMaxNodes && components.count() == 1;
  result["diameter"] = affordable ? nlohmann::json(graph::diameter(g)) : nlohmann::json(nullptr);
  if (with_labels) {
    nlohmann::json labels = nlohmann::json::array();
    for (graph::NodeId v = 0; v < g.num_nodes(); ++v) labels.push_back(g.label(v));
    result["labels"] = std::move(labels);
  }
  return result;
}

void print_graph_summary(std::ostream& out, const nlohmann::json& r) {
  out << "nodes        " << r["nodes"] << "\n"
      << "edges        " << r["edges"] << "\n"
      << "connected    " << (r["connected"].get<bool>() ? "yes" : "no") << "\n"
      << "components   " << r["components"] << "\n"
      << "degree min   " << r["degree_min"] << "\n"
      << "degree mean  " << r["degree_mean"].get<double>() << "\n"
      << "degree max   " << r["degree_max"] << "\n"
      << "diameter     ";
  if (r["diameter"].is_null()) {
    out << (r["connected"].get<bool>() ? "not computed (more than 20000 nodes)" : "infinite (disconnected)");
  } else {
    out << r["diameter"];
  }
  out << "\n";
  if (r.contains("labels")) {
    out << "labels (index original-id)\n";
    const auto& labels = r["labels"];
    for (std::size_t i = 0; i < labels.size(); ++i) out << i << ' ' << labels[i].get<std::string>() << "\n";
  }
}

}  // namespace

void add_graph_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("graph", "Summarize a graph (nodes, edges, components, degrees, diameter)");
  auto options = std::make_shared<GraphOptions>();
  cmd->add_option("--graph", options->spec, "Graph SPEC (`netdp help graphs`), e.g. er:n=100,p=0.2,seed=1")
      ->capture_default_str();
  cmd->add_flag("--lcc", options->lcc, "Keep only the largest connected component (relabelled 0..k-1)");
  cmd->add_flag("--labels", options->labels, "Also print the original id of every node");
  add_read_options(cmd, options->read);
  cmd->add_option("--out", options->out, "Write the graph as an edge list (node indices) to FILE");
  add_output_options(cmd, options->output);
  cmd->footer(graph::spec_help());
  cmd->callback([options] {
    graph::Graph g = graph::from_spec(options->spec, options->output.seed, options->read);
    if (options->lcc) g = graph::largest_connected_component(g);
    warn_graph_notes(g, options->output);
    if (!options->out.empty()) {
      std::ostringstream text;
      graph::write_edge_list(g, text, graph::NodeNaming::indices);
      write_text_file(options->out, text.str());
    }
    nlohmann::json result = summarize(g, options->labels);
    result["warnings"] = g.notes();
    print_result(options->output, result, [&result](std::ostream& out) { print_graph_summary(out, result); });
  });
}

}  // namespace netdp::cli
