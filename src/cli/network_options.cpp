#include "network_options.hpp"

#include "netdp/gossip/network_spec.hpp"
#include "netdp/util/check.hpp"

namespace netdp::cli {

void add_network_options(CLI::App* command, NetworkOptions& options) {
  command
      ->add_option("--graph", options.graph_spec,
                   "Graph SPEC, e.g. er:n=100,p=0.05,seed=1 (every form: `netdp help graphs`)")
      ->capture_default_str();
  command->add_flag("--lcc", options.lcc, "Restrict the graph to its largest connected component");
  command
      ->add_option("--weights", options.weights,
                   "Gossip weighting: " + gossip::weighting_names() + " (`netdp help weightings`)")
      ->capture_default_str();
}

gossip::GossipMatrix load_gossip_matrix(const NetworkOptions& options, const OutputOptions& output) {
  gossip::GossipMatrix w = gossip::load_network(
      {options.graph_spec, options.lcc, gossip::parse_weighting(options.weights), output.seed});
  warn_graph_notes(w.graph(), output);
  return w;
}

}  // namespace netdp::cli
