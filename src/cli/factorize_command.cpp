// `netdp factorize`: the MF problem min sens_Π(C)² · ‖L C⁻¹‖²_F for the prefix-sum or the
// decentralized-learning (MAFALDA, MF paper Lemma 10) workload, by method; prints the loss,
// sensitivity and optimality certificate and writes C as Matrix Market (docs/mf.md).
#include <fmt/ostream.h>

#include <cmath>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "netdp/mf/correlation_io.hpp"
#include "netdp/mf/factorize.hpp"
#include "netdp/mf/local_gram.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "network_options.hpp"
#include "output.hpp"

namespace netdp::cli {
namespace {

struct FactorizeOptions {
  std::string workload = "prefix-sum";
  NetworkOptions network;
  std::size_t rounds = 16;
  std::size_t participations = 1;
  std::size_t separation = 0;
  std::size_t initial_power = 1;
  std::string method = "optimal";
  std::size_t bands = 0;
  std::string out;
  OutputOptions output;
};

mf::Factorization factorize(const FactorizeOptions& o, const DenseMatrix& h, const mf::Participation& p) {
  const bool prefix = o.workload == "prefix-sum";
  if (o.method == "optimal") return mf::optimal_factorization(h, p);
  if (o.method == "equal-norm") {
    mf::OptimizeOptions options;
    options.constraints = mf::MultiEpochConstraints::unit_diagonal;
    return mf::optimal_factorization(h, p, options);
  }
  if (o.method == "sign-relaxed") return mf::sign_relaxed_factorization(h, p);
  if (o.method == "dmf") return mf::dmf_factorization(h, p);
  DenseMatrix c;
  if (o.method == "identity") {
    c = mf::identity_correlation(o.rounds);
  } else if (o.method == "antipgd") {
    c = mf::antipgd_correlation(o.rounds);
  } else if (o.method == "sqrt") {
    c = prefix ? mf::prefix_sqrt_correlation(o.rounds) : mf::gram_sqrt_correlation(h);
  } else {
    c = mf::banded_sqrt_correlation(o.rounds, o.bands == 0 ? p.separation : o.bands);
  }
  return mf::evaluate_factorization(h, std::move(c), p);
}

void run_factorize(const FactorizeOptions& o) {
  require(o.workload == "prefix-sum" || o.workload == "dl", "--workload '{}' is not one of: prefix-sum, dl",
          o.workload);
  require(
      o.method == "optimal" || o.method == "equal-norm" || o.method == "sign-relaxed" ||
          o.method == "identity" || o.method == "sqrt" || o.method == "antipgd" || o.method == "dmf" ||
          o.method == "banded",
      "--method '{}' is not one of: optimal, equal-norm, sign-relaxed, identity, sqrt, antipgd, dmf, banded",
      o.method);
  require(o.rounds >= 1, "--rounds must be >= 1, got {}", o.rounds);
  const auto rounds = static_cast<double>(o.rounds);
  util::require_memory(6.0 * 8.0 * rounds * rounds, "netdp factorize",
                       fmt::format("six T × T matrices of 8-byte numbers (the workload's Gram, C, the "
                                   "optimizer's gradient and workspace), T = {}",
                                   o.rounds),
                       "lower --rounds");
  require(o.initial_power <= 1, "--initial-power must be 0 or 1, got {}", o.initial_power);
  const mf::Participation p = mf::make_participation(o.rounds, o.participations, o.separation);
  nlohmann::ordered_json j;
  j["workload"] = o.workload;
  DenseMatrix h;
  if (o.workload == "dl") {
    const gossip::GossipMatrix w = load_gossip_matrix(o.network, o.output);
    j["nodes"] = w.num_nodes();
    j["initial_power"] = o.initial_power;
    h = mf::local_gram(w, o.rounds, o.initial_power);
  } else {
    h = mf::prefix_sum_gram(o.rounds);
  }
  const mf::Factorization f = factorize(o, h, p);
  const bool certified = f.certificate_kind != mf::CertificateKind::none && std::isfinite(f.certificate);
  j["rounds"] = o.rounds;
  j["participations"] = o.participations;
  j["separation"] = p.separation;
  j["method"] = o.method;
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
  if (!o.out.empty()) {
    mf::write_correlation(o.out, f.c);
    j["out"] = o.out;
  }
  print_result(o.output, j, [&](std::ostream& out) {
    fmt::print(out, "workload {} (T = {}, k = {}, b = {}), method {}\n", o.workload, o.rounds,
               o.participations, p.separation, o.method);
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
    if (!o.out.empty()) fmt::print(out, "C written to {}\n", o.out);
  });
}

}  // namespace

void add_factorize_command(CLI::App& app) {
  auto o = std::make_shared<FactorizeOptions>();
  auto* cmd = app.add_subcommand("factorize", "Optimal / baseline MF noise correlations (MAFALDA)");
  cmd->add_option("--workload", o->workload, "prefix-sum | dl (decentralized learning, MF paper Lemma 10)")
      ->capture_default_str();
  add_network_options(cmd, o->network);
  cmd->add_option("--rounds,-T", o->rounds, "Gradient steps T")->capture_default_str();
  cmd->add_option("--participations,-k", o->participations, "Participations k per record")
      ->capture_default_str();
  cmd->add_option("--separation,-b", o->separation, "Steps b between participations (0: ceil(T / k))")
      ->capture_default_str();
  cmd->add_option("--initial-power", o->initial_power, "dl workload: 1 = (I ⊗ W) W_T (MAFALDA), 0 = W_T")
      ->capture_default_str();
  cmd->add_option("--method", o->method,
                  "optimal | equal-norm | sign-relaxed | identity | sqrt | antipgd | dmf | banded")
      ->capture_default_str();
  cmd->add_option("--bands", o->bands, "banded: number of bands (0: the separation b)")
      ->capture_default_str();
  cmd->add_option("--out", o->out, "Write C (T x T, lower triangular) as Matrix Market");
  add_output_options(cmd, o->output);
  cmd->callback([o] { run_factorize(*o); });
}

}  // namespace netdp::cli
