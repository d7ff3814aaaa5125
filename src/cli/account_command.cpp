// `netdp account`: pairwise privacy of every (observer, target) pair under one
// of the accountants, with a summary by distance, baselines and calibration.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include "account_methods.hpp"
#include "commands.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/check.hpp"
#include "network_options.hpp"
#include "output.hpp"
#include "parse_list.hpp"

namespace netdp::cli {
namespace {

struct AccountOptions {
  NetworkOptions network;
  AccountRequest request;
  std::string colluders;
  std::string group;
  std::optional<double> target_epsilon;
  std::string calibrate_on = "mean";
  bool json = false;
  bool csv = false;
  bool summary_only = false;
  bool quiet = false;
  std::string out;
};

std::vector<graph::NodeId> parse_node_list(const std::string& list, const char* flag) {
  std::vector<graph::NodeId> nodes;
  for (std::uint64_t value : parse_unsigned_list(list, flag)) {
    for (graph::NodeId seen : nodes)
      require(seen != value, "{} '{}': node {} is repeated", flag, list, value);
    nodes.push_back(static_cast<graph::NodeId>(value));
  }
  return nodes;
}

// Progress on stderr, only for a terminal and without --quiet.
Progress make_progress(bool quiet, const std::string& label) {
  if (quiet || isatty(fileno(stderr)) == 0) return {};
  return [label](std::size_t done, std::size_t total) {
    std::cerr << "\r" << label << " " << done << "/" << total << (done == total ? "\n" : "") << std::flush;
  };
}

// Hop distances from each observer (a coalition: its nearest member) to each
// target (a group: its nearest member) in the base graph.
void fill_distances(std::vector<AccountRow>& rows, const graph::Graph& g, const AccountRequest& r) {
  const auto nearest = [&g](const std::vector<graph::NodeId>& set) {
    std::vector<std::uint32_t> best;
    for (graph::NodeId member : set) {
      const std::vector<std::uint32_t> d = graph::bfs_distances(g, member);
      if (best.empty()) best = d;
      for (std::size_t v = 0; v < d.size(); ++v) best[v] = std::min(best[v], d[v]);
    }
    return best;
  };
  const std::vector<std::uint32_t> from_coalition = nearest(r.colluders);
  const std::vector<std::uint32_t> from_group = nearest(r.group);
  std::optional<graph::NodeId> current;
  std::vector<std::uint32_t> dist;
  for (AccountRow& row : rows) {
    std::uint32_t hops = 0;
    if (!r.group.empty()) {
      hops = from_group[row.observer];
    } else if (!r.colluders.empty()) {
      hops = from_coalition[row.target];
    } else {
      if (current != row.observer) {
        dist = graph::bfs_distances(g, row.observer);
        current = row.observer;
      }
      hops = dist[row.target];
    }
    if (hops != graph::kUnreachable) row.distance = hops;
  }
}

double statistic(const std::vector<AccountRow>& rows, const std::string& on) {
  require(!rows.empty(), "calibration needs at least one pair");
  double value = on == "mean" ? 0.0 : -1.0;
  for (const AccountRow& row : rows)
    value = on == "mean" ? value + row.epsilon : std::max(value, row.epsilon);
  return on == "mean" ? value / static_cast<double>(rows.size()) : value;
}

// The smallest σ (within 1e-9 relative, rounded up) whose statistic of ε is <= target.
// ε decreases in σ for every accountant, so bisection on log σ is safe.
double calibrate(const Accountant& accountant, double sigma0, double target, const std::string& on) {
  const auto stat = [&](double sigma) { return statistic(accountant.rows(sigma), on); };
  double lo = sigma0;
  double hi = sigma0;
  int steps = 0;
  if (stat(sigma0) > target) {
    while (stat(hi) > target) {
      lo = hi;
      hi *= 2.0;
      require(++steps < 200, "--target-epsilon {} is unreachable: the {} ε stays above it for every σ",
              target, on);
    }
  } else {
    while (stat(lo) <= target) {
      hi = lo;
      lo /= 2.0;
      require(++steps < 200, "--target-epsilon {}: the {} ε stays below it for every σ", target, on);
    }
  }
  while (hi - lo > 1e-10 * hi) {
    const double mid = std::sqrt(lo * hi);
    (stat(mid) <= target ? hi : lo) = mid;
  }
  return hi;
}

nlohmann::ordered_json parameters_json(const AccountOptions& o, std::size_t n) {
  const AccountRequest& r = o.request;
  nlohmann::ordered_json p;
  p["graph"] = o.network.graph_spec;
  p["lcc"] = o.network.lcc;
  p["weights"] = o.network.weights;
  p["nodes"] = n;
  p["method"] = r.method;
  p["rounds"] = r.rounds;
  p["schedule"] = r.schedule;
  p["seed"] = r.seed;
  p["sensitivity"] = r.sensitivity;
  p["alpha"] = r.alpha ? nlohmann::ordered_json(*r.alpha) : nlohmann::ordered_json(nullptr);
  if (r.method == "muffliato") {
    p["messages"] = r.authors_convention ? "authors-code" : "paper";
    p["observer_noise"] = r.count_observer_noise ? "counted" : "known";
    p["group"] = r.group;
    p["gradient_steps"] = r.gradient_steps;
  } else if (r.method == "random-walk") {
    p["contributions"] =
        r.contributions ? nlohmann::ordered_json(*r.contributions) : nlohmann::ordered_json("T/n");
    p["sender_known"] = r.sender_known;
  } else if (r.method == "linear-system") {
    p["view"] = r.view;
    p["first_power"] =
        r.first_power ? nlohmann::ordered_json(*r.first_power) : nlohmann::ordered_json("paper");
    p["gossip_steps"] = r.gossip_steps;
    p["keep_observer_noise"] = r.keep_observer_noise;
    p["sign_search"] = r.sign_search;
  } else if (r.method == "mf") {
    p["sign_search"] = r.sign_search;
    p["trust"] = r.trust;
    p["algorithm"] = r.algorithm;
    p["gossip_steps"] = r.gossip_steps;
    p["participation"] = r.participations > 0
                             ? fmt::format("cyclic:k={},b={}", r.participations, r.separation)
                             : std::string("every-round");
  }
  return p;
}

void run_account(const AccountOptions& o) {
  require(!(o.json && o.csv), "choose one of --json and --csv");
  require(o.calibrate_on == "mean" || o.calibrate_on == "max" || o.calibrate_on == "pair",
          "--calibrate-on '{}' is not one of: mean, max, pair", o.calibrate_on);
  if (o.target_epsilon) {
    require_positive(*o.target_epsilon, "--target-epsilon");
    require(o.calibrate_on != "pair" || (o.request.observer && o.request.target),
            "--calibrate-on pair needs --observer and --target");
  }
  AccountRequest request = o.request;
  request.weights = o.network.weights;
  if (!o.colluders.empty()) request.colluders = parse_node_list(o.colluders, "--colluders");
  if (!o.group.empty()) request.group = parse_node_list(o.group, "--group");
  const gossip::GossipMatrix w = load_gossip_matrix(o.network);
  require(graph::is_connected(w.graph()),
          "graph '{}' is disconnected ({} components); use --lcc or a connected graph", o.network.graph_spec,
          graph::connected_components(w.graph()).count());
  const std::unique_ptr<Accountant> accountant =
      make_accountant(w, request, make_progress(o.quiet, "netdp account: " + request.method));

  AccountReport report;
  report.method = request.method;
  report.num_nodes = w.num_nodes();
  report.delta = request.delta;
  report.colluders = request.colluders;
  report.parameters = parameters_json(o, w.num_nodes());
  report.sigma = request.sigma;
  if (o.target_epsilon) {
    report.sigma = calibrate(*accountant, request.sigma, *o.target_epsilon, o.calibrate_on);
    report.calibration = {
        {"target_epsilon", *o.target_epsilon}, {"calibrate_on", o.calibrate_on}, {"sigma", report.sigma}};
  }
  report.rows = accountant->rows(report.sigma);
  if (o.target_epsilon) report.calibration["achieved_epsilon"] = statistic(report.rows, o.calibrate_on);
  if (schedule_uses_base_graph(request.schedule)) fill_distances(report.rows, w.graph(), request);
  // Baselines for the same σ: a local-DP observer sees each of the target's R
  // releases directly (μ = √R Δ/σ); a trusted aggregator adds noise of std σ√n
  // to the sum of n contributions (μ = √R Δ/(σ√n)). Gaussian, exact in GDP.
  const double releases = accountant->releases();
  const double local_mu = std::sqrt(releases) * request.sensitivity / report.sigma;
  const double central_mu = local_mu / std::sqrt(static_cast<double>(w.num_nodes()));
  report.local_dp = {local_mu, releases > 0 ? dp::gdp_epsilon(local_mu, request.delta) : 0.0};
  report.central_dp = {central_mu, releases > 0 ? dp::gdp_epsilon(central_mu, request.delta) : 0.0};
  report.warnings = accountant->warnings();
  report.observer_extras = accountant->observer_extras(report.sigma);

  std::ofstream file;
  if (!o.out.empty()) {
    file.open(o.out);
    require(static_cast<bool>(file), "cannot open output file '{}' for writing", o.out);
  }
  std::ostream& out = o.out.empty() ? std::cout : file;
  if (o.json) {
    write_json(out, report, !o.summary_only);
  } else if (o.csv) {
    write_csv(out, report);
  } else {
    write_human(out, report);
  }
  if (!o.out.empty()) {
    file.close();
    require(static_cast<bool>(file), "failed to write output file '{}'", o.out);
    if (!o.json && !o.csv) return;
    write_human(std::cout, report);
  }
}

}  // namespace

void add_account_command(CLI::App& app) {
  auto options = std::make_shared<AccountOptions>();
  auto* cmd = app.add_subcommand("account", "Pairwise privacy loss of every (observer, target) pair");
  AccountRequest& r = options->request;
  add_network_options(cmd, options->network);
  cmd->add_option("--method", r.method, "muffliato | random-walk | linear-system | mf")
      ->capture_default_str();
  cmd->add_option("--rounds,-T", r.rounds, "Rounds T (gossip rounds, walk steps, or gradient steps)")
      ->capture_default_str();
  cmd->add_option("--sigma", r.sigma, "Noise standard deviation σ (ν for linear views)")
      ->capture_default_str();
  cmd->add_option("--delta", r.delta, "δ of the reported (ε, δ)")->capture_default_str();
  cmd->add_option(
      "--alpha", r.alpha,
      "Rényi order of rdp_epsilon (default: 2 for Gaussian methods; optimised per pair for random-walk)");
  cmd->add_option("--sensitivity", r.sensitivity, "L2 sensitivity Δ of one contribution")
      ->capture_default_str();
  cmd->add_option("--observer", r.observer, "Only this observer (default: every node)");
  cmd->add_option("--target", r.target, "Only this target (default: every node)");
  cmd->add_option("--colluders", options->colluders, "A colluding set of observers, e.g. 1,5,7");
  cmd->add_option("--schedule", r.schedule, "fixed | pairwise | er-per-round:p=P | dropout:p=P")
      ->capture_default_str();
  cmd->add_option("--seed", r.seed, "Seed of random schedules")->capture_default_str();
  cmd->add_option("--group", options->group, "muffliato: a group of targets (Theorem 13), e.g. 2,3");
  cmd->add_option(
      "--gradient-steps", r.gradient_steps,
      "muffliato: Muffliato-GD with this many gradient steps of --rounds gossip rounds each (Thm 6/11)");
  cmd->add_flag("--authors-convention", r.authors_convention,
                "muffliato: powers 1..T, no t = 0 exchange (the authors' code)");
  cmd->add_flag("--count-observer-noise", r.count_observer_noise,
                "muffliato: count the observer's own noise as noise (Theorem 1 as printed)");
  cmd->add_option("--contributions", r.contributions,
                  "random-walk: contributions N_u of the target (default T/n)");
  cmd->add_flag("--sender-known", r.sender_known,
                "random-walk: the observer knows who sent the token (App. B.1)");
  cmd->add_option("--view", r.view, "linear-system: secure-sum | secure-sum-adaptive | plain")
      ->capture_default_str();
  cmd->add_option("--first-power", r.first_power,
                  "linear-system: first power of W, 0 or 1 (default: the paper's)");
  cmd->add_option("--gossip-steps,-K", r.gossip_steps, "Gossip steps per injection / gradient")
      ->capture_default_str();
  cmd->add_flag("--keep-observer-noise", r.keep_observer_noise,
                "linear-system: keep the observer's own noise (the paper's first variant)");
  cmd->add_option("--sign-search", r.sign_search,
                  "linear-system, mf: none | auto (exact / SDP-certified sens²)")
      ->capture_default_str();
  cmd->add_option("--trust", r.trust, "mf: ldp | pndp | secldp")->capture_default_str();
  cmd->add_option("--algorithm", r.algorithm,
                  "mf: dp-d-sgd | muffliato-sgd | antipgd | decor | zip-dl | mf-d-sgd")
      ->capture_default_str();
  cmd->add_option("--participations", r.participations, "mf: k of (k, b)-cyclic participation");
  cmd->add_option("--separation", r.separation, "mf: b of (k, b)-cyclic participation");
  cmd->add_option("--correlation", r.correlation_path,
                  "mf: Matrix Market file of the correlation C (mf-d-sgd)");
  cmd->add_option("--target-epsilon", options->target_epsilon,
                  "Calibrate σ so that the chosen ε meets this target");
  cmd->add_option("--calibrate-on", options->calibrate_on, "mean | max | pair")->capture_default_str();
  cmd->add_flag("--json", options->json, "JSON: {\"pairs\": [...], \"summary\": {...}}");
  cmd->add_flag("--csv", options->csv, "CSV, one line per pair");
  cmd->add_flag("--summary-only", options->summary_only, "JSON without the pairs");
  cmd->add_flag("--quiet", options->quiet, "No progress on stderr");
  cmd->add_option("--out", options->out, "Write the JSON/CSV/table to this file");
  cmd->callback([options] { run_account(*options); });
}

}  // namespace netdp::cli
