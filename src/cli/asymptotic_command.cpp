// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp asymptotic`: Koskela–Kulkarni Theorem 13 — the per-round secure-summation
// sensitivity (Δ_T)²/T of a target against an observer next to its limit
// π_j²/‖π‖² (1/n for doubly stochastic W) as T grows.
#include <fmt/ostream.h>

#include <algorithm>
#include <memory>

#include "commands.hpp"
#include "netdp/accounting/linear_system/linear_system.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/util/check.hpp"
#include "network_options.hpp"
#include "node_names.hpp"
#include "output.hpp"
#include "parse_list.hpp"

namespace netdp::cli {
namespace {

struct AsymptoticOptions {
  NetworkOptions network;
  NodeOption observer;  ///< default: node index 0
  NodeOption target;    ///< default: node index 1
  std::string rounds_grid = "5,10,20,40,80";
  bool keep_observer_noise = false;
  OutputOptions output;
};

std::vector<std::size_t> parse_grid(const std::string& text) {
  std::vector<std::size_t> grid;
  for (std::uint64_t value : parse_unsigned_list(text, "--rounds-grid")) {
    require(value >= 1, "--rounds-grid '{}': rounds must be >= 1, got {}", text, value);
    grid.push_back(value);
  }
  return grid;
}

void run_asymptotic(const AsymptoticOptions& o) {
  const gossip::GossipMatrix w = load_gossip_matrix(o.network, o.output);
  // Named variables, not structured bindings: the lambdas below capture them.
  const std::pair<graph::NodeId, graph::NodeId> pair = resolve_pair(w.graph(), o.observer, o.target);
  const graph::NodeId observer = pair.first;
  const graph::NodeId target = pair.second;
  const NodeNames names(w.graph());
  const std::vector<std::size_t> grid = parse_grid(o.rounds_grid);
  accounting::LinearSystemOptions options;
  options.view = accounting::LinearSystemView::secure_sum;
  options.keep_observer_noise = o.keep_observer_noise;
  const std::size_t longest = *std::max_element(grid.begin(), grid.end());
  options.rounds = longest;
  const accounting::AsymptoticRate rate =
      accounting::asymptotic_rate(gossip::fixed_schedule(w, longest), observer, target, grid, options);
  nlohmann::ordered_json j;
  j["observer"] = names.json(observer);
  j["target"] = names.json(target);
  if (names.relabelled()) {
    j["observer_index"] = observer;
    j["target_index"] = target;
  }
  j["keep_observer_noise"] = o.keep_observer_noise;
  j["limit"] = rate.limit;
  j["limit_theorem13"] = rate.limit_theorem13;
  j["limit_observer_noise_removed"] = rate.limit_observer_noise_removed;
  j["points"] = nlohmann::ordered_json::array();
  for (const auto& p : rate.points) {
    j["points"].push_back({{"rounds", p.rounds},
                           {"sensitivity_squared_ones", p.sensitivity_squared_ones},
                           {"sensitivity_squared_sign_max", p.sensitivity_squared_sign_max},
                           {"sign_max_exact", p.sign_max_exact},
                           {"sensitivity_squared_vector", p.sensitivity_squared_vector},
                           {"vector_exact", p.vector_exact},
                           {"sensitivity_squared_certified", p.sensitivity_squared_certified},
                           {"per_round_ones", p.per_round_ones},
                           {"per_round_sign_max", p.per_round_sign_max},
                           {"per_round_vector", p.per_round_vector},
                           {"per_round_certified", p.per_round_certified}});
  }
  j["warnings"] = w.graph().notes();  // what the graph's reader changed
  print_result(o.output, j, [&](std::ostream& out) {
    fmt::print(out, "Theorem 13: (Delta_T)^2 / T for target {} against observer {} -> limit {:.8g}\n",
               names.label(target), names.label(observer), rate.limit);
    fmt::print(
        out,
        "(pi_j^2/|pi|^2 = {:.8g}; with the observer's noise removed pi_j^2/(|pi|^2 - pi_i^2) = {:.8g})\n",
        rate.limit_theorem13, rate.limit_observer_noise_removed);
    fmt::print(out, "{:>8} {:>16} {:>18} {:>18}\n", "T", "ones / T", "sign max / T", "vector / T");
    const auto mark = [](bool exact) { return exact ? " " : "*"; };
    for (const auto& p : rate.points) {
      fmt::print(out, "{:>8} {:>16.8g} {:>17.8g}{} {:>17.8g}{}\n", p.rounds, p.per_round_ones,
                 p.per_round_sign_max, mark(p.sign_max_exact), p.per_round_vector, mark(p.vector_exact));
    }
    fmt::print(out,
               "(sign max: the worst scalar release; vector: the worst vector release, the certified value; "
               "* = a proven upper bound, not shown to be the maximum)\n");
  });
}

}  // namespace

void add_asymptotic_command(CLI::App& app) {
  auto o = std::make_shared<AsymptoticOptions>();
  auto* cmd =
      app.add_subcommand("asymptotic", "Theorem 13 (Koskela-Kulkarni): per-round sensitivity vs its limit");
  add_network_options(cmd, o->network);
  add_node_option(cmd, o->observer, "observer", "Observer i (default: the node of index 0)");
  add_node_option(cmd, o->target, "target", "Target j (default: the node of index 1)");
  cmd->add_option("--rounds-grid", o->rounds_grid, "Comma-separated T values")->capture_default_str();
  cmd->add_flag("--keep-observer-noise", o->keep_observer_noise,
                "Count the observer's own noise (the theorem's setting; default: removed, Section 3.5)");
  add_output_options(cmd, o->output);
  cmd->callback([o] { run_asymptotic(*o); });
}

}  // namespace netdp::cli
