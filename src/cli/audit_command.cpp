// `netdp audit`: the observer's view of the simulated protocol, attacked by the optimal test on
// two neighbouring inputs, gives a lower confidence bound on μ and ε to set beside the
// accountant's claim (docs/audit.md). Exit status 3 when the claim is below the bound.

#include <fmt/ostream.h>

#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "mf_options.hpp"
#include "netdp/accounting/linear_system.hpp"
#include "netdp/accounting/mf_accountant.hpp"
#include "netdp/accounting/muffliato_gd_view.hpp"
#include "netdp/accounting/pairwise.hpp"
#include "netdp/learn/audit.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/enum_names.hpp"
#include "network_options.hpp"
#include "node_names.hpp"
#include "output.hpp"
#include "progress.hpp"

namespace netdp::cli {
namespace {

struct AuditOptions {
  NetworkOptions network;
  std::string method = "muffliato";
  std::size_t gradient_steps = 0;  ///< muffliato: Muffliato-GD with this many steps of --rounds rounds
  std::size_t rounds = 10;
  double sigma = 1.0;
  double delta = 1e-5;
  double sensitivity = 1.0;
  NodeOption observer;    ///< default: the node of index 0
  std::string colluders;  ///< a coalition instead of one observer
  NodeOption target;      ///< default: the node of index 1
  std::string schedule = "fixed";
  std::string bound = "exact";
  bool count_observer_noise = false;
  std::string view = "secure-sum";  ///< linear-system
  std::optional<int> first_power;
  std::size_t gossip_steps = 1;
  std::string release_dimension = "vector";
  MfCommandOptions mf;
  std::string contributions = "tail";  ///< random-walk
  double tail_share = 0.1;             ///< random-walk
  bool sender_known = false;           ///< random-walk
  NodeOption walk_start;               ///< random-walk (default: uniform and secret)
  std::size_t trials = 100000;
  double confidence = 0.95;
  OutputOptions output;
};

accounting::LinearSystemOptions linear_system_options(const AuditOptions& o) {
  accounting::LinearSystemOptions options;
  options.view = accounting::parse_linear_system_view(o.view);
  options.first_power = o.first_power;
  options.gossip_steps = o.gossip_steps;
  options.rounds = o.rounds;
  return options;
}

accounting::RandomWalkView walk_view(const AuditOptions& o) {
  return o.sender_known ? accounting::RandomWalkView::sender_known
                        : accounting::RandomWalkView::anonymous_sender;
}

/// The accountant's claim for the pair: its row's μ and ε (for scalar linear-system releases the
/// exact sign maximum, for vectors the certified SDP value).
accounting::PairRow claimed_row(const AuditOptions& o, const accounting::Protocol& protocol,
                                const learn::Attackers& attackers, graph::NodeId target) {
  accounting::PairQuery query;
  if (o.colluders.empty()) {
    if (!attackers.nodes.empty()) query.observer = attackers.nodes.front();
  } else {
    query.colluders = attackers.nodes;
  }
  query.target = target;
  std::unique_ptr<accounting::PairwiseAccount> account;
  if (o.method == "random-walk") {
    accounting::RandomWalkOptions options;
    require(util::find_enum(accounting::kContributionCountNames, o.contributions).has_value() ||
                o.contributions.empty() || !std::isdigit(static_cast<unsigned char>(o.contributions.front())),
            "--contributions {}: the audited walk enforces no cap on contributions, so its claim is tail, "
            "worst or expected (a number is a cap the protocol enforces, Remark 5)",
            o.contributions);
    options.count = util::parse_enum(accounting::kContributionCountNames, o.contributions, "--contributions");
    options.tail_share = o.tail_share;
    options.view = walk_view(o);
    account = accounting::random_walk_account(protocol, query, options);
  } else if (o.method == "muffliato") {
    accounting::MuffliatoOptions options;
    options.bound = util::parse_enum(accounting::kMuffliatoBoundNames, o.bound, "--bound");
    options.observer_noise =
        o.count_observer_noise ? accounting::ObserverNoise::counted : accounting::ObserverNoise::known;
    options.release_dimension =
        accounting::parse_release_dimension(o.release_dimension, "--release-dimension");
    account = accounting::muffliato_account(protocol, query, options, o.gradient_steps);
  } else {
    const accounting::AssessOptions release{
        accounting::SignSearch::automatic,
        accounting::parse_release_dimension(o.release_dimension, "--release-dimension")};
    if (o.method == "linear-system") {
      account = accounting::linear_system_account(protocol, query, linear_system_options(o), release);
    } else {
      accounting::MfOptions options;
      options.assess = release;
      options.participation = o.mf.participation();
      account = accounting::mf_account(protocol, query, o.mf.algorithm_spec(o.gossip_steps),
                                       accounting::parse_mf_trust(o.mf.trust), options);
    }
  }
  accounting::PairRow row;
  account->stream_rows(o.sigma, o.delta,
                       [&row](std::span<const accounting::PairRow> rows) { row = rows.front(); });
  return row;
}

learn::MfAuditSpec mf_spec(const AuditOptions& o) {
  learn::MfAuditSpec spec;
  spec.algorithm = o.mf.algorithm_spec(o.gossip_steps);
  spec.trust = accounting::parse_mf_trust(o.mf.trust);
  spec.rounds = o.rounds;
  spec.participation = o.mf.participation();
  return spec;
}

/// The attackers (--observer, or the coalition of --colluders) and the target (default: the
/// node of index 1, or with colluders the first node outside the coalition).
std::pair<learn::Attackers, graph::NodeId> resolve_attackers(const AuditOptions& o, const graph::Graph& g) {
  if (o.method == "mf" && o.mf.trust == "ldp") {
    require(!o.observer.given() && o.colluders.empty(),
            "--trust ldp has no observer nor colluders: every message is public");
    require(g.num_nodes() >= 2, "the graph needs a target and another node: it has {} node(s)",
            g.num_nodes());
    return {learn::Attackers(), resolve_node(g, o.target, "target").value_or(1)};
  }
  if (o.colluders.empty()) {
    const auto [observer, target] = resolve_pair(g, o.observer, o.target);
    return {learn::Attackers(observer), target};
  }
  require(!o.observer.given(), "give --observer or --colluders, not both");
  std::vector<graph::NodeId> coalition = resolve_node_list(g, o.colluders, "colluders");
  std::optional<graph::NodeId> target = resolve_node(g, o.target, "target");
  for (graph::NodeId u = 0; !target && u < g.num_nodes(); ++u)
    if (std::find(coalition.begin(), coalition.end(), u) == coalition.end()) target = u;
  require(target.has_value(), "--colluders names all {} nodes: there is no target left", g.num_nodes());
  require(std::find(coalition.begin(), coalition.end(), *target) == coalition.end(),
          "--target '{}' is one of the --colluders", g.label(*target));
  return {learn::Attackers(std::move(coalition)), *target};
}

void run_audit(const AuditOptions& o) {
  require(
      o.method == "muffliato" || o.method == "linear-system" || o.method == "mf" || o.method == "random-walk",
      "--method {}: the audit simulates muffliato (gossip averaging), linear-system, mf (dp-d-sgd and "
      "muffliato-sgd) and random-walk",
      o.method);
  require(
      o.method == "random-walk" ||
          (o.contributions == "tail" && o.tail_share == 0.1 && !o.sender_known && !o.walk_start.given()),
      "--contributions, --tail-share, --sender-known and --walk-start apply to --method random-walk only");
  require(o.method != "random-walk" || (o.schedule == "fixed" && o.release_dimension == "vector" &&
                                        o.gossip_steps == 1 && o.view == "secure-sum" && !o.first_power),
          "--method random-walk walks on the fixed W: --schedule, --view, --first-power, --gossip-steps and "
          "--release-dimension do not apply");
  require(
      o.method == "mf" || (o.mf.trust == "pndp" && o.mf.algorithm == "dp-d-sgd" && o.mf.participations == 0 &&
                           o.mf.separation == 0 && o.mf.correlation_path.empty()),
      "--trust, --algorithm, --participations, --separation and --correlation apply to --method mf only");
  require(o.method == "muffliato" || o.bound == "exact", "--bound paper applies to --method muffliato only");
  require(o.method == "muffliato" || o.gradient_steps == 0,
          "--gradient-steps applies to --method muffliato only");
  require((o.method != "muffliato" && o.method != "random-walk") ||
              (o.view == "secure-sum" && !o.first_power && o.gossip_steps == 1),
          "--view, --first-power and --gossip-steps apply to --method linear-system and mf only");
  require(o.method == "linear-system" || o.method == "mf" || o.gradient_steps > 0 ||
              o.release_dimension == "vector",
          "--release-dimension applies to --method linear-system, mf, and muffliato with --gradient-steps");
  require(o.method != "mf" || (o.view == "secure-sum" && !o.first_power),
          "--view and --first-power apply to --method linear-system only");
  require_positive(o.sigma, "--sigma");
  require_positive(o.sensitivity, "--sensitivity");
  require(o.rounds >= 1, "--rounds must be >= 1, got {}", o.rounds);
  require(o.delta > 0.0 && o.delta < 1.0, "--delta must be in (0, 1), got {}", o.delta);
  require(o.trials >= 1 && o.trials <= learn::kMaxAuditTrials, "--trials must be in 1..{}, got {}",
          learn::kMaxAuditTrials, o.trials);
  require(o.confidence > 0.0 && o.confidence < 1.0, "--confidence must be in (0, 1), got {}", o.confidence);
  require(o.bound == "paper" || !o.count_observer_noise,
          "--count-observer-noise applies to --bound paper only");
  const gossip::GossipMatrix w = load_gossip_matrix(o.network, o.output);
  // Named variables, not structured bindings: the lambdas below capture them.
  const std::pair<learn::Attackers, graph::NodeId> resolved = resolve_attackers(o, w.graph());
  const learn::Attackers& attackers = resolved.first;
  const graph::NodeId target = resolved.second;
  const NodeNames names(w.graph());
  const accounting::Protocol protocol =
      make_protocol(w, o.network, o.schedule, o.rounds, o.output.seed, o.sensitivity);
  const accounting::PairRow claim = claimed_row(o, protocol, attackers, target);

  ProgressReporter progress = ProgressReporter::for_stderr(o.output.quiet, "netdp audit");
  const std::size_t calibration =
      o.method == "random-walk" ? std::min(o.trials, learn::kMaxWalkCalibrationTrials) : 0;
  progress.phase(calibration > 0 ? "calibration and trials (both inputs)" : "trials (both inputs)",
                 2 * (calibration + o.trials));
  learn::AuditOptions audit;
  audit.trials = o.trials;
  audit.seed = o.output.seed;
  audit.confidence = o.confidence;
  audit.delta = o.delta;
  audit.progress = [&progress](std::size_t done) { progress.update(done); };
  const std::size_t dimension =
      accounting::parse_release_dimension(o.release_dimension, "--release-dimension");
  // Muffliato-GD gossips --rounds rounds per gradient step with that step's matrix.
  const gossip::Schedule schedule =
      o.gradient_steps > 0
          ? accounting::muffliato_gd_rounds(accounting::protocol_schedule(protocol, o.gradient_steps),
                                            o.gradient_steps, o.rounds)
          : accounting::protocol_schedule(protocol, o.rounds * o.gossip_steps);
  const std::optional<graph::NodeId> walk_start = resolve_node(w.graph(), o.walk_start, "walk-start");
  const learn::AuditResult r =
      o.method == "random-walk" ? learn::audit_random_walk(w, attackers, target, o.sigma, o.sensitivity,
                                                           o.rounds, walk_start, walk_view(o), audit)
      : o.method == "muffliato" && o.gradient_steps > 0
          ? learn::audit_muffliato_gd(schedule, attackers, target, o.sigma, o.sensitivity, o.gradient_steps,
                                      o.rounds, dimension, audit)
      : o.method == "muffliato"
          ? learn::audit_muffliato(schedule, attackers, target, o.sigma, o.sensitivity, audit)
      : o.method == "linear-system"
          ? learn::audit_linear_system(schedule, attackers, target, o.sigma, o.sensitivity,
                                       linear_system_options(o), dimension, audit)
          : learn::audit_mf(w, attackers, target, o.sigma, o.sensitivity, mf_spec(o), dimension, audit);
  progress.finish();

  const double claimed_mu = claim.mu.value_or(std::numeric_limits<double>::infinity());
  const bool violation = r.bound.mu > claimed_mu || r.bound.epsilon > claim.epsilon;
  nlohmann::ordered_json j;
  j["graph"] = o.network.graph_spec;
  j["weights"] = o.network.weights;
  j["method"] = o.method;
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
  const bool paper_claim = o.bound == "paper" || (o.method == "random-walk" && o.contributions == "expected");
  j["bound"] = paper_claim ? "paper-formula" : o.method == "muffliato" ? "exact-joint-view" : "upper-bound";
  if (o.method == "mf") {
    j["algorithm"] = o.mf.algorithm;
    j["trust"] = o.mf.trust;
    j["participation"] = o.mf.participation_name();
  }
  if (o.method == "linear-system") j["view"] = o.view;
  if (o.method == "random-walk") {
    j["contributions"] = o.contributions;
    j["claimed_contributions"] = claim.contributions.value_or(0.0);
    j["sender_known"] = o.sender_known;
    j["walk_start"] = walk_start ? names.json(*walk_start) : nlohmann::ordered_json("uniform");
  }
  if (o.gradient_steps > 0) j["gradient_steps"] = o.gradient_steps;
  if (o.method == "linear-system" || o.method == "mf") j["gossip_steps"] = o.gossip_steps;
  if (o.method == "linear-system" || o.method == "mf" || o.gradient_steps > 0) {
    j["release_dimension"] = o.release_dimension;
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
  j["test"] = o.method == "random-walk" ? "likelihood-ratio" : "neyman-pearson";
  j["threshold"] = r.threshold;
  j["calibration_trials"] = r.calibration_trials;
  j["false_positives"] = r.false_positives;
  j["false_negatives"] = r.false_negatives;
  j["false_positive_upper"] = r.bound.false_positive_upper;
  j["false_negative_upper"] = r.bound.false_negative_upper;
  j["verdict"] = violation ? "VIOLATION" : "consistent";
  print_result(o.output, j, [&](std::ostream& out) {
    fmt::print(out, "netdp audit: {} on graph {} ({} nodes), weights {}, T = {}, sigma {}, delta {}\n",
               o.method == "random-walk"     ? "random walk (contributions " + o.contributions + ")"
               : o.method == "muffliato"     ? std::string("Muffliato")
               : o.method == "linear-system" ? "linear-system view " + o.view
                                             : "MF view of " + o.mf.algorithm + " (" + o.mf.trust + ")",
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
  add_mf_options(cmd, o->mf);
  cmd->add_option(
         "--method", o->method,
         "muffliato (gossip averaging) | linear-system (Koskela-Kulkarni) | mf (the MF paper's views, "
         "pndp) | random-walk (the token's walk, eq. 7)")
      ->capture_default_str();
  cmd->add_option("--gradient-steps", o->gradient_steps,
                  "muffliato: Muffliato-GD with this many gradient steps of --rounds gossip rounds each");
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
  cmd->add_option("--bound", o->bound,
                  "The claim audited: exact (the joint view) | paper (Theorem 1, not a bound)")
      ->capture_default_str();
  cmd->add_flag("--count-observer-noise", o->count_observer_noise,
                "--bound paper: the claim counts the observer's own noise (Theorem 1 as printed)");
  cmd->add_option("--view", o->view, "linear-system: secure-sum | secure-sum-adaptive | plain")
      ->capture_default_str();
  cmd->add_option("--first-power", o->first_power,
                  "linear-system: first power of W, 0 or 1 (default: the paper's)");
  cmd->add_option("--gossip-steps,-K", o->gossip_steps, "linear-system, mf: gossip steps per injection")
      ->capture_default_str();
  cmd->add_option("--release-dimension", o->release_dimension,
                  "linear-system, mf: vector (the attacker picks unit directions of dimension T) | 1 (signs)")
      ->capture_default_str();
  cmd->add_option("--contributions", o->contributions,
                  "random-walk: the claim's N_u: tail | worst | expected (T/n, the paper's: not a bound)")
      ->capture_default_str();
  cmd->add_option(
         "--tail-share", o->tail_share,
         "random-walk --contributions tail: the share of delta spent on the count's failure probability")
      ->capture_default_str();
  cmd->add_flag("--sender-known", o->sender_known,
                "random-walk: the observer knows who sent the token (Appendix B.1)");
  add_node_option(cmd, o->walk_start, "walk-start",
                  "random-walk: the token's start, public (default: a uniformly drawn node, kept secret)");
  cmd->add_option("--trials", o->trials, "Protocol runs per input (x_u and x_u + Δ)")->capture_default_str();
  cmd->add_option("--confidence", o->confidence, "Confidence of the lower bounds")->capture_default_str();
  add_output_options(cmd, o->output);
  cmd->callback([o] { run_audit(*o); });
}

}  // namespace netdp::cli
