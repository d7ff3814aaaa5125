// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp factorize`: the MF problem min sens_Π(C)² · ‖L C⁻¹‖²_F for the prefix-sum or the
// decentralized-learning (MAFALDA, MF paper Lemma 10) workload, by method; prints the loss,
// sensitivity and optimality certificate and writes C as Matrix Market (docs/reference/mf.md).
#include <fmt/ostream.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "netdp/mf/correlation_io.hpp"
#include "netdp/mf/factorize_request.hpp"
#include "netdp/mf/local_gram.hpp"
#include "netdp/util/check.hpp"
#include "network_options.hpp"
#include "output.hpp"

namespace netdp::cli {
namespace {

struct FactorizeOptions {
  mf::FactorizeRequest request;  ///< the rounds and participation (the names below, parsed)
  std::string workload = "prefix-sum";
  std::string method = "optimal";
  NetworkOptions network;
  std::string out;
  OutputOptions output;
};

void run_factorize(const FactorizeOptions& options) {
  mf::FactorizeRequest o = options.request;
  o.workload = mf::parse_workload(options.workload);
  o.method = mf::parse_factorize_method(options.method);
  mf::check_factorize_request(o);
  const mf::Participation p = mf::make_participation(o.rounds, o.participations, o.separation);
  nlohmann::ordered_json j;
  j["workload"] = util::name_of(mf::kWorkloadNames, o.workload);
  std::optional<gossip::GossipMatrix> w;
  if (o.workload == mf::Workload::dl) {
    w = load_gossip_matrix(options.network, options.output);
    j["nodes"] = w->num_nodes();
    j["initial_power"] = o.initial_power;
  }
  const DenseMatrix h = mf::workload_gram(o, w ? &*w : nullptr);
  const mf::Factorization f = mf::factorize(o, h, p);
  const bool certified = f.certificate_kind != mf::CertificateKind::none && std::isfinite(f.certificate);
  j["rounds"] = o.rounds;
  j["participations"] = o.participations;
  j["separation"] = p.separation;
  j["method"] = util::name_of(mf::kFactorizeMethodNames, o.method);
  j["loss"] = f.loss;
  j["sensitivity"] = f.sensitivity;
  j["sensitivity_exact"] = f.sensitivity_exact;
  j["trace"] = f.trace;
  j["certificate"] = {{"kind", mf::to_string(f.certificate_kind)},
                      {"value", certified ? nlohmann::json(f.certificate) : nlohmann::json()},
                      {"lower_bound", f.lower_bound},
                      {"global_lower_bound", f.global_lower_bound},
                      {"iterations", f.iterations},
                      {"converged", f.converged}};
  if (!options.out.empty()) {
    mf::write_correlation(options.out, f.c);
    j["out"] = options.out;
  }
  j["warnings"] = w ? w->graph().notes() : std::vector<std::string>{};  // what the graph's reader changed
  print_result(options.output, j, [&](std::ostream& out) {
    fmt::print(out, "workload {} (T = {}, k = {}, b = {}), method {}\n",
               util::name_of(mf::kWorkloadNames, o.workload), o.rounds, o.participations, p.separation,
               util::name_of(mf::kFactorizeMethodNames, o.method));
    fmt::print(out, "loss        {:.12g}  (sens^2 * ||L C^-1||_F^2)\n", f.loss);
    fmt::print(out, "sensitivity {:.12g}{}\n", f.sensitivity, f.sensitivity_exact ? "" : "  (upper bound)");
    if (certified) {
      fmt::print(out, "certificate {} {:.3g}, lower bound {:.12g}, {} iterations, {}\n",
                 mf::to_string(f.certificate_kind), f.certificate, f.lower_bound, f.iterations,
                 f.converged ? "converged" : "NOT converged");
      if (f.global_lower_bound > 0.0)
        fmt::print(out, "global lower bound {:.12g} (over every C)\n", f.global_lower_bound);
    } else {
      fmt::print(out, "certificate none (a fixed baseline, not optimized)\n");
    }
    if (!options.out.empty()) fmt::print(out, "C written to {}\n", options.out);
  });
}

}  // namespace

void add_factorize_command(CLI::App& app) {
  auto o = std::make_shared<FactorizeOptions>();
  auto* cmd = app.add_subcommand("factorize", "Optimal / baseline MF noise correlations (MAFALDA)");
  cmd->add_option("--workload", o->workload, "prefix-sum | dl (decentralized learning, MF paper Lemma 10)")
      ->capture_default_str();
  add_network_options(cmd, o->network);
  cmd->add_option("--rounds,-T", o->request.rounds, "Gradient steps T")->capture_default_str();
  cmd->add_option("--participations,-k", o->request.participations, "Participations k per record")
      ->capture_default_str();
  cmd->add_option("--separation,-b", o->request.separation, "Steps b between participations (0: ceil(T / k))")
      ->capture_default_str();
  cmd->add_option("--initial-power", o->request.initial_power,
                  "dl workload: 1 = (I ⊗ W) W_T (MAFALDA), 0 = W_T")
      ->capture_default_str();
  cmd->add_option("--method", o->method,
                  "optimal | equal-norm | sign-relaxed | identity | sqrt | antipgd | dmf | banded")
      ->capture_default_str();
  cmd->add_option("--bands", o->request.bands, "banded: number of bands (0: the separation b)")
      ->capture_default_str();
  cmd->add_option("--out", o->out, "Write C (T x T, lower triangular) as Matrix Market");
  add_output_options(cmd, o->output);
  cmd->callback([o] { run_factorize(*o); });
}

}  // namespace netdp::cli
