// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp gossip --graph SPEC --weights NAME [--lcc] [--json] [--out W.mtx]` (or `--matrix W.mtx`):
// spectral summary of a gossip matrix (docs/reference/gossip.md, docs/reference/cli.md).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "netdp/gossip/matrix_market_io.hpp"
#include "netdp/gossip/spectral.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/graph/spec.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/enum_names.hpp"
#include "network_options.hpp"
#include "node_names.hpp"
#include "output.hpp"

namespace netdp::cli {
namespace {

struct GossipOptions {
  std::string spec = "karate";
  std::string weights = "hamilton";
  std::string matrix;  // read W from this Matrix Market file instead of --graph/--weights
  std::string method = "auto";
  double mixing_epsilon = 0.25;
  bool lcc = false;
  graph::ReadOptions read;
  std::string out;
  OutputOptions output;
};

constexpr auto kMethodNames = std::to_array<util::EnumName<gossip::SpectralMethod>>({
    {gossip::SpectralMethod::automatic, "auto"},
    {gossip::SpectralMethod::dense, "dense"},
    {gossip::SpectralMethod::lanczos, "lanczos"},
});
static_assert(util::is_valid_enum_table(kMethodNames));

const char* symmetry_name(gossip::SymmetryClass c) {
  switch (c) {
    case gossip::SymmetryClass::symmetric:
      return "symmetric";
    case gossip::SymmetryClass::reversible:
      return "reversible";
    case gossip::SymmetryClass::general:
      return "general";
  }
  return "unknown";
}

const char* stationary_method_name(gossip::StationaryMethod m) {
  switch (m) {
    case gossip::StationaryMethod::uniform:
      return "uniform";
    case gossip::StationaryMethod::detailed_balance:
      return "detailed_balance";
    case gossip::StationaryMethod::power_iteration:
      return "power_iteration";
  }
  return "unknown";
}

gossip::GossipMatrix build_matrix(const GossipOptions& options) {
  if (!options.matrix.empty()) {
    require(!options.lcc, "--lcc applies to --graph and cannot be combined with --matrix");
    return gossip::read_gossip_matrix_market(options.matrix);
  }
  const gossip::Weighting weighting = gossip::parse_weighting(options.weights);
  graph::Graph g = graph::from_spec(options.spec, options.output.seed, options.read);
  if (options.lcc) g = graph::largest_connected_component(g);
  return gossip::make_gossip_matrix(g, weighting);
}

// What a degenerate fact means and what to do about it, one sentence each.
std::vector<std::string> notes(const gossip::Primitivity& primitivity, double spectral_gap,
                               const GossipOptions& options) {
  std::vector<std::string> out;
  if (!primitivity.irreducible) {
    out.push_back(
        "W is reducible: the graph is disconnected, so gossip never averages across its components; use "
        "--lcc (the largest connected component) or a connected graph");
  } else if (primitivity.period > 1) {
    out.push_back(fmt::format(
        "W is periodic (period {}: a walk returns to a node only after a multiple of {} steps; on an "
        "undirected graph, the graph is bipartite and W has a zero diagonal), so its powers oscillate "
        "instead of converging: the spectral gap is 0 and no mixing bound exists; weights with a positive "
        "diagonal make it aperiodic: --weights metropolis or lazy-uniform",
        primitivity.period, primitivity.period));
  }
  if (spectral_gap <= 0.0 && options.matrix.empty()) {
    out.push_back("with a spectral gap of 0 the Chebyshev parameter gamma = 2 accelerates nothing");
  }
  return out;
}

nlohmann::json summarize(const gossip::GossipMatrix& w, const GossipOptions& options) {
  const gossip::SymmetryClass symmetry = gossip::symmetry_class(w);
  const gossip::SecondEigenvalue second =
      gossip::second_eigenvalue(w, util::parse_enum(kMethodNames, options.method, "--method"));
  const gossip::Stationary stationary = gossip::stationary_distribution(w);
  const gossip::Primitivity primitivity = gossip::primitivity(w);
  const double pi_min = stationary.pi.minCoeff();
  std::optional<double> mixing;
  if (symmetry != gossip::SymmetryClass::general && primitivity.primitive() && pi_min > 0.0) {
    mixing = gossip::mixing_time_bound(second.spectral_gap, pi_min, options.mixing_epsilon);
  }
  nlohmann::json r;
  r["nodes"] = w.num_nodes();
  r["edges"] = w.graph().num_edges();
  r["weights"] = options.matrix.empty() ? options.weights : "file";
  r["symmetric"] = w.is_symmetric();
  r["doubly_stochastic"] = w.is_doubly_stochastic();
  r["symmetry_class"] = symmetry_name(symmetry);
  r["irreducible"] = primitivity.irreducible;
  r["period"] = primitivity.period;
  r["primitive"] = primitivity.primitive();
  r["spectral_gap"] = second.spectral_gap;
  r["second_eigenvalue_modulus"] = second.modulus;
  r["spectral_method"] = util::name_of(kMethodNames, second.method);
  r["spectral_converged"] = second.converged;
  if (!second.diagnostic.empty()) r["spectral_diagnostic"] = second.diagnostic;
  r["stationary_method"] = stationary_method_name(stationary.method);
  r["stationary_unique"] = stationary.unique;
  r["stationary_converged"] = stationary.converged;
  r["stationary_residual"] = stationary.residual;
  r["stationary_min"] = pi_min;
  r["mixing_epsilon"] = options.mixing_epsilon;
  r["mixing_time_bound"] = mixing ? nlohmann::json(*mixing) : nlohmann::json(nullptr);
  r["chebyshev_gamma"] = gossip::muffliato_chebyshev_gamma(second.spectral_gap);
  r["stationary"] = std::vector<double>(stationary.pi.data(), stationary.pi.data() + stationary.pi.size());
  if (w.graph().relabelled()) {
    // The order of `stationary`: node i's label.
    nlohmann::json labels = nlohmann::json::array();
    for (graph::NodeId v = 0; v < w.num_nodes(); ++v) labels.push_back(w.graph().label(v));
    r["labels"] = std::move(labels);
  }
  r["notes"] = notes(primitivity, second.spectral_gap, options);
  r["warnings"] = w.graph().notes();  // what the graph's reader changed
  return r;
}

void print_gossip_result(std::ostream& out, const nlohmann::json& r) {
  const auto yes_no = [](const nlohmann::json& b) { return b.get<bool>() ? "yes" : "no"; };
  out << "nodes                      " << r["nodes"] << "\n"
      << "edges                      " << r["edges"] << "\n"
      << "weights                    " << r["weights"].get<std::string>() << "\n"
      << "symmetric                  " << yes_no(r["symmetric"]) << "\n"
      << "doubly stochastic          " << yes_no(r["doubly_stochastic"]) << "\n"
      << "class                      " << r["symmetry_class"].get<std::string>() << "\n"
      << "primitive                  " << yes_no(r["primitive"]) << " (irreducible "
      << yes_no(r["irreducible"]) << ", period " << r["period"] << ")\n"
      << "second eigenvalue modulus  " << r["second_eigenvalue_modulus"].get<double>() << " ("
      << r["spectral_method"].get<std::string>()
      << (r["spectral_converged"].get<bool>() ? "" : ", NOT converged") << ")\n"
      << "spectral gap               " << r["spectral_gap"].get<double>() << "\n"
      << "stationary law             " << r["stationary_method"].get<std::string>() << ", min "
      << r["stationary_min"].get<double>() << (r["stationary_unique"].get<bool>() ? "" : " (not unique)")
      << "\n"
      << "mixing time bound (eps " << r["mixing_epsilon"].get<double>() << ") ";
  if (r["mixing_time_bound"].is_null()) {
    out << "none (needs a reversible, primitive W with a positive gap)";
  } else {
    out << r["mixing_time_bound"].get<double>() << " rounds (upper bound)";
  }
  out << "\n"
      << "chebyshev gamma            " << r["chebyshev_gamma"].get<double>() << " (Muffliato Algorithm 1)\n";
  for (const auto& note : r["notes"]) out << "note: " << note.get<std::string>() << "\n";
}

}  // namespace

void add_gossip_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "gossip",
      "Summarize a gossip matrix (symmetry, spectral gap, stationary law, mixing bound, Chebyshev gamma)");
  auto options = std::make_shared<GossipOptions>();
  CLI::Option* graph_option =
      cmd->add_option("--graph", options->spec, "Graph SPEC (`netdp help graphs`), e.g. hypercube:d=6")
          ->capture_default_str();
  CLI::Option* weights_option =
      cmd->add_option("--weights", options->weights, "Weighting: " + gossip::weighting_names())
          ->capture_default_str();
  cmd->add_option("--matrix", options->matrix,
                  "Read W from a Matrix Market file instead of --graph/--weights");
  cmd->add_flag("--lcc", options->lcc, "Keep only the largest connected component of --graph");
  add_read_options(cmd, options->read);
  cmd->add_option("--method", options->method, "Second eigenvalue: " + util::names_of(kMethodNames))
      ->capture_default_str();
  cmd->add_option("--mixing-epsilon", options->mixing_epsilon, "Total-variation target of the mixing bound")
      ->capture_default_str();
  cmd->add_option("--out", options->out, "Write W in Matrix Market format to FILE");
  add_output_options(cmd, options->output);
  cmd->footer(graph::spec_help());
  cmd->callback([options, graph_option, weights_option] {
    require(options->matrix.empty() || (graph_option->count() == 0 && weights_option->count() == 0),
            "--matrix {} replaces --graph and --weights (W is read from the file): give one or the other",
            options->matrix);
    const gossip::GossipMatrix w = build_matrix(*options);
    warn_graph_notes(w.graph(), options->output);
    if (!options->out.empty()) {
      gossip::write_gossip_matrix_market(options->out, w);
      write_labels_file(options->out, NodeNames(w.graph()));
    }
    const nlohmann::json result = summarize(w, *options);
    print_result(options->output, result, [&result](std::ostream& out) { print_gossip_result(out, result); });
  });
}

}  // namespace netdp::cli
