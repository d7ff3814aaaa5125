// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp compare`: the MF paper's Figure 2 — for one graph, W, T and noise, the
// Muffliato accounting of DP-D-SGD / Muffliato-SGD(K) next to the MF accounting
// (PNDP, Theorem 7) per shortest-path distance, with Koskela–Kulkarni's
// secure-summation accountant (Theorem 8) beside them. All as Rényi DP at order
// α of μ-GDP: ε_α = α μ²/2.
#include <fmt/ostream.h>

#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/account/pairwise_summary.hpp"
#include "netdp/accounting/mf/mf_compare.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/mpi/distributed_compare.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/format_up.hpp"
#include "network_options.hpp"
#include "output.hpp"

namespace netdp::cli {
namespace {

struct CompareOptions {
  NetworkOptions network;
  std::size_t rounds = 10;
  std::size_t gossip_steps = 1;
  double sigma = 1.0;
  double alpha = 2.0;
  std::string variant = "propagated";
  bool no_secure_sum = false;
  OutputOptions output;
};

void run_compare(const CompareOptions& o) {
  require_positive(o.sigma, "--sigma");
  require(o.alpha > 1.0, "--alpha must be > 1, got {}", o.alpha);
  require(o.variant == "propagated" || o.variant == "per-step",
          "--variant '{}' is not one of: propagated, per-step", o.variant);
  const gossip::GossipMatrix w = load_gossip_matrix(o.network, o.output);
  accounting::FigureTwoSetting setting;
  setting.rounds = o.rounds;
  setting.gossip_steps = o.gossip_steps;
  setting.sigma = o.sigma;
  setting.alpha = o.alpha;
  setting.variant = o.variant == "propagated" ? accounting::MuffliatoVariant::propagated
                                              : accounting::MuffliatoVariant::per_step;
  setting.with_secure_sum = !o.no_secure_sum;
  // Under mpirun, split across the ranks: rank 0 gets every pair, and writes the table.
  const std::optional<accounting::FigureTwo> computed = mpi::distributed_figure_two(w, setting);
  if (!computed) return;
  const accounting::FigureTwo& figure = *computed;
  const std::vector<accounting::MfComparisonRow>& rows = figure.rows;
  const bool with_secure_sum = !figure.secure_sum.empty();
  std::map<std::uint32_t, accounting::Range> secure(figure.secure_sum.begin(), figure.secure_sum.end());
  nlohmann::ordered_json j;
  j["nodes"] = w.num_nodes();
  j["rounds"] = o.rounds;
  j["gossip_steps"] = o.gossip_steps;
  j["sigma"] = o.sigma;
  j["alpha"] = o.alpha;
  j["muffliato_variant"] = o.variant;
  j["muffliato_bound"] = "paper-formula";  // muffliato_*: not a bound on the view; muffliato_exact_*: exact
  // Baselines at the same noise, as Rényi ε at α: every one of the T releases of a node seen directly
  // (local DP), or a trusted aggregator adding the same total noise to the sum (central DP).
  j["local_dp"] = figure.local_dp;
  j["central_dp"] = figure.central_dp;
  // The secure-summation column is Koskela-Kulkarni's K = 1 protocol: said, not silently dropped.
  j["secure_sum_omitted"] = nullptr;
  if (!figure.secure_sum_omitted.empty()) {
    j["secure_sum_omitted"] = figure.secure_sum_omitted;
    if (!o.output.quiet) std::cerr << "netdp: notice: " << figure.secure_sum_omitted << "\n";
  }
  j["by_distance"] = nlohmann::ordered_json::array();
  for (const accounting::MfComparisonRow& r : rows) {
    nlohmann::ordered_json d{{"distance", r.distance},
                             {"pairs", r.pairs},
                             {"mf_min", r.mf_min},
                             {"mf_mean", r.mf_mean},
                             {"mf_max", r.mf_max},
                             {"muffliato_min", r.muffliato_min},
                             {"muffliato_mean", r.muffliato_mean},
                             {"muffliato_max", r.muffliato_max},
                             {"muffliato_exact_min", r.muffliato_exact_min},
                             {"muffliato_exact_mean", r.muffliato_exact_mean},
                             {"muffliato_exact_max", r.muffliato_exact_max}};
    if (const auto it = secure.find(r.distance); it != secure.end()) {
      d["secure_sum_min"] = it->second.min;
      d["secure_sum_mean"] = it->second.mean;
      d["secure_sum_max"] = it->second.max;
    }
    j["by_distance"].push_back(std::move(d));
  }
  j["warnings"] = w.graph().notes();  // what the graph's reader changed
  j["run"] = run_json(o.network, o.output);
  print_result(o.output, j, [&](std::ostream& out) {
    fmt::print(out, "Renyi DP at alpha = {} per distance (nodes {}, T = {}, K = {}, sigma = {})\n", o.alpha,
               w.num_nodes(), o.rounds, o.gossip_steps, o.sigma);
    fmt::print(
        out,
        "muffl. paper: the paper's formula, NOT an upper bound on the view; muffl. exact: the exact joint "
        "view of each release, composed\n");
    fmt::print(out, "{:>8} {:>7} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}{}\n", "distance", "pairs",
               "mf mean", "mf max", "paper mean", "paper max", "exact mean", "exact max",
               with_secure_sum ? "   secsum mean    secsum max" : "");
    // Six digits, rounded up: a printed loss is never below the computed one.
    const auto up = [](const auto& value) { return util::format_up(value.template get<double>()); };
    for (const auto& d : j["by_distance"]) {
      fmt::print(out, "{:>8} {:>7} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}", d["distance"].get<int>(),
                 d["pairs"].get<std::size_t>(), up(d["mf_mean"]), up(d["mf_max"]), up(d["muffliato_mean"]),
                 up(d["muffliato_max"]), up(d["muffliato_exact_mean"]), up(d["muffliato_exact_max"]));
      if (d.contains("secure_sum_mean"))
        fmt::print(out, " {:>13} {:>13}", up(d["secure_sum_mean"]), up(d["secure_sum_max"]));
      fmt::print(out, "\n");
    }
    fmt::print(out, "baselines at the same sigma: local DP {}, central DP {}\n", up(j["local_dp"]),
               up(j["central_dp"]));
  });
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand(
      "compare",
      "Muffliato vs matrix-factorization (PNDP) vs secure-summation accounting per distance (MF Fig. 2)");
  add_network_options(cmd, o->network);
  cmd->add_option("--rounds,-T", o->rounds, "Gradient steps T")->capture_default_str();
  cmd->add_option("--gossip-steps,-K", o->gossip_steps, "Gossip steps per gradient (1: DP-D-SGD)")
      ->capture_default_str();
  cmd->add_option("--sigma", o->sigma, "Noise standard deviation (in units of the sensitivity)")
      ->capture_default_str();
  cmd->add_option("--alpha", o->alpha, "Renyi order")->capture_default_str();
  cmd->add_option("--variant", o->variant, "Muffliato accounting: propagated | per-step")
      ->capture_default_str();
  cmd->add_flag("--no-secure-sum", o->no_secure_sum, "Skip the Koskela-Kulkarni secure-summation column");
  add_output_options(cmd, o->output);
  cmd->callback([o] { run_compare(*o); });
}

}  // namespace netdp::cli
