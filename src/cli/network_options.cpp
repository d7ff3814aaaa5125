#include "network_options.hpp"

#include <string_view>

#include "netdp/gossip/schedules.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/graph/spec.hpp"
#include "netdp/util/check.hpp"

namespace netdp::cli {

void add_network_options(CLI::App* command, NetworkOptions& options) {
  command->add_option("--graph", options.graph_spec, "Graph SPEC (see `netdp graph --help-specs`)")
      ->capture_default_str();
  command->add_flag("--lcc", options.lcc, "Restrict the graph to its largest connected component");
  command->add_option("--weights", options.weights, "Gossip weighting: " + gossip::weighting_names())
      ->capture_default_str();
}

graph::Graph load_graph(const NetworkOptions& options) {
  graph::Graph g = graph::from_spec(options.graph_spec);
  if (options.lcc) g = graph::largest_connected_component(g);
  return g;
}

gossip::GossipMatrix load_gossip_matrix(const NetworkOptions& options) {
  return gossip::make_gossip_matrix(load_graph(options), gossip::parse_weighting(options.weights));
}

namespace {

constexpr std::string_view kScheduleForms = "fixed, pairwise, er-per-round:p=P, dropout:p=P";

// The probability of `er-per-round:p=P` / `dropout:p=P`.
double schedule_probability(const std::string& spec, std::string_view name) {
  const std::string prefix = std::string(name) + ":p=";
  require(spec.rfind(prefix, 0) == 0, "schedule '{}' needs a probability: {}P (valid forms: {})", spec,
          prefix, kScheduleForms);
  const std::string value = spec.substr(prefix.size());
  std::size_t used = 0;
  double p = 0.0;
  try {
    p = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  require(used == value.size() && !value.empty(), "schedule '{}': p = '{}' is not a number", spec, value);
  require(p > 0.0 && p <= 1.0, "schedule '{}': p must be in (0, 1], got {}", spec, p);
  return p;
}

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

gossip::Schedule make_schedule(const gossip::GossipMatrix& w, gossip::Weighting weighting,
                               const std::string& spec, std::size_t rounds, std::uint64_t seed) {
  require(rounds >= 1, "--rounds must be >= 1, got {}", rounds);
  if (spec == "fixed") return gossip::fixed_schedule(w, rounds);
  if (spec == "pairwise") return gossip::randomized_pairwise_schedule(w, rounds, seed);
  if (starts_with(spec, "er-per-round")) {
    return gossip::erdos_renyi_schedule(w.num_nodes(), schedule_probability(spec, "er-per-round"), weighting,
                                        rounds, seed);
  }
  if (starts_with(spec, "dropout")) {
    return gossip::dropout_schedule(w.graph(), weighting, schedule_probability(spec, "dropout"), rounds,
                                    seed);
  }
  throw std::invalid_argument(fmt::format("unknown schedule '{}' (valid forms: {})", spec, kScheduleForms));
}

bool schedule_uses_base_graph(const std::string& spec) { return !starts_with(spec, "er-per-round"); }

}  // namespace netdp::cli
