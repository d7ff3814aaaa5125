// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp audit`: the observer's view of the simulated protocol, attacked by the optimal test on
// two neighbouring inputs, gives a lower confidence bound on μ and ε to set beside the
// accountant's claim (docs/reference/audit.md). Exit status 3 when the claim is below the bound.

#include <fmt/ostream.h>

#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/linear_system/linear_system.hpp"
#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/accounting/muffliato/muffliato_gd_view.hpp"
#include "netdp/audit/audit.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/enum_names.hpp"
#include "network_options.hpp"
#include "node_names.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "request_options.hpp"

namespace netdp::cli {
namespace {

using accounting::Method;

struct AuditOptions {
  NetworkOptions network;
  RequestOptions accountant;  ///< --method and the claim's options, as `netdp account` takes them
  std::size_t rounds = 10;
  double sigma = 1.0;
  double delta = 1e-5;
  double sensitivity = 1.0;
  NodeOption observer;    ///< default: the node of index 0
  std::string colluders;  ///< a coalition instead of one observer
  NodeOption target;      ///< default: the node of index 1
  std::string schedule = "fixed";
  NodeOption walk_start;  ///< random-walk (default: uniform and secret)
  std::size_t trials = 100000;
  double confidence = 0.95;
  OutputOptions output;
};

/// The claim audited: the pair's row of the account `netdp account` builds from the same request
/// (for scalar releases the exact sign maximum, for vectors the certified SDP value), and what
/// the account says its values are (`upper-bound`, `exact-joint-view` or `paper-formula`).
struct Claim {
  accounting::PairRow row;
  std::string bound;
};

/// The simulated linear-system protocol's options: the claim's, over the audit's rounds.
accounting::LinearSystemOptions linear_system_options(std::size_t rounds,
                                                      const accounting::AccountRequest& r) {
  accounting::LinearSystemOptions options = accounting::linear_system_options(r);
  options.rounds = rounds;
  return options;
}

Claim claimed_row(const AuditOptions& o, accounting::AccountRequest request,
                  const accounting::Protocol& protocol, const audit::Attackers& attackers,
                  graph::NodeId target) {
  accounting::PairQuery query;
  if (o.colluders.empty()) {
    if (!attackers.nodes.empty()) query.observer = attackers.nodes.front();
  } else {
    query.colluders = attackers.nodes;
  }
  query.target = target;
  // Scalar releases are claimed at the exact sign maximum (a vector's at the certified SDP value).
  if (request.release_dimension_or_default() == 1) request.sign_search = accounting::SignSearch::automatic;
  const std::unique_ptr<accounting::PairwiseAccount> account =
      accounting::make_account(protocol, query, request);
  Claim claim;
  account->stream_rows(o.sigma, o.delta,
                       [&claim](std::span<const accounting::PairRow> rows) { claim.row = rows.front(); });
  claim.bound = util::name_of(accounting::kGuaranteeNames, account->guarantee());
  return claim;
}

audit::MfAuditSpec mf_spec(const AuditOptions& o, const accounting::AccountRequest& request) {
  audit::MfAuditSpec spec;
  spec.algorithm = accounting::mf_algorithm_spec(request);
  spec.trust = request.trust_or_default();
  spec.rounds = o.rounds;
  spec.participation = accounting::mf_participation(request, o.rounds);
  return spec;
}

/// The attackers (--observer, or the coalition of --colluders) and the target (default: the
/// node of index 1, or with colluders the first node outside the coalition).
std::pair<audit::Attackers, graph::NodeId> resolve_attackers(const AuditOptions& o,
                                                             const accounting::AccountRequest& request,
                                                             const graph::Graph& g) {
  if (request.method == Method::mf && request.trust == accounting::MfTrust::ldp) {
    require(!o.observer.given() && o.colluders.empty(),
            "--trust ldp has no observer nor colluders: every message is public");
    require(g.num_nodes() >= 2, "the graph needs a target and another node: it has {} node(s)",
            g.num_nodes());
    return {audit::Attackers(), resolve_node(g, o.target, "target").value_or(1)};
  }
  if (o.colluders.empty()) {
    const auto [observer, target] = resolve_pair(g, o.observer, o.target);
    return {audit::Attackers(observer), target};
  }
  require(!o.observer.given(), "give --observer or --colluders, not both");
  std::vector<graph::NodeId> coalition = resolve_node_list(g, o.colluders, "colluders");
  std::optional<graph::NodeId> target = resolve_node(g, o.target, "target");
  for (graph::NodeId u = 0; !target && u < g.num_nodes(); ++u)
    if (std::find(coalition.begin(), coalition.end(), u) == coalition.end()) target = u;
  require(target.has_value(), "--colluders names all {} nodes: there is no target left", g.num_nodes());
  require(std::find(coalition.begin(), coalition.end(), *target) == coalition.end(),
          "--target '{}' is one of the --colluders", g.label(*target));
  return {audit::Attackers(std::move(coalition)), *target};
}

void run_audit(const AuditOptions& o) {
  const accounting::AccountRequest req = o.accountant.resolved();
  const accounting::Contributions contributions = req.contributions_or_default();
  const std::string method_name(util::name_of(accounting::kMethodNames, req.method));
  const std::string algorithm_name(accounting::to_string(req.algorithm_or_default()));
  const std::string trust_name(accounting::to_string(req.trust_or_default()));
  const std::string view_name(accounting::linear_system_view_name(req.view_or_default()));
  accounting::check_request(req);
  require(req.method == Method::random_walk || !o.walk_start.given(),
          "--walk-start applies to --method random-walk only");
  require(req.method != Method::random_walk || o.schedule == "fixed",
          "--method random-walk walks on the fixed W: --schedule {} does not apply", o.schedule);
  require(
      req.method != Method::random_walk || contributions.cap == 0,
      "--contributions {}: the audited walk enforces no cap on contributions, so its claim is tail, worst "
      "or expected (a number is a cap the protocol enforces, Remark 5)",
      contributions.name());
  require(!req.authors_convention,
          "--authors-convention: the audit simulates the paper's message convention");
  require(!req.keep_observer_noise,
          "--keep-observer-noise: in the audit the observer knows its own injections");
  require(req.bound == accounting::MuffliatoBound::paper || !req.count_observer_noise,
          "--count-observer-noise applies to --bound paper only");
  require_positive(o.sigma, "--sigma");
  require_positive(o.sensitivity, "--sensitivity");
  require(o.rounds >= 1, "--rounds must be >= 1, got {}", o.rounds);
  require(o.delta > 0.0 && o.delta < 1.0, "--delta must be in (0, 1), got {}", o.delta);
  require(o.trials >= 1 && o.trials <= audit::kMaxAuditTrials, "--trials must be in 1..{}, got {}",
          audit::kMaxAuditTrials, o.trials);
  require(o.confidence > 0.0 && o.confidence < 1.0, "--confidence must be in (0, 1), got {}", o.confidence);
  const gossip::GossipMatrix w = load_gossip_matrix(o.network, o.output);
  // Named variables, not structured bindings: the lambdas below capture them.
  const std::pair<audit::Attackers, graph::NodeId> resolved = resolve_attackers(o, req, w.graph());
  const audit::Attackers& attackers = resolved.first;
  const graph::NodeId target = resolved.second;
  const NodeNames names(w.graph());
  const accounting::Protocol protocol =
      make_protocol(w, o.network, o.schedule, o.rounds, o.output.seed, o.sensitivity);
  const Claim claimed = claimed_row(o, req, protocol, attackers, target);
  const accounting::PairRow& claim = claimed.row;

  ProgressReporter progress = ProgressReporter::for_stderr(o.output.quiet, "netdp audit");
  const std::size_t calibration =
      req.method == Method::random_walk ? std::min(o.trials, audit::kMaxWalkCalibrationTrials) : 0;
  progress.phase(calibration > 0 ? "calibration and trials (both inputs)" : "trials (both inputs)",
                 2 * (calibration + o.trials));
  audit::AuditOptions settings;
  settings.trials = o.trials;
  settings.seed = o.output.seed;
  settings.confidence = o.confidence;
  settings.delta = o.delta;
  settings.progress = [&progress](std::size_t done) { progress.update(done); };
  const std::size_t dimension = req.release_dimension_or_default();
  // Muffliato-GD gossips --rounds rounds per gradient step with that step's matrix.
  const gossip::Schedule schedule =
      req.gradient_steps > 0
          ? accounting::muffliato_gd_rounds(accounting::protocol_schedule(protocol, req.gradient_steps),
                                            req.gradient_steps, o.rounds)
          : accounting::protocol_schedule(protocol, o.rounds * req.gossip_steps_or_default());
  const std::optional<graph::NodeId> walk_start = resolve_node(w.graph(), o.walk_start, "walk-start");
  const audit::AuditResult r =
      req.method == Method::random_walk
          ? audit::audit_random_walk(w, attackers, target, o.sigma, o.sensitivity, o.rounds, walk_start,
                                     accounting::random_walk_view(req), settings)
      : req.method == Method::muffliato && req.gradient_steps > 0
          ? audit::audit_muffliato_gd(schedule, attackers, target, o.sigma, o.sensitivity, req.gradient_steps,
                                      o.rounds, dimension, settings)
      : req.method == Method::muffliato
          ? audit::audit_muffliato(schedule, attackers, target, o.sigma, o.sensitivity, settings)
      : req.method == Method::linear_system
          ? audit::audit_linear_system(schedule, attackers, target, o.sigma, o.sensitivity,
                                       linear_system_options(o.rounds, req), dimension, settings)
          : audit::audit_mf(w, attackers, target, o.sigma, o.sensitivity, mf_spec(o, req), dimension,
                            settings);
  progress.finish();

  const double claimed_mu = claim.mu.value_or(std::numeric_limits<double>::infinity());
  const bool violation = r.bound.mu > claimed_mu || r.bound.epsilon > claim.epsilon;
  nlohmann::ordered_json j;
  j["graph"] = o.network.graph_spec;
  j["weights"] = o.network.weights;
  j["method"] = method_name;
  j["rounds"] = o.rounds;
  j["schedule"] = o.schedule;
  j["sigma"] = o.sigma;
  j["delta"] = o.delta;
  j["sensitivity"] = o.sensitivity;
  if (attackers.nodes.empty()) {
    j["observer"] = nullptr;  // LDP: every message is public
  } else if (o.colluders.empty()) {
    j["observer"] = names.json(attackers.nodes.front());
  } else {
    nlohmann::ordered_json members = nlohmann::ordered_json::array();
    for (const graph::NodeId v : attackers.nodes) members.push_back(names.json(v));
    j["colluders"] = std::move(members);
  }
  j["target"] = names.json(target);
  j["bound"] = claimed.bound;
  if (req.method == Method::mf) {
    j["algorithm"] = algorithm_name;
    j["trust"] = trust_name;
    j["participation"] = accounting::mf_participation_name(req);
  }
  if (req.method == Method::linear_system) j["view"] = view_name;
  if (req.method == Method::random_walk) {
    j["contributions"] = contributions.name();
    j["claimed_contributions"] = claim.contributions.value_or(0.0);
    j["sender_known"] = req.sender_known;
    j["walk_start"] = walk_start ? names.json(*walk_start) : nlohmann::ordered_json("uniform");
  }
  if (req.gradient_steps > 0) j["gradient_steps"] = req.gradient_steps;
  if (req.method == Method::linear_system || req.method == Method::mf)
    j["gossip_steps"] = req.gossip_steps_or_default();
  if (req.method == Method::linear_system || req.method == Method::mf || req.gradient_steps > 0) {
    j["release_dimension"] = accounting::release_dimension_name(dimension);
    j["dimension"] = r.dimension;
  }
  j["trials"] = r.trials;
  j["confidence"] = o.confidence;
  j["seed"] = o.output.seed;
  j["messages"] = r.messages;
  j["claimed_mu"] = claim.mu ? nlohmann::ordered_json(*claim.mu) : nlohmann::ordered_json(nullptr);
  j["claimed_epsilon"] = claim.epsilon;
  j["empirical_mu_lower"] = r.bound.mu;
  j["empirical_epsilon_lower"] = r.bound.epsilon;
  j["empirical_mu_estimate"] = r.bound.mu_estimate;
  j["attack_mu"] = r.attack_mu ? nlohmann::ordered_json(*r.attack_mu) : nlohmann::ordered_json(nullptr);
  j["test"] = req.method == Method::random_walk ? "likelihood-ratio" : "neyman-pearson";
  j["threshold"] = r.threshold;
  j["calibration_trials"] = r.calibration_trials;
  j["false_positives"] = r.false_positives;
  j["false_negatives"] = r.false_negatives;
  j["false_positive_upper"] = r.bound.false_positive_upper;
  j["false_negative_upper"] = r.bound.false_negative_upper;
  j["verdict"] = violation ? "VIOLATION" : "consistent";
  j["warnings"] = w.graph().notes();  // what the graph's reader changed
  j["run"] = run_json(o.network, o.output);
  print_result(o.output, j, [&](std::ostream& out) {
    fmt::print(out, "netdp audit: {} on graph {} ({} nodes), weights {}, T = {}, sigma {}, delta {}\n",
               req.method == Method::random_walk ? "random walk (contributions " + contributions.name() + ")"
               : req.method == Method::muffliato ? std::string("Muffliato")
               : req.method == Method::linear_system
                   ? "linear-system view " + view_name
                   : "MF view of " + algorithm_name + " (" + trust_name + ")",
               o.network.graph_spec, w.num_nodes(), o.network.weights, o.rounds, o.sigma, o.delta);
    std::string who;
    for (const graph::NodeId v : attackers.nodes) who += (who.empty() ? "" : ",") + names.label(v);
    fmt::print(out, "{} ({} messages), target {}; {} trials per input, seed {}\n",
               attackers.nodes.empty() ? "every message public"
               : o.colluders.empty()   ? "observer " + who
                                       : "colluders " + who,
               r.messages, names.label(target), r.trials, o.output.seed);
    fmt::print(out, "claimed ({}):   mu {}  epsilon {:.6g}\n", j["bound"].get<std::string>(),
               claim.mu ? fmt::format("{:.6g}", *claim.mu) : std::string("none (an RDP claim)"),
               claim.epsilon);
    fmt::print(
        out,
        "empirical, {:g}% lower confidence bound:  mu {:.6g}  epsilon {:.6g}  (point estimate mu {:.6g})\n",
        100.0 * o.confidence, r.bound.mu, r.bound.epsilon, r.bound.mu_estimate);
    if (r.calibration_trials > 0) {
      fmt::print(out,
                 "attack: the likelihood ratio of the walk's view, threshold {:.6g} chosen on {} calibration "
                 "runs per input; {} false positives and {} false negatives\n",
                 r.threshold, r.calibration_trials, r.false_positives, r.false_negatives);
    } else {
      fmt::print(out, "attack: the Neyman-Pearson test, {} false positives and {} false negatives\n",
                 r.false_positives, r.false_negatives);
    }
    fmt::print(out, "verdict: {}\n",
               violation ? "VIOLATION (the claim is below what the attack proves)" : "consistent");
  });
  if (violation) throw ExitStatus{3};
}

}  // namespace

void add_audit_command(CLI::App& app) {
  auto o = std::make_shared<AuditOptions>();
  auto* cmd = app.add_subcommand(
      "audit",
      "Attack the simulated protocol and check the accountant's claim with a lower confidence bound");
  add_network_options(cmd, o->network);
  add_request_options(cmd, o->accountant, true);
  cmd->add_option("--rounds,-T", o->rounds, "Rounds T (gossip rounds, or the walk's steps)")
      ->capture_default_str();
  cmd->add_option("--sigma", o->sigma, "Noise standard deviation σ")->capture_default_str();
  cmd->add_option("--delta", o->delta, "δ of the ε compared")->capture_default_str();
  cmd->add_option("--sensitivity", o->sensitivity, "L2 sensitivity Δ: the change d of the target's input")
      ->capture_default_str();
  add_node_option(cmd, o->observer, "observer", "The attacking observer (default: the node of index 0)");
  cmd->add_option("--colluders", o->colluders,
                  "A coalition attacking together, by labels (e.g. 1,5,7): it pools the messages its members "
                  "receive (or the visits of its members) and knows all their inputs");
  add_node_option(cmd, o->target, "target", "The target (default: the node of index 1)");
  cmd->add_option("--schedule", o->schedule, "fixed | pairwise | er-per-round:p=P | dropout:p=P")
      ->capture_default_str();
  add_node_option(cmd, o->walk_start, "walk-start",
                  "random-walk: the token's start, public (default: a uniformly drawn node, kept secret)");
  cmd->add_option("--trials", o->trials, "Protocol runs per input (x_u and x_u + Δ)")->capture_default_str();
  cmd->add_option("--confidence", o->confidence, "Confidence of the lower bounds")->capture_default_str();
  add_output_options(cmd, o->output);
  cmd->callback([o] { run_audit(*o); });
}

}  // namespace netdp::cli
